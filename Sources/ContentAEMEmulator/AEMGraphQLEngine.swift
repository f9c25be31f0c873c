internal import ContentAEM
internal import ContentDataConnect
internal import ContentEmulator
internal import ContentGraphQL
internal import ContentJSON
internal import Foundation
internal import GraphQL
internal import NIOConcurrencyHelpers
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
    /// The four forms of each rich text already rendered, by its HTML: the texts are the stored fragments' own, so
    /// there are at most as many as the content holds, and each is read once instead of on every request.
    private let richTexts = NIOLockedValueBox([String: [String: any Sendable]]())
    /// Fragments and references already rendered, by path and asset transform: a fragment never changes once the
    /// store is seeded, so its rendering is made once per transform; transforms are the client's, so what is kept
    /// is bounded.
    private let renderedFragments = RenderedMemo()
    private let renderedReferences = RenderedMemo()
    /// Request texts already parsed and validated against ``schema``, each with its plan when it has one.
    let documents: GraphQLCheckedDocuments<AEMQueryPlan?>

    /// A request's query, checked (or taken from ``documents``), with its plan.
    typealias CheckedQuery = GraphQLCheckedDocuments<AEMQueryPlan?>.Checked

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
        // Plans are made from documents as requests bring them, after the resolvers they look for are attached.
        let byName = self.models
        documents = GraphQLCheckedDocuments(schema: schema, limits: limits) { [schema] in
            AEMQueryPlan(document: $0, schema: schema, models: byName)
        }
        try attachResolvers(models)
    }

    /// Runs a query already checked with ``GraphQLSource``, or answers with why it was refused.
    ///
    /// - Parameters:
    ///   - checked: The validated document, or the errors that refused it.
    ///   - variables: The variables, as JSON.
    ///   - operationName: Which operation, when the text has several.
    /// - Returns: The response body, as AEM shapes it: `data` and/or `errors`.
    func execute(_ checked: Result<CheckedQuery, GraphQLRequestErrors>, variables: JSONObject, operationName: String?)
        async -> JSONValue
    {
        let document: Document
        switch checked {
        case .success(let valid):
            if let plan = valid.prepared, let answer = run(plan, variables: variables, operationName: operationName) {
                return Self.withNullData(answer)
            }
            document = valid.document
        case .failure(let refusal):
            return .object(["errors": .array(refusal.json)])
        }
        let values = GraphQLJSON.variables(variables)
        do {
            let result = try await GraphQLExecution.execute(
                schema: schema, document: document, context: (), variables: values, operationName: operationName,
                limits: limits)
            var body = JSONObject()
            if let data = result.data { body["data"] = Self.wholeNumbers(GraphQLJSON.json(data)) }
            if !result.errors.isEmpty {
                body["errors"] = .array(result.errors.map(GraphQLJSON.json))
            }
            return Self.withNullData(.object(body))
        } catch let error as GraphQLError {
            return .object(["errors": .array([GraphQLJSON.json(error)])])
        } catch {
            return .object(["errors": .array([.object(["message": .string("\(error)")])])])
        }
    }

    /// The body with `data: null` when execution began and an error reached the root.
    ///
    /// "If an error was raised during the execution that prevented a valid response, the data entry in the response
    /// should be null" (GraphQL, "Response Format"; graphql-java, which AEM runs, writes it). An error with a `path`
    /// was raised by a field, so execution began; one before it (a variable that does not fit) has none, and then
    /// `data` stays out.
    static func withNullData(_ body: JSONValue) -> JSONValue {
        guard case .object(let fields) = body, fields["data"] == nil, case .array(let errors)? = fields["errors"],
            errors.contains(where: { $0["path"]?.arrayValue?.isEmpty == false })
        else { return body }
        var withData: JSONObject = ["data": .null]
        for member in fields.members { withData[member.key] = member.value }
        return .object(withData)
    }

    /// The data with whole floating-point numbers written as AEM writes them: `5000`, not `5000.0`.
    static func wholeNumbers(_ value: JSONValue) -> JSONValue {
        switch value {
        case .number(let number) where number.text.hasSuffix(".0"):
            let integer = number.text.dropLast(2)
            guard integer.allSatisfy({ $0.isASCII && ($0.isNumber || $0 == "-") }) else { return value }
            return .number(JSONNumber(text: String(integer)))
        case .array(let elements):
            return .array(elements.map(wholeNumbers))
        case .object(let object):
            return .object(JSONObject(object.members.map { JSONMember($0.key, wholeNumbers($0.value)) }))
        default:
            return value
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
            fields["\(model.name)List"]?.resolve = { _, args, _, _ in try self.list(model, args: args) }
            fields["\(model.name)ByPath"]?.resolve = { _, args, _, _ in try self.single(model, args: args, byID: false)
            }
            fields["\(model.name)ById"]?.resolve = { _, args, _, _ in try self.single(model, args: args, byID: true) }
            fields["\(model.name)Paginated"]?.resolve = { _, args, _, _ in
                try Task.checkCancellation()
                let items = try self.select(model: model, args: args, orderedByID: true)
                let first = args["first"].int ?? 50
                guard (1...100).contains(first) else {
                    throw ResolverFailure("first must be between 1 and 100, was \(first)")
                }
                let sort = try self.sort(model: model, args: args)
                var start = 0
                if let after = args["after"].string {
                    guard let id = Self.cursorID(after), let index = items.firstIndex(where: { $0.id == id }) else {
                        throw ResolverFailure(
                            "after is not the cursor of a \(model.name) in this list: \(after); pass an endCursor "
                                + "this list answered")
                    }
                    start = index + 1
                }
                let transform = AssetTransform(args["_assetTransform"])
                let end = min(items.count, start + first)
                let slice = start < end ? Array(items[start..<end]) : []
                let edges: [(any Sendable)?] = try slice.map { fragment in
                    [
                        "cursor": try self.cursor(fragment, sort: sort),
                        "node": try self.render(fragment, transform: transform),
                    ] as [String: any Sendable]
                }
                var pageInfo: [String: any Sendable] = [
                    "hasNextPage": end < items.count,
                    "hasPreviousPage": start > 0,
                ]
                if let firstNode = slice.first, let lastNode = slice.last {
                    pageInfo["startCursor"] = try self.cursor(firstNode, sort: sort)
                    pageInfo["endCursor"] = try self.cursor(lastNode, sort: sort)
                }
                return ["edges": edges, "pageInfo": pageInfo] as [String: any Sendable]
            }
        }
        query.fields = { fields }
        for model in models {
            guard let type = schema.getType(name: model.typeName) as? GraphQLObjectType else { continue }
            let typeFields = try type.fields()
            for field in model.fields where field.type == .fragmentReference || field.type == .contentReference {
                let key = Self.pendingKey(field.name)
                typeFields[field.name]?.resolve = { source, _, _, _ in
                    guard let pending = (source as? [String: any Sendable])?[key] as? PendingReference else {
                        return nil
                    }
                    return try self.resolve(pending, field: field)
                }
            }
            type.fields = { typeFields }
            // `_references` is worked out only when a query selects it: it reads every reference and rich text of
            // the page, which a query that lists items without it would pay for on every request.
            for name in ["\(model.typeName)Results", "\(model.typeName)Result"] {
                guard let results = schema.getType(name: name) as? GraphQLObjectType else { continue }
                let resultFields = try results.fields()
                resultFields["_references"]?.resolve = { source, _, _, _ in
                    guard let pending = (source as? [String: any Sendable])?["_references"] as? PendingReferences
                    else { return nil }
                    return try self.references(of: pending.fragments, transform: pending.transform)
                }
                results.fields = { resultFields }
            }
        }
    }

    /// The fragments of a list or a single result, kept until a query selects their `_references`.
    struct PendingReferences: Sendable {
        let fragments: [AEMWorkspace.Fragment]
        let transform: AssetTransform
    }

    /// Stops a request's work when its client has gone (the request's task is cancelled, as is the executor's run
    /// once its time is up) or, in a planned run, once its time is up.
    static func checkRequest() throws {
        try Task.checkCancellation()
        if let deadline = PlannedRun.deadline, ContinuousClock.now > deadline { throw PlannedRun.TimedOut() }
    }

    /// `xList`: the model's fragments, filtered, sorted and paged, with what they refer to as `_references`.
    func list(_ model: ContentFragmentModel, args: Map) throws -> [String: any Sendable] {
        // A request that ran out of time or lost its client stops before the next load.
        try Self.checkRequest()
        let items = try select(model: model, args: args)
        let offset = max(0, args["offset"].int ?? 0)
        var page = Array(items.dropFirst(offset))
        if let limit = args["limit"].int { page = Array(page.prefix(max(0, limit))) }
        let transform = AssetTransform(args["_assetTransform"])
        let rendered: [(any Sendable)?] = try page.map {
            try Self.checkRequest()
            return try render($0, transform: transform)
        }
        return ["items": rendered, "_references": PendingReferences(fragments: page, transform: transform)]
    }

    /// `xByPath` (the fragment at `_path`) or `xById` (the fragment with `_id`).
    func single(_ model: ContentFragmentModel, args: Map, byID: Bool) throws -> [String: any Sendable] {
        try Self.checkRequest()
        let key = args[byID ? "_id" : "_path"].string ?? ""
        let found = try byID ? store.fragment(id: key) : store.fragment(path: key)
        guard let fragment = found, fragment.model == model.name else {
            throw ResolverFailure("no \(model.name) content fragment " + (byID ? "has the id \(key)" : "at \(key)"))
        }
        return try result(fragment, args: args)
    }

    /// `XModelResult`: one fragment as `item`, and what it refers to as `_references`.
    private func result(_ fragment: AEMWorkspace.Fragment, args: Map) throws -> [String: any Sendable] {
        let transform = AssetTransform(args["_assetTransform"])
        return [
            "item": try render(fragment, transform: transform),
            "_references": PendingReferences(fragments: [fragment], transform: transform),
        ]
    }

    /// A node's cursor, as AEM's documentation gives it: the base64 of the fragment's id, or of its first sort key's
    /// value, a line break and the id when the list is sorted.
    func cursor(_ fragment: AEMWorkspace.Fragment, sort: FragmentSort?) throws -> String {
        guard let key = sort?.keys.first else { return Data(fragment.id.utf8).base64EncodedString() }
        let value = try FragmentSort.value(of: fragment, at: key.path, engine: self)
        let text = value.stringValue ?? (value == .null ? "" : value.jsonText)
        return Data((text + "\n" + fragment.id).utf8).base64EncodedString()
    }

    /// The fragment id a cursor holds.
    static func cursorID(_ cursor: String) -> String? {
        guard let data = Data(base64Encoded: cursor), let text = String(data: data, encoding: .utf8) else {
            return nil
        }
        return text.split(separator: "\n", omittingEmptySubsequences: false).last.map(String.init)
    }

    /// The `sort` argument, read against the model, or `nil` when there is none.
    private func sort(model: ContentFragmentModel, args: Map) throws -> FragmentSort? {
        guard let sort = args["sort"].string, !sort.trimmingCharacters(in: .whitespaces).isEmpty else { return nil }
        return try FragmentSort(sort, model: model, models: models)
    }

    /// A model's fragments, filtered and sorted as the arguments ask.
    ///
    /// - Parameters:
    ///   - model: The model.
    ///   - args: The field's arguments.
    ///   - orderedByID: Whether the fragments are in the order of their ids first (else of their paths), which
    ///     `sort` keeps among equal keys: "By default, paging uses the UUID of the repository node … When `sort` is
    ///     used, the UUID is implicitly used to ensure a unique sort" (Adobe, "AEM GraphQL API for use with Content
    ///     Fragments", Paging).
    /// - Returns: The fragments in order.
    /// - Throws: A filter or sort the model cannot take.
    private func select(model: ContentFragmentModel, args: Map, orderedByID: Bool = false) throws
        -> [AEMWorkspace.Fragment]
    {
        var fragments = try store.fragments(model: model.name)
        if orderedByID { fragments.sort { $0.id < $1.id } }
        if case .dictionary = args["filter"] {
            let filter = FragmentFilter(engine: self)
            fragments = try fragments.filter { try filter.matches($0, model: model, filter: args["filter"], depth: 0) }
        }
        if let sort = try sort(model: model, args: args) {
            fragments = try sort.sorted(fragments, engine: self)
        }
        return fragments
    }

    // MARK: - Rendering

    /// A fragment as the nested dictionaries the default resolvers read.
    func render(_ fragment: AEMWorkspace.Fragment, transform: AssetTransform) throws -> [String:
        any Sendable]
    {
        try renderedFragments.value(for: RenderedMemo.Key(path: fragment.path, transform: transform)) {
            try rendering(fragment, transform: transform)
        }
    }

    private func rendering(_ fragment: AEMWorkspace.Fragment, transform: AssetTransform) throws -> [String:
        any Sendable]
    {
        guard let model = models[fragment.model] else { return ["_path": fragment.path] }
        var item: [String: any Sendable] = [
            "_path": fragment.path, "_id": fragment.id, "_variation": "master", "__typename": model.typeName,
            // Fragments here have no variations, tags or metadata of their own: AEM answers empty lists then.
            "_variations": [(any Sendable)?](), "_tags": [(any Sendable)?](),
            "_metadata": Self.emptyMetadata,
            "_model": ["_path": modelPath(model, of: fragment), "title": model.title ?? model.name]
                as [String: any Sendable],
        ]
        for field in model.fields {
            guard let value = fragment.values[field.name], value != .null else { continue }
            if field.type == .fragmentReference || field.type == .contentReference {
                // Loaded only when a query selects the field, by its resolver: rendering a fragment stays shallow,
                // however its references loop, and the query's own depth limits how far they are followed.
                item[Self.pendingKey(field.name)] = PendingReference(value: value, transform: transform)
                continue
            }
            if field.multiple || field.type == .tags, case .array(let elements) = value {
                var rendered: [(any Sendable)?] = []
                for element in elements {
                    if let one = try renderValue(element, field: field, transform: transform) {
                        rendered.append(one)
                    }
                }
                item[field.name] = rendered
            } else if let one = try renderValue(value, field: field, transform: transform) {
                item[field.name] = one
            }
        }
        return item
    }

    /// `_metadata` of a fragment with no metadata: every list empty, as AEM answers it.
    static let emptyMetadata: [String: any Sendable] = Dictionary(
        uniqueKeysWithValues: [
            "stringMetadata", "stringArrayMetadata", "intMetadata", "intArrayMetadata", "floatMetadata",
            "floatArrayMetadata", "booleanMetadata", "booleanArrayMetadata", "calendarMetadata",
            "calendarArrayMetadata",
        ].map { ($0, [(any Sendable)?]() as any Sendable) })

    /// Where AEM keeps a model: `/conf/<configuration>/settings/dam/cfm/models/<name>`, the configuration being the
    /// fragment's DAM folder (`/content/dam/wknd-shared/…` → `wknd-shared`).
    private func modelPath(_ model: ContentFragmentModel, of fragment: AEMWorkspace.Fragment) -> String {
        let parts = fragment.path.split(separator: "/")
        let configuration = parts.count > 2 && parts[0] == "content" && parts[1] == "dam" ? String(parts[2]) : "global"
        return "/conf/\(configuration)/settings/dam/cfm/models/\(model.name)"
    }

    /// One value of a field, as its GraphQL type reads it; `nil` when the stored value does not fit the type.
    private func renderValue(
        _ value: JSONValue, field: ContentFragmentModel.Field, transform: AssetTransform
    ) throws -> (any Sendable)? {
        switch (field.type, value) {
        case (.multiline, .string(let html)):
            if let forms = richTexts.withLockedValue({ $0[html] }) { return forms }
            let text = RichText(html: html)
            let forms: [String: any Sendable] = [
                "html": html, "plaintext": text.plaintext, "markdown": text.markdown, "json": text.json,
            ]
            richTexts.withLockedValue { $0[html] = forms }
            return forms
        case (.number, .number(let number)):
            return number.doubleValue ?? 0
        case (.integer, .number(let number)):
            // GraphQL's Int is 32-bit: a stored number beyond it (a field retyped over kept data) is no value.
            return (Int32(number.text) ?? number.doubleValue.flatMap { Int32(exactly: $0) }).map(Int.init)
        case (.boolean, .bool(let flag)):
            return flag
        case (.json, _):
            return GraphQLJSON.map(value)
        case (_, .string(let text)):
            return text
        default:
            return nil
        }
    }

    /// A reference field's stored value, kept on the rendered fragment until a query selects the field.
    struct PendingReference: Sendable {
        let value: JSONValue
        let transform: AssetTransform
    }

    /// Where a rendered fragment keeps a reference field's ``PendingReference``.
    static func pendingKey(_ field: String) -> String {
        "\u{1}reference:" + field
    }

    /// What a reference field holds, loaded now that a query selects it: the fragments it names (of the field's
    /// model, for a fragment reference), and for a content reference the asset or page a path names otherwise.
    func resolve(_ pending: PendingReference, field: ContentFragmentModel.Field) throws -> (any Sendable)? {
        func one(_ path: String) throws -> [String: any Sendable]? {
            try Self.checkRequest()
            if let target = try store.fragment(path: path),
                field.type == .contentReference || field.model == nil || target.model == field.model
            {
                return try render(target, transform: pending.transform)
            }
            return field.type == .contentReference ? reference(path, transform: pending.transform) : nil
        }
        if case .array(let elements) = pending.value {
            var found: [(any Sendable)?] = []
            for path in elements.compactMap(\.stringValue) {
                if let target = try one(path) { found.append(target) }
            }
            return found
        }
        return try pending.value.stringValue.flatMap(one)
    }

    /// The fragments and assets the given fragments refer to, each once, as `_references` lists them.
    func references(of fragments: [AEMWorkspace.Fragment], transform: AssetTransform) throws
        -> [(any Sendable)?]
    {
        var seen = Set<String>()
        var found: [(any Sendable)?] = []
        for fragment in fragments {
            try Self.checkRequest()
            guard let model = models[fragment.model] else { continue }
            for field in model.fields {
                let value = fragment.values[field.name] ?? .null
                let values = value.arrayValue?.compactMap(\.stringValue) ?? value.stringValue.map { [$0] } ?? []
                let paths: [String]
                switch field.type {
                case .contentReference, .fragmentReference: paths = values
                // What rich text links to or shows is referenced too, as AEM lists it.
                case .multiline: paths = values.flatMap { RichText(html: $0).references }
                default: continue
                }
                for path in paths where seen.insert(path).inserted {
                    if let target = try store.fragment(path: path) {
                        found.append(try render(target, transform: transform))
                    } else if field.type == .contentReference || RichText.isAsset(path) {
                        // A rich-text link to a fragment that does not exist is no reference.
                        found.append(reference(path, transform: transform))
                    }
                }
            }
        }
        return found
    }

    /// The `Reference` a content reference holds: a page (a path under `/content` outside the DAM), else an asset
    /// typed by its file extension, as AEM types DAM assets by MIME type.
    private func reference(_ path: String, transform: AssetTransform) -> [String: any Sendable] {
        renderedReferences.value(for: RenderedMemo.Key(path: path, transform: transform)) {
            rendering(reference: path, transform: transform)
        }
    }

    private func rendering(reference path: String, transform: AssetTransform) -> [String: any Sendable] {
        let fileExtension = Self.fileExtension(ofPath: path)
        let common: [String: any Sendable] = [
            "_path": path, "_authorUrl": publishBase + path, "_publishUrl": publishBase + path,
        ]
        func asset(_ typeName: String, _ type: String) -> [String: any Sendable] {
            common.merging(["__typename": typeName, "type": type, "format": Self.mimeType(fileExtension)]) { $1 }
        }
        if !path.hasPrefix("/content/dam/") && fileExtension.isEmpty {
            return common.merging(["__typename": "PageRef", "type": "page"]) { $1 }
        }
        switch fileExtension {
        case "pdf", "doc", "docx", "xls", "xlsx", "ppt", "pptx", "txt", "csv", "rtf":
            return asset("DocumentRef", "document")
        case "mp4", "mov", "webm", "mp3", "wav", "ogg", "m4a", "avi":
            return asset("MultimediaRef", "video")
        case "zip", "tar", "gz", "tgz", "7z", "rar":
            return asset("ArchiveRef", "archive")
        default:
            return imageReference(path, transform: transform)
        }
    }

    /// A path's file extension, lower-cased; empty when its last component has none.
    static func fileExtension(ofPath path: String) -> String {
        let file = path.split(separator: "/").last ?? ""
        return file.contains(".") ? (file.split(separator: ".").last.map { $0.lowercased() } ?? "") : ""
    }

    /// The MIME type AEM records for a file extension.
    static func mimeType(_ fileExtension: String) -> String {
        switch fileExtension {
        case "png": return "image/png"
        case "gif": return "image/gif"
        case "webp": return "image/webp"
        case "svg": return "image/svg+xml"
        case "pdf": return "application/pdf"
        case "txt": return "text/plain"
        case "csv": return "text/csv"
        case "mp4": return "video/mp4"
        case "mov": return "video/quicktime"
        case "webm": return "video/webm"
        case "mp3": return "audio/mpeg"
        case "zip": return "application/zip"
        case "jpg", "jpeg", "": return "image/jpeg"
        default: return "application/octet-stream"
        }
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
        query += transform.geometry
        // AEM's documentation: without a quality, the delivered image's is 80.
        query.append("quality=\(transform.quality ?? 80)")
        let seoName = transform.seoName ?? stem
        let dynamicURL =
            "/adobe/dynamicmedia/deliver/dm-aid--\(stableUUID(path))/\(seoName).\(fileExtension)"
            + (query.isEmpty ? "" : "?" + query.joined(separator: "&"))
        return [
            "__typename": "ImageRef",
            "type": "image",
            "_path": path,
            "_id": stableUUID(path),
            "_authorUrl": publishBase + path,
            "_publishUrl": publishBase + path,
            "_dynamicUrl": dynamicURL,
            "_smartCrops": [(any Sendable)?](),
            "mimeType": Self.mimeType(originalExtension.lowercased()),
            "width": 1600,
            "height": 1200,
        ]
    }
}

/// Renderings kept by path and asset transform, at most ``limit`` of them: when full, it starts again empty, so a
/// client that sends ever new transforms costs memory no larger than the limit.
private final class RenderedMemo: Sendable {
    struct Key: Hashable {
        let path: String
        let transform: AssetTransform
    }

    private static let limit = 8192
    private let kept = NIOLockedValueBox([Key: [String: any Sendable]]())

    func value(for key: Key, making make: () throws -> [String: any Sendable]) rethrows -> [String: any Sendable] {
        if let known = kept.withLockedValue({ $0[key] }) { return known }
        let made = try make()
        kept.withLockedValue { kept in
            if kept.count >= Self.limit { kept.removeAll(keepingCapacity: true) }
            kept[key] = made
        }
        return made
    }
}

/// The time a planned run may take (see ``AEMQueryPlan``): the executor's ``GraphQLLimits/seconds``.
enum PlannedRun {
    @TaskLocal static var deadline: ContinuousClock.Instant?

    /// A planned run past its time.
    struct TimedOut: Error {}
}
