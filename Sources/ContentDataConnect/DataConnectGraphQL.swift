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
    package static let rules: [@Sendable (ValidationContext) -> Visitor] =
        specifiedRules + [uuidExpressions, dataVariables]

    /// A variable of a `_Data` input needs `@allow`, whose `fields` name fields of that input (see
    /// ``DataVariableAllowance``).
    private static func dataVariables(_ context: ValidationContext) -> Visitor {
        Visitor(enter: { node, _, _, _, _ in
            guard let definition = node as? VariableDefinition else { return .continue }
            let typeName = namedType(definition.type)
            guard typeName.hasSuffix("_Data"),
                let input = context.schema.getType(name: typeName) as? GraphQLInputObjectType
            else { return .continue }
            let variable = "$" + definition.variable.name.value
            guard let allow = DataVariableAllowance.written(on: definition) else {
                context.report(
                    error: GraphQLError(
                        message: "\(variable) of type \(typeName) needs @allow(fields: \"…\"), naming the fields a "
                            + "client may set (and maxCount, 100 by default): the service requires it on every "
                            + "_Data variable",
                        nodes: [definition]))
                return .continue
            }
            // GraphQL's own rules report a missing `fields` and a value of the wrong type, but not a variable, which
            // would leave the service nothing to check a request against before it has the request.
            let fieldsValue = allow.fields
            let countValue = allow.maxCount
            guard fieldsValue.map({ $0 is StringValue }) ?? true, countValue.map({ $0 is IntValue }) ?? true else {
                context.report(
                    error: GraphQLError(
                        message: "@allow of \(variable) takes literal values, not variables: write the fields and "
                            + "maxCount in the operation",
                        nodes: [allow.directive]))
                return .continue
            }
            if let count = countValue as? IntValue, (Int(count.value) ?? 1) < 1 {
                context.report(
                    error: GraphQLError(
                        message: "@allow of \(variable) has maxCount \(count.value): it must be at least 1",
                        nodes: [count]))
            }
            guard let text = fieldsValue as? StringValue else { return .continue }
            let problem: String?
            switch DataVariableAllowance.parse(text.value) {
            case .failure(let reason): problem = reason.description
            case .success(let fields): problem = unknownField(fields, in: input)
            }
            if let problem {
                context.report(
                    error: GraphQLError(message: "@allow(fields:) of \(variable): \(problem)", nodes: [text]))
            }
            return .continue
        })
    }

    /// The first name of an `@allow` selection that its input does not have, or `nil` when it has them all.
    private static func unknownField(_ fields: DataVariableAllowance.Fields, in input: GraphQLInputObjectType)
        -> String?
    {
        guard let map = try? input.fields() else { return nil }
        for (name, inner) in fields.members.sorted(by: { $0.key < $1.key }) {
            guard let field = map.first(where: { $0.key == name })?.value else {
                return "\(input.name) has no field \(name); it has: " + map.map(\.key).sorted().joined(separator: ", ")
            }
            guard let inner else { continue }
            guard let nested = getNamedType(type: field.type) as? GraphQLInputObjectType else {
                return "\(name) of \(input.name) is not an input object, so it takes no { … }"
            }
            if let problem = unknownField(inner, in: nested) { return problem }
        }
        return nil
    }

    /// `Movie_Data` of `[Movie_Data!]!`.
    private static func namedType(_ type: any Type) -> String {
        switch type {
        case let named as NamedType: return named.name.value
        case let list as ListType: return namedType(list.type)
        case let nonNull as NonNullType: return namedType(nonNull.type)
        default: return ""
        }
    }

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
