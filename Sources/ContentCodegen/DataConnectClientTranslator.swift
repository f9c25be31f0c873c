internal import ContentDataConnect
internal import GraphQL

/// Turns a Data Connect workspace into Swift: per connector a `<Connector>Connector` struct with one async
/// method per operation, typed variables, and `Decodable` result structs that follow each selection set.
///
/// Scalars map as Firebase's Swift SDK maps them: `UUID`, `Int64`, `Date` → `LocalDate`, `Timestamp`,
/// `Any` → `AnyValue`, `Vector` → `[Double]`.
struct DataConnectClientTranslator {
    let workspace: DataConnectWorkspace
    let schema: GraphQLSchema
    let access: String

    init(workspace: DataConnectWorkspace, access: String) throws(GeneratorDiagnostic) {
        self.workspace = workspace
        self.access = access
        do {
            schema = try DataConnectGraphQL.schema(for: workspace.schema)
        } catch {
            throw GeneratorDiagnostic(error)
        }
    }

    /// Firebase's Swift SDK mapping of the Data Connect scalars.
    static func scalar(_ name: String) -> (swift: String, wire: String?) {
        switch name {
        case "String", "ID": return ("String", nil)
        case "Int": return ("Int", nil)
        case "Float": return ("Double", nil)
        case "Boolean": return ("Bool", nil)
        case "UUID": return ("UUID", "DataConnectWire.UUIDValue")
        case "Int64": return ("Int64", "DataConnectWire.Int64Value")
        case "Date": return ("LocalDate", nil)
        case "Timestamp": return ("Timestamp", nil)
        case "Vector": return ("[Double]", nil)
        default: return ("AnyValue", nil)
        }
    }

    /// The source for one connector.
    func translate(_ connector: Connector, into writer: inout SwiftSourceWriter) throws(GeneratorDiagnostic) {
        let tables = workspace.schema
        let translator = OperationTranslator(
            schema: schema, types: SchemaTypes(schema: schema, scalar: Self.scalar), access: access,
            service: .dataConnect(
                location: workspace.location, service: workspace.serviceID, connector: connector.id),
            identifiable: { tables.table($0)?.key == ["id"] })
        let typeName = SwiftName.words(connector.id) + "Connector"
        translator.writeClientType(
            typeName,
            documentation: """
                The `\(connector.id)` connector of service `\(workspace.serviceID)`: one method per operation.

                Calls go through a ``ContentClient`` to the Data Connect service its configuration names.
                """,
            into: &writer)
        var operations: [OperationTranslator.Operation] = []
        for operation in connector.operations {
            let file = operation.position.file
            let document: Document
            do {
                document = try DataConnectGraphQL.parseAndValidate(operation, schema: schema)
            } catch {
                throw GeneratorDiagnostic(error)
            }
            let definition = document.definitions.lazy.compactMap { $0 as? OperationDefinition }
                .first { $0.name?.value == operation.name }
            guard let definition else {
                throw GeneratorDiagnostic(
                    file: file, line: operation.position.line, column: operation.position.column,
                    "operation \(operation.name) is not in its file")
            }
            operations.append(
                OperationTranslator.Operation(
                    name: operation.name, kind: operation.kind.rawValue, definition: definition, document: document,
                    fileText: operation.fileText, file: file, line: operation.position.line,
                    column: operation.position.column, path: "\(connector.id)/\(operation.name)"))
        }
        try translator.checkNames(of: operations)
        for operation in operations {
            writer.line()
            try translator.write(operation, in: typeName, into: &writer)
        }
        try translator.writeSchemaTypes(in: typeName, into: &writer)
    }
}
