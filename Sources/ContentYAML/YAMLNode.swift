/// One node of a parsed YAML document, with aliases and merge keys already resolved.
///
/// Nodes are values: an alias shares its anchor's storage, so a document's memory stays proportional
/// to its text; what an alias costs when walked is bounded by ``YAMLLimits/maxAliasExpansion``.
public struct YAMLNode: Sendable {
    /// What a node holds.
    public enum Kind: Sendable {
        /// A scalar: its text, before any interpretation.
        case scalar(YAMLScalar)
        /// A sequence, in document order.
        case sequence([YAMLNode])
        /// A mapping, in document order. Keys are unique.
        case mapping([YAMLMappingEntry])
    }

    /// What the node holds.
    public var kind: Kind
    /// Where the node starts.
    public var mark: YAMLMark

    /// Creates a node.
    ///
    /// - Parameters:
    ///   - kind: What the node holds.
    ///   - mark: Where the node starts.
    public init(_ kind: Kind, at mark: YAMLMark) {
        self.kind = kind
        self.mark = mark
    }

    /// The entry with this scalar key, when the node is a mapping that has it.
    ///
    /// - Parameter key: The key's text.
    /// - Returns: The entry, or `nil`.
    public func entry(_ key: String) -> YAMLMappingEntry? {
        guard case .mapping(let entries) = kind else { return nil }
        return entries.first { $0.key == key }
    }

    /// A copy without the entry for `key`, when the node is a mapping.
    ///
    /// - Parameter key: The key to drop.
    /// - Returns: The node without that entry.
    public func removingEntry(_ key: String) -> YAMLNode {
        guard case .mapping(let entries) = kind else { return self }
        return YAMLNode(.mapping(entries.filter { $0.key != key }), at: mark)
    }

    /// A short name for the node's kind, as error messages say it.
    public var kindName: String {
        switch kind {
        case .scalar(let scalar): return scalar.isNull ? "null" : "a scalar"
        case .sequence: return "a sequence"
        case .mapping: return "a mapping"
        }
    }
}

/// A scalar's text and how it was written.
public struct YAMLScalar: Sendable, Hashable {
    /// How a scalar was written: plain scalars are typed by their text, quoted and block ones are strings.
    public enum Style: Sendable, Hashable {
        /// Unquoted.
        case plain
        /// Single-quoted.
        case singleQuoted
        /// Double-quoted.
        case doubleQuoted
        /// A literal (`|`) or folded (`>`) block.
        case block
    }

    /// The scalar's text, after YAML's own escapes and folding.
    public var value: String
    /// How it was written.
    public var style: Style
    /// An explicit tag such as `!!str`, if one was given.
    public var tag: String?

    /// Creates a scalar.
    ///
    /// - Parameters:
    ///   - value: The text.
    ///   - style: How it was written.
    ///   - tag: An explicit tag.
    public init(_ value: String, style: Style = .plain, tag: String? = nil) {
        self.value = value
        self.style = style
        self.tag = tag
    }

    /// Whether the scalar is YAML's null (`~`, `null`, or nothing, unquoted and untagged).
    public var isNull: Bool {
        guard style == .plain, tag == nil || tag == "tag:yaml.org,2002:null" else { return false }
        switch value {
        case "", "~", "null", "Null", "NULL": return true
        default: return false
        }
    }
}

/// One key and value of a mapping.
public struct YAMLMappingEntry: Sendable {
    /// The key's text.
    ///
    /// Mapping keys in `content`'s documents are scalars.
    public var key: String
    /// Where the key is.
    public var keyMark: YAMLMark
    /// The value.
    public var value: YAMLNode

    /// Creates an entry.
    ///
    /// - Parameters:
    ///   - key: The key's text.
    ///   - keyMark: Where the key is.
    ///   - value: The value.
    public init(key: String, keyMark: YAMLMark, value: YAMLNode) {
        self.key = key
        self.keyMark = keyMark
        self.value = value
    }
}
