import ContentCore
import ContentDataConnect
import ContentDataConnectPostgres
import ContentEmulator
import ContentEmulatorTesting
import ContentJSON
import Foundation
import Testing

@testable import ContentDataConnectEmulator

/// The PostgreSQL engine's own behaviour: reaching the server, and migrating a database an earlier schema made.
///
/// The query language on both engines is held to the same answers by `DataConnectQueryLanguageTests`.
struct PostgresEngineTests {
    @Test func aConnectionURLNeverShowsItsPassword() throws {
        let location = try PostgresLocation(url: "postgresql://app:s3cret@db.example:6543/content?sslmode=require")
        #expect(location.description == "postgresql://app@db.example:6543/content")
        #expect(location.password == "s3cret")
        #expect(location.tlsMode == .require)
        let socket = try PostgresLocation(url: "postgres://postgres@/postgres?host=/run/pg&port=55433")
        #expect(socket.socketDirectory == "/run/pg")
        #expect(socket.port == 55433)
        #expect(!PostgresLocation.redacted("postgresql://app:s3cret@db/x").contains("s3cret"))
        #expect(!PostgresLocation.redacted("postgresql://app@db/x?password=s3cret").contains("s3cret"))
    }

    @Test(arguments: [
        ("mysql://root@db/x", "is not a PostgreSQL URL"),
        ("postgresql://u:s3cret@db:99999/x", "port 99999 is not a port number"),
        ("postgresql://u:s3cret@db/x?port=0", "port 0 is not a port number"),
        ("postgresql://u:s3cret@db/x?sslmode=verify-full", "sslmode=verify-full is not supported"),
    ])
    func aBadConnectionURLIsRefusedWithoutItsPassword(url: String, message: String) throws {
        let error = #expect(throws: EmulatorError.self) { try PostgresSettings(url: url).checkedLocation() }
        let text = error.map { "\($0)" } ?? ""
        #expect(text.contains(message), "\(text)")
        #expect(!text.contains("s3cret"), "\(text)")
        #expect(error?.category == .usage)
    }

    @Test func anUnreachableServerIsATransportFailureThatNamesItWithoutThePassword() async throws {
        let folder = try DataConnectHarness.exampleWorkspace()
        defer { try? FileManager.default.removeItem(at: folder) }
        var options = DataConnectEmulator.Options()
        // Port 1 on loopback: nothing listens there.
        options.postgres = PostgresSettings(url: "postgresql://app:s3cret@127.0.0.1:1/content?sslmode=disable")
        let error = await #expect(throws: EmulatorError.self) {
            _ = try await DataConnectEmulator(workspace: folder, options: options)
        }
        let text = error.map { "\($0)" } ?? ""
        #expect(error?.category == .transport, "\(text)")
        #expect(text.contains("postgresql://app@127.0.0.1:1/content"), "\(text)")
        #expect(text.contains("pg_isready"), "\(text)")
        #expect(!text.contains("s3cret"), "\(text)")
    }

    @Test func thePrintedDDLHasTheServicesTypesAndNames() throws {
        let sql = try DataConnectEmulator.postgresSchemaSQL(workspace: DataConnectHarness.exampleWorkspace())
        #expect(sql.contains(#"CREATE TABLE "public"."movie_actor" ("#), "\(sql)")
        #expect(sql.contains(#""release_year" integer"#), "\(sql)")
        #expect(sql.contains(#""id" uuid NOT NULL DEFAULT gen_random_uuid()"#), "\(sql)")
        #expect(sql.contains(#""tags" text[]"#), "\(sql)")
        #expect(sql.contains(#""added_at" timestamptz NOT NULL DEFAULT now()"#), "\(sql)")
        #expect(sql.contains("FOREIGN KEY"), "\(sql)")
    }

    /// A `Vector` field on a server without pgvector stops the start, naming the field and what to install; on one
    /// with pgvector the column is pgvector's `vector(n)`, and what the emulator stores is what pgvector reads.
    @Test func aVectorFieldNeedsPgvectorAndIsStoredAsItsVectorType() async throws {
        let environment = ProcessInfo.processInfo.environment
        let servers = [environment["CONTENT_TEST_POSTGRES"], environment["CONTENT_TEST_PGVECTOR"]]
            .compactMap { $0 }.filter { !$0.isEmpty }
        guard !servers.isEmpty else {
            print(
                "note: skipping the PostgreSQL Vector test: neither CONTENT_TEST_POSTGRES nor CONTENT_TEST_PGVECTOR is set"
            )
            return
        }
        let schema = "type Clip @table { title: String!, embedding: Vector @col(size: 2) }"
        let operations = "query clips @auth(level: PUBLIC) { clips { title } }"
        for server in Set(servers) {
            let hasPgvector = try await DataConnectHarness.hasPgvector(server)
            try await DataConnectHarness.withDatabase(on: server) { url in
                let folder = try DataConnectHarness.workspace(schema: schema, operations: operations)
                defer { try? FileManager.default.removeItem(at: folder) }
                var options = DataConnectEmulator.Options()
                options.postgres = PostgresSettings(url: url, connections: 1)
                guard hasPgvector else {
                    let refusal = await #expect(throws: EmulatorError.self) {
                        _ = try await DataConnectEmulator(workspace: folder, options: options)
                    }
                    let text = refusal.map { "\($0)" } ?? ""
                    #expect(text.contains("Clip.embedding is a Vector, which needs the pgvector extension"), "\(text)")
                    #expect(text.contains("postgresql-NN-pgvector"), "\(text)")
                    return
                }
                let emulator = try await DataConnectEmulator(workspace: folder, options: options)
                let outcome = await emulator.engine.executeAdmin(
                    query: #"mutation { clip_insert(data: {title: "a", embedding: [0.1, -3]}) }"#, operationName: nil,
                    variables: [:])
                await emulator.engine.store.close()
                guard case .response(let body) = outcome else { throw FieldFailure(description: "\(outcome)") }
                #expect(body["errors"] == nil, "\(body.jsonText)")
                // Read back by PostgreSQL itself, as text: pgvector's type and its own printing of the numbers.
                let database = try await PostgresDatabase(location: try PostgresLocation(url: url), connections: 1)
                let rows = try await database.withSession { session in
                    try await session.rows(
                        "SELECT format_type(atttypid, atttypmod) AS type, (SELECT embedding::text FROM clip) AS value "
                            + "FROM pg_attribute WHERE attrelid = 'public.clip'::regclass AND attname = 'embedding'")
                }
                await database.close()
                #expect(rows.first?["type"] == .text("vector(2)"), "\(rows)")
                #expect(rows.first?["value"] == .text("[0.1,-3]"), "\(rows)")
            }
        }
    }

    /// A schema that only adds migrates the database and keeps its rows; any other change is refused, naming the
    /// table and column and pointing to `--reset`, which drops and recreates.
    @Test func aSchemaThatOnlyAddsMigratesAndAnyOtherChangeNeedsReset() async throws {
        guard let server = ProcessInfo.processInfo.environment["CONTENT_TEST_POSTGRES"], !server.isEmpty else {
            print("note: skipping the PostgreSQL migration test: CONTENT_TEST_POSTGRES is not set")
            return
        }
        let first = "type Note @table { text: String! }"
        let added = "type Note @table { text: String!, stars: Int }\ntype Tag @table { name: String! }"
        let required = "type Note @table { text: String!, stars: Int! }\ntype Tag @table { name: String! }"
        let operations = "query notes @auth(level: PUBLIC) { notes { text } }"
        try await DataConnectHarness.withDatabase(on: server) { url in
            func start(_ schema: String, reset: Bool = false) async throws -> [String] {
                let folder = try DataConnectHarness.workspace(schema: schema, operations: operations)
                defer { try? FileManager.default.removeItem(at: folder) }
                var options = DataConnectEmulator.Options()
                let changes = NIOLockedStrings()
                options.postgres = PostgresSettings(url: url, connections: 1, reset: reset) { changes.append($0) }
                let emulator = try await DataConnectEmulator(workspace: folder, options: options)
                if schema == first {
                    let outcome = await emulator.engine.executeAdmin(
                        query: #"mutation { note_insert(data: {text: "kept"}) }"#, operationName: nil, variables: [:])
                    guard case .response(let body) = outcome else { throw FieldFailure(description: "\(outcome)") }
                    #expect(body["errors"] == nil, "\(body.jsonText)")
                }
                await emulator.engine.store.close()
                return changes.values.filter { !$0.hasPrefix("keeping rows in") }
            }
            #expect(try await start(first) == ["created table public.note"])
            #expect(
                try await start(added) == ["added column public.note.stars", "created table public.tag"])
            let refusal = await #expect(throws: EmulatorError.self) { _ = try await start(required) }
            let text = refusal.map { "\($0)" } ?? ""
            #expect(text.contains("note.stars"), "\(text)")
            #expect(text.contains("--reset"), "\(text)")
            #expect(refusal?.category == .configuration)
            let reset = try await start(required, reset: true)
            #expect(reset.contains("dropping table public.note and its rows (--reset)"), "\(reset)")
            #expect(reset.contains("created table public.note"), "\(reset)")
        }
    }
}

extension PostgresEngineTests {
    private static func integer(_ value: JSONValue?) -> Int? {
        guard case .number(let number)? = value else { return nil }
        return Int(number.text)
    }

    private static var server: String? {
        guard let server = ProcessInfo.processInfo.environment["CONTENT_TEST_POSTGRES"], !server.isEmpty else {
            print("note: skipping a PostgreSQL engine test: CONTENT_TEST_POSTGRES is not set")
            return nil
        }
        return server
    }

    /// Runs `body` on the example workspace in a database of its own, with the database's URL.
    private static func withExample(
        _ server: String, _ body: @Sendable (DataConnectHarness.Client, String) async throws -> Void
    ) async throws {
        try await DataConnectHarness.withDatabase(on: server) { url in
            var options = DataConnectEmulator.Options()
            options.postgres = PostgresSettings(url: url, connections: 4)
            try await DataConnectHarness.run(
                workspace: nil, options: options, dataFile: nil, project: "demo", mode: .inProcess
            ) { client in try await body(client, url) }
        }
    }

    /// No global lock: 64 mutations at once all commit.
    @Test func mutationsRunSideBySideAndEachCommits() async throws {
        guard let server = Self.server else { return }
        try await Self.withExample(server) { client, _ in
            try await withThrowingTaskGroup(of: Int.self) { group in
                for number in 0..<64 {
                    group.addTask {
                        try await client.mutate(
                            "createMovie",
                            variables: #"{"title":"Side \#(number)","genre":"Side by side","releaseYear":2026}"#
                        ).status
                    }
                }
                for try await status in group { #expect(status == 200) }
            }
            let data = try await client.data(#"query { movies(where: {genre: {eq: "Side by side"}}) { _count } }"#)
            #expect(data["movies"]?.arrayValue?.first?["_count"] == .number(JSONNumber(64)), "\(data)")
        }
    }

    /// `@transaction` mutations are serializable: read-modify-write updates that race are run again, never lost.
    @Test func racingTransactionsAreRunAgainAndNoUpdateIsLost() async throws {
        guard let server = Self.server else { return }
        try await Self.withExample(server) { client, _ in
            let movie = "0b5c1b1e3a524c7e9d0b6f1e8a2c4d01"
            let before = try await client.data(#"query { movie(id: "\#(movie)") { releaseYear } }"#)
            let year = try #require(Self.integer(before["movie"]?["releaseYear"]))
            try await withThrowingTaskGroup(of: JSONValue?.self) { group in
                for _ in 0..<8 {
                    group.addTask {
                        let exchange = try await client.graphql(
                            #"mutation @transaction { movie_update(id: "\#(movie)", data: {releaseYear_update: {inc: 1}}) }"#
                        )
                        return exchange.json?["errors"]
                    }
                }
                for try await errors in group { #expect(errors == nil, "\(String(describing: errors))") }
            }
            let after = try await client.data(#"query { movie(id: "\#(movie)") { releaseYear } }"#)
            #expect(Self.integer(after["movie"]?["releaseYear"]) == year + 8, "\(after)")
        }
    }

    /// A connection the server drops answers at most the operation that used it with UNAVAILABLE; the pool connects
    /// again and the next operations are answered.
    @Test func aDroppedConnectionIsUnavailableOnceAndThePoolRecovers() async throws {
        guard let server = Self.server else { return }
        try await Self.withExample(server) { client, url in
            #expect(try await client.query("listMoviesByGenre", variables: #"{"genre":"Sci-Fi"}"#).status == 200)
            let admin = try await PostgresDatabase(location: try PostgresLocation(url: url), connections: 1)
            try await admin.withSession { session in
                try await session.run(
                    "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = current_database() "
                        + "AND pid <> pg_backend_pid()")
            }
            await admin.close()
            var answers: [(Int, String)] = []
            for _ in 0..<6 {
                let exchange = try await client.query("listMoviesByGenre", variables: #"{"genre":"Sci-Fi"}"#)
                answers.append((exchange.status, exchange.text))
            }
            for (status, text) in answers {
                #expect(status == 200 || (status == 503 && text.contains("UNAVAILABLE")), "\(status) \(text)")
            }
            #expect(answers.last?.0 == 200, "\(answers)")
            #expect(answers.filter { $0.0 == 503 }.count <= 4, "\(answers)")
        }
    }
}

extension PostgresEngineTests {
    /// A workspace whose `dataconnect.yaml` may set `schemaValidation` and the database.
    private static func workspace(_ schema: String, validation: String?, database: String? = nil) throws -> URL {
        let settings =
            (validation.map { "      schemaValidation: \($0)\n" } ?? "")
            + (database.map { "      database: \($0)\n" } ?? "")
        let datasource = settings.isEmpty ? "" : "  datasource:\n    postgresql:\n" + settings
        return try DataConnectHarness.workspace([
            "dataconnect.yaml":
                "serviceId: test\nlocation: us-central1\nschema:\n  source: ./schema\n\(datasource)connectorDirs: [./app]\n",
            "schema/schema.gql": schema,
            "app/connector.yaml": "connectorId: app\n",
            "app/ops.gql": "query notes @auth(level: PUBLIC) { notes { text } }",
        ])
    }

    @Test func schemaValidationIsReadFromDataconnectYAMLAndAnUnknownModeIsNamed() throws {
        let folder = try Self.workspace("type Note @table { text: String! }", validation: "COMPATIBLE")
        defer { try? FileManager.default.removeItem(at: folder) }
        #expect(try DataConnectWorkspace.load(from: folder).schemaValidation == .compatible)
        let plain = try Self.workspace("type Note @table { text: String! }", validation: nil)
        defer { try? FileManager.default.removeItem(at: plain) }
        #expect(try DataConnectWorkspace.load(from: plain).schemaValidation == .strict)
        let wrong = try Self.workspace("type Note @table { text: String! }", validation: "LOOSE")
        defer { try? FileManager.default.removeItem(at: wrong) }
        let error = #expect(throws: DataConnectWorkspaceError.self) { try DataConnectWorkspace.load(from: wrong) }
        #expect("\(error.map { "\($0)" } ?? "")".contains("STRICT, COMPATIBLE or NONE, not LOOSE"))
    }

    /// A URL without a database uses the one `dataconnect.yaml` names, as Firebase's emulator names its database.
    @Test func aURLWithoutADatabaseUsesTheOneDataconnectYAMLNames() async throws {
        guard let server = Self.server else { return }
        try await DataConnectHarness.withDatabase(on: server) { url in
            let name = try #require(URLComponents(string: url)?.path.dropFirst()).description
            var bare = try #require(URLComponents(string: url))
            bare.path = ""
            let folder = try Self.workspace("type Note @table { text: String! }", validation: nil, database: name)
            defer { try? FileManager.default.removeItem(at: folder) }
            var options = DataConnectEmulator.Options()
            let lines = NIOLockedStrings()
            options.postgres = PostgresSettings(url: try #require(bare.string), connections: 1) { lines.append($0) }
            let emulator = try await DataConnectEmulator(workspace: folder, options: options)
            await emulator.engine.store.close()
            // `…@host:port/NAME`, or `…@/NAME?host=DIR&port=N` for a Unix socket.
            #expect(lines.values.first?.contains("/\(name)") == true, "\(lines.values)")
            let database = try await PostgresDatabase(location: try PostgresLocation(url: url), connections: 1)
            let tables = try await database.withSession { try await $0.rows("SELECT count(*) AS n FROM note") }
            await database.close()
            #expect(tables.first?["n"] == .integer(0))
        }
    }

    /// A column the schema no longer has: refused under STRICT (the service's default), kept under COMPATIBLE.
    @Test func aColumnTheSchemaDropsIsRefusedUnderStrictAndKeptUnderCompatible() async throws {
        guard let server = Self.server else { return }
        try await DataConnectHarness.withDatabase(on: server) { url in
            func start(_ schema: String, validation: String?) async throws {
                let folder = try Self.workspace(schema, validation: validation)
                defer { try? FileManager.default.removeItem(at: folder) }
                var options = DataConnectEmulator.Options()
                options.postgres = PostgresSettings(url: url, connections: 1)
                let emulator = try await DataConnectEmulator(workspace: folder, options: options)
                await emulator.engine.store.close()
            }
            try await start("type Note @table { text: String!, stars: Int }", validation: nil)
            let refusal = await #expect(throws: EmulatorError.self) {
                try await start("type Note @table { text: String! }", validation: nil)
            }
            let text = refusal.map { "\($0)" } ?? ""
            #expect(text.contains("note.stars: the schema does not have this column"), "\(text)")
            #expect(text.contains("schemaValidation: COMPATIBLE"), "\(text)")
            try await start("type Note @table { text: String! }", validation: "COMPATIBLE")
        }
    }
}

/// Lines collected from a `@Sendable` callback.
final class NIOLockedStrings: @unchecked Sendable {
    private let lock = NSLock()
    private var lines: [String] = []

    func append(_ line: String) {
        lock.lock()
        defer { lock.unlock() }
        lines.append(line)
    }

    var values: [String] {
        lock.lock()
        defer { lock.unlock() }
        return lines
    }
}
