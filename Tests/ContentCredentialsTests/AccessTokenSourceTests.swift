import ContentCore
import ContentJSON
import ContentTesting
import Foundation
import Logging
import Testing

@testable import ContentCredentials

/// Token requests as each grant sends them, and tokens kept, shared and renewed.
struct AccessTokenSourceTests {
    static let s2s = IMSServerToServerGrant(
        imsURL: "https://ims.example/", clientID: "client-1", clientSecret: "s2s-secret-value",
        scopes: ["openid", "AdobeID", "aem.folders"])

    static func respond(_ status: Int, _ body: String, to request: HTTPTransportRequest) -> HTTPTransportResponse {
        HTTPTransportResponse(
            status: status, headers: ["Content-Type": "application/json"], body: Array(body.utf8), url: request.url)
    }

    /// A token endpoint answering `prefix-N` with `expires_in`, and an API at any other URL that takes `accepted`.
    static func server(
        prefix: String = "t", expiresIn: String = "86399",
        accepted: @escaping @Sendable (String) -> Bool = { _ in true }
    ) -> ScriptedTransport {
        let counter = NSLock()
        nonisolated(unsafe) var issued = 0
        return ScriptedTransport { request in
            if request.url.contains("/ims/") {
                let number = counter.withLock {
                    issued += 1
                    return issued
                }
                return respond(
                    200, #"{"access_token":"\#(prefix)-\#(number)","expires_in":\#(expiresIn)}"#, to: request)
            }
            let token = String((request.headers["Authorization"] ?? "").dropFirst("Bearer ".count))
            return accepted(token) ? respond(200, "{}", to: request) : respond(401, #"{"error":"x"}"#, to: request)
        }
    }

    static func body(_ request: HTTPTransportRequest?) -> String {
        String(decoding: request?.body ?? [], as: UTF8.self)
    }

    @Test func serverToServerSendsIMSsDocumentedForm() throws {
        let request = Self.s2s.tokenRequest()
        #expect(request.url == "https://ims.example/ims/token/v3")
        #expect(request.method == .post)
        #expect(request.headers["Content-Type"] == "application/x-www-form-urlencoded")
        #expect(
            Self.body(request)
                == "grant_type=client_credentials&client_id=client-1&client_secret=s2s-secret-value"
                + "&scope=openid%2CAdobeID%2Caem.folders")
        // Nothing secret in the URL, which servers and proxies log.
        #expect(!request.url.contains("secret"))
    }

    @Test func serviceCredentialsSendTheClientAndASignedJWT() throws {
        let credentials = try ServiceCredentials(contentsOf: ServiceCredentialsTests.file)
        let grant = IMSServiceCredentialsGrant(credentials: credentials)
        #expect(grant.tokenURL == "https://ims-na1.adobelogin.com/ims/exchange/jwt")
        let local = IMSServiceCredentialsGrant(credentials: credentials, imsURL: "http://127.0.0.1:4503")
        #expect(local.tokenURL == "http://127.0.0.1:4503/ims/exchange/jwt")
        let fields = Self.body(try local.tokenRequest()).split(separator: "&").map { $0.split(separator: "=")[0] }
        #expect(fields == ["client_id", "client_secret", "jwt_token"])
        // The JWT exchange gives milliseconds, the OAuth endpoint seconds.
        #expect(local.lifetime(of: .object(["expires_in": .number(JSONNumber(86_399_958))])) == 86_399.958)
        #expect(Self.s2s.lifetime(of: .object(["expires_in": .number(JSONNumber(86_399))])) == 86_399)
        #expect(Self.s2s.lifetime(of: .object(["expires_in": .string("120")])) == 120)
    }

    @Test func aTokenIsFetchedOnceCachedInAPrivateFileAndReusedByTheNextProcess() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let environment = ["XDG_CACHE_HOME": directory.root]
        let transport = Self.server()
        let first = AccessTokenSource(
            grant: Self.s2s, transport: transport, redactor: Redactor(), environment: environment)
        #expect(try await first.accessToken() == "t-1")
        #expect(try await first.accessToken() == "t-1")
        let folder = directory.path("content/oauth")
        let files = try FileManager.default.contentsOfDirectory(atPath: folder)
        #expect(files.count == 1)
        let file = try #require(files.first)
        let mode = try FileManager.default.attributesOfItem(atPath: folder + "/" + file)[.posixPermissions] as? Int
        #expect(mode == 0o600)
        let folderMode = try FileManager.default.attributesOfItem(atPath: folder)[.posixPermissions] as? Int
        #expect(folderMode == 0o700)
        // The name is a hash: it shows neither the client nor the secret.
        #expect(!file.contains("client-1") && !file.contains("secret"))
        let second = AccessTokenSource(
            grant: Self.s2s, transport: transport, redactor: Redactor(), environment: environment)
        #expect(try await second.accessToken() == "t-1")
        #expect(transport.requests.count == 1)
        // A refused token is replaced, also in the file another process reads.
        #expect(try await second.accessToken(replacing: "t-1") == "t-2")
        let third = AccessTokenSource(
            grant: Self.s2s, transport: transport, redactor: Redactor(), environment: environment)
        #expect(try await third.accessToken() == "t-2")
        #expect(transport.requests.count == 2)
    }

    @Test func anotherSecretDoesNotGetTheCachedToken() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let environment = ["XDG_CACHE_HOME": directory.root]
        let transport = Self.server()
        var wrong = Self.s2s
        wrong.clientSecret = "another-secret"
        let right = AccessTokenSource(
            grant: Self.s2s, transport: transport, redactor: Redactor(), environment: environment)
        let other = AccessTokenSource(
            grant: wrong, transport: transport, redactor: Redactor(), environment: environment)
        #expect(right.identity != other.identity)
        #expect(try await right.accessToken() == "t-1")
        #expect(try await other.accessToken() == "t-2")
    }

    @Test func anExpiredTokenIsNotReused() async throws {
        let transport = Self.server(expiresIn: "10")
        // Renewed 30 s early, a 10 s token is never reused.
        let source = AccessTokenSource(grant: Self.s2s, transport: transport, redactor: Redactor(), environment: [:])
        #expect(try await source.accessToken() == "t-1")
        #expect(try await source.accessToken() == "t-2")
    }

    @Test func aRefusalNamesTheEndpointAndWhatToCheckWithoutTheSecret() async throws {
        let transport = ScriptedTransport { request in
            Self.respond(
                400, #"{"error":"invalid_client","echo":"s2s-secret-value"}"#, to: request)
        }
        let source = AccessTokenSource(grant: Self.s2s, transport: transport, redactor: Redactor(), environment: [:])
        do {
            _ = try await source.accessToken()
            Issue.record("a refusal gave a token")
        } catch let error as TokenEndpointError {
            #expect(
                error.description
                    == #"the token endpoint https://ims.example/ims/token/v3 answered HTTP 400: {"error":"invalid_client","#
                    + #""echo":"<redacted>"}; check auth.clientId, auth.clientSecret and auth.scopes against the "#
                    + "credential in the Developer Console")
            #expect(error.category == .httpStatus)
        }
        for body in [#"{"token_type":"bearer"}"#, #"{"access_token":""}"#, "<html>"] {
            let source = AccessTokenSource(
                grant: Self.s2s, transport: ScriptedTransport { Self.respond(200, body, to: $0) }, redactor: Redactor(),
                environment: [:])
            await #expect(throws: TokenEndpointError.self) { _ = try await source.accessToken() }
        }
    }

    @Test func theTransportSignsOnlyItsOriginAndRenewsOnceOnA401() async throws {
        // The API accepts only the second token: the first is refused, renewed once, and the request resent.
        let transport = Self.server(accepted: { $0 == "t-2" })
        let tokens = AccessTokenSource(grant: Self.s2s, transport: transport, redactor: Redactor(), environment: [:])
        let signed = BearerTokenTransport(
            base: transport, tokens: tokens, origin: "https://author.example", headers: ["X-Api-Key": "client-1"],
            logger: Logger(label: "test"))
        let response = try await signed.send(
            HTTPTransportRequest(method: .put, url: "https://AUTHOR.example:443/graphql/persist.json/a/b"))
        #expect(response.status == 200)
        let api = transport.requests.filter { !$0.url.contains("/ims/") }
        #expect(api.map { $0.headers["Authorization"] } == ["Bearer t-1", "Bearer t-2"])
        #expect(api.allSatisfy { $0.headers["X-Api-Key"] == "client-1" && $0.method == .put })
        // Another origin gets neither the token nor the key.
        _ = try await signed.send(HTTPTransportRequest(url: "https://cdn.example/image.jpg"))
        #expect(transport.requests.last?.headers["Authorization"] == nil)
        #expect(transport.requests.last?.headers["X-Api-Key"] == nil)
        #expect(transport.requests.count == 5)
    }

    @Test func aSecond401IsTheAnswerNotALoop() async throws {
        let transport = Self.server(accepted: { _ in false })
        let tokens = AccessTokenSource(grant: Self.s2s, transport: transport, redactor: Redactor(), environment: [:])
        let signed = BearerTokenTransport(
            base: transport, tokens: tokens, origin: "https://author.example", logger: Logger(label: "test"))
        let response = try await signed.send(HTTPTransportRequest(url: "https://author.example/graphql/list.json"))
        #expect(response.status == 401)
        #expect(transport.requests.count == 4)
    }
}
