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
/// - `/mfp/api/adapters/JSAdapter/{procedure}`: JavaScript-style procedures taking `params` (a JSON array,
///   in the query on GET, in the form on POST): `greet`, `add`, `getUsers`.
/// - `/mfp/api/adapters/Binary/bytes?size=N` and `POST …/Binary/echo`: bytes, byte for byte.
/// - `/mfp/api/adapters/SecureAdapter/balance`: needs a bearer token from the token endpoint.
/// - `/mfp/api/adapters/Slow/wait?ms=N` and `/mfp/api/adapters/Redirect/to?url=U`: for timeouts and redirects.
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
        guard
            let client = workspace.oauth?.clients.first(where: { $0.clientId == clientID && $0.clientSecret == secret })
        else {
            return Self.json(.unauthorized, ["error": .string("invalid_client")])
        }
        let asked = form["scope"]?.split(separator: " ").map(String.init) ?? []
        let allowed = client.scopes ?? []
        if let missing = asked.first(where: { !allowed.contains($0) }) {
            return Self.json(.badRequest, ["error": .string("invalid_scope"), "scope": .string(missing)])
        }
        let lifetime = workspace.oauth?.tokenLifetime?.duration.components.seconds ?? 3600
        let value = UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased()
        state.withLockedValue {
            $0.tokens[value] = (client.clientId, asked, Date().addingTimeInterval(TimeInterval(lifetime)))
        }
        return Self.json(
            .ok,
            [
                "access_token": .string(value), "token_type": .string("Bearer"),
                "expires_in": .number(JSONNumber(Int(lifetime))), "scope": .string(asked.joined(separator: " ")),
            ])
    }

    private func balance(_ request: Request) -> Response {
        let header = request.headers[.authorization] ?? ""
        let token = header.hasPrefix("Bearer ") ? String(header.dropFirst(7)) : ""
        let grant = state.withLockedValue { $0.tokens[token] }
        guard let grant, grant.expires > Date() else {
            var response = Self.json(.unauthorized, ["error": .string("invalid_token")])
            response.headers[.wwwAuthenticate] = "Bearer error=\"invalid_token\""
            return response
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
        let raw =
            request.method == .get ? request.uri.queryParameters.get("params") : try await Self.form(request)["params"]
        let params: [JSONValue]
        if let raw {
            guard let parsed = try? JSONParser().parse(raw), let array = parsed.arrayValue else {
                return Self.json(
                    .badRequest,
                    ["isSuccessful": .bool(false), "errors": .array([.string("params must be a JSON array")])])
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
