internal import ContentEmulator
public import ContentGraphQL
internal import ContentJSON
public import Foundation
internal import GraphQL
internal import HTTPTypes
public import Hummingbird

/// The AEM headless HTTP API over a workspace: persisted queries, listing, and their caching headers.
///
/// Routes:
/// - `GET /graphql/execute.json/{config}/{name}` with variables as `;name=value` segments, in the raw
///   form or percent-encoded as Adobe's JS client sends them; `POST` with `{"variables": {…}}`.
/// - `GET /graphql/list.json` and `/graphql/list.json/{config}`.
///
/// Responses carry publish-tier `Cache-Control` and an `ETag`; `If-None-Match` gets 304. Errors are
/// shaped as AEM shapes them: an unknown configuration or query is 404, a query that fails validation
/// or execution is 200 with `errors`.
public struct AEMEmulator: Sendable {
    /// How the emulator behaves: which AEM tier it plays, and what it lets through.
    public struct Options: Sendable {
        /// The AEM tier.
        public enum Mode: String, Sendable, CaseIterable {
            /// Anonymous reads, no persisting (AEM publish).
            case publish
            /// Every request authenticated; persisting allowed (AEM author).
            case author
        }

        /// The tier.
        public var mode: Mode
        /// The basic-auth user author mode accepts.
        public var username: String
        /// The basic-auth password author mode accepts.
        public var password: String
        /// A bearer token author mode also accepts.
        public var token: String?
        /// An origin allowed to call from a browser (`*` for any).
        public var corsOrigin: String?
        /// Answer failing queries with 400/500 and `application/graphql-response+json`, as the GraphQL
        /// over HTTP spec says, instead of AEM's 200.
        public var graphqlResponseJSON: Bool
        /// Content Fragment Delivery's rate before 429 with `Retry-After` (AEM's is 200 a second); `nil` for none.
        public var deliveryRateLimit: RequestRate?

        /// Creates options.
        ///
        /// - Parameters:
        ///   - mode: The tier.
        ///   - username: The author-mode user.
        ///   - password: The author-mode password.
        ///   - token: An author-mode bearer token.
        ///   - corsOrigin: An origin allowed from browsers.
        ///   - graphqlResponseJSON: Whether failures use GraphQL-over-HTTP status codes.
        ///   - deliveryRateLimit: Content Fragment Delivery's rate before 429, or `nil`.
        public init(
            mode: Mode = .publish,
            username: String = "admin",
            password: String = "admin",
            token: String? = nil,
            corsOrigin: String? = nil,
            graphqlResponseJSON: Bool = false,
            deliveryRateLimit: RequestRate? = nil
        ) {
            self.mode = mode
            self.username = username
            self.password = password
            self.token = token
            self.corsOrigin = corsOrigin
            self.graphqlResponseJSON = graphqlResponseJSON
            self.deliveryRateLimit = deliveryRateLimit
        }
    }

    let store: FragmentStore
    let engine: AEMGraphQLEngine
    let options: Options
    /// Persisted-query answers, kept until a write.
    let answers = PersistedAnswers()
    /// The emulated IMS token endpoints, for the integrations in `aem/ims.yaml`.
    let ims: IMSIssuer
    /// Content Fragment Delivery's rate limit, when one is played.
    let deliveryLimit: RequestRateLimit?
    /// What the workspace's content packages could not give, to tell the user at start.
    public let notes: [String]

    /// The default publish-tier cache header.
    static let publishCacheControl = "max-age=60,s-maxage=7200,stale-while-revalidate=86400,stale-if-error=86400"
    /// The default author-tier cache header: AEM's author tier keeps shared caches to a minute too.
    static let authorCacheControl = "max-age=60,s-maxage=60,stale-while-revalidate=86400,stale-if-error=86400"

    /// The cache header of a persisted query that sets none, for the tier this emulator plays.
    var defaultCacheControl: String {
        options.mode == .author ? Self.authorCacheControl : Self.publishCacheControl
    }

    /// A persisted query's `Cache-Control`: the tier's defaults, with what the query sets in their place.
    ///
    /// Adobe's table ("Persisted GraphQL queries", Caching your persisted queries) maps a persist body's
    /// `cache-control: max-age` to the header's `max-age`, and `surrogate-control`'s `max-age`,
    /// `stale-while-revalidate` and `stale-if-error` to `s-maxage`, `stale-while-revalidate` and `stale-if-error`;
    /// "the cache-control is optional … as AEM can provide the default value", so what a query leaves out keeps the
    /// default. Anything else a query sets (`no-store`, say) is added after them.
    func cacheControl(_ query: AEMWorkspace.PersistedQuery) -> String {
        var directives = Self.directives(defaultCacheControl)
        func set(_ directive: (name: String, value: String?)) {
            if let index = directives.firstIndex(where: { $0.name == directive.name }) {
                directives[index].value = directive.value
            } else {
                directives.append(directive)
            }
        }
        Self.directives(query.cacheControl ?? "").forEach(set)
        for directive in Self.directives(query.surrogateControl ?? "") {
            set((directive.name == "max-age" ? "s-maxage" : directive.name, directive.value))
        }
        return directives.map { directive in directive.value.map { "\(directive.name)=\($0)" } ?? directive.name }
            .joined(separator: ",")
    }

    /// A `Cache-Control` value's directives, in order: names in lower case (HTTP compares them so), a directive such
    /// as `no-store` without a value, and commas inside a quoted value kept in it (RFC 9111, 5.2).
    static func directives(_ header: String) -> [(name: String, value: String?)] {
        var pieces: [Substring] = []
        var start = header.startIndex
        var quoted = false
        for index in header.indices {
            switch header[index] {
            case "\"": quoted.toggle()
            case "," where !quoted:
                pieces.append(header[start..<index])
                start = header.index(after: index)
            default: break
            }
        }
        pieces.append(header[start...])
        return pieces.compactMap { piece in
            let parts = piece.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard let first = parts.first else { return nil }
            let name = first.trimmingCharacters(in: .whitespaces).lowercased()
            guard !name.isEmpty else { return nil }
            return (name, parts.count == 2 ? parts[1].trimmingCharacters(in: .whitespaces) : nil)
        }
    }

    /// The content type of every GraphQL answer: AEM's JSON, or with `--graphql-response-json` the GraphQL over HTTP
    /// media type, which AEM then uses for all of them.
    var graphQLContentType: String {
        options.graphqlResponseJSON
            ? "application/graphql-response+json;charset=utf-8" : "application/json;charset=utf-8"
    }

    /// Loads a workspace's `aem/` folder into SQLite and builds its schema.
    ///
    /// - Parameters:
    ///   - directory: The `aem/` folder.
    ///   - dataFile: A database file to keep content in, or `nil` for memory.
    ///   - publishBase: The server's base URL, for `_publishUrl` and `_authorUrl`.
    ///   - options: The tier and what it lets through.
    ///   - limits: What one GraphQL request may ask.
    ///   - contentPackages: `jcr_root` folders of AEM content packages whose models and fragments load too.
    /// - Throws: ``EmulatorError``.
    public init(
        directory: URL, dataFile: String? = nil, publishBase: String, options: Options = Options(),
        limits: GraphQLLimits = GraphQLLimits(), contentPackages: [URL] = []
    ) throws {
        self.options = options
        let workspace = try AEMWorkspace(directory: directory, contentPackages: contentPackages)
        ims = try IMSIssuer(directory: directory)
        deliveryLimit = options.deliveryRateLimit.map(RequestRateLimit.init(rate:))
        notes = workspace.notes + [ims.summary].compactMap { $0 }
        store = try FragmentStore(path: dataFile)
        try store.seed(from: workspace)
        engine = try AEMGraphQLEngine(
            models: workspace.models, store: store, publishBase: publishBase, limits: limits)
    }

    /// Adds the AEM routes to a router.
    ///
    /// - Parameter router: The router.
    public func addRoutes(to router: Router<BasicRequestContext>) {
        if let origin = options.corsOrigin {
            // Only the allowed origin is answered, and a preflight is cached for 30 minutes (AEM's CORS policy
            // default), so a browser on another origin sees the refusal it would see on AEM.
            router.middlewares.add(
                CORSMiddleware(
                    allowOrigin: origin == "*" ? .all : .oneOf(origin),
                    allowHeaders: [.authorization, .contentType, .ifNoneMatch],
                    allowMethods: [.get, .head, .post, .put, .options],
                    exposedHeaders: ["ETag", "Cache-Control"],
                    maxAge: .seconds(1800)
                )
            )
        }
        if options.mode == .author {
            router.middlewares.add(AuthorAuthenticationMiddleware(options: options, ims: ims))
        }
        addIMSRoutes(to: router)
        router.put("/graphql/persist.json/{configuration}/{name}") { request, context in
            try await self.persist(request, context: context, isUpdate: false)
        }
        router.post("/graphql/persist.json/{configuration}/{name}") { request, context in
            try await self.persist(request, context: context, isUpdate: true)
        }
        router.post("/content/**") { request, _ in try await self.adHoc(request) }
        router.get("/content/**") { request, _ in try self.schemaDownload(request) }
        router.get("/content/dam/**") { request, _ in Self.placeholder(for: request.uri.path) }
        router.get("/adobe/dynamicmedia/deliver/**") { request, _ in Self.placeholder(for: request.uri.path) }
        // Without a path the GraphQL servlet answers as Adobe's troubleshooting page for persisted queries shows.
        for method in [HTTPRequest.Method.get, .post] {
            // The router takes this path with and without its trailing slash.
            router.on("/graphql/execute.json", method: method) { _, _ in Self.missingQueryPath }
        }
        router.get("/graphql/execute.json/**") { request, _ in await self.execute(request, variables: nil) }
        router.post("/graphql/execute.json/**") { request, context in
            let body = try await request.body.collect(upTo: 4 << 20)
            let parsed = try? JSONParser().parse(Array(body.readableBytesView))
            guard let parsed, case .object(let object) = parsed else {
                return self.json(status: .badRequest, ["message": .string("expected a JSON body {\"variables\": {…}}")])
            }
            return await self.execute(request, variables: object["variables"]?.objectValue ?? JSONObject())
        }
        // HEAD answers what GET would, without the body.
        router.head("/graphql/execute.json/**") { request, _ in
            Self.headOnly(await self.execute(request, variables: nil))
        }
        router.head("/graphql/list.json") { request, _ in
            Self.headOnly(self.list(configuration: nil, request: request))
        }
        router.head("/graphql/list.json/{configuration}") { request, context in
            Self.headOnly(self.list(configuration: context.parameters.get("configuration"), request: request))
        }
        router.get("/graphql/list.json") { request, _ in self.list(configuration: nil, request: request) }
        addDeliveryRoutes(to: router)
        router.get("/graphql/list.json/{configuration}") { request, context in
            self.list(configuration: context.parameters.get("configuration"), request: request)
        }
    }

    // MARK: - Persisted queries

    static var missingQueryPath: Response {
        text(
            status: .badRequest,
            "Suffix: '/' does not contain a path; call /graphql/execute.json/{configuration}/{query}")
    }

    private func execute(_ request: Request, variables posted: JSONObject?) async -> Response {
        let prefix = "/graphql/execute.json/"
        let rawPath = String(request.uri.path.dropFirst(prefix.count))
        guard !rawPath.isEmpty else { return Self.missingQueryPath }
        let decoded = rawPath.removingPercentEncoding ?? rawPath
        let address: Substring
        var pairs: [Substring] = []
        if let semicolon = decoded.firstIndex(of: ";") {
            address = decoded[..<semicolon]
            pairs = decoded[decoded.index(after: semicolon)...].split(separator: ";")
        } else {
            address = Substring(decoded)
        }
        let parts = address.split(separator: "/", maxSplits: 1)
        guard parts.count == 2 else {
            // A configuration without a query name: the servlet finds no endpoint, as for an unknown configuration.
            return servletError()
        }
        let configuration = String(parts[0])
        let name = String(parts[1])
        let key = PersistedAnswers.key(configuration: configuration, name: name, segments: pairs, posted: posted)
        if let kept = answers.answer(for: key) {
            return Self.revalidated(request, bytes: kept.bytes, etag: kept.etag, headers: kept.headers)
        }
        let stored: AEMWorkspace.PersistedQuery?
        do {
            guard try store.configurations().contains(configuration) else {
                return servletError()
            }
            stored = try store.persistedQuery(configuration: configuration, name: name)
        } catch {
            return json(status: .internalServerError, ["message": .string("\(error)")])
        }
        guard let stored else {
            return servletError(
                type: "PersistenceError", message: "Could not find Persisted Query",
                details: "Configuration: '\(configuration)' and Query Name: '\(name)' does not resolve to an existing "
                    + "Persistent Query")
        }
        var variables = posted ?? JSONObject()
        // Checked once (or taken from the documents already checked): read here for the declared variables, then run.
        // A query that does not validate still declares what its parsed text declares.
        let checked = engine.documents.request(stored.query)
        let declared =
            ((try? checked.get().document)
            ?? (try? GraphQLSource.parsedRequest(stored.query, limits: engine.limits).get()))
            .map(Self.declaredTypes) ?? [:]
        if posted == nil {
            for pair in pairs {
                let keyValue = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
                guard keyValue.count == 2, !keyValue[0].isEmpty else {
                    return json(
                        status: .badRequest,
                        ["message": .string("malformed variable segment ';\(pair)': expected ;name=value")]
                    )
                }
                let name = String(keyValue[0])
                let text = String(keyValue[1])
                // Strings go as they are; other declared types (Int, Float, Boolean, inputs) as JSON.
                if declared[name] == "String" || declared[name] == "ID" {
                    variables[name] = .string(text)
                } else {
                    variables[name] = (try? JSONParser().parse(text)) ?? .string(text)
                }
            }
        }
        // A variable the query does not declare is ignored, as graphql-java, which AEM runs, coerces the declared ones
        // only (`ValuesResolver`): an app that sends one shared set of variables to several queries works against AEM.
        let body = await engine.execute(checked, variables: variables, operationName: nil)
        if let failure = graphQLFailure(body, refusal: checked.map(\.document)) { return failure }
        let headers: HTTPFields = [.contentType: graphQLContentType, .cacheControl: cacheControl(stored)]
        let bytes = engine.serialized(body)
        let etag = Self.etag(bytes)
        // Only whole answers are kept: one with errors may come from a limit or a time budget, not the content.
        if body["errors"] == nil {
            answers.keep(PersistedAnswers.Answer(bytes: bytes, etag: etag, headers: headers), for: key)
        }
        return Self.revalidated(request, bytes: bytes, etag: etag, headers: headers)
    }

    /// The `ETag` of a body: made from its bytes, so the same answer has the same one.
    static func etag(_ bytes: [UInt8]) -> String {
        "\"\(stableUUID(String(decoding: bytes, as: UTF8.self)))\""
    }

    /// A 200 with the bytes and an `ETag` made from them, or 304 with the headers alone when the client holds them.
    static func revalidated(_ request: Request, bytes: [UInt8], headers: HTTPFields) -> Response {
        revalidated(request, bytes: bytes, etag: etag(bytes), headers: headers)
    }

    /// A 200 with the bytes and their `ETag`, or 304 with the headers alone when the client holds them.
    static func revalidated(_ request: Request, bytes: [UInt8], etag: String, headers: HTTPFields) -> Response {
        var headers = headers
        headers[.eTag] = etag
        if Self.isHeld(etag, ifNoneMatch: request.headers[.ifNoneMatch]) {
            headers[.contentType] = nil
            return Response(status: .notModified, headers: headers)
        }
        return Response(status: .ok, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(bytes: bytes)))
    }

    /// Whether `If-None-Match` names the `ETag`, as RFC 9110 (13.1.2) has a server compare them, and the Dispatcher's
    /// Apache in front of AEM does: `*` names any, the value may list several, and the comparison is weak (`W/"x"`
    /// holds `"x"`).
    ///
    /// - Parameters:
    ///   - etag: The answer's entity tag.
    ///   - ifNoneMatch: The request's header (several lines arrive joined by commas), or `nil`.
    /// - Returns: Whether the client holds this answer.
    static func isHeld(_ etag: String, ifNoneMatch: String?) -> Bool {
        guard let ifNoneMatch else { return false }
        func opaque(_ tag: some StringProtocol) -> Substring {
            let text = Substring(tag.trimmingCharacters(in: .whitespaces))
            return text.hasPrefix("W/") ? text.dropFirst(2) : text
        }
        let own = opaque(etag)
        return ifNoneMatch.split(separator: ",").contains { tag in
            let held = opaque(tag)
            return held == "*" || held == own
        }
    }

    /// The named type of each variable a query declares: `slug` → `String`.
    private static func declaredTypes(_ document: Document) -> [String: String] {
        var types: [String: String] = [:]
        for case let operation as OperationDefinition in document.definitions {
            for definition in operation.variableDefinitions {
                var type: any Type = definition.type
                while true {
                    if let nonNull = type as? NonNullType {
                        type = nonNull.type
                    } else if type is ListType {
                        types[definition.variable.name.value] = "List"
                        break
                    } else {
                        if let named = type as? NamedType { types[definition.variable.name.value] = named.name.value }
                        break
                    }
                }
            }
        }
        return types
    }

    private func list(configuration: String?, request: Request) -> Response {
        do {
            let queries = try store.persistedQueries(configuration: configuration)
            if configuration != nil, queries.isEmpty {
                return servletError()
            }
            var groups: [(String, [JSONValue])] = []
            for query in queries {
                let entry: JSONValue = .object([
                    "path": .object([
                        "shortForm": .string("/\(query.configuration)/\(query.name)"),
                        "longForm": .string(
                            "/conf/\(query.configuration)/settings/graphql/persistentQueries/\(query.name)"),
                    ]),
                    "data": .object([
                        "query": .string(query.query),
                        "cache-control": .string(query.cacheControl ?? defaultCacheControl),
                        "surrogate-control": query.surrogateControl.map(JSONValue.string) ?? .null,
                    ]),
                ])
                if let index = groups.firstIndex(where: { $0.0 == query.configuration }) {
                    groups[index].1.append(entry)
                } else {
                    groups.append((query.configuration, [entry]))
                }
            }
            let body: JSONValue = .array(
                groups.map { .object(["configurationName": .string($0.0), "queries": .array($0.1)]) }
            )
            return Self.json(status: .ok, body)
        } catch {
            return Self.json(status: .internalServerError, ["message": .string("\(error)")])
        }
    }

    // MARK: - Responses

    static func json(status: HTTPResponse.Status, _ body: JSONObject) -> Response {
        json(status: status, .object(body))
    }

    static func json(status: HTTPResponse.Status, _ body: JSONValue) -> Response {
        json(status: status, bytes: body.serialized())
    }

    static func json(status: HTTPResponse.Status, bytes: [UInt8]) -> Response {
        Response(
            status: status,
            headers: [.contentType: "application/json;charset=utf-8"],
            body: ResponseBody(byteBuffer: ByteBuffer(bytes: bytes))
        )
    }

    /// A JSON answer about a GraphQL request, in the media type GraphQL answers take here.
    func json(status: HTTPResponse.Status, _ body: JSONObject) -> Response {
        Response(
            status: status, headers: [.contentType: graphQLContentType],
            body: ResponseBody(byteBuffer: ByteBuffer(bytes: JSONValue.object(body).serialized())))
    }

    /// A response's status and headers, for `HEAD`.
    static func headOnly(_ response: Response) -> Response {
        Response(status: response.status, headers: response.headers)
    }

    /// A failure of the GraphQL servlet, in AEM's `{"errors": [{errorType, message, details}]}` form, which
    /// aem-headless-client-js reads as an API error.
    ///
    /// A configuration with no endpoint is answered `{"errors":[{"errorType":"ServletError","message":"Internal
    /// Servlet Failure","details":"No suitable endpoint found."}]}` (adobe/aem-guides-wknd#248, an AEM SDK of 2021-05);
    /// that report does not give the status, so it stays 404, as for an unknown query. An unknown persisted query is
    /// a `PersistenceError` "Could not find Persisted Query" naming the configuration and the query
    /// (adobe/aem-guides-wknd#368, on AEM 6.5).
    func servletError(
        status: HTTPResponse.Status = .notFound, type: String = "ServletError",
        message: String = "Internal Servlet Failure", details: String = "No suitable endpoint found."
    ) -> Response {
        let error: JSONObject = [
            "errorType": .string(type), "message": .string(message), "details": .string(details),
        ]
        return json(status: status, ["errors": .array([.object(error)])] as JSONObject)
    }

    static func text(status: HTTPResponse.Status, _ text: String) -> Response {
        Response(
            status: status,
            headers: [.contentType: "text/plain;charset=utf-8"],
            body: ResponseBody(byteBuffer: ByteBuffer(string: text))
        )
    }
}
