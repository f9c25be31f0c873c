internal import ContentEmulator
internal import ContentGraphQL
internal import ContentJSON
internal import Foundation
internal import GraphQL
internal import Hummingbird

extension AEMEmulator {
    /// `PUT` (create) or `POST` (update) `/graphql/persist.json/{config}/{name}`: author mode only.
    ///
    /// The body is the query text, or JSON with `query` and `cache-control` (`{"max-age": 300}`).
    func persist(_ request: Request, context: BasicRequestContext, isUpdate: Bool) async throws -> Response {
        guard options.mode == .author else {
            return Self.json(
                status: .methodNotAllowed,
                ["message": .string("persisting is author-only; start the emulator with --mode author")]
            )
        }
        let configuration = context.parameters.get("configuration") ?? ""
        let name = context.parameters.get("name") ?? ""
        let body = try await request.body.collect(upTo: 1 << 20)
        let text = String(decoding: body.readableBytesView, as: UTF8.self)
        var query = text
        var cacheControl: String?
        if let parsed = try? JSONParser().parse(text), case .object(let object) = parsed {
            guard let queryText = object["query"]?.stringValue else {
                return Self.json(status: .badRequest, ["message": .string("a JSON body needs a \"query\" string")])
            }
            query = queryText
            switch object["cache-control"] {
            case .some(.object(let control)):
                cacheControl = control.members.map { "\($0.key)=\(CellValue.text($0.value))" }.joined(separator: ",")
            case .some(.string(let control)):
                cacheControl = control
            default:
                break
            }
        }
        do {
            _ = try GraphQLSource.parse(query, path: "query", limits: engine.limits)
        } catch {
            return Self.json(status: .badRequest, ["message": .string("the query does not parse: \(error)")])
        }
        let existed = try store.persistedQuery(configuration: configuration, name: name) != nil
        if existed && !isUpdate {
            return Self.json(
                status: .conflict,
                ["message": .string("\(configuration)/\(name) exists; update it with POST")]
            )
        }
        if !existed && isUpdate {
            return Self.json(
                status: .notFound,
                ["message": .string("\(configuration)/\(name) does not exist; create it with PUT")]
            )
        }
        try store.savePersistedQuery(
            AEMWorkspace.PersistedQuery(
                configuration: configuration, name: name, query: query, cacheControl: cacheControl)
        )
        return Self.json(
            status: isUpdate ? .ok : .created,
            [
                "action": .string(isUpdate ? "update" : "create"),
                "configurationName": .string(configuration),
                "name": .string(name),
                "shortPath": .string("/\(configuration)/\(name)"),
                "path": .string("/conf/\(configuration)/settings/graphql/persistentQueries/\(name)"),
            ]
        )
    }

    /// `POST /content/cq:graphql/{config}/endpoint.json` (or `_cq_graphql`): an ad-hoc query.
    func adHoc(_ request: Request) async throws -> Response {
        let path = request.uri.path.removingPercentEncoding ?? request.uri.path
        let parts = path.split(separator: "/")
        guard parts.count == 4, parts[0] == "content", parts[1] == "cq:graphql" || parts[1] == "_cq_graphql",
            parts[3] == "endpoint.json"
        else {
            return Self.text(status: .notFound, "No suitable endpoint found.")
        }
        let configuration = String(parts[2])
        guard try store.configurations().contains(configuration) || configuration == "global" else {
            return Self.text(status: .notFound, "No suitable endpoint found.")
        }
        guard request.declaresJSON else {
            return Self.json(
                status: .unsupportedMediaType,
                ["message": .string("send the query as JSON with Content-Type: application/json")])
        }
        let body = try await request.body.collect(upTo: 4 << 20)
        guard let parsed = try? JSONParser().parse(Array(body.readableBytesView)), case .object(let object) = parsed,
            let query = object["query"]?.stringValue
        else {
            return Self.json(
                status: .badRequest, ["message": .string("expected a JSON body {\"query\": …, \"variables\": {…}}")])
        }
        let result = await engine.execute(
            query: query,
            variables: object["variables"]?.objectValue ?? JSONObject(),
            operationName: object["operationName"]?.stringValue
        )
        if let failure = graphQLFailure(result) { return failure }
        return Self.json(status: .ok, bytes: engine.serialized(result))
    }

    /// With `--graphql-response-json`, a result without data becomes 400 (the request was bad) or 500
    /// (execution failed); otherwise AEM answers 200 and this returns nil.
    func graphQLFailure(_ body: JSONValue) -> Response? {
        guard options.graphqlResponseJSON, let errors = body["errors"]?.arrayValue, !errors.isEmpty else { return nil }
        // Data present: a partial success, still 200. No data: execution errors carry a `path`,
        // request errors (parse, validation, variables) do not.
        if let data = body["data"], data != .null { return nil }
        let executed = errors.contains { $0["path"] != nil }
        let status: HTTPResponse.Status = executed ? .internalServerError : .badRequest
        return Response(
            status: status,
            headers: [.contentType: "application/graphql-response+json;charset=utf-8"],
            body: ResponseBody(byteBuffer: ByteBuffer(bytes: body.serialized()))
        )
    }

    /// A placeholder image of the type the path's extension names.
    static func placeholder(for path: String) -> Response {
        let file = path.split(separator: "?").first.map(String.init) ?? path
        let fileExtension = file.split(separator: ".").last.map(String.init) ?? "jpg"
        let image = PlaceholderImage.image(forExtension: fileExtension)
        return Response(
            status: .ok,
            headers: [.contentType: image.contentType, .cacheControl: publishCacheControl],
            body: ResponseBody(byteBuffer: ByteBuffer(bytes: image.bytes))
        )
    }
}

/// Author mode: every request needs basic auth or the bearer token; 401 otherwise.
struct AuthorAuthenticationMiddleware: RouterMiddleware {
    typealias Context = BasicRequestContext
    let options: AEMEmulator.Options

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws
        -> Response
    {
        if request.method == .options { return try await next(request, context) }
        let header = request.headers[.authorization] ?? ""
        let basic = "Basic " + Data("\(options.username):\(options.password)".utf8).base64EncodedString()
        let bearer = options.token.map { "Bearer \($0)" }
        guard header == basic || (bearer != nil && header == bearer) else {
            return Response(
                status: .unauthorized,
                headers: [
                    .wwwAuthenticate: "Basic realm=\"content emulator (author)\"", .contentType: "application/json",
                ],
                body: ResponseBody(
                    byteBuffer: ByteBuffer(
                        string: #"{"message":"author mode needs basic auth or the configured bearer token"}"#
                    )
                )
            )
        }
        return try await next(request, context)
    }
}

/// How a JSON value reads inside a header such as `Cache-Control`.
enum CellValue {
    static func text(_ value: JSONValue) -> String {
        switch value {
        case .string(let string): return string
        case .number(let number): return number.text
        case .bool(let flag): return flag ? "true" : "false"
        default: return value.jsonText
        }
    }
}
