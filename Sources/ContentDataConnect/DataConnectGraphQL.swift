package import GraphQL

/// The GraphQL schema of a workspace and its validated operation documents, built the same way for
/// everything that reads a workspace: the emulator executes them and the client generator types them.
package enum DataConnectGraphQL {
    /// The schema Data Connect derives from the workspace's tables.
    ///
    /// - Parameter schema: The tables.
    /// - Returns: The executable schema.
    /// - Throws: ``DataConnectWorkspaceError`` when the tables do not make a valid schema.
    package static func schema(for schema: DataConnectSchema) throws(DataConnectWorkspaceError) -> GraphQLSchema {
        do {
            return try buildSchema(source: DataConnectSDL.make(schema))
        } catch {
            throw DataConnectWorkspaceError("the schema does not make a valid GraphQL schema: \(error)")
        }
    }

    /// Parses a `.gql` file and validates it against the schema.
    ///
    /// - Parameters:
    ///   - text: The file's text.
    ///   - path: The file's path, for positions.
    ///   - schema: The schema.
    /// - Returns: The document.
    /// - Throws: ``DataConnectWorkspaceError`` at the file, line and column of the first problem.
    package static func parseAndValidate(_ text: String, path: String, schema: GraphQLSchema)
        throws(DataConnectWorkspaceError) -> Document
    {
        let document = try GraphQLText.parse(text, path: path)
        let problems = validate(schema: schema, ast: document)
        if let first = problems.first {
            let location = first.locations.first
            let more = problems.count > 1 ? " (and \(problems.count - 1) more)" : ""
            throw DataConnectWorkspaceError(
                file: path, line: location?.line, column: location?.column, first.message + more)
        }
        return document
    }
}
