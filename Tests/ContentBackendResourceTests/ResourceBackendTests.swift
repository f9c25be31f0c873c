import ArgumentParser
import ContentCore
import ContentJSON
import ContentTesting
import Foundation
import Testing

@testable import ContentBackendResource
@testable import ContentResourceCommands

/// Configurations, answers and a token endpoint for a `resource` backend under test.
private enum Fixture {
    static let base = "https://mfp.example.com/mfp/api"
    static let plain = #"{"url":"https://mfp.example.com/mfp/api"}"#
    static let secret = "sample-client-secret"

    /// The sample OAuth client of `examples/resource/resource.yaml`, with a token URL relative to `url`.
    static let oauth = """
        {"url":"https://mfp.example.com/mfp/api","auth":{"type":"oauth-client-credentials",
         "tokenURL":"/az/v1/token","clientId":"content-sample","clientSecret":"sample-client-secret",
         "scope":"accounts"}}
        """

    /// Configuration as `content.yaml` would give it, written as JSON.
    static func configuration(_ json: String) throws -> ResourceConfiguration {
        try JSONDecoder().decode(ResourceConfiguration.self, from: Data(json.utf8))
    }

    static func respond(
        _ status: Int, _ body: String, type: String = "application/json", to request: HTTPTransportRequest
    ) -> HTTPTransportResponse {
        HTTPTransportResponse(
            status: status, headers: ["Content-Type": type], body: Array(body.utf8), url: request.url)
    }

    /// A refusal with its `WWW-Authenticate` challenge.
    static func refuse(
        _ status: Int, _ body: String, challenge: String, type: String = "application/json",
        to request: HTTPTransportRequest
    ) -> HTTPTransportResponse {
        var refusal = respond(status, body, type: type, to: request)
        refusal.headers["WWW-Authenticate"] = challenge
        return refusal
    }

    /// MobileFirst's 403 for a token without `scope`.
    static func insufficientScope(_ scope: String, to request: HTTPTransportRequest) -> HTTPTransportResponse {
        refuse(
            403, #"{"error":"insufficient_scope"}"#,
            challenge: #"Bearer error="insufficient_scope", scope="\#(scope)""#,
            to: request)
    }

    /// MobileFirst's 401 for an unknown or expired token.
    static func invalidToken(to request: HTTPTransportRequest) -> HTTPTransportResponse {
        refuse(401, #"{"error":"invalid_token"}"#, challenge: #"Bearer error="invalid_token""#, to: request)
    }

    /// The same answer to every request.
    static func answer(_ status: Int, _ body: String) -> @Sendable (HTTPTransportRequest) -> HTTPTransportResponse {
        { request in respond(status, body, to: request) }
    }

    /// A token endpoint (any URL ending in `/token`) handing out `prefix-1`, `prefix-2`, …, and a protected
    /// resource everywhere else that accepts the bearer tokens `accepts` allows and answers 401 otherwise.
    static func oauthServer(
        prefix: String = "token",
        expiresIn: String = "3600",
        counter: Counter = Counter(),
        accepts: @escaping @Sendable (String) -> Bool = { _ in true }
    ) -> @Sendable (HTTPTransportRequest) -> HTTPTransportResponse {
        { request in
            if request.url.hasSuffix("/token") {
                let token = "\(prefix)-\(counter.next())"
                return respond(
                    200, #"{"access_token":"\#(token)","token_type":"Bearer","expires_in":\#(expiresIn)}"#,
                    to: request)
            }
            let header = request.headers["Authorization"] ?? ""
            let token = header.hasPrefix("Bearer ") ? String(header.dropFirst(7)) : ""
            guard accepts(token) else {
                return invalidToken(to: request)
            }
            return respond(200, #"{"client":"content-sample","balance":1024.5}"#, to: request)
        }
    }

    /// A response with a content type, or none.
    static func response(contentType: String?) -> HTTPTransportResponse {
        var headers = HeaderFields()
        if let contentType { headers["Content-Type"] = contentType }
        return HTTPTransportResponse(status: 200, headers: headers, body: Array("{}".utf8), url: base)
    }

    /// A fresh folder under the temporary directory.
    static func temporaryFolder() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("content-resource-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }
}

/// A number shared by a scripted transport's answers.
private final class Counter: @unchecked Sendable {
    private let lock = NSLock()
    private var value = 0

    func next() -> Int {
        lock.lock()
        defer { lock.unlock() }
        value += 1
        return value
    }
}

/// The error a body throws, when it is a `ResourceError`.
private func failure(_ body: () throws -> Void) -> ResourceError? {
    do {
        try body()
    } catch let error as ResourceError {
        return error
    } catch {
        Issue.record("expected a ResourceError, got \(error)")
    }
    return nil
}

/// The error an async body throws, when it is a `ResourceError`.
private func asyncFailure(_ body: () async throws -> Void) async -> ResourceError? {
    do {
        try await body()
    } catch let error as ResourceError {
        return error
    } catch {
        Issue.record("expected a ResourceError, got \(error)")
    }
    return nil
}

/// `ResourceBackend` with a scripted transport: the HTTP request each resource request becomes, OAuth client
/// credentials with their token cache and single retry, and how answers are judged and read.
struct ResourceBackendTests {
    private func makeBackend(
        _ configuration: String = Fixture.plain,
        secrets: [String] = [],
        environment: [String: String] = [:],
        _ answer: @escaping @Sendable (HTTPTransportRequest) -> HTTPTransportResponse = Fixture.answer(200, "{}")
    ) throws -> (ResourceBackend, ScriptedTransport) {
        let transport = ScriptedTransport(answer)
        let backend = try ResourceBackend(
            name: "mfp", configuration: try Fixture.configuration(configuration),
            context: BackendContext(transport: transport, redactor: Redactor(secrets: secrets)),
            environment: environment)
        return (backend, transport)
    }

    private func text(_ request: HTTPTransportRequest?) -> String {
        String(decoding: request?.body ?? [], as: UTF8.self)
    }

    private func tokenRequests(_ transport: ScriptedTransport) -> [HTTPTransportRequest] {
        transport.requests.filter { $0.url.hasSuffix("/token") }
    }

    private func resourceRequests(_ transport: ScriptedTransport) -> [HTTPTransportRequest] {
        transport.requests.filter { !$0.url.hasSuffix("/token") }
    }

    // MARK: - Where requests go

    @Test func aPathResolvesUnderTheBaseURLWithOrWithoutALeadingSlash() throws {
        let (backend, _) = try makeBackend()
        let request = try backend.httpRequest(ResourceRequest(target: "/adapters/JavaAdapter/users"))
        #expect(request.url == "https://mfp.example.com/mfp/api/adapters/JavaAdapter/users")
        #expect(request.method == .get)
        #expect(request.body == nil)
        #expect(request.headers["Content-Type"] == nil)
        #expect(request.headers["Authorization"] == nil)
        #expect(request.isRetryable)
        let bare = try backend.httpRequest(ResourceRequest(target: "adapters/JavaAdapter/users"))
        #expect(bare.url == "https://mfp.example.com/mfp/api/adapters/JavaAdapter/users")
    }

    @Test func aBaseURLWithATrailingSlashDoesNotDoubleTheSlash() throws {
        let (backend, _) = try makeBackend(#"{"url":"https://mfp.example.com/mfp/api/"}"#)
        let slashed = try backend.httpRequest(ResourceRequest(target: "/adapters/JavaAdapter/users"))
        #expect(slashed.url == "https://mfp.example.com/mfp/api/adapters/JavaAdapter/users")
        let bare = try backend.httpRequest(ResourceRequest(target: "adapters/JavaAdapter/users"))
        #expect(bare.url == "https://mfp.example.com/mfp/api/adapters/JavaAdapter/users")
        #expect(ResourceBackend.resolve("/x", against: "http://h/") == "http://h/x")
    }

    @Test func anAbsoluteURLIsSentAsGivenWithTheQueryAppendedAfterItsOwn() throws {
        let (backend, _) = try makeBackend()
        let absolute = try backend.httpRequest(
            ResourceRequest(target: "http://other.example:8080/status.json?v=1", query: [(name: "q", value: "a b")]))
        #expect(absolute.url == "http://other.example:8080/status.json?v=1&q=a%20b")
        let relative = try backend.httpRequest(
            ResourceRequest(target: "/adapters/X/list?fixed=1", query: [(name: "q", value: "a b")]))
        #expect(relative.url == "https://mfp.example.com/mfp/api/adapters/X/list?fixed=1&q=a%20b")
    }

    @Test func aPathWhoseQueryHoldsAURLStillResolvesAgainstTheBase() throws {
        let (backend, _) = try makeBackend()
        let request = try backend.httpRequest(
            ResourceRequest(target: "/adapters/Redirect/to?url=http://elsewhere.example/x"))
        #expect(
            request.url == "https://mfp.example.com/mfp/api/adapters/Redirect/to?url=http://elsewhere.example/x")
    }

    // MARK: - Query and form encoding

    @Test func queryNamesAndValuesArePercentEncodedLeavingOnlyUnreservedCharacters() throws {
        let (backend, _) = try makeBackend()
        let query: [(name: String, value: String)] = [
            (name: "q", value: "a b&c=d"),
            (name: "name", value: "Zo\u{EB} \u{6771}\u{4EAC}"),
            (name: "keep", value: "AZaz09-._~"),
            (name: "plus", value: "1+1/2?#"),
            (name: "a b", value: "x"),
        ]
        let request = try backend.httpRequest(ResourceRequest(target: "/adapters/X", query: query))
        #expect(
            request.url
                == "https://mfp.example.com/mfp/api/adapters/X?q=a%20b%26c%3Dd&name=Zo%C3%AB%20%E6%9D%B1%E4%BA%AC"
                + "&keep=AZaz09-._~&plus=1%2B1%2F2%3F%23&a%20b=x")
    }

    @Test func formFieldsAreEncodedInOrderWithTheFormContentTypeAndNothingInTheURL() throws {
        let (backend, _) = try makeBackend()
        let fields: [(name: String, value: String)] = [
            (name: "name", value: "Ada Lovelace"),
            (name: "email", value: "ada@example.com"),
            (name: "note", value: "1+1=2 & more"),
            (name: "city", value: "\u{6771}\u{4EAC}"),
            (name: "empty", value: ""),
        ]
        let request = try backend.httpRequest(
            ResourceRequest(method: .post, target: "/adapters/JavaAdapter/users", body: .form(fields)))
        #expect(request.method == .post)
        #expect(request.url == "https://mfp.example.com/mfp/api/adapters/JavaAdapter/users")
        #expect(request.headers["Content-Type"] == "application/x-www-form-urlencoded")
        #expect(
            text(request)
                == "name=Ada%20Lovelace&email=ada%40example.com&note=1%2B1%3D2%20%26%20more"
                + "&city=%E6%9D%B1%E4%BA%AC&empty=")
        #expect(request.isRetryable == false)
    }

    // MARK: - Path parameters

    @Test func pathParametersFillEveryOccurrenceOfTheirPlaceholderPercentEncoded() throws {
        let (backend, _) = try makeBackend()
        let request = try backend.httpRequest(
            ResourceRequest(
                target: "/adapters/JavaAdapter/echo/{value}/{id}/{value}",
                pathParameters: [(name: "value", value: "a/b c"), (name: "id", value: "{id}")]))
        #expect(request.url == "https://mfp.example.com/mfp/api/adapters/JavaAdapter/echo/a%2Fb%20c/%7Bid%7D/a%2Fb%20c")
    }

    @Test func anUnfilledPlaceholderIsAUsageErrorAndNothingIsSent() async throws {
        let (backend, transport) = try makeBackend()
        let error = await asyncFailure {
            _ = try await backend.send(ResourceRequest(target: "/adapters/JavaAdapter/users/{id}"))
        }
        let thrown = try #require(error)
        #expect(
            thrown
                == ResourceError(
                    kind: .usage,
                    description: "/adapters/JavaAdapter/users/{id} has {id}: give it with --path id=VALUE"))
        #expect(thrown.category == .usage)
        #expect(transport.requests.isEmpty)
    }

    @Test func aPathParameterThePathDoesNotHaveIsAUsageError() throws {
        let (backend, _) = try makeBackend()
        let error = failure {
            _ = try backend.httpRequest(
                ResourceRequest(
                    target: "/adapters/JavaAdapter/users/{id}",
                    pathParameters: [(name: "id", value: "1"), (name: "name", value: "x")]))
        }
        #expect(
            error
                == ResourceError(
                    kind: .usage, description: "--path name: /adapters/JavaAdapter/users/{id} has no {name}"))
        #expect(error?.category == .usage)
    }

    // MARK: - JavaScript adapter parameters

    @Test func paramsGoInTheQueryOnGetHeadAndDelete() throws {
        let (backend, _) = try makeBackend()
        let params = JSONValue.array([.string("a"), .number(JSONNumber(1))])
        for method in [HTTPTransportRequest.Method.get, .head, .delete] {
            let request = try backend.httpRequest(
                ResourceRequest(method: method, target: "/adapters/JSAdapter/greet", params: params))
            #expect(
                request.url == "https://mfp.example.com/mfp/api/adapters/JSAdapter/greet?params=%5B%22a%22%2C1%5D",
                "\(method)")
            #expect(request.body == nil, "\(method)")
            #expect(request.headers["Content-Type"] == nil, "\(method)")
        }
    }

    @Test func paramsGoInTheFormOnOtherMethodsAfterAnyFormFields() throws {
        let (backend, _) = try makeBackend()
        let params = JSONValue.array([.string("a"), .number(JSONNumber(1))])
        let alone = try backend.httpRequest(
            ResourceRequest(method: .post, target: "/adapters/JSAdapter/greet", params: params))
        #expect(alone.url == "https://mfp.example.com/mfp/api/adapters/JSAdapter/greet")
        #expect(alone.headers["Content-Type"] == "application/x-www-form-urlencoded")
        #expect(text(alone) == "params=%5B%22a%22%2C1%5D")
        for method in [HTTPTransportRequest.Method.put, .patch] {
            let combined = try backend.httpRequest(
                ResourceRequest(
                    method: method, target: "/adapters/JSAdapter/greet", body: .form([(name: "x", value: "1 2")]),
                    params: params))
            #expect(text(combined) == "x=1%202&params=%5B%22a%22%2C1%5D", "\(method)")
            #expect(!combined.url.contains("?"), "\(method)")
        }
    }

    @Test func paramsBesideAJSONOrRawBodyIsAUsageError() throws {
        let (backend, _) = try makeBackend()
        let bodies: [ResourceRequest.Body] = [.json(.object([:])), .raw([1, 2], contentType: nil)]
        for body in bodies {
            let error = failure {
                _ = try backend.httpRequest(
                    ResourceRequest(
                        method: .post, target: "/adapters/JSAdapter/add", body: body, params: .array([])))
            }
            #expect(
                error
                    == ResourceError(
                        kind: .usage, description: "--params goes in a form body on POST; drop --json/--data"))
        }
    }

    // MARK: - Bodies

    @Test func aJSONBodyIsCompactInMemberOrderWithTheJSONContentType() throws {
        let (backend, _) = try makeBackend()
        let document = JSONValue.object([
            "name": .string("Grace"), "tags": .array([.string("a")]), "n": .number(JSONNumber(text: "1.50")),
        ])
        let request = try backend.httpRequest(
            ResourceRequest(method: .put, target: "/adapters/JavaAdapter/users/2", body: .json(document)))
        #expect(request.headers["Content-Type"] == "application/json")
        #expect(text(request) == #"{"name":"Grace","tags":["a"],"n":1.50}"#)
        #expect(request.isRetryable)
    }

    @Test func aRawBodyIsSentByteForByteAsOctetStreamUnlessATypeIsGiven() throws {
        let (backend, _) = try makeBackend()
        let bytes: [UInt8] = [0, 1, 0xFF, 0x7F, 0x0A]
        let untyped = try backend.httpRequest(
            ResourceRequest(method: .post, target: "/adapters/Binary/echo", body: .raw(bytes, contentType: nil)))
        #expect(untyped.body == bytes)
        #expect(untyped.headers["Content-Type"] == "application/octet-stream")
        let typed = try backend.httpRequest(
            ResourceRequest(
                method: .post, target: "/adapters/Binary/echo",
                body: .raw(Array("a,b\n".utf8), contentType: "text/csv")))
        #expect(typed.body == Array("a,b\n".utf8))
        #expect(typed.headers["Content-Type"] == "text/csv")
    }

    // MARK: - Headers and authentication

    @Test func configuredHeadersGoOnEveryRequestAndARequestHeaderOfTheSameNameWins() throws {
        let (backend, _) = try makeBackend(
            #"{"url":"https://mfp.example.com/mfp/api","headers":{"X-App":"content","X-Trace":"from-config"}}"#)
        let request = try backend.httpRequest(
            ResourceRequest(
                method: .post, target: "/adapters/X",
                headers: [
                    (name: "x-trace", value: "from-request"), (name: "Accept", value: "text/plain"),
                    (name: "Content-Type", value: "application/x-www-form-urlencoded; charset=utf-8"),
                ],
                body: .form([(name: "a", value: "1")])))
        #expect(request.headers["X-App"] == "content")
        #expect(request.headers["X-Trace"] == "from-request")
        let traces = request.headers.filter { $0.name.lowercased() == "x-trace" }
        #expect(traces.count == 1)
        #expect(request.headers["Accept"] == "text/plain")
        #expect(request.headers["Content-Type"] == "application/x-www-form-urlencoded; charset=utf-8")
        let plain = try backend.httpRequest(ResourceRequest(target: "/adapters/X"))
        #expect(plain.headers["X-Trace"] == "from-config")
        #expect(plain.headers["Accept"] == nil)
    }

    @Test func basicAuthSendsTheBase64OfUserColonPassword() throws {
        let (backend, _) = try makeBackend(
            #"{"url":"https://mfp.example.com/mfp/api","#
                + #""auth":{"type":"basic","username":"ada","password":"s3cret-pass"}}"#)
        let request = try backend.httpRequest(ResourceRequest(target: "/adapters/X"))
        #expect(request.headers["Authorization"] == "Basic YWRhOnMzY3JldC1wYXNz")
    }

    @Test func bearerAuthSendsTheTokenAndARequestAuthorizationHeaderReplacesIt() throws {
        let (backend, _) = try makeBackend(
            #"{"url":"https://mfp.example.com/mfp/api","auth":{"type":"bearer","token":"tok-123"}}"#)
        let request = try backend.httpRequest(ResourceRequest(target: "/adapters/X"))
        #expect(request.headers["Authorization"] == "Bearer tok-123")
        let replaced = try backend.httpRequest(
            ResourceRequest(target: "/adapters/X", headers: [(name: "authorization", value: "Bearer other")]))
        #expect(replaced.headers["Authorization"] == "Bearer other")
        let authorizations = replaced.headers.filter { $0.name.lowercased() == "authorization" }
        #expect(authorizations.count == 1)
    }

    @Test func withoutAuthOnlyAnExplicitBearerAddsAnAuthorizationHeader() throws {
        let (backend, _) = try makeBackend(#"{"url":"https://mfp.example.com/mfp/api","auth":{"type":"none"}}"#)
        let bare = try backend.httpRequest(ResourceRequest(target: "/adapters/X"))
        #expect(bare.headers["Authorization"] == nil)
        let withBearer = try backend.httpRequest(ResourceRequest(target: "/adapters/X"), bearer: "$ACCESS_TOKEN")
        #expect(withBearer.headers["Authorization"] == "Bearer $ACCESS_TOKEN")
    }

    // MARK: - Timeouts

    @Test func aPerRequestTimeoutWinsOverTheConfiguredOne() throws {
        let (configured, _) = try makeBackend(#"{"url":"https://mfp.example.com/mfp/api","timeout":"5s"}"#)
        let fallback = try configured.httpRequest(ResourceRequest(target: "/adapters/X"))
        #expect(fallback.timeout == Duration.seconds(5))
        let own = try configured.httpRequest(ResourceRequest(target: "/adapters/X", timeout: .milliseconds(300)))
        #expect(own.timeout == Duration.milliseconds(300))
        let (unconfigured, _) = try makeBackend()
        let none = try unconfigured.httpRequest(ResourceRequest(target: "/adapters/X"))
        #expect(none.timeout == nil)
    }

    // MARK: - OAuth client credentials

    @Test func oauthPostsBasicClientCredentialsAndAFormToTheTokenURLResolvedAgainstTheBase() async throws {
        let (backend, transport) = try makeBackend(Fixture.oauth, Fixture.oauthServer())
        let response = try await backend.send(ResourceRequest(target: "/adapters/SecureAdapter/balance"))
        #expect(response.status == 200)
        #expect(transport.requests.count == 2)
        let token = try #require(transport.requests.first)
        #expect(token.method == .post)
        #expect(token.url == "https://mfp.example.com/mfp/api/az/v1/token")
        #expect(token.headers["Authorization"] == "Basic Y29udGVudC1zYW1wbGU6c2FtcGxlLWNsaWVudC1zZWNyZXQ=")
        #expect(token.headers["Content-Type"] == "application/x-www-form-urlencoded")
        #expect(token.headers["Accept"] == "application/json")
        #expect(text(token) == "grant_type=client_credentials&scope=accounts")
        let resource = try #require(transport.requests.dropFirst().first)
        #expect(resource.method == .get)
        #expect(resource.url == "https://mfp.example.com/mfp/api/adapters/SecureAdapter/balance")
        #expect(resource.headers["Authorization"] == "Bearer token-1")
    }

    @Test func anAbsoluteTokenURLIsUsedAsGivenAndNoScopeSendsNoScopeField() async throws {
        let configuration = """
            {"url":"https://mfp.example.com/mfp/api","auth":{"type":"oauth-client-credentials",
             "tokenURL":"https://login.example.com/oauth/token","clientId":"c","clientSecret":"s3cret-value"}}
            """
        let (backend, transport) = try makeBackend(configuration, Fixture.oauthServer())
        _ = try await backend.send(ResourceRequest(target: "/adapters/SecureAdapter/balance"))
        let token = try #require(tokenRequests(transport).first)
        #expect(token.url == "https://login.example.com/oauth/token")
        #expect(text(token) == "grant_type=client_credentials")
    }

    @Test func oneTokenServesEveryRequestUntilItExpires() async throws {
        let (backend, transport) = try makeBackend(Fixture.oauth, Fixture.oauthServer())
        _ = try await backend.send(ResourceRequest(target: "/adapters/SecureAdapter/balance"))
        _ = try await backend.send(ResourceRequest(target: "/adapters/SecureAdapter/balance"))
        #expect(tokenRequests(transport).count == 1)
        let bearers = resourceRequests(transport).map { $0.headers["Authorization"] }
        #expect(bearers == ["Bearer token-1", "Bearer token-1"])
    }

    @Test func aTokenLivingThirtySecondsOrLessIsFetchedAgainForTheNextRequest() async throws {
        let (backend, transport) = try makeBackend(Fixture.oauth, Fixture.oauthServer(expiresIn: "10"))
        _ = try await backend.send(ResourceRequest(target: "/adapters/SecureAdapter/balance"))
        _ = try await backend.send(ResourceRequest(target: "/adapters/SecureAdapter/balance"))
        #expect(tokenRequests(transport).count == 2)
        let bearers = resourceRequests(transport).map { $0.headers["Authorization"] }
        #expect(bearers == ["Bearer token-1", "Bearer token-2"])
    }

    @Test func anExpiresInWrittenAsAStringIsHonoured() async throws {
        let (backend, transport) = try makeBackend(Fixture.oauth, Fixture.oauthServer(expiresIn: #""3600""#))
        _ = try await backend.send(ResourceRequest(target: "/adapters/SecureAdapter/balance"))
        _ = try await backend.send(ResourceRequest(target: "/adapters/SecureAdapter/balance"))
        #expect(tokenRequests(transport).count == 1)
    }

    @Test func anAbsurdExpiresInIsCappedInsteadOfOverflowing() async throws {
        for lifetime in ["1e308", "-5", #""9999999999999999999999""#] {
            let (backend, transport) = try makeBackend(Fixture.oauth, Fixture.oauthServer(expiresIn: lifetime))
            let first = try await backend.send(ResourceRequest(target: "/adapters/SecureAdapter/balance"))
            #expect(first.status == 200, "expires_in \(lifetime)")
            _ = try await backend.send(ResourceRequest(target: "/adapters/SecureAdapter/balance"))
            // A huge lifetime is kept at most a day (so reused here); a negative one is not kept at all.
            let expected = lifetime == "-5" ? 2 : 1
            #expect(tokenRequests(transport).count == expected, "expires_in \(lifetime)")
        }
    }

    @Test func a401FetchesOneNewTokenAndRetriesOnce() async throws {
        let (backend, transport) = try makeBackend(
            Fixture.oauth, Fixture.oauthServer(accepts: { $0 == "token-2" }))
        let response = try await backend.send(ResourceRequest(target: "/adapters/SecureAdapter/balance"))
        #expect(response.status == 200)
        let sent = transport.requests.map { "\($0.method) \($0.url) \($0.headers["Authorization"] ?? "")" }
        let credentials = "Basic Y29udGVudC1zYW1wbGU6c2FtcGxlLWNsaWVudC1zZWNyZXQ="
        #expect(
            sent == [
                "POST https://mfp.example.com/mfp/api/az/v1/token \(credentials)",
                "GET https://mfp.example.com/mfp/api/adapters/SecureAdapter/balance Bearer token-1",
                "POST https://mfp.example.com/mfp/api/az/v1/token \(credentials)",
                "GET https://mfp.example.com/mfp/api/adapters/SecureAdapter/balance Bearer token-2",
            ])
        // The fresh token is kept: the next request needs no token call.
        _ = try await backend.send(ResourceRequest(target: "/adapters/SecureAdapter/balance"))
        #expect(tokenRequests(transport).count == 2)
    }

    @Test func aSecond401IsReturnedWithoutAThirdAttempt() async throws {
        let (backend, transport) = try makeBackend(Fixture.oauth, Fixture.oauthServer(accepts: { _ in false }))
        let response = try await backend.send(ResourceRequest(target: "/adapters/SecureAdapter/balance"))
        #expect(response.status == 401)
        #expect(transport.requests.count == 4)
        #expect(tokenRequests(transport).count == 2)
        let error = failure { try ResourceBackend.requireSuccess(response, redactor: Redactor()) }
        #expect(error?.kind == ResourceError.Kind.httpStatus(401))
    }

    @Test func a401WithoutABearerChallengeIsNotAnsweredWithANewToken() async throws {
        // A 401 from something in front of the adapter (a proxy asking for Basic) is no OAuth challenge: the SDKs
        // look for Bearer in WWW-Authenticate before they fetch a token.
        let (backend, transport) = try makeBackend(Fixture.oauth) { request in
            if request.url.hasSuffix("/token") {
                return Fixture.respond(200, #"{"access_token":"token-1","expires_in":3600}"#, to: request)
            }
            return Fixture.refuse(
                401, "proxy login", challenge: #"Basic realm="proxy""#, type: "text/plain", to: request)
        }
        let response = try await backend.send(ResourceRequest(target: "/adapters/SecureAdapter/balance"))
        #expect(response.status == 401)
        #expect(tokenRequests(transport).count == 1)
        #expect(resourceRequests(transport).count == 1)
    }

    /// A token endpoint that hands out `scoped:<scope>` tokens, and a resource that needs `RegisteredClient accounts`
    /// and says so in its 403 challenge, as a MobileFirst server does.
    private static func scopedServer(_ request: HTTPTransportRequest) -> HTTPTransportResponse {
        if request.url.hasSuffix("/token") {
            let form = String(decoding: request.body ?? [], as: UTF8.self)
            let scope = form.split(separator: "&").first { $0.hasPrefix("scope=") }.map { $0.dropFirst(6) } ?? ""
            let token = "scoped:" + (String(scope).removingPercentEncoding ?? "")
            return Fixture.respond(200, #"{"access_token":"\#(token)","expires_in":3599}"#, to: request)
        }
        guard request.headers["Authorization"] == "Bearer scoped:RegisteredClient accounts" else {
            return Fixture.insufficientScope("RegisteredClient accounts", to: request)
        }
        return Fixture.respond(200, #"{"balance":1024.5}"#, to: request)
    }

    @Test func a403NamingAScopeFetchesATokenForThatScopeAndRetriesOnce() async throws {
        for configured in [", \"scope\":\"accounts\"", ""] {
            let configuration = Fixture.oauth.replacingOccurrences(of: ",\n \"scope\":\"accounts\"", with: configured)
            let (backend, transport) = try makeBackend(configuration, Self.scopedServer)
            let response = try await backend.send(ResourceRequest(target: "/adapters/SecureAdapter/balance"))
            #expect(response.status == 200, "\(configured)")
            let asked = tokenRequests(transport).map { text($0) }
            #expect(
                asked == [
                    "grant_type=client_credentials" + (configured.isEmpty ? "" : "&scope=accounts"),
                    "grant_type=client_credentials&scope=RegisteredClient%20accounts",
                ], "\(configured)")
            #expect(resourceRequests(transport).count == 2)
        }
    }

    @Test func aTokenForTheChallengedScopeThatIsRefusedIsReplacedOnce() async throws {
        // As a token kept on disk for that scope is, once the server has restarted or revoked it.
        let generation = Counter()
        let configuration = Fixture.oauth.replacingOccurrences(of: ",\n \"scope\":\"accounts\"", with: "")
        let (backend, transport) = try makeBackend(configuration) { request in
            if request.url.hasSuffix("/token") {
                let form = String(decoding: request.body ?? [], as: UTF8.self)
                let token = form.contains("scope=") ? "scoped-\(generation.next())" : "plain"
                return Fixture.respond(200, #"{"access_token":"\#(token)","expires_in":3599}"#, to: request)
            }
            switch request.headers["Authorization"] {
            case "Bearer scoped-2"?:
                return Fixture.respond(200, #"{"balance":1024.5}"#, to: request)
            case "Bearer scoped-1"?:
                return Fixture.invalidToken(to: request)
            default:
                return Fixture.insufficientScope("RegisteredClient", to: request)
            }
        }
        #expect(try await backend.send(ResourceRequest(target: "/adapters/SecureAdapter/balance")).status == 200)
        let sent = resourceRequests(transport).map { $0.headers["Authorization"] ?? "" }
        #expect(sent == ["Bearer plain", "Bearer scoped-1", "Bearer scoped-2"], "\(sent)")
    }

    @Test func aChallengedScopeTheTokenEndpointRefusesLeavesThe403AndItsHint() async throws {
        let (backend, transport) = try makeBackend(Fixture.oauth) { request in
            if request.url.hasSuffix("/token") {
                let form = String(decoding: request.body ?? [], as: UTF8.self)
                guard form.hasSuffix("scope=accounts") else {
                    return Fixture.respond(400, #"{"error":"invalid_scope","scope":"payments"}"#, to: request)
                }
                return Fixture.respond(200, #"{"access_token":"token-1","expires_in":3599}"#, to: request)
            }
            return Fixture.insufficientScope("payments", to: request)
        }
        let response = try await backend.send(ResourceRequest(target: "/adapters/SecureAdapter/balance"))
        #expect(response.status == 403)
        #expect(tokenRequests(transport).count == 2)
        #expect(resourceRequests(transport).count == 1)
        let error = failure { try ResourceBackend.requireSuccess(response, redactor: Redactor()) }
        #expect(error?.description.contains(#"lacks scope "payments""#) == true, "\(String(describing: error))")
        #expect(error?.description.contains("send a token that carries it") == true)
    }

    @Test func aTokenEndpointFailingForTheChallengedScopeIsTheError() async throws {
        // Only a 400 (invalid_scope) means the scope is not the client's; a failing endpoint is reported as itself.
        let (backend, _) = try makeBackend(Fixture.oauth) { request in
            if request.url.hasSuffix("/token") {
                let form = String(decoding: request.body ?? [], as: UTF8.self)
                guard form.hasSuffix("scope=accounts") else {
                    return Fixture.respond(503, "maintenance", type: "text/plain", to: request)
                }
                return Fixture.respond(200, #"{"access_token":"token-1","expires_in":3599}"#, to: request)
            }
            return Fixture.insufficientScope("payments", to: request)
        }
        let error = await asyncFailure {
            _ = try await backend.send(ResourceRequest(target: "/adapters/SecureAdapter/balance"))
        }
        #expect(error?.kind == .token)
        #expect(error?.description.contains("answered HTTP 503: maintenance") == true, "\(String(describing: error))")
    }

    @Test func challengesAreReadByTheirSchemeAndScopeParameter() {
        func response(_ challenge: String) -> HTTPTransportResponse {
            HTTPTransportResponse(status: 403, headers: ["WWW-Authenticate": challenge], body: [], url: Fixture.base)
        }
        #expect(ResourceBackend.isBearerChallenge(response(#"Bearer error="invalid_token""#)))
        #expect(ResourceBackend.isBearerChallenge(response("bearer")))
        #expect(!ResourceBackend.isBearerChallenge(response(#"Basic realm="bearer-api""#)))
        #expect(ResourceBackend.isBearerChallenge(response(#"Basic realm="api", Bearer error="invalid_token""#)))
        #expect(
            ResourceBackend.challengedScope(response(#"Bearer error="insufficient_scope", scope="a b""#)) == "a b")
        // A scope= inside another parameter's text is not the scope; nor is one with characters no scope has.
        #expect(
            ResourceBackend.challengedScope(
                response(#"Bearer error="insufficient_scope", error_description="noscope="x"", scope="a""#)) == "a")
        #expect(
            ResourceBackend.challengedScope(response("Bearer error=\"insufficient_scope\", scope=\"a\u{1B}[2J\""))
                == nil)
        #expect(ResourceBackend.challengedScope(response(#"Bearer error="insufficient_scope", scope="""#)) == nil)
        #expect(ResourceBackend.challengedScope(response(#"Basic error="insufficient_scope", scope="a""#)) == nil)
        // The same scope written in another order asks for nothing new.
        #expect(
            ResourceBackend.scopeElements("accounts RegisteredClient")
                == ResourceBackend.scopeElements("RegisteredClient  accounts"))
    }

    @Test func a403NamingTheScopeAlreadyAskedForIsAnsweredWithoutAnotherToken() async throws {
        // Asked for, in another order or as part of a larger scope: a scope is a set.
        for challenged in ["payments RegisteredClient", "payments"] {
            let configuration = Fixture.oauth.replacingOccurrences(
                of: #""scope":"accounts""#, with: #""scope":"RegisteredClient payments""#)
            let (backend, transport) = try makeBackend(configuration) { request in
                if request.url.hasSuffix("/token") { return Self.scopedServer(request) }
                return Fixture.insufficientScope(challenged, to: request)
            }
            let response = try await backend.send(ResourceRequest(target: "/adapters/SecureAdapter/balance"))
            #expect(response.status == 403)
            #expect(tokenRequests(transport).count == 1, "\(challenged)")
            #expect(resourceRequests(transport).count == 1, "\(challenged)")
            let error = failure { try ResourceBackend.requireSuccess(response, redactor: Redactor()) }
            #expect(error?.description.contains(#"lacks scope "\#(challenged)""#) == true)
        }
    }

    @Test func aBodyWithoutAMethodIsAPostAndAGetOrHeadWithABodyIsRefused() throws {
        let posted = try RequestCommand.parse(["/adapters/JavaAdapter/users", "--form", "name=Ada"]).request()
        #expect(posted.method == .post)
        let json = try RequestCommand.parse(["/adapters/JavaAdapter/users", "--json", "{}"]).request()
        #expect(json.method == .post)
        let plain = try RequestCommand.parse(["/adapters/JSAdapter/greet", "--params", "[1]"]).request()
        #expect(plain.method == .get)
        let put = try RequestCommand.parse(["put", "/adapters/JavaAdapter/users/2", "--json", "{}"]).request()
        #expect(put.method == .put)
        for method in ["GET", "head"] {
            do {
                _ = try RequestCommand.parse([method, "/adapters/JavaAdapter/users", "--data", "x"])
                Issue.record("\(method) with a body was accepted")
            } catch {
                let message = RequestCommand.message(for: error)
                #expect(message.contains("\(method.uppercased()) sends no body"), "\(message)")
            }
        }
    }

    @Test func withoutOAuthA401IsNotRetried() async throws {
        let (backend, transport) = try makeBackend(
            #"{"url":"https://mfp.example.com/mfp/api","auth":{"type":"bearer","token":"tok-123"}}"#,
            Fixture.answer(401, #"{"error":"invalid_token"}"#))
        let response = try await backend.send(ResourceRequest(target: "/adapters/SecureAdapter/balance"))
        #expect(response.status == 401)
        #expect(transport.requests.count == 1)
    }

    @Test func aRefusingTokenEndpointIsATokenErrorNamingTheEndpointWithoutTheSecret() async throws {
        let (backend, transport) = try makeBackend(Fixture.oauth, Fixture.answer(401, #"{"error":"invalid_client"}"#))
        let error = await asyncFailure {
            _ = try await backend.send(ResourceRequest(target: "/adapters/SecureAdapter/balance"))
        }
        let thrown = try #require(error)
        #expect(thrown.kind == .token)
        #expect(
            thrown.description
                == "the token endpoint https://mfp.example.com/mfp/api/az/v1/token answered HTTP 401: "
                + #"{"error":"invalid_client"}; check auth.clientId, auth.clientSecret and auth.scope"#)
        #expect(!thrown.description.contains(Fixture.secret))
        #expect(thrown.category == .httpStatus)
        // No resource request without a token.
        #expect(transport.requests.count == 1)
    }

    @Test func aTokenEndpointEchoingTheSecretHasItMaskedInTheError() async throws {
        let body = #"{"error":"invalid_client","client_secret":"sample-client-secret"}"#
        let (backend, _) = try makeBackend(Fixture.oauth, secrets: [Fixture.secret], Fixture.answer(400, body))
        let error = await asyncFailure {
            _ = try await backend.send(ResourceRequest(target: "/adapters/SecureAdapter/balance"))
        }
        let thrown = try #require(error)
        #expect(thrown.kind == .token)
        #expect(thrown.description.contains(#""client_secret":"<redacted>""#), "\(thrown.description)")
        #expect(!thrown.description.contains(Fixture.secret))
    }

    @Test func aTokenAnswerWithoutAUsableAccessTokenIsATokenError() async throws {
        let bodies = [#"{"token_type":"Bearer"}"#, #"{"access_token":""}"#, #"{"access_token":42}"#, "not json"]
        for body in bodies {
            let (backend, transport) = try makeBackend(Fixture.oauth, Fixture.answer(200, body))
            let error = await asyncFailure {
                _ = try await backend.send(ResourceRequest(target: "/adapters/SecureAdapter/balance"))
            }
            #expect(
                error
                    == ResourceError(
                        kind: .token,
                        description:
                            "the token endpoint https://mfp.example.com/mfp/api/az/v1/token answered no access_token"),
                "\(body)")
            #expect(transport.requests.count == 1, "\(body)")
        }
    }

    @Test func incompleteOAuthSettingsAreAConfigurationError() throws {
        let configuration = """
            {"url":"https://mfp.example.com/mfp/api","auth":{"type":"oauth-client-credentials",
             "tokenURL":"/az/v1/token","clientId":"content-sample"}}
            """
        let error = failure { _ = try makeBackend(configuration) }
        #expect(
            error
                == ResourceError(
                    kind: .configuration,
                    description:
                        "backend 'mfp': auth type oauth-client-credentials needs tokenURL, clientId and clientSecret"))
        #expect(error?.category == .configuration)
    }

    // MARK: - The token cache on disk

    @Test func tokensAreCachedOnDiskWithMode0600AndReusedByTheNextBackend() async throws {
        let folder = try Fixture.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let environment = ["XDG_CACHE_HOME": folder.path]
        let (first, firstTransport) = try makeBackend(
            Fixture.oauth, environment: environment, Fixture.oauthServer(prefix: "first"))
        _ = try await first.send(ResourceRequest(target: "/adapters/SecureAdapter/balance"))
        #expect(tokenRequests(firstTransport).count == 1)

        let directory = folder.appendingPathComponent("content/oauth")
        let files = try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { $0.hasSuffix(".json") }
        #expect(files.count == 1)
        let file = directory.appendingPathComponent(try #require(files.first))
        let attributes = try FileManager.default.attributesOfItem(atPath: file.path)
        let mode = (attributes[.posixPermissions] as? NSNumber)?.intValue
        #expect(mode == 0o600)
        let cached = try JSONParser().parse(Array(try Data(contentsOf: file)))
        #expect(cached["access_token"] == JSONValue.string("first-1"))

        // Another backend (another command) with the same settings reads the cache and fetches nothing.
        let (second, secondTransport) = try makeBackend(
            Fixture.oauth, environment: environment, Fixture.oauthServer(prefix: "second"))
        _ = try await second.send(ResourceRequest(target: "/adapters/SecureAdapter/balance"))
        #expect(tokenRequests(secondTransport).isEmpty)
        #expect(resourceRequests(secondTransport).first?.headers["Authorization"] == "Bearer first-1")
    }

    @Test func aCachedTokenTheServerRefusesIsReplacedInTheCache() async throws {
        let folder = try Fixture.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let environment = ["XDG_CACHE_HOME": folder.path]
        let (first, _) = try makeBackend(Fixture.oauth, environment: environment, Fixture.oauthServer(prefix: "old"))
        _ = try await first.send(ResourceRequest(target: "/adapters/SecureAdapter/balance"))

        let (second, transport) = try makeBackend(
            Fixture.oauth, environment: environment,
            Fixture.oauthServer(prefix: "new", accepts: { $0.hasPrefix("new-") }))
        let response = try await second.send(ResourceRequest(target: "/adapters/SecureAdapter/balance"))
        #expect(response.status == 200)
        let bearers = resourceRequests(transport).map { $0.headers["Authorization"] }
        #expect(bearers == ["Bearer old-1", "Bearer new-1"])
        #expect(tokenRequests(transport).count == 1)

        let (third, thirdTransport) = try makeBackend(
            Fixture.oauth, environment: environment, Fixture.oauthServer(prefix: "third"))
        _ = try await third.send(ResourceRequest(target: "/adapters/SecureAdapter/balance"))
        #expect(tokenRequests(thirdTransport).isEmpty)
        #expect(resourceRequests(thirdTransport).first?.headers["Authorization"] == "Bearer new-1")
    }

    @Test func aDifferentScopeDoesNotReuseTheCachedToken() async throws {
        let folder = try Fixture.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let environment = ["XDG_CACHE_HOME": folder.path]
        let (first, _) = try makeBackend(Fixture.oauth, environment: environment, Fixture.oauthServer(prefix: "a"))
        _ = try await first.send(ResourceRequest(target: "/adapters/SecureAdapter/balance"))
        let other = Fixture.oauth.replacingOccurrences(of: #""scope":"accounts""#, with: #""scope":"profile""#)
        #expect(other != Fixture.oauth)
        let (second, transport) = try makeBackend(other, environment: environment, Fixture.oauthServer(prefix: "b"))
        _ = try await second.send(ResourceRequest(target: "/adapters/SecureAdapter/balance"))
        #expect(tokenRequests(transport).count == 1)
        #expect(text(tokenRequests(transport).first) == "grant_type=client_credentials&scope=profile")
        #expect(resourceRequests(transport).first?.headers["Authorization"] == "Bearer b-1")
    }

    /// A wrong secret must be refused by the token endpoint, never served the token a right one cached.
    @Test func aDifferentClientSecretDoesNotReuseTheCachedToken() async throws {
        let folder = try Fixture.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let environment = ["XDG_CACHE_HOME": folder.path]
        let (first, _) = try makeBackend(Fixture.oauth, environment: environment, Fixture.oauthServer(prefix: "a"))
        _ = try await first.send(ResourceRequest(target: "/adapters/SecureAdapter/balance"))
        let wrong = Fixture.oauth.replacingOccurrences(of: #""clientSecret":""#, with: #""clientSecret":"wrong-"#)
        #expect(wrong != Fixture.oauth)
        let (second, transport) = try makeBackend(wrong, environment: environment, Fixture.oauthServer(prefix: "b"))
        _ = try await second.send(ResourceRequest(target: "/adapters/SecureAdapter/balance"))
        #expect(tokenRequests(transport).count == 1)
        #expect(resourceRequests(transport).first?.headers["Authorization"] == "Bearer b-1")
        let names = try FileManager.default.contentsOfDirectory(
            atPath: folder.appendingPathComponent("content/oauth").path)
        #expect(names.filter { $0.hasSuffix(".json") }.count == 2)
        #expect(names.allSatisfy { !$0.contains("wrong") && !$0.contains("sample-client-secret") })
    }

    @Test func aRelativeXDGCacheHomeIsIgnoredForHomeDotCache() async throws {
        let folder = try Fixture.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let environment = ["XDG_CACHE_HOME": "relative/cache", "HOME": folder.path]
        let (backend, _) = try makeBackend(Fixture.oauth, environment: environment, Fixture.oauthServer())
        _ = try await backend.send(ResourceRequest(target: "/adapters/SecureAdapter/balance"))
        let directory = folder.appendingPathComponent(".cache/content/oauth")
        let files = try FileManager.default.contentsOfDirectory(atPath: directory.path)
        #expect(files.filter { $0.hasSuffix(".json") }.count == 1)
        #expect(!FileManager.default.fileExists(atPath: "relative/cache/content/oauth"))
    }

    // MARK: - Judging answers

    @Test func successStatusesPassRequireSuccess() throws {
        for status in [200, 201, 204, 299] {
            let response = HTTPTransportResponse(status: status, url: Fixture.base)
            let passed = (try? ResourceBackend.requireSuccess(response, redactor: Redactor())) != nil
            #expect(passed, "\(status)")
        }
    }

    @Test func anErrorStatusNamesTheStatusTheRedactedURLTheFirstBodyLineAndAHint() throws {
        let users = "https://mfp.example.com/mfp/api/adapters/JavaAdapter/users/9"
        let cases: [(status: Int, url: String, body: String, expected: String)] = [
            (
                404, users + "?key=abc123&x=1", "{\"error\":\"no user 9\"}\nsecond line",
                "HTTP 404 from \(users)?key=<redacted>&x=1: {\"error\":\"no user 9\"}; check the adapter name and path"
            ),
            (
                401, users, #"{"error":"invalid_token"}"#,
                #"HTTP 401 from \#(users): {"error":"invalid_token"}; check the backend's auth settings"#
            ),
            (
                403, users, "forbidden",
                "HTTP 403 from \(users): forbidden; the credentials lack the scope or role this resource needs"
            ),
            (500, users, "", "HTTP 500 from \(users)"),
            (502, users, "\n\nBad gateway\nmore", "HTTP 502 from \(users): Bad gateway"),
        ]
        for item in cases {
            let response = HTTPTransportResponse(status: item.status, body: Array(item.body.utf8), url: item.url)
            let error = failure { try ResourceBackend.requireSuccess(response, redactor: Redactor()) }
            #expect(error == ResourceError(kind: .httpStatus(item.status), description: item.expected))
            #expect(error?.category == .httpStatus)
        }
    }

    @Test func anErrorBodyHoldingAKnownSecretHasItMasked() throws {
        let response = HTTPTransportResponse(
            status: 500, body: Array("token tok-secret-123 rejected".utf8), url: Fixture.base + "/adapters/X")
        let error = failure {
            try ResourceBackend.requireSuccess(response, redactor: Redactor(secrets: ["tok-secret-123"]))
        }
        #expect(error?.description == "HTTP 500 from \(Fixture.base)/adapters/X: token <redacted> rejected")
    }

    @Test func jsonAndTextAreToldApartByContentType() {
        let json: [(String?, Bool)] = [
            ("application/json", true), ("application/json; charset=utf-8", true), ("APPLICATION/JSON", true),
            ("application/problem+json", true), ("application/vnd.api+json", true), ("text/plain", false),
            ("application/octet-stream", false), (nil, false),
        ]
        for (type, expected) in json {
            #expect(ResourceBackend.isJSON(Fixture.response(contentType: type)) == expected, "\(type ?? "none")")
        }
        let text: [(String?, Bool)] = [
            ("text/plain", true), ("text/html; charset=utf-8", true), ("application/xml", true),
            ("application/javascript", true), ("application/json", false), ("image/png", false), (nil, false),
        ]
        for (type, expected) in text {
            #expect(ResourceBackend.isText(Fixture.response(contentType: type)) == expected, "\(type ?? "none")")
        }
    }

    // MARK: - Reading JSON answers

    @Test func aTopLevelArrayIsTheItemsThemselves() throws {
        let response = HTTPTransportResponse(
            status: 200, body: Array(#"[{"id":1},{"id":2}]"#.utf8), url: Fixture.base, duration: .milliseconds(12))
        let result = try ResourceBackend.result(of: response, items: nil)
        #expect(result.metadata.itemsPath == nil)
        #expect(result.metadata.httpStatus == 200)
        #expect(result.metadata.duration == Duration.milliseconds(12))
        guard case .document(let document) = result.body else {
            Issue.record("expected a document")
            return
        }
        #expect(document.arrayValue?.count == 2)
    }

    @Test func theFirstArrayValuedFieldIsTheItemsOfAnObject() throws {
        let cases: [(body: String, path: JSONPath?)] = [
            (#"{"count":2,"users":[{"id":1}],"groups":[]}"#, JSONPath([.member("users")])),
            (#"{"isSuccessful":true,"sum":5.5}"#, nil),
            (#"{"a.b":[1,2]}"#, JSONPath([.member("a.b")])),
        ]
        for item in cases {
            let response = HTTPTransportResponse(status: 200, body: Array(item.body.utf8), url: Fixture.base)
            let result = try ResourceBackend.result(of: response, items: nil)
            #expect(result.metadata.itemsPath == item.path, "\(item.body)")
        }
    }

    @Test func theFirstArrayFieldIsFoundWhateverCharactersItsNameHas() throws {
        let response = HTTPTransportResponse(status: 200, body: Array(#"{"a\\b":[1,2]}"#.utf8), url: Fixture.base)
        let result = try ResourceBackend.result(of: response, items: nil)
        guard case .document(let document) = result.body else {
            Issue.record("expected a document")
            return
        }
        let items = result.metadata.itemsPath.flatMap { document.value(at: $0) }
        #expect(items == JSONValue.array([.number(JSONNumber(1)), .number(JSONNumber(2))]))
    }

    @Test func anExplicitItemsPathWinsOverTheFirstArrayField() throws {
        let response = HTTPTransportResponse(
            status: 200, body: Array(#"{"users":[1],"data":{"list":[2]}}"#.utf8), url: Fixture.base)
        let result = try ResourceBackend.result(of: response, items: "data.list")
        #expect(result.metadata.itemsPath == JSONPath([.member("data"), .member("list")]))
    }

    @Test func malformedJSONIsAMalformedResponseNamingURLLineAndColumn() throws {
        let url = Fixture.base + "/adapters/X"
        let oneLine = HTTPTransportResponse(status: 200, body: Array(#"{"a":"#.utf8), url: url)
        let error = failure { _ = try ResourceBackend.result(of: oneLine, items: nil) }
        let thrown = try #require(error)
        #expect(thrown.kind == .malformedResponse)
        #expect(thrown.category == .malformedInput)
        #expect(thrown.description.hasPrefix("\(url): malformed JSON at line 1, column "), "\(thrown.description)")
        let twoLines = HTTPTransportResponse(status: 200, body: Array("{\n  \"a\": ,\n}".utf8), url: url)
        let second = failure { _ = try ResourceBackend.result(of: twoLines, items: nil) }
        #expect(second?.description.hasPrefix("\(url): malformed JSON at line 2, column 8: ") == true)
    }

    // MARK: - Failure categories and configuration

    @Test func everyKindOfFailureHasItsExitCategory() {
        let expected: [(ResourceError.Kind, FailureCategory)] = [
            (.usage, .usage), (.configuration, .configuration), (.httpStatus(404), .httpStatus),
            (.httpStatus(500), .httpStatus), (.token, .httpStatus), (.malformedResponse, .malformedInput),
        ]
        for (kind, category) in expected {
            let error: any Error = ResourceError(kind: kind, description: "x")
            #expect(error.failureCategory == category, "\(kind)")
        }
    }

    @Test func aURLWithoutAnHTTPSchemeOrAHostIsAConfigurationError() {
        let urls = [
            "/mfp/api", "mfp.example.com/mfp/api", "http:///mfp/api", "ftp://mfp.example.com/x", "localhost:8080",
        ]
        for url in urls {
            let error = failure { _ = try makeBackend(#"{"url":"\#(url)"}"#) }
            #expect(
                error
                    == ResourceError(
                        kind: .configuration,
                        description:
                            "backend 'mfp': url '\(url)' needs a scheme (http or https) and a host; write it like "
                            + "https://mfp.example.com/mfp/api"),
                "\(url)")
        }
    }

    // MARK: - As a ContentBackend

    @Test func executeSendsTheMethodAndPathWithVariablesAsQueryAndReadsTheItems() async throws {
        let (backend, transport) = try makeBackend(
            Fixture.plain, Fixture.answer(200, #"{"total":1,"users":[{"id":1}]}"#))
        let result = try await backend.execute(
            ContentRequest(
                operation: "/adapters/JavaAdapter/users",
                variables: ["limit": .number(JSONNumber(5)), "q": .string("a b")]))
        #expect(result.metadata.itemsPath == JSONPath([.member("users")]))
        let request = try #require(transport.requests.first)
        #expect(request.method == .get)
        #expect(request.url == "https://mfp.example.com/mfp/api/adapters/JavaAdapter/users?limit=5&q=a%20b")
        _ = try await backend.execute(ContentRequest(operation: "post /adapters/JSAdapter/greet"))
        let posted = try #require(transport.requests.last)
        #expect(posted.method == .post)
        #expect(posted.url == "https://mfp.example.com/mfp/api/adapters/JSAdapter/greet")
    }

    @Test func executeThrowsTheStatusOfAnErrorAnswer() async throws {
        let (backend, _) = try makeBackend(Fixture.plain, Fixture.answer(404, #"{"error":"no user 9"}"#))
        let error = await asyncFailure {
            _ = try await backend.execute(ContentRequest(operation: "/adapters/JavaAdapter/users/9"))
        }
        #expect(error?.kind == ResourceError.Kind.httpStatus(404))
    }

    // MARK: - The dry run's curl command

    @Test func curlShowsEachKindOfCredentialAsAVariable() throws {
        let cases: [(configuration: String, bearer: String?, expected: String)] = [
            (
                #"{"url":"https://mfp.example.com/mfp/api","auth":{"type":"basic","username":"ada","#
                    + #""password":"pw-1"}}"#,
                nil, #"curl -sS --compressed 'https://mfp.example.com/mfp/api/adapters/X' -u "ada:$RESOURCE_PASSWORD""#
            ),
            (
                #"{"url":"https://mfp.example.com/mfp/api","auth":{"type":"bearer","token":"tok-123"}}"#, nil,
                #"curl -sS --compressed 'https://mfp.example.com/mfp/api/adapters/X' -H "Authorization: Bearer $RESOURCE_TOKEN""#
            ),
            (
                Fixture.oauth, "$ACCESS_TOKEN",
                #"curl -sS --compressed 'https://mfp.example.com/mfp/api/adapters/X' -H "Authorization: Bearer $ACCESS_TOKEN""#
            ),
            (
                #"{"url":"https://mfp.example.com/mfp/api","headers":{"X-Api-Key":"key-123","X-App":"content"}}"#,
                nil,
                #"curl -sS --compressed 'https://mfp.example.com/mfp/api/adapters/X' -H "X-Api-Key: $X_API_KEY" "#
                    + "-H 'X-App: content'"
            ),
        ]
        for item in cases {
            let (backend, _) = try makeBackend(item.configuration)
            let request = try backend.httpRequest(ResourceRequest(target: "/adapters/X"), bearer: item.bearer)
            let curl = ResourceInvocation.curl(request, auth: backend.configuration.auth)
            #expect(curl == item.expected)
            for secret in ["pw-1", "tok-123", Fixture.secret, "key-123"] {
                #expect(!curl.contains(secret), "\(curl)")
            }
        }
    }

    @Test func curlNeverShowsAnAuthorizationHeaderValueEvenWithoutAnAuthSection() throws {
        let (backend, _) = try makeBackend(
            #"{"url":"https://mfp.example.com/mfp/api","headers":{"Authorization":"Bearer cfg-secret-1"}}"#)
        let request = try backend.httpRequest(ResourceRequest(target: "/adapters/X"))
        #expect(request.headers["Authorization"] == "Bearer cfg-secret-1")
        let curl = ResourceInvocation.curl(request, auth: backend.configuration.auth)
        #expect(!curl.contains("cfg-secret-1"), "\(curl)")
    }

    @Test func curlQuotesBodiesForTheShellAndSendsBinaryBodiesOnStdin() throws {
        let (backend, _) = try makeBackend()
        let json = try backend.httpRequest(
            ResourceRequest(
                method: .put, target: "/adapters/JavaAdapter/users/2",
                body: .json(.object(["name": .string("O'Hara")]))))
        #expect(
            ResourceInvocation.curl(json, auth: nil)
                == #"curl -sS --compressed 'https://mfp.example.com/mfp/api/adapters/JavaAdapter/users/2' -X PUT "#
                + #"-H 'Content-Type: application/json' --data-binary '{"name":"O'\''Hara"}'"#)
        let binary = try backend.httpRequest(
            ResourceRequest(method: .post, target: "/adapters/Binary/echo", body: .raw([0, 1, 0xFF], contentType: nil)))
        #expect(
            ResourceInvocation.curl(binary, auth: nil)
                == "curl -sS --compressed 'https://mfp.example.com/mfp/api/adapters/Binary/echo' -X POST "
                + "-H 'Content-Type: application/octet-stream' --data-binary @- # 3 binary bytes on stdin")
    }

    // MARK: - Command-line pieces

    @Test func nameValueAndHeaderArgumentsSplitAtTheirFirstSeparator() throws {
        let pair = try RequestCommand.pair("url=http://x.example/?a=b", flag: "--query")
        #expect(pair.name == "url")
        #expect(pair.value == "http://x.example/?a=b")
        let empty = try RequestCommand.pair("empty=", flag: "--form")
        #expect(empty.name == "empty")
        #expect(empty.value == "")
        let header = try RequestCommand.header("X-Time:  12:30 ")
        #expect(header.name == "X-Time")
        #expect(header.value == "12:30")
        for bad in ["=x", "novalue"] {
            #expect(throws: (any Error).self, "\(bad)") { try RequestCommand.pair(bad, flag: "--query") }
        }
        for bad in [": x", "Bad Name: x", "no colon"] {
            #expect(throws: (any Error).self, "\(bad)") { try RequestCommand.header(bad) }
        }
    }
}
