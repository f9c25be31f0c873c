public import ContentCore
public import ContentGraphQL

/// A problem in a Data Connect workspace: a missing file, malformed YAML or GraphQL, a schema that does
/// not make tables, or an operation that does not fit the schema.
public struct DataConnectWorkspaceError: ContentFailure, Equatable {
    /// The file the problem is in, when there is one.
    public var file: String?
    /// The 1-based line and column, when known.
    public var line: Int?
    /// The 1-based column, when known.
    public var column: Int?
    /// What is wrong and what to do.
    public var message: String

    /// Creates an error.
    ///
    /// - Parameters:
    ///   - file: The file the problem is in.
    ///   - line: The 1-based line.
    ///   - column: The 1-based column.
    ///   - message: What is wrong and what to do.
    public init(file: String? = nil, line: Int? = nil, column: Int? = nil, _ message: String) {
        self.file = file
        self.line = line
        self.column = column
        self.message = message
    }

    /// The same failure, from GraphQL text of the workspace.
    ///
    /// - Parameter error: The GraphQL text's error.
    public init(_ error: GraphQLSourceError) {
        self.init(file: error.file, line: error.line, column: error.column, error.message)
    }

    /// A workspace is configuration.
    public var category: FailureCategory { .configuration }

    /// `file:line:col: message`, as compilers print it.
    public var description: String {
        guard let file else { return message }
        guard let line else { return "\(file): \(message)" }
        return "\(file):\(line):\(column ?? 1): \(message)"
    }
}
