internal import ContentAEM
internal import ContentDataConnect
internal import ContentGraphQL
internal import GraphQL

/// Turns an AEM workspace's persisted queries into Swift in the style of Firebase's generated SDK: per
/// configuration folder a `<Configuration>Queries` class reached as `AEM.<configuration>Queries`, one property per
/// query file (`adventures-all.graphql` → `adventuresAllQuery`) with `execute(…)` and `ref(…)`, typed `Variables`,
/// and `Decodable` `Data` structs from the content fragment models.
struct AEMClientTranslator {
    let definitions: AEMDefinitions
    let schema: GraphQLSchema
    let access: String

    init(definitions: AEMDefinitions, access: String) throws(GeneratorDiagnostic) {
        self.definitions = definitions
        self.access = access
        do {
            schema = try definitions.schema()
        } catch {
            throw GeneratorDiagnostic("the content fragment models do not make a valid GraphQL schema: \(error)")
        }
    }

    /// AEM's scalars: `Calendar` stays the ISO 8601 text AEM sends, `JSON` is any JSON.
    static func scalar(_ name: String) -> (swift: String, wire: String?) {
        switch name {
        case "String", "ID", "Calendar": return ("String", nil)
        case "Int": return ("Int", nil)
        case "Float": return ("Double", nil)
        case "Boolean": return ("Bool", nil)
        default: return ("AnyValue", nil)
        }
    }

    /// The configuration folders with queries, in order.
    var configurations: [String] {
        Array(Set(definitions.queries.map(\.configuration))).sorted()
    }

    /// The source for one configuration's queries.
    func translate(configuration: String, into writer: inout SwiftSourceWriter) throws(GeneratorDiagnostic) {
        let translator = OperationTranslator(
            schema: schema, types: SchemaTypes(schema: schema, scalar: Self.scalar), access: access,
            service: .aem(configuration: configuration), identifiable: { _ in false })
        let typeName = SwiftName.words(configuration) + "Queries"
        var methods: [String: String] = [:]
        var operations: [OperationTranslator.Operation] = []
        for query in definitions.queries where query.configuration == configuration {
            let document: Document
            do {
                document = try GraphQLSource.parseAndValidate(query.query, path: query.file, schema: schema)
            } catch {
                throw GeneratorDiagnostic(error)
            }
            let inFile = document.definitions.compactMap { $0 as? OperationDefinition }
            guard inFile.count == 1, let definition = inFile.first, definition.operation == .query else {
                throw GeneratorDiagnostic(
                    file: query.file, line: 1, column: 1,
                    "a persisted query file holds exactly one query; this one has \(inFile.count) operations")
            }
            // The file name is what AEM calls the query, so it names the method.
            let name = SwiftName.lowerWords(query.name)
            if let earlier = methods[name] {
                throw GeneratorDiagnostic(
                    file: query.file, line: 1, column: 1,
                    "\(query.name) and \(earlier) both make the method \(name); rename one of the files")
            }
            methods[name] = query.name
            let start = definition.loc?.startToken
            operations.append(
                OperationTranslator.Operation(
                    name: name, kind: "persisted query", definition: definition, document: document,
                    fileText: query.query, file: query.file, line: start?.line ?? 1, column: start?.column ?? 1,
                    path: "\(configuration)/\(query.name)"))
        }
        try translator.checkNames(of: operations)
        translator.writeClientType(
            typeName,
            documentation: """
                The persisted queries of the `\(configuration)` configuration: one property per query, each with \
                `execute(…)` and `ref(…)`, sent as `GET /graphql/execute.json/\(configuration)/<query>`.

                ```swift
                let queries = AEM.\(translator.service.entryPoint)
                queries.useEmulator()
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
