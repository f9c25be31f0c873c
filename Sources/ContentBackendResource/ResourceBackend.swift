public import ContentCore
package import ContentCredentials
internal import ContentJSON
internal import Foundation
internal import Logging

/// Sends REST resource requests to adapters (`/adapters/{Adapter}/{path}`) or any URL, in the style of
/// MobileFirst's `WLResourceRequest`, with the configured headers, timeout and authentication.
public struct ResourceBackend: ContentBackend {
    /// The backend's name.
    public let name: String
    package let configuration: ResourceConfiguration
    package let context: BackendContext
    package let tokens: AccessTokenSource?
    /// The grant `tokens` uses, kept to ask for another scope when a resource's challenge names one.
    private let grant: ClientCredentialsGrant?
    private let environment: [String: String]

    /// Creates a backend.
    ///
    /// - Parameters:
    ///   - name: The backend's name.
    ///   - configuration: Its settings.
    ///   - context: Transport and shared settings.
    ///   - environment: Where the token cache directory comes from.
    /// - Throws: ``ResourceError`` for a URL without scheme or host, or incomplete OAuth settings.
    public init(
        name: String, configuration: ResourceConfiguration, context: BackendContext,
        environment: [String: String] = [:]
    ) throws {
        if let problem = BackendURL.problem(configuration.url) {
            throw ResourceError(
                kind: .configuration,
                description: "backend '\(name)': url '\(context.redactor.redact(url: configuration.url))' \(problem); "
                    + "write it like https://mfp.example.com/mfp/api")
        }
        self.name = name
        self.configuration = configuration
        self.context = context
        self.environment = environment
        if let auth = configuration.auth, auth.type == .oauthClientCredentials {
            guard let tokenURL = auth.tokenURL, let clientID = auth.clientId, let secret = auth.clientSecret?.value
            else {
                throw ResourceError(
                    kind: .configuration,
                    description: "backend '\(name)': auth type oauth-client-credentials needs tokenURL, clientId "
                        + "and clientSecret")
            }
            let grant = ClientCredentialsGrant(
                tokenURL: Self.resolve(tokenURL, against: configuration.url), clientID: clientID,
                clientSecret: secret, scope: auth.scope)
            self.grant = grant
            tokens = AccessTokenSource(
                grant: grant, transport: context.transport, redactor: context.redactor, environment: environment)
        } else {
            grant = nil
            tokens = nil
        }
    }

    /// Runs `METHOD /path` (or just `/path` for GET), the request's variables as query parameters.
    ///
    /// - Parameter request: The request.
    /// - Returns: The JSON response, with its items at the top-level array or the first array-valued field.
    /// - Throws: ``ResourceError``, or a transport failure.
    public func execute(_ request: ContentRequest) async throws -> ContentResult {
        let words = request.operation.split(separator: " ", maxSplits: 1).map(String.init)
        let method = words.count == 2 ? HTTPTransportRequest.Method(rawValue: words[0]) : .get
        let target = words.count == 2 ? words[1] : request.operation
        let query = request.variables.members.map { member in
            (name: member.key, value: member.value.stringValue ?? member.value.jsonText)
        }
        let response = try await send(ResourceRequest(method: method, target: target, query: query))
        try Self.requireSuccess(response, redactor: context.redactor)
        return try Self.result(of: response, items: nil)
    }

    /// Sends a request; with OAuth, answers a resource's challenge as MobileFirst's `WLResourceRequest` does.
    ///
    /// A 401 `WWW-Authenticate: Bearer` fetches a new token and sends once more; a 403 `Bearer
    /// error="insufficient_scope", scope="…"` fetches a token for the scope the header names and sends once more
    /// (Developer Center, "Confidential clients": "extract the required scope from the 403 response and request a
    /// new token for this scope"; the web and Android SDKs do the same). A 401 or 403 without a Bearer challenge,
    /// from a proxy say, is answered as it is, as the SDKs answer it.
    ///
    /// - Parameter request: The request.
    /// - Returns: The response, whatever its status.
    /// - Throws: ``ResourceError``, or a transport failure.
    public func send(_ request: ResourceRequest) async throws -> HTTPTransportResponse {
        // Credentials go only to the configured origin, never to another host named by an absolute URL.
        guard let tokens, sendsCredentials(to: request.target) else {
            return try await context.transport.send(try httpRequest(request))
        }
        do {
            let response = try await sendReplacingRefusedToken(request, tokens: tokens, scope: nil)
            guard response.status == 403, let grant, let scope = Self.challengedScope(response),
                !Self.scopeElements(scope).isSubset(of: Self.scopeElements(grant.scope ?? ""))
            else { return response }
            return try await sendScoped(request, scope: scope, grant: grant, refused: response)
        } catch let error as TokenEndpointError {
            throw ResourceError(kind: .token, description: error.description)
        }
    }

    /// Sends a request again with a token for the scope a 403 named.
    ///
    /// A token kept for that scope and refused (the server restarted, or revoked it) is replaced once. When the
    /// token endpoint will not give that scope, the 403 is the answer, whose error says which scope the client needs.
    private func sendScoped(
        _ request: ResourceRequest, scope: String, grant: ClientCredentialsGrant, refused: HTTPTransportResponse
    ) async throws -> HTTPTransportResponse {
        context.logger.info("403 insufficient_scope: fetching a token for scope \"\(scope)\" and retrying once")
        var scoped = grant
        scoped.scope = scope
        let source = AccessTokenSource(
            grant: scoped, transport: context.transport, redactor: context.redactor, environment: environment)
        do {
            return try await sendReplacingRefusedToken(request, tokens: source, scope: scope)
        } catch let error as TokenEndpointError where error.status == 400 {
            // OAuth's answer to a scope the client may not have (`invalid_scope`, RFC 6749, 5.2); any other failure
            // of the token endpoint is the error.
            context.logger.info("the token endpoint would not give scope \"\(scope)\": \(error.description)")
            return refused
        }
    }

    /// Sends a request with a token from `tokens`; a 401 Bearer challenge (a kept token the server no longer
    /// takes) fetches a new one and sends once more.
    private func sendReplacingRefusedToken(
        _ request: ResourceRequest, tokens: AccessTokenSource, scope: String?
    ) async throws -> HTTPTransportResponse {
        let token = try await tokens.accessToken()
        let response = try await context.transport.send(try httpRequest(request, bearer: token))
        guard response.status == 401, Self.isBearerChallenge(response) else { return response }
        let held = scope.map { "the token kept for scope \"\($0)\"" } ?? "a cached token"
        context.logger.info("401 with \(held): fetching a new one from the token endpoint and retrying once")
        let fresh = try await tokens.accessToken(replacing: token)
        return try await context.transport.send(try httpRequest(request, bearer: fresh))
    }

    /// Whether a refusal is an OAuth challenge: a challenge of its `WWW-Authenticate` uses the Bearer scheme (the
    /// field may hold several, `Basic realm="x", Bearer error="…"`).
    static func isBearerChallenge(_ response: HTTPTransportResponse) -> Bool {
        guard let challenge = response.headers["WWW-Authenticate"] else { return false }
        return challenge.firstMatch(of: /(?i)(?:^|,)\s*bearer(?:\s|,|$)/) != nil
    }

    /// The scope a 403 challenge says a token must carry: `Bearer error="insufficient_scope", scope="…"`, when it
    /// is made of RFC 6749's scope characters (printable ASCII but `"` and `\`), so nothing else reaches a log or
    /// the token endpoint.
    static func challengedScope(_ response: HTTPTransportResponse) -> String? {
        guard isBearerChallenge(response), let challenge = response.headers["WWW-Authenticate"],
            challenge.contains("insufficient_scope"),
            let match = challenge.firstMatch(of: /(?:^|[\s,])scope="([^"]*)"/)
        else { return nil }
        let scope = String(match.1)
        let isScopeText = scope.unicodeScalars.allSatisfy { (0x20...0x7E).contains($0.value) && $0 != "\\" }
        guard isScopeText, !scopeElements(scope).isEmpty else { return nil }
        return scope
    }

    /// A scope's elements: a scope is a space-separated set, in any order (RFC 6749, 3.3).
    static func scopeElements(_ scope: String) -> Set<Substring> {
        Set(scope.split(separator: " "))
    }

    /// The HTTP request for a resource request; `--dry-run` prints it.
    ///
    /// - Parameters:
    ///   - request: The request.
    ///   - bearer: An OAuth access token, when there is one.
    /// - Returns: The HTTP request.
    /// - Throws: ``ResourceError`` of kind `usage` for unfilled or unknown path parameters.
    public func httpRequest(_ request: ResourceRequest, bearer: String? = nil) throws -> HTTPTransportRequest {
        var path = request.target
        for parameter in request.pathParameters {
            let placeholder = "{\(parameter.name)}"
            guard path.contains(placeholder) else {
                throw ResourceError(
                    kind: .usage, description: "--path \(parameter.name): \(request.target) has no \(placeholder)")
            }
            path = path.replacingOccurrences(of: placeholder, with: PercentEncoding.encode(parameter.value))
        }
        if let open = path.firstIndex(of: "{"), let close = path[open...].firstIndex(of: "}") {
            let name = path[path.index(after: open)..<close]
            throw ResourceError(
                kind: .usage, description: "\(request.target) has {\(name)}: give it with --path \(name)=VALUE")
        }
        var url = Self.resolve(path, against: configuration.url)
        var query = request.query
        var body = request.body
        if let params = request.params {
            // A JavaScript adapter reads its ordered arguments from `params`: the query on GET, the form otherwise.
            if request.method == .get || request.method == .head || request.method == .delete {
                query.append((name: "params", value: params.jsonText))
            } else {
                switch body {
                case .form(let fields)?: body = .form(fields + [(name: "params", value: params.jsonText)])
                case nil: body = .form([(name: "params", value: params.jsonText)])
                default:
                    throw ResourceError(
                        kind: .usage,
                        description: "--params goes in a form body on \(request.method); drop --json/--data")
                }
            }
        }
        if !query.isEmpty { url += (url.contains("?") ? "&" : "?") + PercentEncoding.pairs(query) }
        var headers = HeaderFields()
        for (name, value) in (configuration.headers ?? [:]).sorted(by: { $0.key < $1.key }) { headers[name] = value }
        var bytes: [UInt8]?
        switch body {
        case .form(let fields)?:
            headers["Content-Type"] = "application/x-www-form-urlencoded"
            bytes = Array(PercentEncoding.pairs(fields).utf8)
        case .json(let value)?:
            headers["Content-Type"] = "application/json"
            bytes = Array(value.serialized())
        case .raw(let data, let contentType)?:
            headers["Content-Type"] = contentType ?? "application/octet-stream"
            bytes = data
        case nil:
            break
        }
        let credentials = sendsCredentials(to: request.target)
        switch credentials ? configuration.auth?.type ?? .none : .none {
        case .none, .oauthClientCredentials:
            if let bearer, credentials { headers["Authorization"] = "Bearer \(bearer)" }
        case .basic:
            let user = configuration.auth?.username ?? ""
            let password = configuration.auth?.password?.value ?? ""
            headers["Authorization"] = "Basic " + Data("\(user):\(password)".utf8).base64EncodedString()
        case .bearer:
            if let token = configuration.auth?.token?.value { headers["Authorization"] = "Bearer \(token)" }
        }
        for header in request.headers { headers[header.name] = header.value }
        let timeout = request.timeout ?? configuration.timeout?.duration
        return HTTPTransportRequest(method: request.method, url: url, headers: headers, body: bytes, timeout: timeout)
    }

    /// Whether the configured credentials go with a request: for paths, and for absolute URLs of the
    /// configured origin.
    package func sendsCredentials(to target: String) -> Bool {
        guard Self.isAbsoluteURL(target) else { return true }
        return Self.origin(target) == Self.origin(configuration.url)
    }

    /// Whether a target starts with a URL scheme (`https://…`), rather than being a path.
    ///
    /// - Parameter target: A path or URL.
    /// - Returns: Whether it is an absolute URL.
    public static func isAbsoluteURL(_ target: String) -> Bool {
        target.range(of: #"^[A-Za-z][A-Za-z0-9+.-]*://"#, options: .regularExpression) != nil
    }

    package static func origin(_ url: String) -> String? {
        guard let components = URLComponents(string: url), let scheme = components.scheme?.lowercased(),
            let host = components.host?.lowercased()
        else { return nil }
        let port = components.port ?? (scheme == "https" ? 443 : 80)
        return "\(scheme)://\(host):\(port)"
    }

    /// A path resolved against the base URL: `/adapters/X` under `https://host/mfp/api` is
    /// `https://host/mfp/api/adapters/X`; an absolute URL stays as it is.
    package static func resolve(_ target: String, against base: String) -> String {
        if isAbsoluteURL(target) { return target }
        let trimmedBase = base.hasSuffix("/") ? String(base.dropLast()) : base
        return trimmedBase + (target.hasPrefix("/") ? target : "/" + target)
    }

    /// Throws for a non-2xx response: the status and the body's first line.
    ///
    /// - Parameters:
    ///   - response: The response.
    ///   - redactor: Masks secrets in the URL and body.
    /// - Throws: ``ResourceError`` of kind `httpStatus`.
    public static func requireSuccess(_ response: HTTPTransportResponse, redactor: Redactor) throws {
        guard !response.isSuccess else { return }
        let firstLine =
            String(decoding: response.body.prefix(500), as: UTF8.self).split(separator: "\n").first.map(String.init)
            ?? ""
        var hint = ""
        switch response.status {
        case 401: hint = "; check the backend's auth settings"
        case 403:
            // MobileFirst names the scope a resource needs in its challenge: Bearer error="insufficient_scope",
            // scope="…".
            if let scope = challengedScope(response) {
                hint =
                    "; the token lacks scope \"\(scope)\", which this resource needs: send a token that carries it "
                    + "(auth type oauth-client-credentials asks for one by itself, and the server must allow the "
                    + "confidential client that scope)"
            } else {
                hint = "; the credentials lack the scope or role this resource needs"
            }
        case 404: hint = "; check the adapter name and path"
        default: break
        }
        throw ResourceError(
            kind: .httpStatus(response.status),
            description: "HTTP \(response.status) from \(redactor.redact(url: response.url))"
                + (firstLine.isEmpty ? "" : ": \(redactor.redact(firstLine))") + hint)
    }

    /// Whether a response is JSON by its content type.
    ///
    /// - Parameter response: The response.
    /// - Returns: Whether to decode it as JSON.
    public static func isJSON(_ response: HTTPTransportResponse) -> Bool {
        let type = (response.headers["Content-Type"] ?? "").lowercased()
        return type.hasPrefix("application/json") || type.contains("+json")
    }

    /// Whether a response is text by its content type.
    ///
    /// - Parameter response: The response.
    /// - Returns: Whether it is text.
    public static func isText(_ response: HTTPTransportResponse) -> Bool {
        let type = (response.headers["Content-Type"] ?? "").lowercased()
        return type.hasPrefix("text/") || type.contains("xml") || type.contains("javascript")
    }

    /// A JSON response as a result, with items at `items`, else the top-level array, else the first
    /// array-valued field.
    ///
    /// - Parameters:
    ///   - response: A JSON response.
    ///   - items: An items path from `--items`.
    /// - Returns: The result.
    /// - Throws: ``ResourceError`` of kind `malformedResponse`.
    public static func result(of response: HTTPTransportResponse, items: String?) throws -> ContentResult {
        let document: JSONValue
        do {
            document = try JSONParser().parse(response.body)
        } catch {
            throw ResourceError(
                kind: .malformedResponse,
                description: "\(response.url): malformed JSON at line \(error.line), column \(error.column): "
                    + error.message)
        }
        var metadata = ContentResult.Metadata(httpStatus: response.status, duration: response.duration)
        if let items {
            metadata.itemsPath = try? JSONPath(parsing: items)
        } else if case .object(let object) = document,
            let field = object.members.first(where: { $0.value.arrayValue != nil })
        {
            metadata.itemsPath = JSONPath([.member(field.key)])
        }
        return ContentResult(body: .document(document), metadata: metadata)
    }
}
