internal import ContentAEM
internal import ContentDataConnect
internal import ContentEmulator
internal import ContentGraphQL
internal import ContentJSON
internal import Foundation
internal import GraphQL
internal import OrderedCollections

/// Executes GraphQL against the fragments in a ``FragmentStore``, with the schema AEM would generate.
///
/// The query text is parsed and validated by GraphQLSwift; list, by-path and paginated fields load a
/// model's fragments from SQLite, filter, sort and page them, and render each one with its references
/// resolved.
struct AEMGraphQLEngine: Sendable {
    let schema: GraphQLSchema
    let store: FragmentStore
    let models: [String: ContentFragmentModel]
    let publishBase: String
    let limits: GraphQLLimits

    /// Builds the schema for a workspace's models.
    ///
    /// - Parameters:
    ///   - models: The content fragment models.
    ///   - store: Where the fragments are.
    ///   - publishBase: The server's own base URL, for `_publishUrl` and `_authorUrl`.
    ///   - limits: What one request may ask.
    /// - Throws: ``EmulatorError/workspace(_:)`` when the models do not make a valid schema.
    init(models: [ContentFragmentModel], store: FragmentStore, publishBase: String, limits: GraphQLLimits) throws {
        self.store = store
        self.limits = limits
        self.publishBase = publishBase
        self.models = Dictionary(models.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        do {
            schema = try AEMDefinitions(models: models).schema()
        } catch {
            throw EmulatorError.workspace("the models do not make a valid GraphQL schema: \(error)")
        }
        try attachResolvers(models)
    }

    /// Runs a query.
    ///
    /// - Parameters:
    ///   - query: The GraphQL text.
    ///   - variables: The variables, as JSON.
    ///   - operationName: Which operation, when the text has several.
    /// - Returns: The response body, as AEM shapes it: `data` and/or `errors`.
    func execute(query: String, variables: JSONObject, operationName: String?) async -> JSONValue {
        await execute(
            GraphQLSource.request(query, schema: schema, limits: limits), variables: variables,
            operationName: operationName)
    }

    /// Runs a query already checked with ``GraphQLSource``, or answers with why it was refused.
    ///
    /// - Parameters:
    ///   - checked: The validated document, or the errors that refused it.
    ///   - variables: The variables, as JSON.
    ///   - operationName: Which operation, when the text has several.
    /// - Returns: The response body, as AEM shapes it: `data` and/or `errors`.
    func execute(_ checked: Result<Document, GraphQLRequestErrors>, variables: JSONObject, operationName: String?)
        async -> JSONValue
    {
        let document: Document
        switch checked {
        case .success(let valid): document = valid
        case .failure(let refusal): return .object(["errors": .array(refusal.json)])
        }
        var values: [String: Map] = [:]
        for member in variables.members { values[member.key] = GraphQLJSON.map(member.value) }
        do {
            let result = try await GraphQLExecution.execute(
                schema: schema, document: document, context: (), variables: values, operationName: operationName,
                limits: limits)
            var body = JSONObject()
            if let data = result.data { body["data"] = GraphQLJSON.json(data) }
            if !result.errors.isEmpty {
                body["errors"] = .array(result.errors.map(GraphQLJSON.json))
            }
            return .object(body)
        } catch let error as GraphQLError {
            return .object(["errors": .array([GraphQLJSON.json(error)])])
        } catch {
            return .object(["errors": .array([.object(["message": .string("\(error)")])])])
        }
    }

    /// The response body's bytes, or an error in its place when they pass ``GraphQLLimits/responseBytes``.
    ///
    /// - Parameter body: The response body.
    /// - Returns: The bytes to send.
    func serialized(_ body: JSONValue) -> [UInt8] {
        switch GraphQLExecution.responseBytes(body, limits: limits) {
        case .success(let bytes): return bytes
        case .failure(let oversized):
            return JSONValue.object(["errors": .array([.object(["message": .string(oversized.message)])])]).serialized()
        }
    }

    // MARK: - Resolvers

    private func attachResolvers(_ models: [ContentFragmentModel]) throws {
        guard let query = schema.queryType else { return }
        let fields = try query.fields()
        for model in models {
            fields["\(model.name)List"]?.resolve = { _, args, _, _ in
                // A request that ran out of time or lost its client stops before the next load.
                try Task.checkCancellation()
                let items = try self.select(model: model, args: args)
                let offset = max(0, args["offset"].int ?? 0)
                var page = Array(items.dropFirst(offset))
                if let limit = args["limit"].int { page = Array(page.prefix(max(0, limit))) }
                let transform = AssetTransform(args["_assetTransform"])
                let rendered: [(any Sendable)?] = try page.map {
                    try Task.checkCancellation()
                    return try self.render($0, transform: transform, depth: 0)
                }
                return [
                    "items": rendered,
                    "_references": try self.references(of: page, transform: transform),
                ] as [String: any Sendable]
            }
            fields["\(model.name)ByPath"]?.resolve = { _, args, _, _ in
                try Task.checkCancellation()
                let path = args["_path"].string ?? ""
                guard let fragment = try self.store.fragment(path: path), fragment.model == model.name else {
                    throw ResolverFailure("no \(model.name) content fragment at \(path)")
                }
                let transform = AssetTransform(args["_assetTransform"])
                let item = try self.render(fragment, transform: transform, depth: 0)
                return [
                    "item": item,
                    "_references": try self.references(of: [fragment], transform: transform),
                ] as [String: any Sendable]
            }
            fields["\(model.name)Paginated"]?.resolve = { _, args, _, _ in
                try Task.checkCancellation()
                let items = try self.select(model: model, args: args)
                let first = args["first"].int ?? 50
                guard (1...100).contains(first) else {
                    throw ResolverFailure("first must be between 1 and 100, was \(first)")
                }
                var start = 0
                if let after = args["after"].string {
                    guard let index = Self.cursorIndex(after) else {
                        throw ResolverFailure("after is not a cursor this server issued: \(after)")
                    }
                    start = index + 1
                }
                let transform = AssetTransform(args["_assetTransform"])
                let end = min(items.count, start + first)
                let slice = start < end ? Array(items[start..<end]) : []
                let edges: [(any Sendable)?] = try slice.enumerated().map { offset, fragment in
                    [
                        "cursor": Self.cursor(start + offset),
                        "node": try self.render(fragment, transform: transform, depth: 0),
                    ] as [String: any Sendable]
                }
                var pageInfo: [String: any Sendable] = [
                    "hasNextPage": end < items.count,
                    "hasPreviousPage": start > 0,
                ]
                if !slice.isEmpty {
                    pageInfo["startCursor"] = Self.cursor(start)
                    pageInfo["endCursor"] = Self.cursor(end - 1)
                }
                return ["edges": edges, "pageInfo": pageInfo] as [String: any Sendable]
            }
        }
        query.fields = { fields }
    }

    static func cursor(_ index: Int) -> String {
        Data("cursor:\(index)".utf8).base64EncodedString()
    }

    static func cursorIndex(_ cursor: String) -> Int? {
        guard let data = Data(base64Encoded: cursor), let text = String(data: data, encoding: .utf8),
            text.hasPrefix("cursor:"), let index = Int(text.dropFirst(7)), index >= 0
        else { return nil }
        return index
    }

    /// A model's fragments, filtered and sorted as the arguments ask.
    private func select(model: ContentFragmentModel, args: Map) throws -> [AEMWorkspace.Fragment] {
        var fragments = try store.fragments(model: model.name)
        if case .dictionary = args["filter"] {
            let filter = FragmentFilter(engine: self)
            fragments = try fragments.filter { try filter.matches($0, model: model, filter: args["filter"], depth: 0) }
        }
        if let sort = args["sort"].string, !sort.trimmingCharacters(in: .whitespaces).isEmpty {
            fragments = try FragmentSort(sort, model: model).sorted(fragments)
        }
        return fragments
    }

    // MARK: - Rendering

    /// A fragment as the nested dictionaries the default resolvers read.
    func render(_ fragment: AEMWorkspace.Fragment, transform: AssetTransform, depth: Int) throws -> [String:
        any Sendable]
    {
        guard let model = models[fragment.model] else { return ["_path": fragment.path] }
        var item: [String: any Sendable] = [
            "_path": fragment.path, "_id": fragment.id, "_variation": "master", "__typename": model.typeName,
        ]
        for field in model.fields {
            guard let value = fragment.values[field.name], value != .null else { continue }
            switch (field.type, value) {
            case (.multiline, .string(let html)):
                let text = RichText(html: html)
                item[field.name] =
                    [
                        "html": html, "plaintext": text.plaintext, "markdown": text.markdown, "json": text.json,
                    ] as [String: any Sendable]
            case (.number, .number(let number)):
                item[field.name] = number.doubleValue ?? 0
            case (.integer, .number(let number)):
                item[field.name] = Int(number.text) ?? 0
            case (.boolean, .bool(let flag)):
                item[field.name] = flag
            case (.tags, .array(let tags)):
                item[field.name] = tags.compactMap(\.stringValue) as [(any Sendable)?]
            case (.contentReference, .string(let path)):
                item[field.name] = imageReference(path, transform: transform)
            case (.fragmentReference, .string(let path)):
                if depth < 4, let target = try store.fragment(path: path) {
                    item[field.name] = try render(target, transform: transform, depth: depth + 1)
                }
            case (.fragmentReference, .array(let paths)):
                guard depth < 4 else { continue }
                var targets: [(any Sendable)?] = []
                for path in paths.compactMap(\.stringValue) {
                    if let target = try store.fragment(path: path) {
                        targets.append(try render(target, transform: transform, depth: depth + 1))
                    }
                }
                item[field.name] = targets
            case (_, .string(let text)):
                item[field.name] = text
            default:
                continue
            }
        }
        return item
    }

    /// The fragments and assets the given fragments refer to, each once, as `_references` lists them.
    private func references(of fragments: [AEMWorkspace.Fragment], transform: AssetTransform) throws
        -> [(any Sendable)?]
    {
        var seen = Set<String>()
        var found: [(any Sendable)?] = []
        for fragment in fragments {
            guard let model = models[fragment.model] else { continue }
            for field in model.fields where field.type == .contentReference || field.type == .fragmentReference {
                let value = fragment.values[field.name] ?? .null
                let paths = value.arrayValue?.compactMap(\.stringValue) ?? value.stringValue.map { [$0] } ?? []
                for path in paths where seen.insert(path).inserted {
                    if field.type == .contentReference {
                        found.append(imageReference(path, transform: transform))
                    } else if let target = try store.fragment(path: path) {
                        found.append(try render(target, transform: transform, depth: 1))
                    }
                }
            }
        }
        return found
    }

    /// An `ImageRef` for a DAM path, with the Dynamic Media URL the transform asks for.
    private func imageReference(_ path: String, transform: AssetTransform) -> [String: any Sendable] {
        let file = path.split(separator: "/").last.map(String.init) ?? "asset"
        let stem = file.split(separator: ".").first.map(String.init) ?? file
        let originalExtension = file.contains(".") ? (file.split(separator: ".").last.map(String.init) ?? "jpg") : "jpg"
        let format = transform.format?.lowercased() ?? originalExtension.lowercased()
        let fileExtension = format == "pjpg" || format == "bjpg" ? "jpg" : (format.hasPrefix("webp") ? "webp" : format)
        var query: [String] = []
        if transform.preferWebp == true { query.append("preferwebp=true") }
        if let width = transform.width { query.append("width=\(width)") }
        if let quality = transform.quality { query.append("quality=\(quality)") }
        let seoName = transform.seoName ?? stem
        let dynamicURL =
            "/adobe/dynamicmedia/deliver/dm-aid--\(stableUUID(path))/\(seoName).\(fileExtension)"
            + (query.isEmpty ? "" : "?" + query.joined(separator: "&"))
        let mimeType: String
        switch originalExtension.lowercased() {
        case "png": mimeType = "image/png"
        case "gif": mimeType = "image/gif"
        case "webp": mimeType = "image/webp"
        default: mimeType = "image/jpeg"
        }
        return [
            "__typename": "ImageRef",
            "_path": path,
            "_authorUrl": publishBase + path,
            "_publishUrl": publishBase + path,
            "_dynamicUrl": dynamicURL,
            "mimeType": mimeType,
            "width": 1600,
            "height": 1200,
        ]
    }
}
