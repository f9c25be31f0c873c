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
            return try GraphQLSchemaBuilding.build(source: DataConnectSDL.make(schema, forExecution: forExecution))
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
            return try GraphQLSource.parseAndValidate(
                operation.document.text, path: operation.position.file, schema: schema, rules: rules)
        } catch {
            throw operation.document.relocated(DataConnectWorkspaceError(error))
        }
    }

    /// GraphQL's validation rules and the service's own.
    ///
    /// A `UUID_Expr` takes `uuidV4()` only: the service refuses `"auth.uid"` (a Firebase uid is not a UUID) when it
    /// loads the connector, with `unsupported expression "auth.uid" (currently only "uuidV4()" is supported)`, as
    /// reported in firebase/firebase-js-sdk#8643 and as the scalar reference's "limited set of expressions" says.
    package static let rules: [@Sendable (ValidationContext) -> Visitor] = specifiedRules + [uuidExpressions]

    private static func uuidExpressions(_ context: ValidationContext) -> Visitor {
        Visitor(enter: { node, _, _, _, _ in
            guard let string = node as? StringValue else { return .continue }
            var type = context.inputType
            if let nonNull = type as? GraphQLNonNull { type = nonNull.ofType as? any GraphQLInputType }
            guard (type as? GraphQLScalarType)?.name == "UUID_Expr", string.value != "uuidV4()" else {
                return .continue
            }
            context.report(
                error: GraphQLError(
                    message: "unsupported expression \"\(string.value)\" (currently only \"uuidV4()\" is supported): "
                        + "a UUID field takes no auth.uid, which is not a UUID; store the uid in a String field",
                    nodes: [string]))
            return .continue
        })
    }
}
