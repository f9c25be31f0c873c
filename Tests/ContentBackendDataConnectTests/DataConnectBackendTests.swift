import ContentCore
import ContentDataConnect
import ContentJSON
import ContentTesting
import Foundation
import Testing

@testable import ContentBackendDataConnect
@testable import ContentDataConnectCommands

/// The example workspace of the repository, `examples/dataconnect`: service `content-sample` in `us-central1`,
/// connector `movies`.
private enum Example {
    static let folder = TestLocations.examples.appendingPathComponent("dataconnect")

    static func workspace() throws -> DataConnectWorkspace {
        try DataConnectWorkspace.load(from: folder)
    }

    /// The `movies` connector and one of its operations.
    static func operation(_ name: String) throws -> (Connector, ConnectorOperation) {
        let connector = try #require(try workspace().connector("movies"))
        return (connector, try #require(connector.operation(name)))
    }

    /// Configuration as `content.yaml` would give it, written as JSON.
    static func configuration(_ json: String) throws -> DataConnectConfiguration {
        try JSONDecoder().decode(DataConnectConfiguration.self, from: Data(json.utf8))
    }

    /// A JSON answer with a status.
    static func answer(_ status: Int, _ body: String) -> @Sendable (HTTPTransportRequest) -> HTTPTransportResponse {
        { request in
            HTTPTransportResponse(
                status: status, headers: ["Content-Type": "application/json"], body: Array(body.utf8),
                url: request.url)
        }
    }

    static let root = "projects/demo/locations/us-central1/services/content-sample/connectors/movies"
    static let production = "https://firebasedataconnect.googleapis.com/v1/" + root
    static let emulator = "http://127.0.0.1:9399/v1/" + root
}

/// The error a body throws, when it is a `DataConnectError`.
private func failure(_ body: () throws -> Void) -> DataConnectError? {
    do {
        try body()
    } catch let error as DataConnectError {
        return error
    } catch {
        Issue.record("expected a DataConnectError, got \(error)")
    }
    return nil
}

/// The error an async body throws, when it is a `DataConnectError`.
private func asyncFailure(_ body: () async throws -> Void) async -> DataConnectError? {
    do {
        try await body()
    } catch let error as DataConnectError {
        return error
    } catch {
        Issue.record("expected a DataConnectError, got \(error)")
    }
    return nil
}

/// `DataConnectBackend` over the example workspace with a scripted transport: the REST request Firebase's SDKs
/// make, and how every kind of answer is read.
struct DataConnectBackendTests {
    private func makeBackend(
        configuration: String = #"{"project":"demo"}"#,
        idToken: String? = nil,
        secrets: [String] = [],
        _ answer: @escaping @Sendable (HTTPTransportRequest) -> HTTPTransportResponse
    ) throws -> (DataConnectBackend, ScriptedTransport) {
        let transport = ScriptedTransport(answer)
        let context = BackendContext(transport: transport, redactor: Redactor(secrets: secrets))
        let backend = DataConnectBackend(
            name: "movies-app", workspace: try Example.workspace(),
            configuration: try Example.configuration(configuration), context: context,
            baseURL: DataConnectConfiguration.productionURL, idToken: idToken)
        return (backend, transport)
    }

    private func run(_ backend: DataConnectBackend, _ name: String, _ variables: JSONObject = [:]) async throws
        -> ContentResult
    {
        let (connector, operation) = try backend.resolve(connector: "movies", operation: name)
        return try await backend.run(operation, in: connector, variables: variables)
    }

    private func text(_ request: HTTPTransportRequest?) -> String {
        String(decoding: request?.body ?? [], as: UTF8.self)
    }

    private static let sciFi = #"{"data":{"movies":[{"title":"Orbit of Glass"},{"title":"Signal Drift"}]}}"#

    // MARK: - The request

    @Test func queryPostsToTheProductionExecuteQueryURLWithNameOperationAndVariables() async throws {
        let (backend, transport) = try makeBackend(Example.answer(200, Self.sciFi))
        _ = try await run(backend, "listMoviesByGenre", ["genre": .string("Sci-Fi")])
        let request = try #require(transport.requests.first)
        #expect(transport.requests.count == 1)
        #expect(request.method == .post)
        #expect(
            request.url
                == "https://firebasedataconnect.googleapis.com/v1/projects/demo/locations/us-central1/services/"
                + "content-sample/connectors/movies:executeQuery")
        #expect(
            text(request)
                == #"{"name":"projects/demo/locations/us-central1/services/content-sample/connectors/movies","#
                + #""operationName":"listMoviesByGenre","variables":{"genre":"Sci-Fi"}}"#)
    }

    @Test func mutationPostsToExecuteMutationAndIsNeverRetriedWhileQueriesMayBe() async throws {
        let (backend, transport) = try makeBackend(Example.answer(200, #"{"data":{"movie_insert":{"id":"x"}}}"#))
        let variables: JSONObject = [
            "title": .string("Dust Lanes"), "releaseYear": .number(JSONNumber(2025)), "genre": .string("Sci-Fi"),
        ]
        _ = try await run(backend, "createMovie", variables)
        let mutation = try #require(transport.requests.first)
        #expect(mutation.url == Example.production + ":executeMutation")
        #expect(mutation.isRetryable == false)
        #expect(text(mutation).contains(#""operationName":"createMovie""#))

        let (connector, query) = try backend.resolve(connector: "movies", operation: "listMovies")
        let request = backend.request(query, in: connector, variables: [:])
        #expect(request.url == Example.production + ":executeQuery")
        #expect(request.isRetryable == true)
    }

    @Test func operationWithoutVariablesSendsAnEmptyVariablesObject() async throws {
        let (backend, transport) = try makeBackend(Example.answer(200, #"{"data":{"user":null}}"#))
        _ = try await run(backend, "listMyReviews")
        #expect(
            text(transport.requests.first)
                == #"{"name":"\#(Example.root)","operationName":"listMyReviews","variables":{}}"#)
    }

    @Test func headersCarryTheContentTypeClientIDTokenAppCheckAndAPIKey() throws {
        let configuration = #"""
            {"project":"demo","auth":{"appCheckToken":"app-check-value","apiKey":"AIza-test-key"},
             "headers":{"X-Trace":"abc"}}
            """#
        let (backend, _) = try makeBackend(
            configuration: configuration, idToken: "id-token-value", Example.answer(200, "{}"))
        let (connector, operation) = try backend.resolve(connector: "movies", operation: "listMoviesByGenre")
        let request = backend.request(operation, in: connector, variables: ["genre": .string("Drama")])
        #expect(request.headers["Content-Type"] == "application/json")
        #expect(request.headers["X-Goog-Api-Client"] == "gl-swift/6 fire/content-\(ContentVersion.current)")
        #expect(request.headers["X-Firebase-Auth-Token"] == "id-token-value")
        #expect(request.headers["X-Firebase-AppCheck"] == "app-check-value")
        #expect(request.headers["X-Trace"] == "abc")
        #expect(request.url == Example.production + ":executeQuery?key=AIza-test-key")
    }

    @Test func withoutCredentialsNoTokenHeadersAndNoKeyAreSent() throws {
        let (backend, _) = try makeBackend(Example.answer(200, "{}"))
        let (connector, operation) = try backend.resolve(connector: "movies", operation: "listMovies")
        let request = backend.request(operation, in: connector, variables: [:])
        #expect(request.headers["X-Firebase-Auth-Token"] == nil)
        #expect(request.headers["X-Firebase-AppCheck"] == nil)
        #expect(!request.url.contains("?"))
    }

    @Test func apiVersionLocationAndServiceSettingsShapeThePathAndTheName() throws {
        let configuration = #"{"project":"demo","apiVersion":"v1beta","location":"europe-west1","service":"films"}"#
        let (backend, _) = try makeBackend(configuration: configuration, Example.answer(200, "{}"))
        let (connector, operation) = try backend.resolve(connector: "movies", operation: "listMovies")
        let request = backend.request(operation, in: connector, variables: [:])
        let resource = "projects/demo/locations/europe-west1/services/films/connectors/movies"
        #expect(request.url == "https://firebasedataconnect.googleapis.com/v1beta/\(resource):executeQuery")
        #expect(text(request).hasPrefix(#"{"name":"\#(resource)","#))
    }

    @Test func apiVersionV1betaIsTheOnlyOtherVersion() throws {
        let versions = DataConnectConfiguration.APIVersion.allCases.map { $0.rawValue }
        #expect(versions == ["v1", "v1beta"])
        #expect(throws: (any Error).self) { try Example.configuration(#"{"project":"demo","apiVersion":"v2"}"#) }
    }

    // MARK: - Where requests go

    private func made(
        _ json: String, environment: [String: String] = [:], baseDirectory: String = ".", fetchToken: Bool = false
    ) throws -> DataConnectBackend {
        try DataConnectPlugin.makeDataConnectBackend(
            name: "movies-app", configuration: try Example.configuration(json),
            context: BackendContext(
                transport: ScriptedTransport(Example.answer(200, "{}")), baseDirectory: baseDirectory,
                isOffline: !fetchToken),
            environment: environment)
    }

    private func url(of backend: DataConnectBackend, _ name: String = "listMoviesByGenre") throws -> String {
        let (connector, operation) = try backend.resolve(connector: "movies", operation: name)
        return backend.request(operation, in: connector, variables: [:]).url
    }

    private var workspaceJSON: String { JSONValue.string(Example.folder.path).jsonText }

    @Test func emulatorSettingSendsPlainHTTPToThatHostAndPort() throws {
        let backend = try made(#"{"project":"demo","workspace":\#(workspaceJSON),"emulator":"127.0.0.1:9399"}"#)
        #expect(try url(of: backend) == Example.emulator + ":executeQuery")
        #expect(try url(of: backend, "deleteMovie") == Example.emulator + ":executeMutation")
    }

    @Test func emulatorHostEnvironmentVariableSwitchesFromProductionToTheEmulator() throws {
        let json = #"{"project":"demo","workspace":\#(workspaceJSON)}"#
        let production = try made(json)
        #expect(try url(of: production) == Example.production + ":executeQuery")
        let switched = try made(json, environment: ["FIREBASE_DATA_CONNECT_EMULATOR_HOST": "127.0.0.1:9399"])
        #expect(try url(of: switched) == Example.emulator + ":executeQuery")
        // The configuration's own emulator wins over the environment's.
        let configured = try made(
            #"{"project":"demo","workspace":\#(workspaceJSON),"emulator":"http://localhost:8080"}"#,
            environment: ["FIREBASE_DATA_CONNECT_EMULATOR_HOST": "127.0.0.1:9399"])
        #expect(try url(of: configured) == "http://localhost:8080/v1/\(Example.root):executeQuery")
    }

    @Test func configuredProductionURLLosesItsTrailingSlash() throws {
        let backend = try made(#"{"project":"demo","workspace":\#(workspaceJSON),"url":"https://dc.example.test/"}"#)
        #expect(try url(of: backend) == "https://dc.example.test/v1/\(Example.root):executeQuery")
    }

    @Test func somethingThatIsNotAnHTTPBaseIsAConfigurationError() throws {
        let error = failure {
            _ = try made(#"{"project":"demo","workspace":\#(workspaceJSON),"url":"ftp://dc.example.test"}"#)
        }
        #expect(error?.kind == .configuration)
        #expect(error?.category == .configuration)
        #expect(
            error?.description.contains(
                "'ftp://dc.example.test' needs a scheme (http or https) and a host; give a base URL or host:port")
                == true)
    }

    @Test func relativeWorkspaceResolvesAgainstTheConfigurationDirectory() throws {
        let repository = TestLocations.repository
        let backend = try made(
            #"{"project":"demo","workspace":"examples/dataconnect"}"#, baseDirectory: repository.path)
        #expect(backend.workspace.serviceID == "content-sample")
        #expect(backend.service == "content-sample")
        #expect(backend.location == "us-central1")
    }

    @Test func idTokenCommandGivesTheFirstTokenWhenNoneIsConfigured() throws {
        let json = #"{"project":"demo","workspace":\#(workspaceJSON),"auth":{"idTokenCommand":"printf first-token"}}"#
        #expect(try made(json, fetchToken: true).idToken == "first-token")
        // Listing and dry runs do not run it.
        #expect(try made(json, fetchToken: false).idToken == nil)
        let both =
            #"{"project":"demo","workspace":\#(workspaceJSON),"#
            + #""auth":{"idToken":"configured","idTokenCommand":"exit 1"}}"#
        #expect(try made(both, fetchToken: true).idToken == "configured")
    }

    // MARK: - Reading answers

    @Test func itemsAreAtTheOperationsSingleRootField() async throws {
        let (backend, _) = try makeBackend(Example.answer(200, Self.sciFi))
        let list = try await run(backend, "listMoviesByGenre", ["genre": .string("Sci-Fi")])
        #expect(list.metadata.itemsPath?.description == "data.movies")
        #expect(list.metadata.httpStatus == 200)
        #expect(list.metadata.diagnostics.isEmpty)
        guard case .document(let document) = list.body else {
            Issue.record("expected a document")
            return
        }
        #expect(document["data"]?["movies"]?.arrayValue?.count == 2)

        let one = try await run(backend, "getMovieByKey", ["key": .object(["id": .string("x")])])
        #expect(one.metadata.itemsPath?.description == "data.movie")
        let created = try await run(
            backend, "createMovie",
            ["title": .string("t"), "releaseYear": .number(JSONNumber(1)), "genre": .string("g")])
        #expect(created.metadata.itemsPath?.description == "data.movie_insert")
    }

    @Test func operationWithSeveralRootFieldsHasItsItemsAtData() async throws {
        let text = """
            query both @auth(level: PUBLIC) {
              first: movies(limit: 1) { id }
              second: actors(limit: 1) { id }
            }
            """
        let operation = try #require(try ConnectorOperation.parse(text, path: "both.gql").first)
        let (backend, _) = try makeBackend(Example.answer(200, #"{"data":{"first":[],"second":[]}}"#))
        let connector = try backend.connector("movies")
        let result = try await backend.run(operation, in: connector, variables: [:])
        #expect(result.metadata.itemsPath?.description == "data")
    }

    @Test func graphQLErrorsNextToDataBecomeErrorDiagnosticsWithTheirPath() async throws {
        let body = #"""
            {"data":{"movies":[{"title":"Orbit of Glass"},{"title":null}]},
             "errors":[{"message":"title is not available","path":["movies",1,"title"]},{"message":"slow"}]}
            """#
        let (backend, _) = try makeBackend(Example.answer(200, body))
        let result = try await run(backend, "listMoviesByGenre", ["genre": .string("Sci-Fi")])
        #expect(
            result.metadata.diagnostics == [
                Diagnostic(.error, "movies.1.title: title is not available"), Diagnostic(.error, "slow"),
            ])
        #expect(result.metadata.itemsPath?.description == "data.movies")
    }

    @Test func errorsWithNullDataAreAFailedOperation() async throws {
        let body = #"{"data":null,"errors":[{"message":"no such movie","path":["movie"]}]}"#
        let (backend, _) = try makeBackend(Example.answer(200, body))
        let caught = await asyncFailure {
            _ = try await run(backend, "getMovieByKey", ["key": .object(["id": .string("x")])])
        }
        let error = try #require(caught)
        #expect(error.kind == .operationFailed)
        #expect(error.category == .operationFailed)
        #expect(error.description == "getMovieByKey failed:\n  movie: no such movie")
    }

    @Test func neitherDataNorErrorsIsAMalformedResponse() async throws {
        let (backend, _) = try makeBackend(Example.answer(200, "{}"))
        let caught = await asyncFailure { _ = try await run(backend, "listMovies") }
        let error = try #require(caught)
        #expect(error.kind == .malformedResponse)
        #expect(error.description.hasSuffix("answered neither data nor errors"))
    }

    @Test func nonJSONSuccessIsAMalformedResponse() async throws {
        let (backend, _) = try makeBackend(Example.answer(200, "<!DOCTYPE html><title>Sign in</title>"))
        let caught = await asyncFailure { _ = try await run(backend, "listMovies") }
        let error = try #require(caught)
        #expect(error.kind == .malformedResponse)
        #expect(error.category == .malformedInput)
        #expect(error.description == "listMovies: \(Example.production):executeQuery did not answer a JSON object")
    }

    @Test func errorBodiesBecomeHTTPStatusFailuresWithStatusAndMessage() async throws {
        let denied = #"{"error":{"code":403,"message":"denied","status":"PERMISSION_DENIED"}}"#
        let (forbidden, _) = try makeBackend(Example.answer(403, denied))
        let caught = await asyncFailure {
            _ = try await run(forbidden, "updateMovieRating", ["id": .string("x"), "rating": .number(JSONNumber(1))])
        }
        let error = try #require(caught)
        #expect(error.kind == .httpStatus(403))
        #expect(error.category == .httpStatus)
        #expect(
            error.description
                == "updateMovieRating: HTTP 403 PERMISSION_DENIED from \(Example.production):executeMutation: denied; "
                + "the caller does not meet the operation's @auth (USER_EMAIL_VERIFIED)")

        let (broken, _) = try makeBackend(Example.answer(500, "upstream exploded\n  at frame 1"))
        let caughtServerError = await asyncFailure { _ = try await run(broken, "listMovies") }
        let serverError = try #require(caughtServerError)
        #expect(serverError.kind == .httpStatus(500))
        #expect(
            serverError.description
                == "listMovies: HTTP 500 from \(Example.production):executeQuery: upstream exploded")
    }

    @Test func firebasesEmulatorFlatErrorBodyIsReadWithItsGRPCCodeNamed() async throws {
        // Firebase's emulator answers its gRPC gateway's form: the gRPC code (3), no `status`, no `error` wrapper.
        let flat = #"{"code":3,"message":"variable genre: expected String","details":[]}"#
        let (backend, _) = try makeBackend(Example.answer(400, flat))
        let caught = await asyncFailure { _ = try await run(backend, "listMoviesByGenre", ["genre": .bool(true)]) }
        let error = try #require(caught)
        #expect(error.kind == .httpStatus(400))
        #expect(
            error.description
                == "listMoviesByGenre: HTTP 400 INVALID_ARGUMENT from \(Example.production):executeQuery: variable "
                + "genre: expected String")

        // Another server's own code or status names nothing: a code outside gRPC's, one whose HTTP status is not
        // the response's (1 is CANCELLED, 499), 0 (OK), or a status that is not one of gRPC's. The message is read.
        for body in [
            #"{"code":99,"message":"odd"}"#, #"{"code":1,"message":"odd"}"#, #"{"code":0,"message":"odd"}"#,
            #"{"status":"error","message":"odd"}"#, #"{"error":{"status":"fail","message":"odd"}}"#,
        ] {
            let (odd, _) = try makeBackend(Example.answer(500, body))
            let caughtOdd = await asyncFailure { _ = try await run(odd, "listMovies") }
            #expect(
                try #require(caughtOdd).description
                    == "listMovies: HTTP 500 from \(Example.production):executeQuery: odd", "\(body)")
        }
        // A body without a message, or not an object, is shown by its first line as before.
        for body in [#"{"code":3,"details":[]}"#, #"[{"message":"in an array"}]"#, #"{"message":""}"#] {
            let (bare, _) = try makeBackend(Example.answer(400, body))
            let caughtBare = await asyncFailure { _ = try await run(bare, "listMovies") }
            #expect(
                try #require(caughtBare).description
                    == "listMovies: HTTP 400 from \(Example.production):executeQuery: \(body)")
        }
    }

    @Test func theHintComesBeforeTheDetailsAndLongBodiesAreCut() async throws {
        let denied = #"{"code":16,"message":"expired","details":[{"message":"token expired","path":["auth"]}]}"#
        let (unauthenticated, _) = try makeBackend(Example.answer(401, denied))
        let caught = await asyncFailure { _ = try await run(unauthenticated, "listMyReviews") }
        #expect(
            try #require(caught).description
                == "listMyReviews: HTTP 401 UNAUTHENTICATED from \(Example.production):executeQuery: expired; send a "
                + "Firebase ID token (auth.idToken, or auth.idTokenCommand) of a caller that meets the operation's "
                + "@auth (USER)\n  auth: token expired")

        let long = String(repeating: "x", count: 5000)
        let many = (0..<25).map { #"{"message":"e\#($0)"}"# }.joined(separator: ",")
        let (verbose, _) = try makeBackend(
            Example.answer(400, #"{"error":{"message":"\#(long)","status":"INVALID_ARGUMENT","details":[\#(many)]}}"#))
        let caughtVerbose = await asyncFailure { _ = try await run(verbose, "listMovies") }
        let lines = try #require(caughtVerbose).description.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.count == 22)
        #expect(lines.first?.hasSuffix(": " + String(repeating: "x", count: 2000) + "…") == true)
        #expect(lines[1] == "  e0")
        #expect(lines[20] == "  e19")
        #expect(lines.last == "  (5 more)")
    }

    @Test func graphQLErrorsInDetailsFollowTheMessageEachOnALine() async throws {
        let body = #"""
            {"error":{"code":400,"message":"invalid request","status":"INVALID_ARGUMENT","details":[
              {"@type":"type.googleapis.com/google.rpc.ErrorInfo","reason":"IGNORED"},
              {"message":"expected String, got Boolean","path":["vars","genre"]},
              {"message":"no path here"}]}}
            """#
        let (backend, _) = try makeBackend(Example.answer(400, body))
        let caught = await asyncFailure { _ = try await run(backend, "listMoviesByGenre", ["genre": .bool(true)]) }
        let error = try #require(caught)
        #expect(
            error.description
                == "listMoviesByGenre: HTTP 400 INVALID_ARGUMENT from \(Example.production):executeQuery: invalid "
                + "request\n  vars.genre: expected String, got Boolean\n  no path here")
    }

    @Test func notFoundOperationSaysTheWorkspaceAndTheServiceDiffer() async throws {
        let missing = #"{"error":{"code":404,"message":"operation listMovies not found","status":"NOT_FOUND"}}"#
        let (backend, _) = try makeBackend(Example.answer(404, missing))
        let caught = await asyncFailure { _ = try await run(backend, "listMovies") }
        let error = try #require(caught)
        #expect(error.kind == .httpStatus(404))
        #expect(
            error.description
                == "listMovies: HTTP 404 NOT_FOUND from \(Example.production):executeQuery: operation listMovies not "
                + "found; the service does not have listMovies of connector movies: the local workspace and the "
                + "deployed service differ (deploy the connector, or point the backend at an emulator of this "
                + "workspace)")

        let service = #"{"error":{"code":404,"message":"service content-sample not found","status":"NOT_FOUND"}}"#
        let (other, _) = try makeBackend(Example.answer(404, service))
        let caughtOther = await asyncFailure { _ = try await run(other, "listMovies") }
        let otherError = try #require(caughtOther)
        #expect(otherError.kind == .httpStatus(404))
        #expect(otherError.description.hasSuffix(": service content-sample not found"))
    }

    // MARK: - 401 and idTokenCommand

    private static let unauthenticated = #"{"error":{"code":401,"message":"expired","status":"UNAUTHENTICATED"}}"#

    @Test func unauthorizedIsRetriedOnceWithAFreshTokenFromTheCommand() async throws {
        let configuration = #"{"project":"demo","auth":{"idTokenCommand":"printf fresh-token"}}"#
        let (backend, transport) = try makeBackend(configuration: configuration, idToken: "stale-token") { request in
            request.headers["X-Firebase-Auth-Token"] == "fresh-token"
                ? Example.answer(200, Self.sciFi)(request) : Example.answer(401, Self.unauthenticated)(request)
        }
        let result = try await run(backend, "listMoviesByGenre", ["genre": .string("Sci-Fi")])
        #expect(result.metadata.httpStatus == 200)
        let requests = transport.requests
        #expect(requests.count == 2)
        #expect(requests.first?.headers["X-Firebase-Auth-Token"] == "stale-token")
        #expect(requests.last?.headers["X-Firebase-Auth-Token"] == "fresh-token")
        #expect(requests.first?.url == requests.last?.url)
        #expect(requests.first?.body == requests.last?.body)
    }

    @Test func aSecond401AfterTheRetryIsReported() async throws {
        let configuration = #"{"project":"demo","auth":{"idTokenCommand":"printf fresh-token"}}"#
        let (backend, transport) = try makeBackend(
            configuration: configuration, idToken: "stale-token", Example.answer(401, Self.unauthenticated))
        let caught = await asyncFailure { _ = try await run(backend, "listMyReviews") }
        let error = try #require(caught)
        #expect(error.kind == .httpStatus(401))
        let hint =
            ": expired; send a Firebase ID token (auth.idToken, or auth.idTokenCommand) of a caller that meets the "
            + "operation's @auth (USER)"
        #expect(error.description.hasSuffix(hint))
        #expect(transport.requests.count == 2)
    }

    @Test func withoutATokenCommandA401IsNotRetried() async throws {
        let (backend, transport) = try makeBackend(Example.answer(401, Self.unauthenticated))
        let caught = await asyncFailure { _ = try await run(backend, "listMyReviews") }
        let error = try #require(caught)
        #expect(error.kind == .httpStatus(401))
        #expect(error.description.contains("HTTP 401 UNAUTHENTICATED"))
        #expect(transport.requests.count == 1)
    }

    @Test func aTokenCommandThatFailsIsAConfigurationError() async throws {
        let configuration = #"{"project":"demo","auth":{"idTokenCommand":"exit 3"}}"#
        let (backend, transport) = try makeBackend(
            configuration: configuration, idToken: "stale-token", Example.answer(401, Self.unauthenticated))
        let caught = await asyncFailure { _ = try await run(backend, "listMyReviews") }
        let error = try #require(caught)
        #expect(error.kind == .configuration)
        #expect(error.description.contains("auth.idTokenCommand exited with status 3 and printed no token"))
        #expect(transport.requests.count == 1)
    }

    // MARK: - Secrets

    @Test func idTokenAndAPIKeyNeverAppearInErrorsOrDiagnostics() async throws {
        let token = "sEcReT-id-token-value"
        let key = "sEcReT-api-key-value"
        let configuration = #"{"project":"demo","auth":{"idToken":"\#(token)","apiKey":"\#(key)"}}"#
        let echoes = [
            (500, "rejected \(token) with key \(key)"),
            (404, #"{"error":{"code":404,"message":"operation listMovies: \#(token) \#(key)","status":"NOT_FOUND"}}"#),
            (401, #"{"error":{"code":401,"message":"\#(token) expired","status":"UNAUTHENTICATED"}}"#),
            (400, #"{"code":3,"message":"\#(key)","details":[{"message":"\#(token)","path":["movies"]}]}"#),
            (200, #"{"data":null,"errors":[{"message":"bad token \#(token)","path":["movies"]}]}"#),
            (200, "not JSON at all"),
        ]
        for (status, body) in echoes {
            let (backend, transport) = try makeBackend(
                configuration: configuration, idToken: token, secrets: [token, key], Example.answer(status, body))
            let caught = await asyncFailure { _ = try await run(backend, "listMovies") }
            let error = try #require(caught, "\(status) \(body)")
            #expect(!error.description.contains(token), "\(error.description)")
            #expect(!error.description.contains(key), "\(error.description)")
            // The key was on the wire; only the message hides it.
            #expect(transport.requests.first?.url.hasSuffix("?key=\(key)") == true)
        }
        let partial = #"{"data":{"movies":[]},"errors":[{"message":"\#(token) and \#(key)","path":["movies"]}]}"#
        let (backend, _) = try makeBackend(
            configuration: configuration, idToken: token, secrets: [token, key], Example.answer(200, partial))
        let result = try await run(backend, "listMovies")
        #expect(result.metadata.diagnostics == [Diagnostic(.error, "movies: <redacted> and <redacted>")])
    }

    @Test func theURLInAnErrorHasItsKeyMasked() async throws {
        let configuration = #"{"project":"demo","auth":{"apiKey":"AIza-some-key"}}"#
        let (backend, _) = try makeBackend(
            configuration: configuration, secrets: ["AIza-some-key"], Example.answer(502, "bad gateway"))
        let caught = await asyncFailure { _ = try await run(backend, "listMovies") }
        let error = try #require(caught)
        #expect(
            error.description
                == "listMovies: HTTP 502 from \(Example.production):executeQuery?key=<redacted>: bad gateway")
    }

    // MARK: - Names

    @Test func executeTakesConnectorSlashOperationAndSuggestsCloseNames() async throws {
        let (backend, transport) = try makeBackend(Example.answer(200, Self.sciFi))
        let result = try await backend.execute(
            ContentRequest(operation: "movies/listMoviesByGenre", variables: ["genre": .string("Sci-Fi")]))
        #expect(result.metadata.itemsPath?.description == "data.movies")
        #expect(transport.requests.count == 1)

        let caughtBare = await asyncFailure { _ = try await backend.execute(ContentRequest(operation: "movies")) }
        #expect(caughtBare?.kind == .usage)
        #expect(caughtBare?.description == "expected connector/operation, got movies")

        let connector = failure { _ = try backend.resolve(connector: "movie", operation: "listMovies") }
        #expect(connector?.kind == .usage)
        #expect(connector?.description.contains("no connector movie in ") == true)
        #expect(connector?.description.hasSuffix(" (did you mean movies?); it has: movies") == true)

        let operation = failure { _ = try backend.resolve(connector: "movies", operation: "listMovie") }
        #expect(
            operation?.description
                == "connector movies has no operation listMovie (did you mean listMovies?); "
                + "`content query movies` lists them")
        #expect(transport.requests.count == 1)
    }

    @Test func failureKindsMapToTheirExitCategories() {
        let kinds: [(DataConnectError.Kind, FailureCategory)] = [
            (.usage, .usage), (.configuration, .configuration), (.httpStatus(500), .httpStatus),
            (.operationFailed, .operationFailed), (.malformedResponse, .malformedInput),
        ]
        for (kind, category) in kinds {
            #expect(DataConnectError(kind: kind, description: "x").category == category)
        }
    }

    // MARK: - Dry run and help

    @Test func dryRunCurlShowsTokensAndKeyAsShellVariables() throws {
        let configuration = #"{"project":"demo","auth":{"appCheckToken":"app-check-value","apiKey":"AIza-key"}}"#
        let (backend, _) = try makeBackend(
            configuration: configuration, idToken: "id-token-value", Example.answer(200, "{}"))
        let (connector, operation) = try backend.resolve(connector: "movies", operation: "listMoviesByGenre")
        let curl = DataConnectInvocation.curl(
            backend, operation: operation, connector: connector, variables: ["genre": .string("Director's Cut")])
        #expect(
            curl
                == "curl -sS --compressed -X POST -H 'Content-Type: application/json' "
                + "-H 'X-Goog-Api-Client: gl-swift/6 fire/content-\(ContentVersion.current)' "
                + #"-H "X-Firebase-Auth-Token: $FIREBASE_ID_TOKEN" "#
                + #"-H "X-Firebase-AppCheck: $FIREBASE_APP_CHECK_TOKEN" "#
                + #"--data-binary '{"name":"\#(Example.root)","operationName":"listMoviesByGenre","#
                + #""variables":{"genre":"Director'\''s Cut"}}' "#
                + #"'\#(Example.production):executeQuery?key='"$FIREBASE_API_KEY""#)
        for secret in ["id-token-value", "app-check-value", "AIza-key"] {
            #expect(!curl.contains(secret))
        }
    }

    @Test func dryRunWithoutCredentialsQuotesTheURL() throws {
        let (backend, _) = try makeBackend(Example.answer(200, "{}"))
        let (connector, operation) = try backend.resolve(connector: "movies", operation: "listMyReviews")
        let curl = DataConnectInvocation.curl(backend, operation: operation, connector: connector, variables: [:])
        #expect(!curl.contains("X-Firebase"))
        let ending =
            #"'{"name":"\#(Example.root)","operationName":"listMyReviews","variables":{}}' "#
            + "'\(Example.production):executeQuery'"
        #expect(curl.hasSuffix(ending))
    }

    @Test func operationHelpListsItsVariablesAsFlags() throws {
        let workspace = try Example.workspace()
        let connector = try #require(workspace.connector("movies"))
        let listMovies = try #require(connector.operation("listMovies"))
        let help = DataConnectCommandPlugin.help(for: listMovies, connector: connector, verb: "query", enums: [:])
        let lines = help.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        #expect(
            Array(lines.prefix(9)) == [
                "OVERVIEW: listMovies, a query of connector movies (@auth: PUBLIC)",
                "",
                "USAGE: content query movies listMovies [--orderByRating <OrderDirection>] [--limit <Int>] "
                    + "[--offset <Int>] [output options]",
                "",
                "VARIABLES:",
                "  --orderByRating <OrderDirection>  OrderDirection; one of ASC, DESC",
                "  --limit <Int>                     Int; default 50",
                "  --offset <Int>                    Int",
                "",
            ])
        #expect(lines.last?.hasPrefix("Declared at \(listMovies.position).") == true)

        let createMovie = try #require(connector.operation("createMovie"))
        let refused = DataConnectCommandPlugin.help(for: createMovie, connector: connector, verb: "query", enums: [:])
        #expect(
            refused.contains(
                "USAGE: content mutate movies createMovie --title <String> --releaseYear <Int> --genre <String> "
                    + "[--rating <Float>] [--tags <String>] [output options]"))
        #expect(refused.contains("  --tags <String>      [String!]; repeat the flag for each element"))
        #expect(refused.hasSuffix("Note: createMovie is a mutation; `content query` will refuse it."))
    }

    @Test func operationListShowsVariablesWithDefaultsAndTheEffectiveAuth() throws {
        let workspace = try Example.workspace()
        let connector = try #require(workspace.connector("movies"))
        let listMovies = try #require(connector.operation("listMovies"))
        #expect(
            DataConnectInvocation.variableSummary(listMovies)
                == "orderByRating: OrderDirection, limit: Int = 50, offset: Int")
        guard case .document(let rows) = DataConnectInvocation.operationList(connector).body else {
            Issue.record("expected a document")
            return
        }
        let names = rows.arrayValue?.compactMap { $0["operation"]?.stringValue } ?? []
        #expect(
            names == [
                "createMovie", "updateMovieRating", "deleteMovie", "upsertUser", "addReview", "deleteReview",
                "listMoviesByGenre", "findMovies", "listGenres", "listMovies", "getMovieByKey", "searchMovies",
                "listMyReviews",
            ])
        let myReviews = rows.arrayValue?.first { $0["operation"] == .string("listMyReviews") }
        #expect(myReviews?["auth"] == .string("USER"))
        #expect(myReviews?["variables"] == .string(""))
        #expect(myReviews?["kind"] == .string("query"))
    }
}

/// `OperationVariables`: command-line flags typed by the operation's own declarations, checked before sending.
struct OperationVariablesTests {
    /// The flags of an example operation.
    private func example(_ name: String) throws -> OperationVariables {
        let (_, operation) = try Example.operation(name)
        return OperationVariables(operation: operation, enums: try Example.workspace().schema.enums)
    }

    /// The flags of `query probe(DECLARATIONS)`.
    private func probe(_ declarations: String, enums: [String: [String]] = [:]) throws -> OperationVariables {
        let text = "query probe(\(declarations)) @auth(level: PUBLIC) { movies { id } }"
        let operation = try #require(try ConnectorOperation.parse(text, path: "probe.gql").first)
        return OperationVariables(operation: operation, enums: enums)
    }

    /// The usage error parsing some flags gives.
    private func rejection(_ variables: OperationVariables, _ flags: [String], base: JSONObject = [:])
        -> DataConnectError?
    {
        let error = failure { _ = try variables.parse(flags, base: base) }
        #expect(error?.kind == .usage, "\(flags)")
        #expect(error?.category == .usage, "\(flags)")
        let signature = "\n  \(variables.operation.signature)"
        #expect(error?.description.hasSuffix(signature) == true, "\(error?.description ?? "")")
        return error
    }

    private func number(_ text: String) -> JSONValue { .number(JSONNumber(text: text)) }

    @Test func stringFlagFillsItsVariableWithOrWithoutEquals() throws {
        let variables = try example("listMoviesByGenre")
        let spaced = try variables.parse(["--genre", "Sci-Fi"])
        let joined = try variables.parse(["--genre=Sci-Fi"])
        #expect(spaced == ["genre": .string("Sci-Fi")])
        #expect(joined == ["genre": .string("Sci-Fi")])
        let empty = try variables.parse(["--genre="])
        #expect(empty == ["genre": .string("")])
    }

    @Test func intIsA32BitIntegerAndTheMessageShowsTheSignature() throws {
        let variables = try example("listMovies")
        let largest = try variables.parse(["--limit", "2147483647", "--offset=-2147483648"])
        #expect(largest == ["limit": number("2147483647"), "offset": number("-2147483648")])
        let error = rejection(variables, ["--limit", "2147483648"])
        #expect(
            error?.description
                == "--limit takes an Int (a 32-bit integer), got '2147483648'\n"
                + "  listMovies($orderByRating: OrderDirection, $limit: Int, $offset: Int)")
        _ = rejection(variables, ["--limit", "1.5"])
        _ = rejection(variables, ["--limit", "ten"])
    }

    @Test func int64TravelsAsAJSONString() throws {
        let variables = try probe("$big: Int64")
        let largest = try variables.parse(["--big", "9223372036854775807"])
        let smallest = try variables.parse(["--big=-9223372036854775808"])
        #expect(largest == ["big": .string("9223372036854775807")])
        #expect(smallest == ["big": .string("-9223372036854775808")])
        let error = rejection(variables, ["--big", "9223372036854775808"])
        let message = "--big takes an Int64 (a 64-bit integer), got '9223372036854775808'"
        #expect(error?.description.hasPrefix(message) == true)
    }

    @Test func floatKeepsItsNumberTextAndRejectsWhatJSONCannotHold() throws {
        let variables = try probe("$ratio: Float")
        let plain = try variables.parse(["--ratio", "7.5"])
        let exponent = try variables.parse(["--ratio", "1e3"])
        let integer = try variables.parse(["--ratio", "8"])
        let leadingDot = try variables.parse(["--ratio", ".5"])
        #expect(plain == ["ratio": number("7.5")])
        #expect(exponent == ["ratio": number("1e3")])
        #expect(integer == ["ratio": number("8")])
        #expect(leadingDot == ["ratio": number("0.5")])
        for bad in ["high", "nan", "inf", "1e400"] {
            let error = rejection(variables, ["--ratio", bad])
            #expect(error?.description.hasPrefix("--ratio takes a Float, got '\(bad)'") == true)
        }
    }

    @Test func booleanFlagAloneIsTrueAndTakesOnlyTrueOrFalse() throws {
        let variables = try probe("$flag: Boolean, $name: String")
        let alone = try variables.parse(["--flag"])
        let beforeAnother = try variables.parse(["--flag", "--name", "x"])
        let spelled = try variables.parse(["--flag", "false"])
        let joined = try variables.parse(["--flag=false"])
        #expect(alone == ["flag": .bool(true)])
        #expect(beforeAnother == ["flag": .bool(true), "name": .string("x")])
        #expect(spelled == ["flag": .bool(false)])
        #expect(joined == ["flag": .bool(false)])
        let error = rejection(variables, ["--flag", "yes"])
        #expect(error?.description.hasPrefix("--flag takes true or false, got 'yes'") == true)
    }

    @Test func uuidIsNormalisedTo32LowercaseHexDigits() throws {
        let variables = try probe("$id: UUID")
        let dashedUpper = try variables.parse(["--id", "0B5C1B1E-3A52-4C7E-9D0B-6F1E8A2C4D01"])
        let hex = try variables.parse(["--id", "0b5c1b1e3a524c7e9d0b6f1e8a2c4d01"])
        #expect(dashedUpper == ["id": .string("0b5c1b1e3a524c7e9d0b6f1e8a2c4d01")])
        #expect(hex == dashedUpper)
        for bad in [
            "not-a-uuid", "0b5c1b1e3a524c7e9d0b6f1e8a2c4d0", "0b5c1b1e-3a52-4c7e-9d0b6f1e-8a2c4d01",
            "0b5c1b1e3a524c7e9d0b6f1e8a2c4d0g",
        ] {
            let error = rejection(variables, ["--id", bad])
            let message = "--id takes a UUID (32 hex digits, dashes allowed), got '\(bad)'"
            #expect(error?.description.hasPrefix(message) == true)
        }
    }

    @Test func dateMustBeARealCalendarDay() throws {
        let variables = try probe("$day: Date")
        let leap = try variables.parse(["--day", "2024-02-29"])
        let century = try variables.parse(["--day", "2000-02-29"])
        #expect(leap == ["day": .string("2024-02-29")])
        #expect(century == ["day": .string("2000-02-29")])
        for bad in ["2024-02-30", "2023-02-29", "1900-02-29", "2024-13-01", "2024-1-01", "2024-01-01T00:00:00Z"] {
            let error = rejection(variables, ["--day", bad])
            #expect(error?.description.hasPrefix("--day takes a Date as YYYY-MM-DD, got '\(bad)'") == true)
        }
    }

    @Test func timestampMustBeRFC3339() throws {
        let variables = try probe("$at: Timestamp")
        for good in ["2024-05-01T12:00:00Z", "2024-05-01T12:00:00+02:00", "2024-05-01T12:00:00.123456789-07:30"] {
            let parsed = try variables.parse(["--at", good])
            #expect(parsed == ["at": .string(good)])
        }
        for bad in [
            "2024-01-01 10:00", "2024-01-01T10:00Z", "2024-02-30T00:00:00Z", "2024-05-01T24:00:00Z",
            "2024-05-01T12:00:00",
        ] {
            let error = rejection(variables, ["--at", bad])
            #expect(error?.description.hasPrefix("--at takes a Timestamp in RFC 3339") == true)
        }
    }

    @Test func enumValuesAreCheckedAgainstTheSchemaAndTheBuiltIns() throws {
        let variables = try probe("$order: OrderDirection, $genre: Genre", enums: ["Genre": ["DRAMA", "SCI_FI"]])
        let parsed = try variables.parse(["--order", "DESC", "--genre", "SCI_FI"])
        #expect(parsed == ["order": .string("DESC"), "genre": .string("SCI_FI")])
        let order = rejection(variables, ["--order", "desc"])
        #expect(order?.description.hasPrefix("--order takes one of ASC, DESC, got 'desc'") == true)
        let genre = rejection(variables, ["--genre", "Comedy"])
        #expect(genre?.description.hasPrefix("--genre takes one of DRAMA, SCI_FI, got 'Comedy'") == true)
    }

    @Test func listTakesTheFlagRepeatedlyOrOneJSONArray() throws {
        let variables = try probe("$tags: [String!], $ids: [UUID!], $counts: [Int]")
        let repeated = try variables.parse(["--tags", "space", "--tags", "mystery"])
        #expect(repeated == ["tags": .array([.string("space"), .string("mystery")])])
        let array = try variables.parse(["--tags", #"["space","mystery"]"#])
        #expect(array == repeated)
        let ids = try variables.parse(["--ids", #"["0B5C1B1E-3A52-4C7E-9D0B-6F1E8A2C4D01"]"#, "--counts", "[1,null,3]"])
        #expect(
            ids == [
                "ids": .array([.string("0b5c1b1e3a524c7e9d0b6f1e8a2c4d01")]),
                "counts": .array([number("1"), .null, number("3")]),
            ])
        let one = try variables.parse(["--tags", "solo"])
        #expect(one == ["tags": .array([.string("solo")])])
        let error = rejection(variables, ["--counts", "1", "--counts", "two"])
        #expect(error?.description.hasPrefix("--counts takes an Int (a 32-bit integer), got 'two'") == true)
        _ = rejection(variables, ["--counts", #"[1,"two"]"#])
    }

    @Test func inputObjectsAndAnyTakeJSON() throws {
        let variables = try probe("$filter: Movie_Filter, $extra: Any")
        let parsed = try variables.parse(["--filter", #"{"genre":{"eq":"Drama"}}"#, "--extra", #"{"a":[1,true,null]}"#])
        #expect(
            parsed == [
                "filter": .object(["genre": .object(["eq": .string("Drama")])]),
                "extra": .object(["a": .array([number("1"), .bool(true), .null])]),
            ])
        let scalarAny = try variables.parse(["--extra", "42"])
        let textAny = try variables.parse(["--extra", #""text""#])
        #expect(scalarAny == ["extra": number("42")])
        #expect(textAny == ["extra": .string("text")])
        let filter = rejection(variables, ["--filter", "Drama"])
        #expect(filter?.description.hasPrefix("--filter takes a JSON object for Movie_Filter") == true)
        _ = rejection(variables, ["--filter", "[1]"])
        let any = rejection(variables, ["--extra", "hello"])
        #expect(any?.description.hasPrefix("--extra takes JSON") == true)
    }

    @Test func declaredDefaultsApplyWhenTheFlagIsAbsent() throws {
        let variables = try example("listMovies")
        let none = try variables.parse([])
        let given = try variables.parse(["--limit", "5", "--order-by-rating", "ASC"])
        #expect(none == ["limit": number("50")])
        #expect(given == ["orderByRating": .string("ASC"), "limit": number("5")])
    }

    @Test func missingRequiredVariableIsNamedWithTheSignature() throws {
        let variables = try example("listMoviesByGenre")
        let error = rejection(variables, [])
        #expect(error?.description == "missing required --genre (String!)\n  listMoviesByGenre($genre: String!)")
    }

    @Test func unknownFlagSuggestsTheClosestVariable() throws {
        let variables = try example("listMoviesByGenre")
        let error = rejection(variables, ["--genra", "Sci-Fi"])
        #expect(
            error?.description == "unknown flag --genra (did you mean --genre?)\n  listMoviesByGenre($genre: String!)")
        let far = rejection(variables, ["--year", "2020"])
        #expect(far?.description.hasPrefix("unknown flag --year\n") == true)
    }

    @Test func varsAreABaseThatFlagsOverride() throws {
        let variables = try example("listMovies")
        let base: JSONObject = ["limit": number("3"), "offset": number("6")]
        let fromVars = try variables.parse([], base: base)
        let overridden = try variables.parse(["--offset", "9"], base: base)
        #expect(fromVars == ["limit": number("3"), "offset": number("6")])
        #expect(overridden == ["limit": number("3"), "offset": number("9")])
        let required = try example("listMoviesByGenre").parse([], base: ["genre": .string("Drama")])
        #expect(required == ["genre": .string("Drama")])
    }

    @Test func varsWithAnUndeclaredNameAreRejected() throws {
        let variables = try example("listMoviesByGenre")
        let error = rejection(variables, ["--genre", "Drama"], base: ["year": number("2020")])
        #expect(
            error?.description
                == "--vars has year, which listMoviesByGenre does not declare\n  listMoviesByGenre($genre: String!)")
    }

    @Test func kebabCaseFlagsNameCamelCaseVariablesAndResultsFollowDeclarationOrder() throws {
        let variables = try example("createMovie")
        let kebab = try variables.parse(["--genre", "Sci-Fi", "--release-year", "2025", "--title", "Dust Lanes"])
        let camel = try variables.parse(["--releaseYear", "2025", "--title", "Dust Lanes", "--genre", "Sci-Fi"])
        let expected: JSONObject = [
            "title": .string("Dust Lanes"), "releaseYear": number("2025"), "genre": .string("Sci-Fi"),
        ]
        #expect(kebab == expected)
        #expect(camel == expected)
        let error = rejection(variables, ["--title", "x", "--release-year", "soon", "--genre", "g"])
        #expect(error?.description.hasPrefix("--releaseYear takes an Int (a 32-bit integer), got 'soon'") == true)
    }

    @Test func singleValuedVariableGivenTwiceIsRejected() throws {
        let error = rejection(try example("listMoviesByGenre"), ["--genre", "Drama", "--genre", "Comedy"])
        #expect(error?.description.hasPrefix("--genre is a single String, but was given 2 times") == true)
    }

    @Test func bareWordsAndValuelessFlagsAreRejected() throws {
        let variables = try example("listMoviesByGenre")
        let bare = rejection(variables, ["Sci-Fi"])
        let message = "unexpected argument 'Sci-Fi'; variables are given as --name value"
        #expect(bare?.description.hasPrefix(message) == true)
        let valueless = rejection(variables, ["--genre"])
        #expect(valueless?.description.hasPrefix("--genre needs a value of type String!") == true)
        _ = rejection(variables, ["--"])
    }
}
