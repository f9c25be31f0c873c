internal import ContentGraphQL
package import GraphQL

/// The GraphQL schema of a workspace and its validated operation documents, built the same way for
/// everything that reads a workspace: the emulator executes them and the client generator types them.
package enum DataConnectGraphQL {
    /// The schema Data Connect derives from the workspace's tables.
    ///
    /// - Parameters:
    ///   - schema: The tables.
    ///   - forExecution: Whether it executes mutations (see ``DataConnectSDL/make(_:forExecution:)``).
    /// - Returns: The executable schema.
    /// - Throws: ``DataConnectWorkspaceError`` when the tables do not make a valid schema.
    package static func schema(for schema: DataConnectSchema, forExecution: Bool = false)
        throws(DataConnectWorkspaceError) -> GraphQLSchema
    {
        do {
            return try buildSchema(source: DataConnectSDL.make(schema, forExecution: forExecution))
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
        do {
            return try GraphQLSource.parseAndValidate(text, path: path, schema: schema)
        } catch {
            throw DataConnectWorkspaceError(error)
        }
    }

    /// Parses and validates what one connector operation runs.
    ///
    /// - Parameters:
    ///   - operation: The operation.
    ///   - schema: The schema.
    /// - Returns: Its document: the operation and the fragments it uses.
    /// - Throws: ``DataConnectWorkspaceError`` at the file, line and column of the first problem, in whichever
    ///   file of the connector it is.
    package static func parseAndValidate(_ operation: ConnectorOperation, schema: GraphQLSchema)
        throws(DataConnectWorkspaceError) -> Document
    {
        do {
            return try parseAndValidate(operation.document.text, path: operation.position.file, schema: schema)
        } catch {
            throw operation.document.relocated(error)
        }
    }
}
