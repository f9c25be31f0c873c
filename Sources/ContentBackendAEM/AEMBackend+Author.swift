public import ContentCore
public import ContentJSON
internal import ContentKit

extension AEMBackend {
    /// Runs a persisted query by POST with `{"variables": …}`, for values a GET URL cannot carry.
    ///
    /// - Parameter request: The operation and variables.
    /// - Returns: The result.
    /// - Throws: ``AEMError`` and transport failures.
    public func executeByPost(_ request: ContentRequest) async throws -> ContentResult {
        let (configuration, name) = address(of: request.operation)
        let response = try await context.transport.send(postRequest(for: request))
        return try result(from: try decode(response, persisted: "\(configuration)/\(name)"), response: response)
    }

    /// The POST form of a persisted-query request: `{"variables": …}` in the body.
    package func postRequest(for request: ContentRequest) -> HTTPTransportRequest {
        let (configuration, name) = address(of: request.operation)
        let body: JSONValue = .object(["variables": .object(request.variables)])
        var outgoing = HTTPTransportRequest(
            method: .post,
            url: "\(base)/graphql/execute.json/\(configuration)/\(name)",
            headers: headers,
            body: body.serialized(),
            isRetryable: true
        )
        outgoing.headers["Content-Type"] = "application/json"
        return outgoing
    }

    /// Runs an ad-hoc query on the configuration's GraphQL endpoint.
    ///
    /// - Parameters:
    ///   - query: The GraphQL text.
    ///   - variables: Its variables.
    /// - Returns: The result.
    /// - Throws: ``AEMError`` and transport failures.
    public func executeAdHoc(query: String, variables: JSONObject) async throws -> ContentResult {
        // The `_cq_graphql` spelling: it is the one Adobe documents for apps ("GraphQL endpoints": "your app can
        // use the following path in the request URL: /content/_cq_graphql/global/endpoint.json") and the one the
        // default Dispatcher filters let through (`/url "/content/_cq_graphql/*/endpoint.json"`); `cq:graphql` is the
        // repository node's own name, refused on a publish tier behind a Dispatcher.
        let url = "\(base)/content/_cq_graphql/\(queryConfiguration)/endpoint.json"
        let body: JSONValue = .object(["query": .string(query), "variables": .object(variables)])
        return try await post(url, body: body, persisted: "\(queryConfiguration) endpoint", retryable: true)
    }

    /// Creates (PUT) or updates (POST) a persisted query; author tier only.
    ///
    /// - Parameters:
    ///   - operation: `CONFIG/NAME`.
    ///   - query: The GraphQL text.
    ///   - cacheMaxAge: The `max-age` to serve it with, if any.
    ///   - update: Whether to update an existing query instead of creating one.
    /// - Returns: AEM's answer (`action`, `configurationName`, `name`, `shortPath`, `path`).
    /// - Throws: ``AEMError`` and transport failures.
    public func persist(operation: String, query: String, cacheMaxAge: Int?, update: Bool) async throws -> ContentResult
    {
        let (configuration, name) = address(of: operation)
        var body: JSONObject = ["query": .string(query)]
        if let cacheMaxAge { body["cache-control"] = .object(["max-age": .number(JSONNumber(cacheMaxAge))]) }
        var request = HTTPTransportRequest(
            method: update ? .post : .put,
            url: "\(base)/graphql/persist.json/\(configuration)/\(name)",
            headers: headers,
            body: JSONValue.object(body).serialized(),
            isRetryable: false
        )
        request.headers["Content-Type"] = "application/json"
        let response = try await context.transport.send(request)
        let document = try decode(response, persisted: "\(configuration)/\(name)")
        return ContentResult(body: .document(document), metadata: .init(httpStatus: response.status))
    }

    private func post(_ url: String, body: JSONValue, persisted: String, retryable: Bool) async throws -> ContentResult
    {
        var request = HTTPTransportRequest(
            method: .post, url: url, headers: headers, body: body.serialized(), isRetryable: retryable)
        request.headers["Content-Type"] = "application/json"
        let response = try await context.transport.send(request)
        return try result(from: try decode(response, persisted: persisted), response: response)
    }
}

extension AEMBackend {
    /// The persisted queries on the server (`list.json`), each as AEM describes it: `path.shortForm`,
    /// `path.longForm`, `data.query`, `data.cache-control`.
    ///
    /// - Parameter configuration: Only this configuration, or all.
    /// - Returns: The entries, flattened across configurations.
    /// - Throws: ``AEMError`` and transport failures.
    package func persistedQueryList(configuration: String?) async throws -> [JSONValue] {
        let url =
            "\(base)/graphql/list.json" + (configuration.map { "/\(PersistedQueryURL.encodeURIComponent($0))" } ?? "")
        let response = try await context.transport.send(HTTPTransportRequest(url: url, headers: headers))
        let document = try decode(response, persisted: configuration ?? "list.json")
        return (document.arrayValue ?? []).flatMap { $0["queries"]?.arrayValue ?? [] }
    }

    /// The variable types a persisted query declares, read from the server's `list.json`; empty when
    /// the server does not say (then `--param` values are inferred).
    ///
    /// - Parameter operation: `CONFIG/NAME` or `NAME`.
    /// - Returns: Variable name → declared type name.
    package func declaredVariables(of operation: String) async -> [String: String] {
        await listedVariables(of: operation) ?? [:]
    }

    /// The variable types a persisted query declares, or `nil` when the server's `list.json` does not list it (a
    /// publish tier behind a Dispatcher may not serve the list).
    ///
    /// - Parameter operation: `CONFIG/NAME` or `NAME`.
    /// - Returns: Variable name → declared type name, or `nil`.
    package func listedVariables(of operation: String) async -> [String: String]? {
        let (configuration, name) = address(of: operation)
        let queries = (try? await persistedQueryList(configuration: configuration)) ?? []
        let query = queries.first { $0["path"]?["shortForm"]?.stringValue == "/\(configuration)/\(name)" }
        guard let text = query?["data"]?["query"]?.stringValue else { return nil }
        return Self.declaredTypes(in: text)
    }

    /// An asset's bytes: a DAM `_path`, a `_dynamicUrl`, or a full URL, fetched with the backend's auth.
    ///
    /// - Parameter path: Where the asset is.
    /// - Returns: The body, byte for byte.
    /// - Throws: ``AEMError`` for an error status, and transport failures.
    package func fetchAsset(_ path: String) async throws -> [UInt8] {
        let url =
            path.hasPrefix("http://") || path.hasPrefix("https://")
            ? path : base + (path.hasPrefix("/") ? path : "/" + path)
        let response = try await context.transport.send(HTTPTransportRequest(url: url, headers: headers))
        guard response.isSuccess else {
            throw AEMError(
                kind: .httpStatus(response.status),
                description: "\(context.redactor.redact(url: url)): HTTP \(response.status)"
            )
        }
        return response.body
    }

    /// The variable types a query declares: `$limit: Int` → `limit: Int`, lists by their element type.
    package static func declaredTypes(in query: String) -> [String: String] {
        var types: [String: String] = [:]
        var rest = Substring(query)
        while let dollar = rest.firstIndex(of: "$") {
            rest = rest[rest.index(after: dollar)...]
            let name = rest.prefix { $0.isLetter || $0.isNumber || $0 == "_" }
            var after = rest.dropFirst(name.count).drop { $0 == " " || $0 == "\t" || $0 == "\n" }
            guard !name.isEmpty, after.first == ":" else { continue }
            after = after.dropFirst().drop { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "[" }
            let type = after.prefix { $0.isLetter || $0.isNumber || $0 == "_" }
            if !type.isEmpty, types[String(name)] == nil { types[String(name)] = String(type) }
        }
        return types
    }
}
