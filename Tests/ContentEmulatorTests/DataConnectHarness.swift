import AsyncHTTPClient
import ContentDataConnect
import ContentJSON
import Foundation
import Hummingbird
import Logging
import NIOCore
import NIOHTTP1
import Testing

@testable import ContentEmulator

/// A Data Connect emulator on 127.0.0.1 and a free port, alive for the duration of `body`.
enum DataConnectHarness {
    /// Calls the REST surface of one service.
    struct Client: Sendable {
        let http: AEMHarness.Client
        let service: String

        /// `:executeQuery` on a connector.
        func query(
            _ operation: String, variables: String = "{}", connector: String = "movies", token: String? = nil
        ) async throws -> AEMHarness.Exchange {
            try await execute("executeQuery", operation, variables: variables, connector: connector, token: token)
        }

        /// `:executeMutation` on a connector.
        func mutate(
            _ operation: String, variables: String = "{}", connector: String = "movies", token: String? = nil
        ) async throws -> AEMHarness.Exchange {
            try await execute("executeMutation", operation, variables: variables, connector: connector, token: token)
        }

        func execute(
            _ verb: String, _ operation: String, variables: String, connector: String, token: String?
        ) async throws -> AEMHarness.Exchange {
            let body = #"{"operationName":"\#(operation)","variables":\#(variables)}"#
            return try await http.post(
                "\(service)/connectors/\(connector):\(verb)", json: body,
                headers: token.map { [("X-Firebase-Auth-Token", $0)] } ?? [])
        }

        /// Any GraphQL, with full access (`:executeGraphql`).
        func graphql(_ query: String, variables: String = "{}") async throws -> AEMHarness.Exchange {
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
            at: Locations.examples.appendingPathComponent("dataconnect"), to: root.appendingPathComponent("dataconnect")
        )
        return root
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

    /// Runs an emulator over a workspace folder (default: a copy of the example) for the duration of `body`.
    static func run<Result: Sendable>(
        workspace: URL? = nil,
        dataFile: String? = nil,
        seed: URL? = nil,
        project: String = "demo",
        _ body: @Sendable (Client) async throws -> Result
    ) async throws -> Result {
        let folder = try workspace ?? exampleWorkspace()
        let emulator = try await DataConnectEmulator(
            workspace: folder, dataFile: dataFile, options: .init(seedFile: seed))
        let location = emulator.engine.workspace.location
        let service = emulator.engine.workspace.serviceID
        let router = Router()
        emulator.addRoutes(to: router)
        let (ports, continuation) = AsyncStream.makeStream(of: Int.self)
        let app = Application(
            router: router,
            configuration: .init(address: .hostname("127.0.0.1", port: 0)),
            onServerRunning: { channel in
                continuation.yield(channel.localAddress?.port ?? 0)
                continuation.finish()
            },
            logger: Logger(label: "test") { _ in SwiftLogNoOpLogHandler() }
        )
        let http = HTTPClient(eventLoopGroup: HTTPClient.defaultEventLoopGroup)
        let outcome: Swift.Result<Result, any Error> = await withTaskGroup(of: Void.self) { group in
            group.addTask { try? await app.run() }
            var iterator = ports.makeAsyncIterator()
            guard let port = await iterator.next(), port > 0 else {
                group.cancelAll()
                return .failure(CancellationError())
            }
            let client = Client(
                http: AEMHarness.Client(base: "http://127.0.0.1:\(port)", http: http),
                service: "/v1/projects/\(project)/locations/\(location)/services/\(service)")
            do {
                let value = try await body(client)
                group.cancelAll()
                return .success(value)
            } catch {
                group.cancelAll()
                return .failure(error)
            }
        }
        try await http.shutdown()
        if workspace == nil { try? FileManager.default.removeItem(at: folder) }
        return try outcome.get()
    }
}

extension JSONValue {
    /// The strings at a key in each element of an array.
    func strings(_ key: String) -> [String] {
        (arrayValue ?? []).compactMap { $0[key]?.stringValue }
    }
}
