internal import ContentDataConnect
internal import Foundation
internal import GraphQL
internal import OrderedCollections

/// Turns a Data Connect workspace into Swift: per connector a `<Connector>Connector` struct with one async
/// method per operation, typed variables, and `Decodable` result structs that follow each selection set.
///
/// Scalars map as Firebase's Swift SDK maps them: `UUID`, `Int64`, `Date` → ``LocalDate``-like `LocalDate`,
/// `Timestamp`, `Any` → `AnyValue`, `Vector` → `[Double]`.
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
            throw GeneratorDiagnostic(file: error.file, line: error.line, column: error.column, error.message)
        }
    }

    /// The source for one connector.
    func translate(_ connector: Connector, into writer: inout SwiftSourceWriter) throws(GeneratorDiagnostic) {
        var documents: [String: Document] = [:]
        var operations: [(ConnectorOperation, OperationDefinition, Document)] = []
        for operation in connector.operations {
            let file = operation.position.file
            let document: Document
            if let parsed = documents[file] {
                document = parsed
            } else {
                do {
                    document = try DataConnectGraphQL.parseAndValidate(operation.fileText, path: file, schema: schema)
                } catch {
                    throw GeneratorDiagnostic(file: error.file, line: error.line, column: error.column, error.message)
                }
                documents[file] = document
            }
            let definition = document.definitions.lazy.compactMap { $0 as? OperationDefinition }
                .first { $0.name?.value == operation.name }
            guard let definition else {
                throw GeneratorDiagnostic(
                    file: file, line: operation.position.line, column: operation.position.column,
                    "operation \(operation.name) is not in its file")
            }
            operations.append((operation, definition, document))
        }

        let typeName = SwiftName.words(connector.id) + "Connector"
        let types = SchemaTypes(schema: schema)
        writer.documentation(
            """
            The `\(connector.id)` connector of service `\(workspace.serviceID)`: one method per operation.

            Calls go through a ``ContentClient`` to the `dataconnect` backend its `content.yaml` names.
            """)
        writer.block("\(access) struct \(typeName): Sendable") { body in
            body.line("\(access) static let connectorID = \(SwiftName.literal(connector.id))")
            body.line()
            body.line("\(access) let client: ContentClient")
            body.line("\(access) let backend: String?")
            body.line()
            body.documentation(
                """
                A connector that calls through `client`.

                - Parameters:
                  - client: Where calls go.
                  - backend: The backend's name in `content.yaml`; `nil` when it has only one `dataconnect` backend.
                """)
            body.block("\(access) init(client: ContentClient, backend: String? = nil)") { initializer in
                initializer.line("self.client = client")
                initializer.line("self.backend = backend")
            }
        }
        for (operation, definition, document) in operations {
            writer.line()
            try method(
                operation, definition, document: document, connector: connector, typeName: typeName, types: types,
                into: &writer)
        }
        let pending = try types.definitions(access: access)
        if !pending.isEmpty {
            writer.line()
            writer.block("extension \(typeName)") { body in
                for (index, text) in pending.enumerated() {
                    if index > 0 { body.line() }
                    for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
                        body.line(String(line))
                    }
                }
            }
        }
    }

    private func method(
        _ operation: ConnectorOperation, _ definition: OperationDefinition, document: Document, connector: Connector,
        typeName: String,
        types: SchemaTypes, into writer: inout SwiftSourceWriter
    ) throws(GeneratorDiagnostic) {
        let stem = SwiftName.type(operation.name)
        let dataName = stem + "Data"
        let variablesName = stem + "Variables"
        let file = operation.position.file
        let variables = definition.variableDefinitions.map { declaration -> (String, SwiftTypeShape, Bool) in
            let type = Self.schemaType(declaration.type, in: schema)
            let shape =
                type.map { SwiftTypeShape.of($0, naming: { types.name(for: $0) }) }
                ?? .optional(.named(swift: "AnyValue", wire: nil))
            // Nullable and defaulted variables may be left out, so they default to nil.
            let optional = shape.isOptional || declaration.defaultValue != nil
            return (declaration.variable.name.value, optional && !shape.isOptional ? .optional(shape) : shape, optional)
        }
        guard let root = definition.operation == .query ? schema.queryType : schema.mutationType else {
            throw GeneratorDiagnostic(
                file: file, line: operation.position.line, column: operation.position.column,
                "the schema has no \(definition.operation == .query ? "Query" : "Mutation") type")
        }

        writer.block("extension \(typeName)") { body in
            var summary = Self.leadingComment(before: definition, in: operation.fileText)
            if summary.isEmpty { summary = "Runs the `\(operation.name)` \(operation.kind.rawValue)." }
            body.documentation(
                summary + "\n\n```graphql\n" + Self.sourceText(of: definition, in: operation.fileText) + "\n```")
            let parameters = variables.map { (name, shape, optional) -> String in
                let defaultValue = optional ? " = nil" : ""
                return "\(SwiftName.member(name)): \(shape.swiftType)\(defaultValue)"
            }
            let arguments = variables.map { name, _, _ in "\(SwiftName.member(name)): \(SwiftName.member(name))" }
            let variablesValue = "\(variablesName)(\(arguments.joined(separator: ", ")))"
            body.block(
                "\(access) func \(SwiftName.member(operation.name))(\(parameters.joined(separator: ", "))) async throws -> \(dataName)"
            ) { function in
                function.line("try await client.data(")
                function.line("    \(dataName).self,")
                function.line("    operation: \(SwiftName.literal("\(connector.id)/\(operation.name)")),")
                if !variables.isEmpty { function.line("    variables: \(variablesValue),") }
                function.line("    backendType: \"dataconnect\", backend: backend)")
            }
            if !variables.isEmpty {
                body.line()
                body.documentation("The variables of ``\(SwiftName.member(operation.name))``, as they travel.")
                body.block("struct \(variablesName): Encodable") { type in
                    for (name, shape, _) in variables { type.line("var \(SwiftName.member(name)): \(shape.swiftType)") }
                    type.line()
                    Self.codingKeys(variables.map(\.0), into: &type)
                    type.line()
                    type.block("func encode(to encoder: any Encoder) throws") { encode in
                        encode.line("var container = encoder.container(keyedBy: CodingKeys.self)")
                        for (name, shape, _) in variables {
                            let member = SwiftName.member(name)
                            let value = shape.toWire(member) ?? member
                            let call = shape.isOptional ? "encodeIfPresent" : "encode"
                            encode.line("try container.\(call)(\(value), forKey: .\(member))")
                        }
                    }
                }
            }
        }
        writer.line()
        let objects = ObjectTranslator(workspace: workspace, schema: schema, types: types, access: access, file: file)
        let data = try objects.collect([definition.selectionSet], on: root, named: dataName, document: document)
        writer.block("extension \(typeName)") { body in
            body.documentation("What ``\(SwiftName.member(operation.name))`` returns: its `data`, as selected.")
            objects.emit(data, into: &body)
        }
    }

    /// The schema type a variable declaration names, or `nil` when its name is unknown (validation reports it).
    static func schemaType(_ type: any GraphQL.`Type`, in schema: GraphQLSchema) -> (any GraphQLType)? {
        switch type {
        case let required as NonNullType:
            return schemaType(required.type, in: schema).flatMap { try? GraphQLNonNull($0) }
        case let list as ListType:
            return schemaType(list.type, in: schema).map { GraphQLList($0) }
        case let named as NamedType:
            return schema.getType(name: named.name.value)
        default:
            return nil
        }
    }

    static func codingKeys(_ names: [String], into writer: inout SwiftSourceWriter) {
        writer.block("enum CodingKeys: String, CodingKey") { keys in
            for name in names { keys.line("case \(SwiftName.member(name))") }
        }
    }

    /// The operation's text as written, from its keyword to its closing brace.
    static func sourceText(of definition: OperationDefinition, in text: String) -> String {
        guard let location = definition.loc else { return "" }
        let utf8 = Array(text.utf8)
        // Locations end early in the parser, so find the brace that closes the selection set, stepping over
        // strings and comments.
        var index = max(0, min(utf8.count, definition.selectionSet.loc?.start ?? location.start))
        var depth = 0
        scan: while index < utf8.count {
            switch utf8[index] {
            case UInt8(ascii: "{"):
                depth += 1
            case UInt8(ascii: "}"):
                depth -= 1
                if depth == 0 { break scan }
            case UInt8(ascii: "#"):
                while index < utf8.count, utf8[index] != UInt8(ascii: "\n") { index += 1 }
            case UInt8(ascii: "\""):
                index += 1
                while index < utf8.count, utf8[index] != UInt8(ascii: "\"") {
                    if utf8[index] == UInt8(ascii: "\\") { index += 1 }
                    index += 1
                }
            default:
                break
            }
            index += 1
        }
        let range = max(0, min(location.start, utf8.count))..<min(utf8.count, index + 1)
        return String(decoding: utf8[range], as: UTF8.self)
    }

    /// The `#` comment lines right above the operation, without their `#`.
    static func leadingComment(before definition: OperationDefinition, in text: String) -> String {
        guard let location = definition.loc else { return "" }
        let before = String(decoding: Array(text.utf8)[0..<max(0, min(location.start, text.utf8.count))], as: UTF8.self)
        var lines: [String] = []
        for line in before.split(separator: "\n", omittingEmptySubsequences: false).reversed().dropFirst() {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            guard trimmed.hasPrefix("#") else { break }
            lines.insert(String(trimmed.dropFirst()).trimmingCharacters(in: .whitespaces), at: 0)
        }
        return lines.joined(separator: "\n")
    }
}
