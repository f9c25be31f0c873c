/// What one decode run remembers: which keys each mapping was asked for, to find the unknown ones.
final class DecodingContext {
    let file: String
    let environment: [String: String]
    let prefix: [String]

    private struct VisitedMapping {
        var entries: [YAMLMappingEntry]
        var path: [any CodingKey]
        var asked: Set<String> = []
        var enumerated = false
    }

    /// Keyed by path identity; an alias reached twice is the same mapping by the same path.
    private var visited: [String: VisitedMapping] = [:]

    /// A path's identity: unlike its rendering, keys holding `.` or `[` cannot collide.
    private func identity(_ path: [any CodingKey]) -> String {
        path.map { ($0 as? YAMLKey)?.isIndex == true ? "#\($0.stringValue)" : "=" + $0.stringValue }
            .joined(separator: "\u{1F}")
    }

    init(file: String, environment: [String: String], prefix: [String]) {
        self.file = file
        self.environment = environment
        self.prefix = prefix
    }

    func visit(_ entries: [YAMLMappingEntry], at path: [any CodingKey]) {
        let id = identity(path)
        if visited[id] == nil { visited[id] = VisitedMapping(entries: entries, path: path) }
    }

    func ask(_ key: String, at path: [any CodingKey]) {
        visited[identity(path)]?.asked.insert(key)
    }

    func enumerate(at path: [any CodingKey]) {
        visited[identity(path)]?.enumerated = true
    }

    /// The earliest key in the document that no type asked for.
    func firstUnknownKey() -> YAMLError? {
        var found: [YAMLError] = []
        for mapping in visited.values where !mapping.enumerated {
            for entry in mapping.entries where !mapping.asked.contains(entry.key) {
                let suggestion = closestMatch(to: entry.key, in: mapping.asked)
                let known = mapping.asked.sorted().joined(separator: ", ")
                found.append(
                    YAMLError(
                        file: file,
                        mark: entry.keyMark,
                        keyPath: render(mapping.path + [YAMLKey(entry.key)]),
                        message: "unknown key '\(entry.key)'",
                        hint: suggestion.map { "did you mean '\($0)'?" }
                            ?? (known.isEmpty ? nil : "known keys: \(known)")
                    )
                )
            }
        }
        return found.min { ($0.mark ?? YAMLMark(line: 0, column: 0)) < ($1.mark ?? YAMLMark(line: 0, column: 0)) }
    }

    /// `backends.wknd.headers[0]`, with the decode's prefix in front.
    func render(_ path: [any CodingKey]) -> String {
        var text = prefix.joined(separator: ".")
        for key in path {
            if let index = (key as? YAMLKey)?.index {
                text += "[\(index)]"
            } else {
                text += text.isEmpty ? key.stringValue : "." + key.stringValue
            }
        }
        return text
    }

    func error(_ message: String, at node: YAMLNode, path: [any CodingKey], hint: String? = nil) -> YAMLError {
        YAMLError(file: file, mark: node.mark, keyPath: render(path), message: message, hint: hint)
    }

    /// Places a `DecodingError` thrown by a type's own `init(from:)` at the node its path leads to.
    func translate(_ error: DecodingError, root: YAMLNode) -> YAMLError {
        let path: [any CodingKey]
        let message: String
        switch error {
        case .dataCorrupted(let context):
            (path, message) = (context.codingPath, context.debugDescription)
        case .keyNotFound(let key, let context):
            (path, message) = (context.codingPath, "missing required key '\(key.stringValue)'")
        case .typeMismatch(let type, let context):
            (path, message) = (context.codingPath, "expected \(type): \(context.debugDescription)")
        case .valueNotFound(let type, let context):
            (path, message) = (context.codingPath, "expected \(type), found nothing")
        @unknown default:
            (path, message) = ([], "\(error)")
        }
        var node = root
        for key in path {
            switch node.kind {
            case .mapping:
                if let entry = node.entry(key.stringValue) { node = entry.value }
            case .sequence(let items):
                if let index = key.intValue ?? Int(key.stringValue.replacing("Index ", with: "")),
                    items.indices.contains(index)
                {
                    node = items[index]
                }
            case .scalar:
                break
            }
        }
        return YAMLError(file: file, mark: node.mark, keyPath: render(path), message: message)
    }
}

/// A coding key made from text or a sequence index.
///
/// Only keys made here are indexes: Swift gives a dictionary key such as `"404"` an `intValue` too,
/// and that must still render as `.404`, not `[404]`.
struct YAMLKey: CodingKey {
    var stringValue: String
    var intValue: Int?
    let isIndex: Bool

    init(_ string: String) {
        stringValue = string
        intValue = nil
        isIndex = false
    }

    init(stringValue: String) { self.init(stringValue) }

    init(intValue: Int) {
        stringValue = "\(intValue)"
        self.intValue = intValue
        isIndex = true
    }

    var index: Int? { isIndex ? intValue : nil }
}
