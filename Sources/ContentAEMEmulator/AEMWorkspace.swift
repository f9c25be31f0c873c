internal import ContentAEM
internal import ContentCore
internal import ContentEmulator
internal import ContentJSON
internal import ContentYAML
internal import Foundation

/// An AEM workspace on disk: content fragment models, fragments and persisted queries.
///
/// Layout, under the workspace's `aem/` folder:
/// - `models/*.yaml`: one ``ContentFragmentModel`` each;
/// - `fragments/**/*.yaml`: one fragment each, with `_path`, `_model` and its field values;
/// - `queries/<configuration>/<name>.graphql`: persisted queries, addressed as `<configuration>/<name>`.
struct AEMWorkspace: Sendable {
    var models: [ContentFragmentModel]
    var fragments: [Fragment]
    var queries: [PersistedQuery]
    /// What the content packages could not give, each with its file and line.
    var notes: [String] = []

    /// One content fragment: its path, id, model and field values.
    struct Fragment: Sendable {
        var path: String
        var id: String
        var model: String
        var values: JSONObject
    }

    /// A persisted query as stored.
    struct PersistedQuery: Sendable, Equatable {
        var configuration: String
        var name: String
        var query: String
        var cacheControl: String?
        /// What the query says shared caches (a CDN) keep its answer for: the `Surrogate-Control` header.
        var surrogateControl: String?
    }

    /// Reads a workspace folder.
    ///
    /// - Parameters:
    ///   - directory: The `aem/` folder (it may be absent when content packages give the content).
    ///   - contentPackages: `jcr_root` folders of AEM content packages, read beside it.
    /// - Throws: ``EmulatorError`` naming the file, line and column of the first problem in `aem/`.
    init(directory: URL, contentPackages: [URL] = []) throws {
        let definitions: AEMDefinitions
        do {
            definitions = try AEMDefinitions(directory: directory)
        } catch {
            throw EmulatorError.workspace(error.description)
        }
        let package = AEMContentPackage(roots: contentPackages)
        notes = package.notes
        models = definitions.models
        for model in package.models {
            if models.contains(where: { $0.name == model.name }) {
                notes.append("model '\(model.name)' is defined in aem/models and in a content package; aem/models wins")
            } else {
                models.append(model)
            }
        }
        let byName = Dictionary(models.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        fragments = []
        var seenPaths = Set<String>()
        for file in AEMDefinitions.files(in: directory.appendingPathComponent("fragments"), ending: ".yaml") {
            let fragment = try Self.readFragment(file, models: byName)
            guard seenPaths.insert(fragment.path).inserted else {
                throw EmulatorError.workspace("\(file.path): a second fragment has the path \(fragment.path)")
            }
            fragments.append(fragment)
        }
        for fragment in package.fragments where seenPaths.insert(fragment.path).inserted {
            fragments.append(fragment)
        }
        queries = definitions.queries.map { query in
            PersistedQuery(configuration: query.configuration, name: query.name, query: query.query, cacheControl: nil)
        }
        for query in package.queries {
            if queries.contains(where: { $0.configuration == query.configuration && $0.name == query.name }) {
                notes.append(
                    "persisted query \(query.configuration)/\(query.name) is in aem/queries and in a content package; "
                        + "aem/queries wins")
            } else {
                queries.append(query)
            }
        }
    }

    private static func readFragment(_ file: URL, models: [String: ContentFragmentModel]) throws -> Fragment {
        let text = try String(contentsOf: file, encoding: .utf8)
        let root: YAMLNode?
        do {
            root = try YAMLParser().parse(text, file: file.path)
        } catch {
            throw EmulatorError.workspace(error.description)
        }
        guard let root, case .mapping(let entries) = root.kind else {
            throw EmulatorError.workspace("\(file.path): a fragment is a mapping with `_path`, `_model` and fields")
        }
        func fail(_ mark: YAMLMark, _ message: String) -> EmulatorError {
            .workspace("\(file.path):\(mark): \(message)")
        }
        guard let pathEntry = root.entry("_path"), case .scalar(let path) = pathEntry.value.kind,
            path.value.hasPrefix("/content/dam/")
        else {
            throw fail(root.mark, "a fragment needs `_path: /content/dam/…`")
        }
        guard let modelEntry = root.entry("_model"), case .scalar(let modelName) = modelEntry.value.kind else {
            throw fail(root.mark, "a fragment needs `_model:` naming its model")
        }
        guard let model = models[modelName.value] else {
            let hint = closestMatch(to: modelName.value, in: models.keys).map { "; did you mean '\($0)'?" } ?? ""
            throw fail(modelEntry.value.mark, "unknown model '\(modelName.value)'\(hint)")
        }
        var values = JSONObject()
        for entry in entries where !entry.key.hasPrefix("_") {
            guard let field = model.fields.first(where: { $0.name == entry.key }) else {
                let hint =
                    closestMatch(to: entry.key, in: model.fields.map(\.name)).map { "; did you mean '\($0)'?" } ?? ""
                throw fail(entry.keyMark, "the \(model.name) model has no field '\(entry.key)'\(hint)")
            }
            do {
                values[entry.key] = try FieldValue.convert(entry.value, for: field)
            } catch let error as FieldValue.ConversionError {
                throw fail(entry.value.mark, "\(entry.key): \(error.message)")
            }
        }
        return Fragment(path: path.value, id: stableUUID(path.value), model: model.name, values: values)
    }
}

/// A UUID derived from a fragment's path, so ids stay the same across restarts.
func stableUUID(_ text: String) -> String {
    let hex = StableHash.hex(text)
    let characters = Array(hex)
    func part(_ range: Range<Int>) -> String { String(characters[range]) }
    return "\(part(0..<8))-\(part(8..<12))-4\(part(13..<16))-a\(part(17..<20))-\(part(20..<32))"
}

/// Turns a fragment's YAML values into JSON by their model field's type.
enum FieldValue {
    struct ConversionError: Error {
        var message: String
    }

    static func convert(_ node: YAMLNode, for field: ContentFragmentModel.Field) throws -> JSONValue {
        if case .scalar(let scalar) = node.kind, scalar.isNull { return .null }
        if field.type == .tags { return .array(try strings(node).map(JSONValue.string)) }
        if field.multiple {
            // A list of values, or one value standing for a list of one.
            var single = field
            single.multiple = false
            if case .sequence(let items) = node.kind { return .array(try items.map { try convert($0, for: single) }) }
            return .array([try convert(node, for: single)])
        }
        if field.type == .json { return json(node) }
        guard case .scalar(let scalar) = node.kind else {
            throw ConversionError(message: "expected a single value, found \(node.kindName)")
        }
        let text = scalar.value
        switch field.type {
        case .text, .multiline, .contentReference, .fragmentReference, .tags:
            return .string(text)
        case .enumeration:
            guard field.values.contains(text) else {
                throw ConversionError(
                    message: "expected one of \(field.values.joined(separator: ", ")), found '\(text)'")
            }
            return .string(text)
        case .number:
            guard let value = Double(text), value.isFinite else {
                throw ConversionError(message: "expected a number, found '\(text)'")
            }
            return .number(JSONNumber(text: "\(value)"))
        case .integer:
            guard let value = Int(text) else { throw ConversionError(message: "expected an integer, found '\(text)'") }
            return .number(JSONNumber(value))
        case .boolean:
            guard text == "true" || text == "false" else {
                throw ConversionError(message: "expected true or false, found '\(text)'")
            }
            return .bool(text == "true")
        case .datetime, .date, .time:
            return .string(text)
        case .json:
            return json(node)
        }
    }

    /// A YAML value as JSON: plain scalars typed by their text (numbers, booleans, null), the rest strings.
    static func json(_ node: YAMLNode) -> JSONValue {
        switch node.kind {
        case .scalar(let scalar):
            if scalar.isNull { return .null }
            guard scalar.style == .plain, scalar.tag == nil else { return .string(scalar.value) }
            if scalar.value == "true" || scalar.value == "false" { return .bool(scalar.value == "true") }
            // Only text JSON writes as a number (not `0x10`, `1_000` or `.5`), and only what a double holds.
            if scalar.value.wholeMatch(of: /-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?/) != nil,
                Double(scalar.value)?.isFinite == true
            {
                return .number(JSONNumber(text: scalar.value))
            }
            return .string(scalar.value)
        case .sequence(let items):
            return .array(items.map(json))
        case .mapping(let entries):
            return .object(JSONObject(entries.map { JSONMember($0.key, json($0.value)) }))
        }
    }

    private static func strings(_ node: YAMLNode) throws -> [String] {
        switch node.kind {
        case .sequence(let items):
            return try items.map { item in
                guard case .scalar(let scalar) = item.kind else {
                    throw ConversionError(message: "expected a list of values, found \(item.kindName) in it")
                }
                return scalar.value
            }
        case .scalar(let scalar):
            return [scalar.value]
        case .mapping:
            throw ConversionError(message: "expected a list of values, found a mapping")
        }
    }
}
