internal import Foundation
internal import GraphQL

/// Writes what every GraphQL operation becomes, whatever the service: an `async throws` method on the client
/// type, the `Variables` it encodes, and the `Data` struct its selection set decodes into.
struct OperationTranslator {
    /// One operation and where it came from.
    struct Operation {
        var name: String
        /// `query` or `mutation`, for the summary of an undocumented operation.
        var kind: String
        var definition: OperationDefinition
        var document: Document
        var fileText: String
        var file: String
        var line: Int
        var column: Int
        /// What the backend calls it: `connector/operation` or `configuration/query`.
        var path: String
    }

    let schema: GraphQLSchema
    let types: SchemaTypes
    let access: String
    /// The service calls go to, and the static member of the client type that names where its operations live.
    let service: Service
    /// Whether results of a GraphQL type are `Identifiable` once their `id` is selected.
    let identifiable: (String) -> Bool

    /// Writes the method, its variables and its result types as extensions of `typeName`.
    func write(_ operation: Operation, in typeName: String, into writer: inout SwiftSourceWriter)
        throws(GeneratorDiagnostic)
    {
        let methodName = SwiftName.member(operation.name)
        let (dataName, variablesName) = Self.typeNames(of: operation.name)
        let definition = operation.definition
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
                file: operation.file, line: operation.line, column: operation.column,
                "the schema has no \(definition.operation == .query ? "Query" : "Mutation") type")
        }

        writer.block("extension \(typeName)") { body in
            var summary = Self.leadingComment(before: definition, in: operation.fileText)
            if summary.isEmpty { summary = "Runs the `\(operation.name)` \(operation.kind)." }
            body.documentation(
                summary + "\n\n```graphql\n" + Self.sourceText(of: definition, in: operation.fileText) + "\n```")
            let parameters = variables.map { (name, shape, optional) -> String in
                let defaultValue = optional ? " = nil" : ""
                return "\(Self.parameter(name)): \(shape.swiftType)\(defaultValue)"
            }
            let arguments = variables.map { name, _, _ in "\(SwiftName.label(name)): \(Self.argument(name))" }
            body.block(
                "\(access) func \(methodName)(\(parameters.joined(separator: ", "))) async throws -> \(dataName)"
            ) { function in
                // `self.`, so a variable named `client` does not stand in for the property.
                function.line("try await self.client.data(")
                function.line("    \(dataName).self,")
                if variables.isEmpty {
                    function.line("    for: \(service.reference(to: operation)))")
                } else {
                    function.line("    for: \(service.reference(to: operation)),")
                    function.line("    variables: \(variablesName)(\(arguments.joined(separator: ", "))))")
                }
            }
            guard !variables.isEmpty else { return }
            body.line()
            body.documentation("The variables of ``\(methodName)``, as they travel.")
            body.block("struct \(variablesName): Encodable") { type in
                for (name, shape, _) in variables { type.line("var \(SwiftName.member(name)): \(shape.swiftType)") }
                type.line()
                Self.codingKeys(variables.map(\.0), into: &type)
                type.line()
                Self.encodingMethod(variables.map { ($0.0, $0.1) }, prefix: "", into: &type)
            }
        }
        writer.line()
        let objects = ObjectTranslator(
            schema: schema, types: types, access: access, file: operation.file, identifiable: identifiable,
            reservedNames: types.schemaTypeNames)
        let data = try objects.collect(
            definition.selectionSet, on: root, named: dataName, document: operation.document)
        writer.block("extension \(typeName)") { body in
            body.documentation("What ``\(methodName)`` returns: its `data`, as selected.")
            objects.emit(data, into: &body)
        }
    }

    /// Writes the client type: a `client`, the static member naming where its operations live, and an initializer.
    func writeClientType(_ typeName: String, documentation: String, into writer: inout SwiftSourceWriter) {
        writer.documentation(documentation)
        writer.block("\(access) struct \(typeName): Sendable") { body in
            body.line("\(access) let client: ContentClient")
            body.line()
            body.documentation(service.memberDocumentation)
            body.line("\(access) static let \(service.memberDeclaration)")
            body.line()
            body.documentation(
                """
                A client that calls through `client`.

                - Parameter client: Where calls go; its configuration says where the service is.
                """)
            body.block("\(access) init(client: ContentClient)") { initializer in
                initializer.line("self.client = client")
            }
        }
    }

    /// Writes the enums and input objects the operations used, as an extension of `typeName`.
    func writeSchemaTypes(in typeName: String, into writer: inout SwiftSourceWriter) throws(GeneratorDiagnostic) {
        let pending = try types.definitions(access: access)
        guard !pending.isEmpty else { return }
        writer.line()
        writer.block("extension \(typeName)") { body in
            for (index, text) in pending.enumerated() {
                if index > 0 { body.line() }
                for line in text.split(separator: "\n", omittingEmptySubsequences: false) { body.line(String(line)) }
            }
        }
    }

    /// A variable as a parameter: its name as the label, and an inner name other than `self`, which would
    /// hide the client inside the method.
    static func parameter(_ name: String) -> String {
        name == "self" ? "`self` self_" : SwiftName.member(name)
    }

    /// A parameter as the method body names it.
    static func argument(_ name: String) -> String {
        name == "self" ? "self_" : SwiftName.member(name)
    }

    /// Checks that the operations of one client type make distinct Swift names: their `Data` and `Variables`
    /// types against each other and the schema's types, and their methods against the client's properties.
    func checkNames(of operations: [Operation]) throws(GeneratorDiagnostic) {
        var owners = Dictionary(uniqueKeysWithValues: types.schemaTypeNames.map { ($0, "the schema type \($0)") })
        for operation in operations {
            func fail(_ message: String) -> GeneratorDiagnostic {
                GeneratorDiagnostic(file: operation.file, line: operation.line, column: operation.column, message)
            }
            // Without parameters the method `client()` clashes with the property `client`.
            if operation.definition.variableDefinitions.isEmpty, operation.name == "client" {
                throw fail(
                    "operation \(operation.name) would make a method named like the client's property "
                        + "\(operation.name); rename the operation")
            }
            let names = Self.typeNames(of: operation.name)
            for name in [names.data, names.variables] {
                if let owner = owners[name] {
                    throw fail(
                        "operation \(operation.name) makes the Swift type \(name), which \(owner) makes too; "
                            + "rename the operation")
                }
                owners[name] = "operation \(operation.name)"
            }
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

    /// An `init(from:)` that decodes each member (its name in the JSON, and its shape) through its wire type.
    static func decodingInitializer(
        _ members: [(String, SwiftTypeShape)], access: String, into writer: inout SwiftSourceWriter
    ) {
        writer.block("\(access) init(from decoder: any Decoder) throws") { initializer in
            initializer.line("let container = try decoder.container(keyedBy: CodingKeys.self)")
            for (name, shape) in members {
                let member = SwiftName.member(name)
                let call =
                    shape.isOptional
                    ? "try container.decodeIfPresent(\(shape.unwrapped.wireType).self, forKey: .\(member))"
                    : "try container.decode(\(shape.wireType).self, forKey: .\(member))"
                initializer.line("self.\(member) = \(shape.fromWire(call) ?? call)")
            }
        }
    }

    /// An `encode(to:)` that encodes each member in its wire type; `prefix` is its access level and a space, or
    /// nothing.
    static func encodingMethod(
        _ members: [(String, SwiftTypeShape)], prefix: String, into writer: inout SwiftSourceWriter
    ) {
        writer.block("\(prefix)func encode(to encoder: any Encoder) throws") { encode in
            encode.line("var container = encoder.container(keyedBy: CodingKeys.self)")
            for (name, shape) in members {
                let member = SwiftName.member(name)
                // `self.`, so a member named like a local (`container`, `encoder`) is still the member.
                let value = shape.toWire("self.\(member)") ?? "self.\(member)"
                let call = shape.isOptional ? "encodeIfPresent" : "encode"
                encode.line("try container.\(call)(\(value), forKey: .\(member))")
            }
        }
    }

    /// The names of an operation's result and variables types: `GetMovieData`, `GetMovieVariables`.
    static func typeNames(of operationName: String) -> (data: String, variables: String) {
        let stem = SwiftName.type(operationName)
        return (stem + "Data", stem + "Variables")
    }

    /// A `CodingKeys` enum with one case per name.
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
        for line in before.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline).reversed().dropFirst() {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            guard trimmed.hasPrefix("#") else { break }
            lines.insert(String(trimmed.dropFirst()).trimmingCharacters(in: .whitespaces), at: 0)
        }
        return lines.joined(separator: "\n")
    }
}

extension OperationTranslator {
    /// The service a client type calls, and how its operations are named in generated code.
    enum Service {
        /// A Data Connect connector: `static let connector = DataConnectConnector(…)`, then
        /// `Self.connector.query("name")`.
        case dataConnect(location: String, service: String, connector: String)
        /// An AEM persisted-query configuration: `static let configuration = "…"`, then
        /// `AEMPersistedQuery(configuration: Self.configuration, name: "name")`.
        case aem(configuration: String)

        /// The static member's declaration, after `static let `.
        var memberDeclaration: String {
            switch self {
            case .dataConnect(let location, let service, let connector):
                return "connector = DataConnectConnector(location: \(SwiftName.literal(location)), "
                    + "service: \(SwiftName.literal(service)), connector: \(SwiftName.literal(connector)))"
            case .aem(let configuration):
                return "configuration = \(SwiftName.literal(configuration))"
            }
        }

        /// The static member's documentation.
        var memberDocumentation: String {
            switch self {
            case .dataConnect:
                return "The connector, as the workspace named it when this client was generated; "
                    + "`DataConnectSettings` can override the location and service."
            case .aem:
                return "The persisted-query configuration the queries belong to."
            }
        }

        /// The expression naming one operation.
        func reference(to operation: Operation) -> String {
            switch self {
            case .dataConnect:
                let verb = operation.kind == "mutation" ? "mutation" : "query"
                return "Self.connector.\(verb)(\(SwiftName.literal(operation.name)))"
            case .aem:
                // The file name is what AEM calls the query: the path's part after the configuration.
                let name = operation.path.split(separator: "/", maxSplits: 1).last.map(String.init) ?? operation.name
                return "AEMPersistedQuery(configuration: Self.configuration, name: \(SwiftName.literal(name)))"
            }
        }
    }
}
