import ContentCore
import ContentHTTP
import ContentJSON
import ContentKit
import ContentTesting
import Foundation
import Hummingbird
import Logging
import NIOCore
import Testing

/// `ContentClient` as an app uses it: configured in code, one transport for its life, operations by name.
struct ContentClientTests {
    /// The `data` of every answer: what a generated `Data` type decodes.
    struct Answer: Decodable, Equatable {
        let ok: Bool
    }

    /// A request context that keeps the client's address, so the server can tell connections apart.
    struct PeerContext: RequestContext {
        var coreContext: CoreRequestContextStorage
        let peerPort: Int?

        init(source: ApplicationRequestContextSource) {
            coreContext = .init(source: source)
            peerPort = source.channel.remoteAddress?.port
        }
    }

    /// The client ports the server saw, one per request.
    final class Peers: @unchecked Sendable {
        private let lock = NSLock()
        private var ports: [Int] = []

        func record(_ port: Int?) { lock.withLock { ports.append(port ?? -1) } }
        var all: [Int] { lock.withLock { ports } }
    }

    /// Runs `body` against a server on a free loopback port that answers every POST and GET with `{"data":…}`.
    private static func withServer(
        _ peers: Peers, _ body: @Sendable (_ baseURL: String) async throws -> Void
    ) async throws {
        let router = Router(context: PeerContext.self)
        let answer: @Sendable (Request, PeerContext) async throws -> Response = { _, context in
            peers.record(context.peerPort)
            return Response(
                status: .ok, headers: [.contentType: "application/json"],
                body: .init(byteBuffer: ByteBuffer(string: #"{"data":{"ok":true}}"#)))
        }
        router.post("**", use: answer)
        router.get("**", use: answer)
        let (ports, continuation) = AsyncStream.makeStream(of: Int.self)
        let app = Application(
            router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0)),
            onServerRunning: { channel in
                continuation.yield(channel.localAddress?.port ?? 0)
                continuation.finish()
            },
            logger: Logger(label: "test-server") { _ in SwiftLogNoOpLogHandler() })
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { try await app.run() }
            var iterator = ports.makeAsyncIterator()
            let port = try #require(await iterator.next())
            defer { group.cancelAll() }
            try await body("http://127.0.0.1:\(port)")
        }
    }

    private static let operation = DataConnectOperation(
        location: "us-central1", service: "svc", connector: "movies", name: "listMovies", kind: .query)

    @Test func oneClientKeepsOneConnectionAcrossAHundredCalls() async throws {
        let peers = Peers()
        try await Self.withServer(peers) { baseURL in
            let configuration = ContentClientConfiguration(
                dataConnect: DataConnectSettings(endpoint: .url(baseURL), project: "p"))
            try await ContentClient.withClient(configuration: configuration) { client in
                for _ in 0..<100 {
                    let answer = try await client.data(Answer.self, for: Self.operation)
                    #expect(answer == Answer(ok: true))
                }
            }
        }
        #expect(peers.all.count == 100)
        // A new transport (or a new connection) per call would show as a new client port.
        #expect(Set(peers.all).count == 1, "client ports: \(Set(peers.all).sorted())")
    }

    @Test func aClientThatIsShutDownRefusesToSend() async throws {
        let peers = Peers()
        try await Self.withServer(peers) { baseURL in
            let client = ContentClient(
                configuration: ContentClientConfiguration(aem: AEMSettings(url: baseURL)))
            let query = AEMPersistedQuery(configuration: "wknd-shared", name: "adventures-all")
            #expect(try await client.data(Answer.self, for: query) == Answer(ok: true))
            try await client.shutdown()
            await #expect(throws: (any Error).self) { try await client.data(Answer.self, for: query) }
        }
        #expect(peers.all.count == 1)
    }

    @Test func requestsCarryTheConfiguredCredentialsAndGeneratedNames() async throws {
        let transport = ScriptedTransport { request in
            HTTPTransportResponse(status: 200, body: Array(#"{"data":{"ok":true}}"#.utf8), url: request.url)
        }
        let settings = DataConnectSettings(
            endpoint: .emulator(host: "127.0.0.1", port: 9399), project: "demo", service: "override",
            idToken: { "id-token" }, appCheckToken: { "app-check" }, apiKey: "key 1", headers: ["X-Extra": "1"])
        let client = ContentClient(
            configuration: ContentClientConfiguration(dataConnect: settings), transport: transport)
        struct Variables: Encodable { let genre: String }
        _ = try await client.data(Answer.self, for: Self.operation, variables: Variables(genre: "Sci-Fi"))
        let request = try #require(transport.requests.first)
        #expect(
            request.url
                == "http://127.0.0.1:9399/v1/projects/demo/locations/us-central1/services/override/connectors/movies"
                + ":executeQuery?key=key%201")
        #expect(request.headers["X-Firebase-Auth-Token"] == "id-token")
        #expect(request.headers["X-Firebase-AppCheck"] == "app-check")
        #expect(request.headers["X-Extra"] == "1")
        #expect(request.isRetryable)
        let body = try JSONParser().parse(request.body ?? [])
        #expect(body["operationName"] == .string("listMovies"))
        #expect(body["variables"]?["genre"] == .string("Sci-Fi"))
        #expect(
            body["name"] == .string("projects/demo/locations/us-central1/services/override/connectors/movies"))
    }

    @Test func errorsNameTheOperationAndNeverTheCredentials() async throws {
        // Each answer echoes the credentials, as a careless server or proxy might.
        let answers: [(Int, String, FailureCategory)] = [
            (
                400,
                #"{"error":{"code":400,"message":"bad secret-token app-check-value","status":"INVALID_ARGUMENT"}}"#,
                .httpStatus
            ),
            (401, #"{"code":16,"message":"x","details":[{"message":"secret-token","path":["a"]}]}"#, .httpStatus),
            (500, "upstream saw secret-token and app-check-value", .httpStatus),
            (200, #"{"data":null,"errors":[{"message":"boom secret-token","path":["movies"]}]}"#, .operationFailed),
            (200, #"{"data":{"ok":"yes"}}"#, .operationFailed),
            (200, "<html>", .operationFailed),
        ]
        for (status, body, category) in answers {
            let transport = ScriptedTransport { request in
                HTTPTransportResponse(status: status, body: Array(body.utf8), url: request.url)
            }
            let settings = DataConnectSettings(
                endpoint: .url("http://127.0.0.1:1"), project: "demo", idToken: { "secret-token" },
                appCheckToken: { "app-check-value" })
            let client = ContentClient(
                configuration: ContentClientConfiguration(dataConnect: settings), transport: transport)
            do {
                _ = try await client.data(Answer.self, for: Self.operation)
                Issue.record("\(body) was accepted")
            } catch let error as ContentClientError {
                #expect(error.category == category, "\(error)")
                #expect(error.description.contains("listMovies"), "\(error)")
                #expect(!error.description.contains("secret-token"), "\(error)")
                #expect(!error.description.contains("app-check-value"), "\(error)")
            }
        }
    }

    @Test func errorStatusesAreReadInTheServicesShapeAndInItsEmulatorsFlatOne() async throws {
        let answers = [
            #"{"error":{"code":400,"message":"bad variables","status":"INVALID_ARGUMENT","details":[{"message":""#
                + #"expected String","path":["genre"]}]}}"#,
            // Firebase's emulator: gRPC's code at the top, no wrapper.
            #"{"code":3,"message":"bad variables","details":[{"message":"expected String","path":["genre"]}]}"#,
        ]
        for body in answers {
            let transport = ScriptedTransport { request in
                HTTPTransportResponse(status: 400, body: Array(body.utf8), url: request.url)
            }
            let settings = DataConnectSettings(endpoint: .url("http://127.0.0.1:1"), project: "demo")
            let client = ContentClient(
                configuration: ContentClientConfiguration(dataConnect: settings), transport: transport)
            await #expect(
                throws: ContentClientError.httpStatus(
                    operation: "listMovies", status: 400,
                    url: "http://127.0.0.1:1/v1/projects/demo/locations/us-central1/services/svc/connectors/movies"
                        + ":executeQuery",
                    message: "bad variables\n  genre: expected String")
            ) {
                try await client.data(Answer.self, for: Self.operation)
            }
        }
    }

    @Test func anAEMErrorsTopLevelMessageIsItsMessage() async throws {
        let transport = ScriptedTransport { request in
            HTTPTransportResponse(
                status: 401,
                body: Array(#"{"message":"author mode needs basic auth","details":"not a list"}"#.utf8),
                url: request.url)
        }
        let client = ContentClient(
            configuration: ContentClientConfiguration(aem: AEMSettings(url: "http://127.0.0.1:1")),
            transport: transport)
        await #expect(
            throws: ContentClientError.httpStatus(
                operation: "wknd-shared/adventures-all", status: 401,
                url: "http://127.0.0.1:1/graphql/execute.json/wknd-shared/adventures-all",
                message: "author mode needs basic auth")
        ) {
            try await client.data(
                Answer.self, for: AEMPersistedQuery(configuration: "wknd-shared", name: "adventures-all"))
        }
    }

    @Test func anAEMErrorNeverShowsTheRequestsCredentials() async throws {
        let encoded = Data("admin:s3cret-pass".utf8).base64EncodedString()
        let cases: [(AEMSettings.Authentication, [String])] = [
            (.bearer({ "bearer-secret" }), ["bearer-secret"]),
            (.basic(username: "admin", password: "s3cret-pass"), ["s3cret-pass", encoded]),
        ]
        for (authentication, secrets) in cases {
            let transport = ScriptedTransport { request in
                // The server echoes the credentials it was sent.
                let echoed = secrets.joined(separator: " ")
                return HTTPTransportResponse(
                    status: 403, body: Array(#"{"message":"refused \#(echoed)"}"#.utf8), url: request.url)
            }
            let client = ContentClient(
                configuration: ContentClientConfiguration(
                    aem: AEMSettings(url: "http://127.0.0.1:1", authentication: authentication)),
                transport: transport)
            do {
                _ = try await client.data(
                    Answer.self, for: AEMPersistedQuery(configuration: "wknd-shared", name: "adventures-all"))
                Issue.record("a 403 was accepted")
            } catch let error as ContentClientError {
                #expect(
                    error.description.hasSuffix(
                        ": refused " + secrets.map { _ in "<redacted>" }.joined(separator: " ")),
                    "\(error)")
                for secret in secrets { #expect(!error.description.contains(secret), "\(error)") }
            }
        }
    }

    @Test func aServiceWithoutSettingsIsAConfigurationError() async throws {
        let client = ContentClient(
            configuration: ContentClientConfiguration(),
            transport: ScriptedTransport { _ in
                HTTPTransportResponse(status: 500, url: "")
            })
        await #expect(throws: ContentClientError.notConfigured(service: "Data Connect", operation: "listMovies")) {
            try await client.data(Answer.self, for: Self.operation)
        }
    }
}
