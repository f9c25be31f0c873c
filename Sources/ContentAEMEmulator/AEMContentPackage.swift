internal import ContentAEM
internal import ContentJSON
internal import Foundation

#if canImport(FoundationXML)
    internal import FoundationXML
#endif

/// An AEM project's content, as Adobe's Maven archetype lays it out in FileVault form: content fragment models under
/// `jcr_root/conf/<conf>/settings/dam/cfm/models/<model>/.content.xml`, fragments under
/// `jcr_root/content/dam/…/<fragment>/.content.xml` (a `dam:Asset` whose `jcr:content/data` names its `cq:model`,
/// the values on `data/master`).
///
/// A model's fields are the elements of its `.content.xml` with a `metaType` and a `name`, in document order, typed by
/// `metaType` (`text-single`, `text-multi`, `number` by `valueType`, `boolean`, `date` by its `displayType` or
/// `type`, `enumeration` with its items' `value`s, `tags`, `reference`, `fragmentreference` with its model path, `json`);
/// a `valueType` ending in `[]` is a multiple field. Values are FileVault's: `{Boolean}true`, `{Long}5`,
/// `{Double}5.0`, `{Date}…`, `[a,b]` for several. A file that is not XML, or a field this reader does not know, is
/// reported with its file and line, and the rest still loads.
///
/// Persisted queries are binary nodes, as AEM stores them and Adobe's WKND project ships them:
/// `conf/<conf>/settings/graphql/persistentQueries/<name>` (`sling:resourceType` `graphql/persistent/query`) whose
/// `jcr:content` holds the query text in its binary `jcr:data`, written by FileVault as
/// `<name>/_jcr_content/_jcr_data.binary`. A `persistedQueries` folder is what AEM ignores (its servlet answers 404
/// `PersistenceError`), so it is reported, not read.
struct AEMContentPackage {
    var models: [ContentFragmentModel] = []
    var fragments: [AEMWorkspace.Fragment] = []
    var queries: [AEMWorkspace.PersistedQuery] = []
    /// What could not be read, each with its file and line.
    var notes: [String] = []

    /// The `jcr_root` folders of a workspace that hold AEM content: the workspace's own `jcr_root`, or each module's
    /// `src/main/content/jcr_root`, as in a project Adobe's archetype made (`ui.content/src/main/content/jcr_root`).
    ///
    /// Only these places, so a workspace holding an example project in a subfolder does not load it too.
    static func roots(in workspace: URL) -> [URL] {
        let manager = FileManager.default
        var candidates = [workspace.appendingPathComponent("jcr_root")]
        let modules = (try? manager.contentsOfDirectory(atPath: workspace.path))?.sorted() ?? []
        for module in modules where !module.hasPrefix(".") {
            candidates.append(
                workspace.appendingPathComponent(module).appendingPathComponent("src/main/content/jcr_root"))
        }
        return candidates.filter { root in
            manager.fileExists(atPath: root.appendingPathComponent("conf").path)
                || manager.fileExists(atPath: root.appendingPathComponent("content/dam").path)
        }
    }

    /// Reads the content under `jcr_root` folders.
    init(roots: [URL]) {
        var fragmentFiles: [(file: URL, root: URL)] = []
        for root in roots {
            for file in Self.contentFiles(under: root) {
                let relative = String(file.deletingLastPathComponent().path.dropFirst(root.path.count))
                let parts = relative.split(separator: "/")
                if parts.count == 7, parts[0] == "conf", parts[2] == "settings", parts[3] == "dam", parts[4] == "cfm",
                    parts[5] == "models"
                {
                    readModel(file, name: String(parts[6]))
                } else if parts.count > 2, parts[0] == "content", parts[1] == "dam" {
                    fragmentFiles.append((file, root))
                }
            }
        }
        // Fragments after every model, so that each finds its model whichever package holds it.
        for (file, root) in fragmentFiles { readFragment(file, root: root) }
        for root in roots { readPersistedQueries(under: root) }
    }

    // MARK: - Persisted queries

    /// The most text one persisted query may hold: AEM's own limit on a query's size.
    static let maximumQueryBytes = 1 << 20

    private mutating func readPersistedQueries(under root: URL) {
        let manager = FileManager.default
        let conf = root.appendingPathComponent("conf")
        for configuration in ((try? manager.contentsOfDirectory(atPath: conf.path)) ?? []).sorted()
        where !configuration.hasPrefix(".") {
            let graphql = conf.appendingPathComponent(configuration).appendingPathComponent("settings/graphql")
            let misnamed = graphql.appendingPathComponent("persistedQueries")
            if manager.fileExists(atPath: misnamed.path) {
                notes.append(
                    "\(misnamed.path): AEM reads persisted queries from persistentQueries, not persistedQueries; "
                        + "these are not loaded, as AEM would answer them 404")
            }
            let folder = graphql.appendingPathComponent("persistentQueries")
            for entry in ((try? manager.contentsOfDirectory(atPath: folder.path)) ?? []).sorted()
            where !entry.hasPrefix(".") && !entry.hasSuffix(".xml") {
                let binary = folder.appendingPathComponent(entry).appendingPathComponent(
                    "_jcr_content/_jcr_data.binary")
                // FileVault escapes characters a file name cannot hold as %XX.
                let name = entry.removingPercentEncoding ?? entry
                guard let text = Self.queryText(binary, notes: &notes) else { continue }
                queries.append(
                    AEMWorkspace.PersistedQuery(
                        configuration: configuration.removingPercentEncoding ?? configuration, name: name,
                        query: text, cacheControl: nil))
            }
        }
    }

    /// A persisted query's text, or `nil` with a note saying why there is none.
    private static func queryText(_ binary: URL, notes: inout [String]) -> String? {
        var status = stat()
        guard stat(binary.path, &status) == 0, (status.st_mode & S_IFMT) == S_IFREG else {
            notes.append(
                "\(binary.deletingLastPathComponent().deletingLastPathComponent().path): a persisted query needs its "
                    + "text in _jcr_content/_jcr_data.binary, as FileVault writes jcr:content's jcr:data")
            return nil
        }
        guard status.st_size <= maximumQueryBytes else {
            notes.append("\(binary.path): larger than 1 MiB, AEM's limit for a query; not loaded")
            return nil
        }
        guard let handle = FileHandle(forReadingAtPath: binary.path),
            let data = try? handle.read(upToCount: maximumQueryBytes + 1)
        else {
            notes.append("\(binary.path): cannot be read; not loaded")
            return nil
        }
        try? handle.close()
        guard data.count <= maximumQueryBytes, let text = String(data: data, encoding: .utf8) else {
            notes.append("\(binary.path): not UTF-8 text or larger than 1 MiB; not loaded")
            return nil
        }
        return text
    }

    private static func contentFiles(under root: URL) -> [URL] {
        guard let enumerator = FileManager.default.enumerator(at: root, includingPropertiesForKeys: nil) else {
            return []
        }
        var files: [URL] = []
        for case let url as URL in enumerator where url.lastPathComponent == ".content.xml" { files.append(url) }
        return files.sorted { $0.path < $1.path }
    }

    // MARK: - Models

    private mutating func readModel(_ file: URL, name: String) {
        guard let document = XMLDocumentNode.parse(file, notes: &notes) else { return }
        let content = document.child("jcr:content")
        let title = content?.attributes["jcr:title"] ?? document.attributes["jcr:title"]
        var fields: [JSONMember] = []
        for element in (content ?? document).descendants where element.attributes["metaType"] != nil {
            guard let fieldName = element.attributes["name"], let metaType = element.attributes["metaType"],
                metaType != "tab-placeholder"
            else { continue }
            let valueType = element.attributes["valueType"] ?? ""
            var spec: [String: JSONValue] = ["multiple": .bool(valueType.hasSuffix("[]"))]
            switch metaType {
            case "text-single": spec["type"] = .string("text")
            case "text-multi": spec["type"] = .string("multiline")
            case "number":
                spec["type"] = .string(valueType.hasPrefix("long") ? "integer" : "number")
            case "boolean": spec["type"] = .string("boolean")
            case "date", "calendar":
                let display = (element.attributes["displayType"] ?? element.attributes["type"] ?? "").lowercased()
                spec["type"] = .string(display == "date" ? "date" : display == "time" ? "time" : "datetime")
            case "enumeration":
                spec["type"] = .string("enumeration")
                let values = element.descendants.compactMap { $0.attributes["value"] }
                spec["values"] = .array(values.map(JSONValue.string))
            case "tags": spec["type"] = .string("tags")
            case "reference", "content-reference": spec["type"] = .string("contentReference")
            case "fragmentreference", "fragment-reference":
                spec["type"] = .string("fragmentReference")
                let target =
                    element.attributes["fragmentmodelreference"] ?? element.attributes["modelReference"]
                    ?? element.attributes["models"] ?? ""
                let first = Self.fileVaultValues(target).first ?? ""
                spec["model"] = .string(first.split(separator: "/").last.map(String.init) ?? first)
            case "json": spec["type"] = .string("json")
            default:
                notes.append(
                    "\(file.path):\(element.line): field '\(fieldName)' has metaType '\(metaType)', which the emulator "
                        + "does not read; the field is left out")
                continue
            }
            fields.append(JSONMember(fieldName, .object(JSONObject(spec.map { JSONMember($0.key, $0.value) }))))
        }
        var model: JSONObject = ["name": .string(name), "fields": .object(JSONObject(fields))]
        if let title { model["title"] = .string(title) }
        do {
            models.append(
                try JSONDecoder().decode(ContentFragmentModel.self, from: Data(JSONValue.object(model).serialized())))
        } catch {
            notes.append("\(file.path): the model '\(name)' cannot be read: \(error)")
        }
    }

    // MARK: - Fragments

    private mutating func readFragment(_ file: URL, root: URL) {
        guard let document = XMLDocumentNode.parse(file, notes: &notes) else { return }
        // Only content fragments: other assets under the DAM are not data.
        guard let data = document.child("jcr:content")?.child("data"), let modelPath = data.attributes["cq:model"]
        else { return }
        let modelName = modelPath.split(separator: "/").last.map(String.init) ?? modelPath
        guard let model = models.first(where: { $0.name == modelName }) else {
            notes.append("\(file.path):\(data.line): the fragment's model \(modelPath) is not in the package; left out")
            return
        }
        let path = String(file.deletingLastPathComponent().path.dropFirst(root.path.count))
        let master = data.child("master")?.attributes ?? [:]
        var values = JSONObject()
        for field in model.fields {
            guard let raw = master[field.name] else { continue }
            values[field.name] = Self.value(raw, for: field)
        }
        fragments.append(AEMWorkspace.Fragment(path: path, id: stableUUID(path), model: model.name, values: values))
    }

    /// A FileVault property value as the field's JSON: `{Type}` prefixes read, `[a,b]` lists split.
    static func value(_ raw: String, for field: ContentFragmentModel.Field) -> JSONValue {
        let several = field.multiple || field.type == .tags
        let texts = raw.hasPrefix("[") || raw.contains("}[") ? fileVaultValues(raw) : [Self.untyped(raw)]
        let converted = texts.map { text -> JSONValue in
            switch field.type {
            case .number:
                guard let number = Double(text), number.isFinite else { return .null }
                return .number(JSONNumber(text: "\(number)"))
            case .integer:
                guard let number = Int(text) else { return .null }
                return .number(JSONNumber(number))
            case .boolean:
                return .bool(text == "true")
            case .json:
                return (try? JSONParser().parse(text)) ?? .string(text)
            case .date:
                // JCR keeps a date as a whole calendar value; the field shows its day.
                return .string(String(text.prefix { $0 != "T" }))
            default:
                return .string(text)
            }
        }
        return several ? .array(converted) : converted.first ?? .null
    }

    /// The values of a FileVault property: `{Long}[1,2]` → `1`, `2`; `[a\,b,c]` → `a,b`, `c`; `x` → `x`.
    static func fileVaultValues(_ raw: String) -> [String] {
        var text = Substring(raw)
        if text.hasPrefix("{"), let close = text.firstIndex(of: "}") { text = text[text.index(after: close)...] }
        guard text.hasPrefix("["), text.hasSuffix("]") else { return [String(text)] }
        let inner = text.dropFirst().dropLast()
        if inner.isEmpty { return [] }
        var values: [String] = []
        var current = ""
        var escaped = false
        for character in inner {
            if escaped {
                current.append(character)
                escaped = false
            } else if character == "\\" {
                escaped = true
            } else if character == "," {
                values.append(current)
                current = ""
            } else {
                current.append(character)
            }
        }
        values.append(current)
        return values
    }

    /// A single FileVault value without its `{Type}` prefix.
    private static func untyped(_ raw: String) -> String {
        guard raw.hasPrefix("{"), let close = raw.firstIndex(of: "}") else { return raw }
        return String(raw[raw.index(after: close)...])
    }
}

/// An XML element read by Foundation's `XMLParser`: its name, attributes, children and line.
final class XMLDocumentNode {
    let name: String
    let attributes: [String: String]
    let line: Int
    var children: [XMLDocumentNode] = []

    init(name: String, attributes: [String: String], line: Int) {
        self.name = name
        self.attributes = attributes
        self.line = line
    }

    func child(_ name: String) -> XMLDocumentNode? {
        children.first { $0.name == name }
    }

    /// Every element below this one, in document order.
    var descendants: [XMLDocumentNode] {
        var found: [XMLDocumentNode] = []
        var stack = Array(children.reversed())
        while let next = stack.popLast() {
            found.append(next)
            stack += next.children.reversed()
        }
        return found
    }

    /// The root element of a file, or `nil` with a note saying where the XML breaks.
    static func parse(_ file: URL, notes: inout [String]) -> XMLDocumentNode? {
        guard let data = FileManager.default.contents(atPath: file.path) else {
            notes.append("\(file.path): cannot be read")
            return nil
        }
        let builder = Builder()
        let parser = XMLParser(data: data)
        parser.delegate = builder
        parser.shouldResolveExternalEntities = false
        let parsed = parser.parse()
        if !parsed || builder.failure != nil || builder.root == nil {
            let line = builder.failureLine ?? parser.lineNumber
            let reason =
                builder.failure ?? parser.parserError.map { "XML error \(($0 as NSError).code)" } ?? "no element"
            notes.append("\(file.path):\(line): not well-formed XML (\(reason)); the file is left out")
            return nil
        }
        return builder.root
    }

    private final class Builder: NSObject, XMLParserDelegate {
        var root: XMLDocumentNode?
        var stack: [XMLDocumentNode] = []
        var failure: String?
        var failureLine: Int?

        func parser(
            _ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?,
            qualifiedName qName: String?, attributes attributeDict: [String: String] = [:]
        ) {
            // Deeper than any content package nests, so that no file exhausts the reader.
            guard stack.count < 256 else {
                failure = failure ?? "elements nested more than 256 deep"
                failureLine = failureLine ?? parser.lineNumber
                parser.abortParsing()
                return
            }
            let node = XMLDocumentNode(name: elementName, attributes: attributeDict, line: parser.lineNumber)
            if let parent = stack.last { parent.children.append(node) } else if root == nil { root = node }
            stack.append(node)
        }

        func parser(
            _ parser: XMLParser, didEndElement elementName: String, namespaceURI: String?, qualifiedName qName: String?
        ) {
            _ = stack.popLast()
        }

        func parser(_ parser: XMLParser, parseErrorOccurred parseError: any Error) {
            // Foundation's XML errors carry a libxml2 code and seldom a description.
            let code = (parseError as NSError).code
            failure = failure ?? "XML error \(code) at column \(parser.columnNumber)"
            failureLine = failureLine ?? parser.lineNumber
        }
    }
}
