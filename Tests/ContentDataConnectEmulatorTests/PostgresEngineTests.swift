import ContentCore
import ContentDataConnectPostgres
import ContentEmulator
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
                return changes.values
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
