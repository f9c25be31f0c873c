/// How much one GraphQL request may ask of a server: what every GraphQL entry point of `content serve` checks before
/// and while it executes, so that no request can exhaust the stack, the memory or the CPU.
///
/// AEM documents two of them ("The query cannot contain more than 1M (1024 * 1024) characters", "… more than 15000
/// tokens": Adobe's *AEM GraphQL API for use with Content Fragments*, Limitations), which are graphql-java's parser
/// defaults; the defaults here are those. Firebase documents no limit of this kind for Data Connect, and neither
/// service documents the others, so they sit far above every operation of the sample and corpus workspaces and far
/// below what hurts the emulator; `content serve --limit NAME=VALUE` raises any of them.
public struct GraphQLLimits: Sendable, Equatable {
    /// UTF-8 bytes of the text (AEM counts characters; for the ASCII of real queries the two agree).
    public var characters = 1 << 20
    /// Lexical tokens in the text (comments and ignored characters excluded), as AEM counts them.
    public var tokens = 15_000
    /// Nesting of `{`, `(` and `[` in the text, and of selections once fragments are expanded.
    public var depth = 64
    /// Aliased fields, with every fragment spread expanded.
    public var aliases = 100
    /// Field selections, with every fragment spread expanded.
    public var fields = 5_000
    /// Fragment definitions in one document.
    public var fragments = 500
    /// Directives on one field, fragment, operation or variable.
    public var directives = 16
    /// Bytes of the response body.
    public var responseBytes = 64 << 20
    /// Seconds one request may execute.
    public var seconds = 30
    /// Whether `content serve --limit` can raise these (a server's), or not (a workspace file's).
    public var adjustable = true

    /// The defaults.
    public init() {}

    /// The highest `depth` `--limit` accepts; `GraphQLLimitsTests` parses text this deep on a task's stack.
    public static let deepestAllowed = 512

    /// The limits of a workspace's own files (schemas, connectors, seeds, persisted queries), which may be far larger
    /// than a request but must still not nest deep enough to exhaust the parser's stack.
    public static var files: GraphQLLimits {
        var limits = GraphQLLimits()
        limits.characters = 64 << 20
        limits.tokens = 10_000_000
        limits.aliases = 1_000_000
        limits.fields = 10_000_000
        limits.fragments = 100_000
        limits.directives = 64
        limits.adjustable = false
        return limits
    }

    /// Each limit with its `--limit` name, the default and what it bounds, for `--help` and errors.
    public static var names: [(name: String, keyPath: WritableKeyPath<GraphQLLimits, Int>, about: String)] {
        [
            ("characters", \.characters, "bytes of the query text"),
            ("tokens", \.tokens, "lexical tokens in the query text"),
            ("depth", \.depth, "nesting of the text and of selections with fragments expanded"),
            ("aliases", \.aliases, "aliased fields, fragments expanded"),
            ("fields", \.fields, "field selections, fragments expanded"),
            ("fragments", \.fragments, "fragment definitions in one document"),
            ("directives", \.directives, "directives on one field, fragment, operation or variable"),
            ("response-bytes", \.responseBytes, "bytes of one response body"),
            ("seconds", \.seconds, "seconds one request may execute"),
        ]
    }

    /// Sets one limit from `NAME=VALUE`.
    ///
    /// - Parameter assignment: Such as `aliases=500`.
    /// - Throws: ``GraphQLLimitError`` for an unknown name or a value that is not a positive integer.
    public mutating func set(_ assignment: String) throws(GraphQLLimitError) {
        guard let equals = assignment.firstIndex(of: "=") else {
            throw GraphQLLimitError("\(assignment) is not NAME=VALUE; names: \(Self.nameList)")
        }
        let name = String(assignment[..<equals])
        let text = assignment[assignment.index(after: equals)...]
        guard let entry = Self.names.first(where: { $0.name == name }) else {
            throw GraphQLLimitError("\(name) is not a limit; names: \(Self.nameList)")
        }
        guard let value = Int(text), value > 0 else {
            throw GraphQLLimitError("\(name)=\(text): the value must be a whole number above 0")
        }
        // Depth is what the parser's recursion uses; raised without bound it would let a request exhaust the stack.
        if name == "depth", value > Self.deepestAllowed {
            throw GraphQLLimitError(
                "depth=\(value): at most \(Self.deepestAllowed), beyond which nesting could exhaust the parser's stack")
        }
        self[keyPath: entry.keyPath] = value
    }

    /// `tokens, depth, …`.
    public static var nameList: String { names.map(\.name).joined(separator: ", ") }

    /// The advice a limit error ends with: the flag that raises it, for a server's limits.
    package func advice(_ name: String) -> String {
        adjustable ? " (raise it with content serve --limit \(name)=N)" : ""
    }
}

/// A `--limit` that is not `NAME=VALUE` with a known name and a positive value.
public struct GraphQLLimitError: Error, Equatable, CustomStringConvertible {
    /// What is wrong.
    public var description: String

    init(_ description: String) { self.description = description }
}
