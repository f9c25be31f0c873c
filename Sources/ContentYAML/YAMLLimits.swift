/// Bounds that keep a hostile document from exhausting memory or the stack.
public struct YAMLLimits: Sendable, Hashable {
    /// How many nodes aliases may stand for in all, counting every node an alias repeats.
    ///
    /// A "billion laughs" document nests aliases so that a few lines stand for billions of nodes; it
    /// passes this bound within a few levels and fails with an error naming the alias.
    public var maxAliasExpansion: Int
    /// How deeply collections may nest.
    public var maxDepth: Int
    /// The largest document accepted, in bytes.
    public var maxDocumentBytes: Int

    /// Creates limits.
    ///
    /// - Parameters:
    ///   - maxAliasExpansion: How many nodes aliases may stand for in all.
    ///   - maxDepth: How deeply collections may nest.
    ///   - maxDocumentBytes: The largest document accepted, in bytes.
    public init(maxAliasExpansion: Int = 100_000, maxDepth: Int = 200, maxDocumentBytes: Int = 16 << 20) {
        self.maxAliasExpansion = maxAliasExpansion
        self.maxDepth = maxDepth
        self.maxDocumentBytes = maxDocumentBytes
    }

    /// Limits that suit configuration files.
    public static let `default` = YAMLLimits()
}
