internal import CYAML

/// Reads YAML text with libyaml's event parser into a ``YAMLNode`` tree.
///
/// Beyond what libyaml checks, the parser resolves aliases and `<<` merge keys, rejects duplicate keys
/// and non-scalar keys, and enforces ``YAMLLimits``, so that everything after it sees a plain tree.
public struct YAMLParser: Sendable {
    /// The bounds the parser enforces.
    public var limits: YAMLLimits

    /// Creates a parser.
    ///
    /// - Parameter limits: The bounds to enforce.
    public init(limits: YAMLLimits = .default) {
        self.limits = limits
    }

    /// Parses one YAML document.
    ///
    /// - Parameters:
    ///   - text: The document.
    ///   - file: The file name that errors mention.
    /// - Returns: The root node, or `nil` when the document is empty.
    /// - Throws: ``YAMLError`` with the line and column of the first problem.
    public func parse(_ text: String, file: String) throws(YAMLError) -> YAMLNode? {
        let bytes = Array(text.utf8)
        guard bytes.count <= limits.maxDocumentBytes else {
            throw YAMLError(
                file: file,
                mark: nil,
                message: "document is \(bytes.count) bytes, more than the \(limits.maxDocumentBytes) allowed"
            )
        }
        var builder = TreeBuilder(file: file, limits: limits)
        // libyaml keeps a pointer to the parser inside the parser, so it must not move: allocate it.
        let parser = UnsafeMutablePointer<yaml_parser_t>.allocate(capacity: 1)
        defer { parser.deallocate() }
        guard yaml_parser_initialize(parser) == 1 else {
            throw YAMLError(file: file, mark: nil, message: "libyaml could not allocate a parser")
        }
        defer { yaml_parser_delete(parser) }
        return try bytes.withUnsafeBufferPointer { (buffer) throws(YAMLError) -> YAMLNode? in
            yaml_parser_set_input_string(parser, buffer.baseAddress, buffer.count)
            yaml_parser_set_encoding(parser, YAML_UTF8_ENCODING)
            var event = yaml_event_t()
            while true {
                guard yaml_parser_parse(parser, &event) == 1 else {
                    throw Self.parserError(parser.pointee, file: file, text: buffer)
                }
                defer { yaml_event_delete(&event) }
                if event.type == YAML_STREAM_END_EVENT { break }
                try builder.consume(event)
            }
            return builder.root
        }
    }

    private static func parserError(
        _ parser: yaml_parser_t,
        file: String,
        text: UnsafeBufferPointer<UInt8>
    ) -> YAMLError {
        let problem = parser.problem.map { String(cString: $0) } ?? "malformed YAML"
        var message = problem
        if let context = parser.context.map({ String(cString: $0) }) {
            message = "\(problem) \(context) started at \(Self.mark(parser.context_mark))"
        }
        // Reader errors (bad encoding, control characters) carry a byte offset, not a mark.
        let mark =
            parser.error == YAML_READER_ERROR
            ? Self.mark(atOffset: parser.problem_offset, in: text) : Self.mark(parser.problem_mark)
        return YAMLError(file: file, mark: mark, message: message)
    }

    private static func mark(atOffset offset: Int, in text: UnsafeBufferPointer<UInt8>) -> YAMLMark {
        var line = 1
        var column = 1
        for byte in text.prefix(offset) {
            if byte == 0x0A {
                line += 1
                column = 1
            } else if byte & 0xC0 != 0x80 {
                column += 1
            }
        }
        return YAMLMark(line: line, column: column)
    }

    fileprivate static func mark(_ mark: yaml_mark_t) -> YAMLMark {
        YAMLMark(line: Int(mark.line) + 1, column: Int(mark.column) + 1)
    }
}

/// Turns libyaml's events into nodes, one open collection per stack frame.
private struct TreeBuilder {
    /// A node and how many nodes it stands for once aliases are expanded.
    struct Weighed {
        var node: YAMLNode
        var weight: Int
    }

    enum Frame {
        case sequence(items: [YAMLNode], weight: Int, mark: YAMLMark, anchor: String?)
        case mapping(MappingFrame)
    }

    struct MappingFrame {
        enum Part {
            case entry(YAMLMappingEntry)
            case merge([YAMLMappingEntry])
        }
        var parts: [Part] = []
        var explicitKeys: [String: YAMLMark] = [:]
        var pendingKey: (key: String, mark: YAMLMark, isMerge: Bool)?
        var weight = 1
        var mark: YAMLMark
        var anchor: String?
    }

    let file: String
    let limits: YAMLLimits
    var stack: [Frame] = []
    var anchors: [String: Weighed] = [:]
    var expanded = 0
    var root: YAMLNode?
    var documents = 0

    init(file: String, limits: YAMLLimits) {
        self.file = file
        self.limits = limits
    }

    mutating func consume(_ event: yaml_event_t) throws(YAMLError) {
        let mark = YAMLParser.mark(event.start_mark)
        switch event.type {
        case YAML_DOCUMENT_START_EVENT:
            documents += 1
            if documents > 1 {
                throw error(at: mark, "expected one YAML document, found a second one here; remove the `---`")
            }
        case YAML_SCALAR_EVENT:
            let data = event.data.scalar
            let value = String(decoding: UnsafeBufferPointer(start: data.value, count: data.length), as: UTF8.self)
            let style: YAMLScalar.Style
            switch data.style {
            case YAML_SINGLE_QUOTED_SCALAR_STYLE: style = .singleQuoted
            case YAML_DOUBLE_QUOTED_SCALAR_STYLE: style = .doubleQuoted
            case YAML_LITERAL_SCALAR_STYLE, YAML_FOLDED_SCALAR_STYLE: style = .block
            default: style = .plain
            }
            let tag = data.tag.map { Self.expandTag(String(cString: $0)) }
            let node = YAMLNode(.scalar(YAMLScalar(value, style: style, tag: tag)), at: mark)
            try complete(Weighed(node: node, weight: 1), anchor: data.anchor.map { String(cString: $0) })
        case YAML_ALIAS_EVENT:
            let name = event.data.alias.anchor.map { String(cString: $0) } ?? ""
            guard let target = anchors[name] else {
                throw error(at: mark, "alias *\(name) refers to no anchor defined before it")
            }
            expanded += target.weight
            if expanded > limits.maxAliasExpansion {
                throw error(
                    at: mark,
                    "aliases expand to more than \(limits.maxAliasExpansion) nodes at *\(name); "
                        + "the document repeats itself too much (an alias bomb?)"
                )
            }
            var node = target.node
            node.mark = mark
            try complete(Weighed(node: node, weight: target.weight), anchor: nil)
        case YAML_SEQUENCE_START_EVENT:
            try push(
                .sequence(
                    items: [], weight: 1, mark: mark,
                    anchor: event.data.sequence_start.anchor.map { String(cString: $0) }), at: mark)
        case YAML_MAPPING_START_EVENT:
            let anchor = event.data.mapping_start.anchor.map { String(cString: $0) }
            try push(.mapping(MappingFrame(mark: mark, anchor: anchor)), at: mark)
        case YAML_SEQUENCE_END_EVENT, YAML_MAPPING_END_EVENT:
            guard let frame = stack.popLast() else { return }
            switch frame {
            case .sequence(let items, let weight, let start, let anchor):
                try complete(Weighed(node: YAMLNode(.sequence(items), at: start), weight: weight), anchor: anchor)
            case .mapping(let mapping):
                let node = YAMLNode(.mapping(Self.resolveMerges(mapping)), at: mapping.mark)
                try complete(Weighed(node: node, weight: mapping.weight), anchor: mapping.anchor)
            }
        default:
            break
        }
    }

    private mutating func push(_ frame: Frame, at mark: YAMLMark) throws(YAMLError) {
        guard stack.count < limits.maxDepth else {
            throw error(at: mark, "collections nest more than \(limits.maxDepth) deep")
        }
        stack.append(frame)
    }

    /// Attaches a finished node to the collection that holds it.
    private mutating func complete(_ weighed: Weighed, anchor: String?) throws(YAMLError) {
        if let anchor { anchors[anchor] = weighed }
        guard let parent = stack.popLast() else {
            root = weighed.node
            return
        }
        // Consumed, so the payload moves out of the frame and is appended to in place: a copy per node would make a
        // mapping of n keys cost n² (40,000 keys took half a minute).
        switch consume parent {
        case .sequence(var items, let weight, let mark, let anchor):
            items.append(weighed.node)
            stack.append(.sequence(items: items, weight: weight + weighed.weight, mark: mark, anchor: anchor))
        case .mapping(var mapping):
            try add(weighed, to: &mapping)
            stack.append(.mapping(mapping))
        }
    }

    private func add(_ weighed: Weighed, to mapping: inout MappingFrame) throws(YAMLError) {
        let node = weighed.node
        mapping.weight += weighed.weight
        guard let pending = mapping.pendingKey else {
            guard case .scalar(let scalar) = node.kind else {
                throw error(at: node.mark, "mapping keys must be scalars, found \(node.kindName)")
            }
            let isMerge = scalar.value == "<<" && scalar.style == .plain
            if !isMerge, let first = mapping.explicitKeys[scalar.value] {
                throw error(
                    at: node.mark,
                    "duplicate key '\(scalar.value)' (first defined at \(first)); keep only one"
                )
            }
            if !isMerge { mapping.explicitKeys[scalar.value] = node.mark }
            mapping.pendingKey = (scalar.value, node.mark, isMerge)
            return
        }
        mapping.pendingKey = nil
        if pending.isMerge {
            mapping.parts.append(.merge(try mergeSources(node)))
        } else {
            mapping.parts.append(.entry(YAMLMappingEntry(key: pending.key, keyMark: pending.mark, value: node)))
        }
    }

    /// The entries a `<<` value brings: one mapping, or a sequence of them (earlier ones win).
    private func mergeSources(_ node: YAMLNode) throws(YAMLError) -> [YAMLMappingEntry] {
        switch node.kind {
        case .mapping(let entries):
            return entries
        case .sequence(let items):
            var merged: [YAMLMappingEntry] = []
            var seen = Set<String>()
            for item in items {
                guard case .mapping(let entries) = item.kind else {
                    throw error(at: item.mark, "a `<<` merge takes mappings, found \(item.kindName)")
                }
                for entry in entries where seen.insert(entry.key).inserted {
                    merged.append(entry)
                }
            }
            return merged
        case .scalar:
            throw error(at: node.mark, "a `<<` merge takes a mapping or a list of mappings, found \(node.kindName)")
        }
    }

    /// Explicit keys win over merged ones; merged entries take the place of their `<<`.
    private static func resolveMerges(_ mapping: MappingFrame) -> [YAMLMappingEntry] {
        var result: [YAMLMappingEntry] = []
        var seen = Set(mapping.explicitKeys.keys)
        for part in mapping.parts {
            switch part {
            case .entry(let entry):
                result.append(entry)
            case .merge(let entries):
                for entry in entries where seen.insert(entry.key).inserted {
                    result.append(entry)
                }
            }
        }
        return result
    }

    private static func expandTag(_ tag: String) -> String {
        tag.hasPrefix("!!") ? "tag:yaml.org,2002:" + tag.dropFirst(2) : tag
    }

    private func error(at mark: YAMLMark, _ message: String) -> YAMLError {
        YAMLError(file: file, mark: mark, message: message)
    }
}
