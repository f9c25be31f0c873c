internal import ContentCore
internal import ContentEmulator
internal import ContentJSON
public import Foundation
internal import HTTPTypes
public import Hummingbird
internal import NIOConcurrencyHelpers
internal import NIOCore

/// Sample MobileFirst-style adapters under `/mfp/api`, for `content request` and its tests.
///
/// - `POST /mfp/api/az/v1/token`: OAuth client credentials (HTTP Basic client id and secret, form
///   `grant_type=client_credentials&scope=…`); `DELETE` revokes every token issued so far.
/// - `/mfp/api/adapters/JavaAdapter/users[/{id}]`: users CRUD (form or JSON bodies);
///   `/mfp/api/adapters/JavaAdapter/echo/{value}`: the method, path, query, headers, form and JSON back.
/// - `/mfp/api/adapters/JSAdapter/{procedure}`: JavaScript-style procedures taking `params` (a JSON array, or
///   the single-quoted literal MobileFirst's tutorials send; in the query on GET, in the form or the query on
///   POST): `greet`, `add`, `getUsers`.
/// - `/mfp/api/adapters/Binary/bytes?size=N` and `POST …/Binary/echo`: bytes, byte for byte.
/// - `/mfp/api/adapters/SecureAdapter/balance`: needs a bearer token from the token endpoint with scope
///   `RegisteredClient accounts`, as `@OAuthSecurity(scope = "accounts")` would; the other adapters are open, as
///   `@OAuthSecurity(enabled = false)` makes a resource.
/// - `/mfp/api/adapters/Slow/wait?ms=N` and `/mfp/api/adapters/Redirect/to?url=U`: for timeouts and redirects.
///
/// An answer over 20 KB is gzipped for a client that accepts gzip (``LargeResponseCompression``).
public struct ResourceEmulator: Sendable {
    private struct State {
        var users: [Int: JSONObject]
        var nextID: Int
        var tokens: [String: (client: String, scopes: [String], expires: Date)]
    }

    private let workspace: ResourceWorkspace
    private let state: NIOLockedValueBox<State>

    /// Reads `resource/resource.yaml` (optional) and starts with its users.
    ///
    /// - Parameter directory: The `resource/` folder.
    /// - Throws: ``EmulatorError`` for a malformed `resource.yaml`.
    public init(directory: URL) throws {
        workspace = try ResourceWorkspace.load(from: directory)
        var users: [Int: JSONObject] = [:]
        for user in workspace.users ?? [] {
            users[user.id] = [
                "id": .number(JSONNumber(user.id)), "name": .string(user.name),
                "email": user.email.map(JSONValue.string) ?? .null,
            ]
        }
        state = NIOLockedValueBox(State(users: users, nextID: (users.keys.max() ?? 0) + 1, tokens: [:]))
    }

    /// Adds the adapter routes to a router.
    ///
    /// - Parameter router: The router.
    public func addRoutes(to router: Router<BasicRequestContext>) {
        let api = "/mfp/api"
        router.add(middleware: LargeResponseCompression())
        router.post("\(api)/az/v1/token") { request, _ in try await self.token(request) }
        router.delete("\(api)/az/v1/token") { _, _ in
            self.state.withLockedValue { $0.tokens = [:] }
            return Response(status: .noContent)
        }
        let users = "\(api)/adapters/JavaAdapter/users"
        router.get(RouterPath(users)) { _, _ in
            let list = self.state.withLockedValue { state in state.users.keys.sorted().compactMap { state.users[$0] } }
            return Self.json(.ok, .array(list.map(JSONValue.object)))
        }
        router.post(RouterPath(users)) { request, _ in try await self.createUser(request) }
        router.get("\(users)/{id}") { _, context in self.user(context) }
        router.put("\(users)/{id}") { request, context in try await self.updateUser(request, context: context) }
        router.delete("\(users)/{id}") { _, context in
            let id = context.parameters.get("id").flatMap(Int.init) ?? -1
            let removed = self.state.withLockedValue { $0.users.removeValue(forKey: id) }
            return removed == nil
                ? Self.json(.notFound, ["error": .string("no user \(id)")]) : Response(status: .noContent)
        }
        for method in [HTTPRequest.Method.get, .post, .put, .delete, .patch] {
            router.on("\(api)/adapters/JavaAdapter/echo/{value}", method: method) { request, context in
                try await self.echo(request, context: context)
            }
        }
        router.get("\(api)/adapters/JSAdapter/{procedure}") { request, context in
            try await self.procedure(request, context: context)
        }
        router.post("\(api)/adapters/JSAdapter/{procedure}") { request, context in
            try await self.procedure(request, context: context)
        }
        router.get("\(api)/adapters/Binary/bytes") { request, _ in
            let size = min(max(request.uri.queryParameters.get("size").flatMap(Int.init) ?? 256, 0), 64 << 20)
            let bytes = (0..<size).map { UInt8(truncatingIfNeeded: $0) }
            return Response(
                status: .ok, headers: [.contentType: "application/octet-stream"],
                body: ResponseBody(byteBuffer: ByteBuffer(bytes: bytes)))
        }
        router.post("\(api)/adapters/Binary/echo") { request, _ in
            // A body cut short or badly chunked is the client's error (400), one too large 413: Hummingbird's answers.
            let body = try await request.body.collect(upTo: 64 << 20)
            return Response(
                status: .ok, headers: [.contentType: request.headers[.contentType] ?? "application/octet-stream"],
                body: ResponseBody(byteBuffer: body))
        }
        router.get("\(api)/adapters/SecureAdapter/balance") { request, _ in self.balance(request) }
        router.get("\(api)/adapters/Slow/wait") { request, _ in
            let milliseconds = min(max(request.uri.queryParameters.get("ms").flatMap(Int.init) ?? 1000, 0), 60_000)
            try await Task.sleep(for: .milliseconds(milliseconds))
            return Self.json(.ok, ["waited": .number(JSONNumber(milliseconds))])
        }
        router.get("\(api)/adapters/Redirect/to") { request, _ in
            guard let target = request.uri.queryParameters.get("url") else {
                return Self.json(.badRequest, ["error": .string("give ?url=")])
            }
            return Response(status: .found, headers: [.location: target])
        }
    }

    // MARK: - OAuth

    private func token(_ request: Request) async throws -> Response {
        let form = try await Self.form(request)
        guard form["grant_type"] == "client_credentials" else {
            return Self.json(.badRequest, ["error": .string("unsupported_grant_type")])
        }
        var clientID = form["client_id"]
        var secret = form["client_secret"]
        if let header = request.headers[.authorization], header.hasPrefix("Basic "),
            let decoded = Data(base64Encoded: String(header.dropFirst(6))).map({ String(decoding: $0, as: UTF8.self) }),
            let colon = decoded.firstIndex(of: ":")
        {
            clientID = String(decoded[..<colon])
            secret = String(decoded[decoded.index(after: colon)...])
        }
        let clients = (workspace.oauth?.clients ?? []) + [Self.developmentClient]
        guard let client = clients.first(where: { $0.clientId == clientID && $0.clientSecret == secret }) else {
            return Self.json(.unauthorized, ["error": .string("invalid_client")])
        }
        // Without a scope the token gets the default one, RegisteredClient ("omit this parameter to apply the
        // default scope (RegisteredClient)", Developer Center, "Confidential clients").
        let words = form["scope"]?.split(separator: " ").map(String.init) ?? []
        let asked = words.isEmpty ? [Self.registeredClient] : words
        // Every confidential client is a registered one, so RegisteredClient is granted whatever its allowed scope
        // lists; the Developer Center does not say so in as many words, but a 403 asks every client for it.
        let allowed = (client.scopes ?? []) + [Self.registeredClient]
        if let missing = asked.first(where: { element in allowed.contains { Self.allows($0, element) } == false }) {
            return Self.json(.badRequest, ["error": .string("invalid_scope"), "scope": .string(missing)])
        }
        let lifetime = workspace.oauth?.tokenLifetime?.duration.components.seconds ?? 3600
        let value = UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased()
        let expires = Date().addingTimeInterval(TimeInterval(lifetime))
        state.withLockedValue { $0.tokens[value] = (client.clientId, asked, expires) }
        // The whole seconds left once the token is stored: MobileFirst's answer for its default hour is
        // `"expires_in": 3599` (Developer Center, "Confidential clients"; the corpus's facts).
        let left = max(0, Int(expires.timeIntervalSinceNow.rounded(.down)))
        var response = Self.json(
            .ok,
            [
                "access_token": .string(value), "token_type": .string("Bearer"),
                "expires_in": .number(JSONNumber(left)), "scope": .string(asked.joined(separator: " ")),
            ])
        // A token response is not to be kept by a cache (RFC 6749, 5.1; MobileFirst's own answer carries both).
        response.headers[.cacheControl] = "no-store"
        if let pragma = HTTPField.Name("Pragma") { response.headers[pragma] = "no-cache" }
        return response
    }

    /// Whether an allowed scope element of a client admits an asked one: equal, or a pattern with `*` ("`send*`
    /// … 'sendMessage'"; a lone `*` admits any), as MobileFirst's confidential clients take them.
    static func allows(_ pattern: String, _ element: String) -> Bool {
        let pieces = pattern.split(separator: "*", omittingEmptySubsequences: false)
        guard let first = pieces.first, let last = pieces.last, pieces.count > 1 else { return pattern == element }
        guard element.hasPrefix(first) else { return false }
        var rest = Substring(element).dropFirst(first.count)
        // The pieces between stars, each at its first place after the one before; the last must end the element.
        for piece in pieces.dropFirst().dropLast() where !piece.isEmpty {
            guard let found = rest.range(of: piece) else { return false }
            rest = rest[found.upperBound...]
        }
        return rest.hasSuffix(last)
    }

    /// The confidential client a MobileFirst development server has without configuration.
    ///
    /// `test`, secret `test`, any scope (Developer Center, "Confidential clients": "available only in development
    /// mode"). This server is one.
    static let developmentClient = ResourceWorkspace.OAuth.Client(clientId: "test", clientSecret: "test", scopes: ["*"])

    /// A refusal with its `WWW-Authenticate` challenge and `{"error": …}` body.
    private static func challenge(_ status: HTTPResponse.Status, _ challenge: String, error: String) -> Response {
        var response = json(status, ["error": .string(error)])
        response.headers[.wwwAuthenticate] = challenge
        return response
    }

    /// The reserved scope element every protected resource needs besides its own: MobileFirst's challenge names it
    /// first (`scope="RegisteredClient a b"`, Developer Center, "Confidential clients").
    static let registeredClient = "RegisteredClient"

    /// The scope SecureAdapter's resources are protected by, as `@OAuthSecurity(scope = "accounts")` makes it.
    static let secureScope = [registeredClient, "accounts"]

    /// The balance, for a token with the resource's scope.
    ///
    /// The challenges are MobileFirst's (Developer Center, "Confidential clients", possible responses): no token is
    /// 401 `WWW-Authenticate: Bearer`; an expired or unknown one 401 `Bearer error="invalid_token"`; one without the
    /// scope 403 `Bearer error="insufficient_scope", scope="…"`.
    private func balance(_ request: Request) -> Response {
        let header = request.headers[.authorization] ?? ""
        guard header.hasPrefix("Bearer "), !header.dropFirst(7).isEmpty else {
            return Self.challenge(.unauthorized, "Bearer", error: "no access token: send Authorization: Bearer")
        }
        let grant = state.withLockedValue { $0.tokens[String(header.dropFirst(7))] }
        guard let grant, grant.expires > Date() else {
            return Self.challenge(.unauthorized, "Bearer error=\"invalid_token\"", error: "invalid_token")
        }
        guard Self.secureScope.allSatisfy(grant.scopes.contains) else {
            return Self.challenge(
                .forbidden,
                "Bearer error=\"insufficient_scope\", scope=\"\(Self.secureScope.joined(separator: " "))\"",
                error: "insufficient_scope")
        }
        return Self.json(.ok, ["client": .string(grant.client), "balance": .number(JSONNumber(text: "1024.5"))])
    }

    // MARK: - JavaAdapter

    private func user(_ context: BasicRequestContext) -> Response {
        let id = context.parameters.get("id").flatMap(Int.init) ?? -1
        guard let user = state.withLockedValue({ $0.users[id] }) else {
            return Self.json(.notFound, ["error": .string("no user \(id)")])
        }
        return Self.json(.ok, .object(user))
    }

    private func createUser(_ request: Request) async throws -> Response {
        let fields = try await Self.fields(request)
        guard let name = fields["name"]?.stringValue, !name.isEmpty else {
            return Self.json(.badRequest, ["error": .string("name is required (form field or JSON member)")])
        }
        let user = state.withLockedValue { state -> JSONObject in
            let id = state.nextID
            state.nextID += 1
            let user: JSONObject = [
                "id": .number(JSONNumber(id)), "name": .string(name), "email": fields["email"] ?? .null,
            ]
            state.users[id] = user
            return user
        }
        return Self.json(.created, .object(user))
    }

    private func updateUser(_ request: Request, context: BasicRequestContext) async throws -> Response {
        let id = context.parameters.get("id").flatMap(Int.init) ?? -1
        let fields = try await Self.fields(request)
        let updated = state.withLockedValue { state -> JSONObject? in
            guard var user = state.users[id] else { return nil }
            for key in ["name", "email"] { if let value = fields[key] { user[key] = value } }
            state.users[id] = user
            return user
        }
        guard let updated else { return Self.json(.notFound, ["error": .string("no user \(id)")]) }
        return Self.json(.ok, .object(updated))
    }

    private func echo(_ request: Request, context: BasicRequestContext) async throws -> Response {
        let body = Array(try await request.body.collect(upTo: 16 << 20).readableBytesView)
        var query = JSONObject()
        for (name, value) in request.uri.queryParameters { query[String(name)] = .string(String(value)) }
        var headers = JSONObject()
        for field in request.headers { headers[field.name.canonicalName] = .string(field.value) }
        var form = JSONObject()
        let type = request.headers[.contentType] ?? ""
        if type.hasPrefix("application/x-www-form-urlencoded") {
            for (name, value) in FormFields.decode(String(decoding: body, as: UTF8.self)) {
                form[name] = .string(value)
            }
        }
        let json = type.hasPrefix("application/json") ? (try? JSONParser().parse(body)) : nil
        return Self.json(
            .ok,
            [
                "method": .string(request.method.rawValue), "path": .string(request.uri.path),
                "value": .string((context.parameters.get("value") ?? "").removingPercentEncoding ?? ""),
                "query": .object(query),
                "headers": .object(headers), "form": .object(form), "json": json ?? .null,
                "bodyBytes": .number(JSONNumber(body.count)),
            ])
    }

    // MARK: - JSAdapter

    private func procedure(_ request: Request, context: BasicRequestContext) async throws -> Response {
        let name = context.parameters.get("procedure") ?? ""
        // On POST the form's params, else the query's, as IBM's own samples send them on a POST.
        let query: String? = request.uri.queryParameters.get("params").map { String($0) }
        let raw = request.method == .get ? query : try await Self.form(request)["params"] ?? query
        let params: [JSONValue]
        if let raw {
            guard let array = JavaScriptArrayLiteral.parse(raw) else {
                return Self.json(
                    .badRequest,
                    [
                        "isSuccessful": .bool(false),
                        "errors": .array([.string("params must be an array: [\"a\", 2] or ['a', 2]")]),
                    ])
            }
            params = array
        } else {
            params = []
        }
        var result: JSONObject = ["isSuccessful": .bool(true)]
        switch name {
        case "greet":
            result["greeting"] = .string("Hello, \(params.first?.stringValue ?? "world")!")
        case "add":
            let numbers = params.compactMap { value -> Double? in
                if case .number(let number) = value { return number.doubleValue }
                return value.stringValue.flatMap(Double.init)
            }
            guard numbers.count == params.count else {
                return Self.json(
                    .badRequest, ["isSuccessful": .bool(false), "errors": .array([.string("add takes numbers")])])
            }
            let sum = numbers.reduce(0, +)
            result["sum"] = .number(JSONNumber(text: sum == sum.rounded() ? String(Int64(sum)) : String(sum)))
        case "getUsers":
            let list = state.withLockedValue { state in state.users.keys.sorted().compactMap { state.users[$0] } }
            result["users"] = .array(list.map(JSONValue.object))
        default:
            return Self.json(
                .notFound,
                ["isSuccessful": .bool(false), "errors": .array([.string("JSAdapter has no procedure \(name)")])])
        }
        return Self.json(.ok, .object(result))
    }

    // MARK: - Helpers

    private static func form(_ request: Request) async throws -> [String: String] {
        guard (request.headers[.contentType] ?? "").hasPrefix("application/x-www-form-urlencoded") else { return [:] }
        let body = try await request.body.collect(upTo: 1 << 20)
        return Dictionary(
            FormFields.decode(String(buffer: body)).map { ($0.name, $0.value) }, uniquingKeysWith: { _, last in last })
    }

    /// Form fields or JSON members, as JSON values.
    private static func fields(_ request: Request) async throws -> JSONObject {
        let type = request.headers[.contentType] ?? ""
        let body = try await request.body.collect(upTo: 1 << 20)
        if type.hasPrefix("application/json") {
            return (try? JSONParser().parse(Array(body.readableBytesView)))?.objectValue ?? JSONObject()
        }
        var object = JSONObject()
        for field in FormFields.decode(String(buffer: body)) { object[field.name] = .string(field.value) }
        return object
    }

    private static func json(_ status: HTTPResponse.Status, _ body: JSONObject) -> Response {
        json(status, .object(body))
    }

    private static func json(_ status: HTTPResponse.Status, _ body: JSONValue) -> Response {
        Response(
            status: status, headers: [.contentType: "application/json"],
            body: ResponseBody(byteBuffer: ByteBuffer(bytes: body.serialized())))
    }
}
