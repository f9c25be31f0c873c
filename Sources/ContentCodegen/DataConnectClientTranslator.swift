internal import ContentDataConnect
internal import GraphQL

/// Turns a Data Connect workspace into Swift in the shape of Firebase's generated SDK: per connector a
/// `<Connector>Connector` class reached as `DataConnect.<connector>Connector`, one property per operation
/// (`<operation>Query`, `<operation>Mutation`) with `execute(…)` and `ref(…)`, typed `Variables`, and `Decodable`
/// `Data` structs that follow each selection set.
///
/// Scalars map as Firebase's Swift SDK maps them: `UUID`, `Int64`, `Date` → `LocalDate`, `Timestamp`,
/// `Any` → `AnyValue`, `Vector` → `[Double]`.
struct DataConnectClientTranslator {
    let workspace: DataConnectWorkspace
    let schema: GraphQLSchema
    let access: String
    /// The Firebase project calls name by default.
    let project: String

    init(workspace: DataConnectWorkspace, access: String, project: String) throws(GeneratorDiagnostic) {
        self.workspace = workspace
        self.access = access
        self.project = project
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
        var translator = OperationTranslator(
            schema: schema,
            types: SchemaTypes(
                schema: schema, scalar: Self.scalar,
                keyFields: { name in
                    guard name.hasSuffix("_Key") else { return nil }
                    return tables.table(String(name.dropLast("_Key".count)))?.key
                }),
            access: access,
            service: .dataConnect(
                location: workspace.location, service: workspace.serviceID, connector: connector.id,
                project: project),
            identifiable: { tables.table($0)?.key == ["id"] })
        if let publisher = connector.swiftSDK?.observablePublisher {
            guard let observation = OperationTranslator.Observation(rawValue: publisher) else {
                throw GeneratorDiagnostic(
                    file: connector.directory + "/connector.yaml",
                    "generate.swiftSdk.observablePublisher is \(publisher); it takes observableMacro (the default) or "
                        + "observableObject")
            }
            translator.observation = observation
        }
        let typeName = SwiftName.words(connector.id) + "Connector"
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
        translator.writeClientType(
            typeName,
            documentation: """
                The `\(connector.id)` connector of service `\(workspace.serviceID)`: one property per operation, each \
                with `execute(…)` and `ref(…)`, as Firebase's generated Swift SDK has them.

                ```swift
                let connector = DataConnect.\(translator.service.entryPoint)
                connector.useEmulator()
                ```
                """,
            operations: operations, into: &writer)
        for operation in operations {
            writer.line()
            try translator.write(operation, in: typeName, into: &writer)
        }
        try translator.writeSchemaTypes(in: typeName, into: &writer)
    }
}
