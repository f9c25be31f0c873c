internal import ContentAEM
internal import ContentDataConnect
internal import ContentGraphQL

/// A problem in the generator's inputs, at the file, line and column it was found, formatted the way
/// compilers print errors so SwiftPM shows it as a build diagnostic on the `.gql` or `.yaml` line.
public struct GeneratorDiagnostic: Error, Sendable, Hashable, CustomStringConvertible {
    /// The file, when there is one.
    public var file: String?
    /// The line, starting at 1.
    public var line: Int?
    /// The column, starting at 1.
    public var column: Int?
    /// What is wrong and what to do.
    public var message: String

    /// A diagnostic at a place in a file.
    public init(file: String? = nil, line: Int? = nil, column: Int? = nil, _ message: String) {
        self.file = file
        self.line = line
        self.column = column
        self.message = message
    }

    /// `file:line:column: error: message`, or as much of the place as is known.
    public var description: String {
        var place = file ?? "content-client"
        if let line {
            place += ":\(line)"
            if let column { place += ":\(column)" }
        }
        return "\(place): error: \(message)"
    }
}

extension GeneratorDiagnostic {
    /// The same problem, from GraphQL text that does not parse or validate.
    init(_ error: GraphQLSourceError) {
        self.init(file: error.file, line: error.line, column: error.column, error.message)
    }

    /// The same problem, from reading a Data Connect workspace.
    init(_ error: DataConnectWorkspaceError) {
        self.init(file: error.file, line: error.line, column: error.column, error.message)
    }

    /// The same problem, from reading an AEM workspace.
    init(_ error: AEMDefinitionError) {
        self.init(file: error.file, line: error.line, column: error.column, error.message)
    }
}
