public import ContentCore

/// GraphQL text that does not parse or validate: the file (or request) it came from, the line and column, and why.
public struct GraphQLSourceError: ContentFailure, Equatable {
    /// The file path, or what stands for it (`<request>`).
    public var file: String
    /// The 1-based line, when known.
    public var line: Int?
    /// The 1-based column, when known.
    public var column: Int?
    /// What is wrong.
    public var message: String
    /// The name of the ``GraphQLLimits`` limit the text passed, when that is what is wrong.
    public var limit: String?

    /// Creates an error.
    ///
    /// - Parameters:
    ///   - file: Where the text came from.
    ///   - line: The line.
    ///   - column: The column.
    ///   - message: What is wrong.
    ///   - limit: The limit passed, if that is what is wrong.
    public init(file: String, line: Int? = nil, column: Int? = nil, _ message: String, limit: String? = nil) {
        self.file = file
        self.line = line
        self.column = column
        self.message = message
        self.limit = limit
    }

    /// Configuration: the text comes from the user's files.
    public var category: FailureCategory { .configuration }

    /// `file:line:column: message`.
    public var description: String {
        guard let line else { return "\(file): \(message)" }
        return "\(file):\(line):\(column ?? 1): \(message)"
    }
}
