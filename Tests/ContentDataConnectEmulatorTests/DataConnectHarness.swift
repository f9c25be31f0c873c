import ContentDataConnect
import ContentDataConnectPostgres
import ContentEmulatorTesting
import ContentJSON
import ContentTesting
import Foundation
import Testing

@testable import ContentDataConnectEmulator

/// A Data Connect emulator on 127.0.0.1 and a free port, alive for the duration of `body`.
enum DataConnectHarness {
    /// Calls the REST surface of one service.
    struct Client: Sendable {
        let http: EmulatorTestClient
        let service: String

        /// `:executeQuery` on a connector.
        func query(
            _ operation: String, variables: String = "{}", connector: String = "movies", token: String? = nil
        ) async throws -> EmulatorExchange {
            try await execute("executeQuery", operation, variables: variables, connector: connector, token: token)
        }

        /// `:executeMutation` on a connector.
        func mutate(
            _ operation: String, variables: String = "{}", connector: String = "movies", token: String? = nil
        ) async throws -> EmulatorExchange {
            try await execute("executeMutation", operation, variables: variables, connector: connector, token: token)
        }

        func execute(
            _ verb: String, _ operation: String, variables: String, connector: String, token: String?
        ) async throws -> EmulatorExchange {
            let body = #"{"operationName":"\#(operation)","variables":\#(variables)}"#
            return try await http.post(
                "\(service)/connectors/\(connector):\(verb)", json: body,
                headers: token.map { [("X-Firebase-Auth-Token", $0)] } ?? [])
        }

        /// Any GraphQL, with full access (`:executeGraphql`).
        func graphql(_ query: String, variables: String = "{}") async throws -> EmulatorExchange {
            let body = JSONValue.object(["query": .string(query)]).jsonText
            let withVariables = String(body.dropLast()) + #","variables":\#(variables)}"#
            return try await http.post("\(service):executeGraphql", json: withVariables)
        }

        /// `data` of a successful GraphQL call, failing the test on errors.
        func data(_ query: String, variables: String = "{}") async throws -> JSONValue {
            let exchange = try await graphql(query, variables: variables)
            #expect(exchange.status == 200, "\(exchange.text)")
            #expect(exchange.json?["errors"] == nil, "\(exchange.text)")
            return exchange.json?["data"] ?? .null
        }
    }

    /// An unsigned JWT with the given claims, as the Firebase emulators accept.
    static func token(_ claims: JSONObject) -> String {
        func encode(_ text: String) -> String {
            Data(text.utf8).base64EncodedString()
                .replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
                .replacingOccurrences(of: "=", with: "")
        }
        return encode(#"{"alg":"none"}"#) + "." + encode(JSONValue.object(claims).jsonText) + "."
    }

    /// A verified-email user's token.
    static func userToken(_ uid: String, verified: Bool = true, provider: String = "password") -> String {
        token([
            "sub": .string(uid), "email_verified": .bool(verified),
            "firebase": .object(["sign_in_provider": .string(provider)]),
        ])
    }

    /// A copy of `examples/dataconnect` in a fresh folder.
    static func exampleWorkspace() throws -> URL {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("dc-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        try FileManager.default.copyItem(
            at: TestLocations.examples.appendingPathComponent("dataconnect"),
            to: root.appendingPathComponent("dataconnect")
        )
        return root
    }

    /// A workspace of one schema file and one connector `app` with one operations file.
    static func workspace(schema: String, operations: String) throws -> URL {
        try workspace([
            "dataconnect.yaml":
                "serviceId: test\nlocation: us-central1\nschema:\n  source: ./schema\nconnectorDirs: [./app]\n",
            "schema/schema.gql": schema,
            "app/connector.yaml": "connectorId: app\n",
            "app/ops.gql": operations,
        ])
    }

    /// A folder laid out from `files` (relative path → text).
    static func workspace(_ files: [String: String]) throws -> URL {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("dc-\(UUID().uuidString)")
        for (path, text) in files {
            let url = root.appendingPathComponent(path)
            try FileManager.default.createDirectory(
                at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(text.utf8).write(to: url)
        }
        return root
    }

    /// Where the emulator keeps its rows.
    enum Engine: Sendable, CustomTestStringConvertible {
        case sqlite
        /// PostgreSQL, in a database of its own on the server `CONTENT_TEST_POSTGRES` names.
        case postgres(String)

        var testDescription: String {
            switch self {
            case .sqlite: return "SQLite"
            case .postgres: return "PostgreSQL"
            }
        }

        /// SQLite, and PostgreSQL when `CONTENT_TEST_POSTGRES` names a server (`.ci/run` starts one).
        static let all: [Engine] = {
            guard let url = ProcessInfo.processInfo.environment["CONTENT_TEST_POSTGRES"], !url.isEmpty else {
                print("note: the Data Connect conformance tests run on SQLite only: CONTENT_TEST_POSTGRES is not set")
                return [.sqlite]
            }
            return [.sqlite, .postgres(url)]
        }()

        /// SQLite, and PostgreSQL with pgvector for the vector tests: the server `CONTENT_TEST_PGVECTOR` names (`.ci/run`
        /// starts one from PyPI's pgserver, since Debian 12 packages no pgvector), else `CONTENT_TEST_POSTGRES`'s.
        static let withVectors: [Engine] = {
            let environment = ProcessInfo.processInfo.environment
            let urls = [environment["CONTENT_TEST_PGVECTOR"], environment["CONTENT_TEST_POSTGRES"]].compactMap { $0 }
            guard let url = urls.first(where: { !$0.isEmpty }) else {
                print(
                    "note: the vector similarity tests run on SQLite only: neither CONTENT_TEST_PGVECTOR nor "
                        + "CONTENT_TEST_POSTGRES is set")
                return [.sqlite]
            }
            return [.sqlite, .postgres(url)]
        }()
    }

    /// Whether a PostgreSQL server can install pgvector, which `Vector` columns need.
    static func hasPgvector(_ server: String) async throws -> Bool {
        let admin = try await PostgresDatabase(location: try PostgresLocation(url: server), connections: 1)
        let rows: [PostgresRecord]
        do {
            rows = try await admin.withSession { session in
                try await session.rows("SELECT count(*) AS n FROM pg_available_extensions WHERE name = 'vector'")
            }
        } catch {
            await admin.close()
            throw error
        }
        await admin.close()
        return rows.first?["n"] == .integer(1)
    }

    /// A database of its own for one test on a PostgreSQL server, dropped after `body`.
    ///
    /// A few at a time: each test's pool holds connections, and the server takes 100 by default.
    static func withDatabase<Result: Sendable>(
        on server: String, _ body: @Sendable (String) async throws -> Result
    ) async throws -> Result {
        try await PostgresTestSlots.shared.withSlot {
            let admin = try await PostgresDatabase(location: try PostgresLocation(url: server), connections: 1)
            let name = "content_test_\(UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: ""))"
            try await admin.withSession { try await $0.run("CREATE DATABASE \(name)") }
            var components = URLComponents(string: server)
            components?.path = "/\(name)"
            let url = components?.string ?? server
            let result: Result
            do {
                result = try await body(url)
            } catch {
                try? await admin.withSession { try await $0.run("DROP DATABASE \(name) WITH (FORCE)") }
                await admin.close()
                throw error
            }
            try await admin.withSession { try await $0.run("DROP DATABASE \(name) WITH (FORCE)") }
            await admin.close()
            return result
        }
    }

    /// Runs an emulator over a workspace folder (default: a copy of the example) for the duration of `body`.
    static func run<Result: Sendable>(
        workspace: URL? = nil,
        dataFile: String? = nil,
        seed: URL? = nil,
        project: String = "demo",
        mode: EmulatorTestingMode = .inProcess,
        engine: Engine = .sqlite,
        _ body: @Sendable (Client) async throws -> Result
    ) async throws -> Result {
        if case .postgres(let server) = engine {
            return try await withDatabase(on: server) { url in
                var options = DataConnectEmulator.Options(seedFile: seed)
                options.postgres = PostgresSettings(url: url, connections: 4)
                return try await run(
                    workspace: workspace, options: options, dataFile: nil, project: project, mode: mode, body)
            }
        }
        return try await run(
            workspace: workspace, options: .init(seedFile: seed), dataFile: dataFile, project: project, mode: mode,
            body)
    }

    /// Runs an emulator with the given options over a workspace folder (default: a copy of the example).
    static func run<Result: Sendable>(
        workspace: URL?, options: DataConnectEmulator.Options, dataFile: String?, project: String,
        mode: EmulatorTestingMode, _ body: @Sendable (Client) async throws -> Result
    ) async throws -> Result {
        let folder = try workspace ?? exampleWorkspace()
        defer { if workspace == nil { try? FileManager.default.removeItem(at: folder) } }
        return try await EmulatorTesting.run(
            DataConnectEmulator.self, workspace: folder, options: options, dataFile: dataFile, mode: mode
        ) { emulator, client in
            let location = emulator.engine.workspace.location
            let service = emulator.engine.workspace.serviceID
            let path = "/v1/projects/\(project)/locations/\(location)/services/\(service)"
            return try await body(Client(http: client, service: path))
        }
    }
}

/// How many tests use the PostgreSQL server at once.
actor PostgresTestSlots {
    static let shared = PostgresTestSlots(count: 6)
    private var free: Int
    private var waiting: [CheckedContinuation<Void, Never>] = []

    init(count: Int) { free = count }

    func withSlot<Result: Sendable>(_ body: @Sendable () async throws -> Result) async throws -> Result {
        if free > 0 {
            free -= 1
        } else {
            await withCheckedContinuation { waiting.append($0) }
        }
        defer {
            if waiting.isEmpty { free += 1 } else { waiting.removeFirst().resume() }
        }
        return try await body()
    }
}

extension JSONValue {
    /// The strings at a key in each element of an array.
    func strings(_ key: String) -> [String] {
        (arrayValue ?? []).compactMap { $0[key]?.stringValue }
    }
}
