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
    /// How query refs publish.
    var observation: Observation = .observableMacro

    /// Writes the operation's type inside `typeName`: its `execute(…)` and `ref(…)`, its `Variables`, and the
    /// `Data` its selection set decodes into.
    func write(_ operation: Operation, in typeName: String, into writer: inout SwiftSourceWriter)
        throws(GeneratorDiagnostic)
    {
        let definition = operation.definition
        let isQuery = definition.operation == .query
        let variables = definition.variableDefinitions.map { declaration -> (String, SwiftTypeShape, Bool) in
            let type = Self.schemaType(declaration.type, in: schema)
            let shape =
                type.map { SwiftTypeShape.of($0, naming: { types.name(for: $0) }) }
                ?? .optional(.named(swift: "AnyValue", wire: nil))
            // Nullable and defaulted variables may be left out, so they default to nil.
            let optional = shape.isOptional || declaration.defaultValue != nil
            return (declaration.variable.name.value, optional && !shape.isOptional ? .optional(shape) : shape, optional)
        }
        guard let root = isQuery ? schema.queryType : schema.mutationType else {
            throw GeneratorDiagnostic(
                file: operation.file, line: operation.line, column: operation.column,
                "the schema has no \(isQuery ? "Query" : "Mutation") type")
        }
        let objects = ObjectTranslator(
            schema: schema, types: types, access: access, file: operation.file, identifiable: identifiable,
            reservedNames: types.schemaTypeNames)
        let data = try objects.collect(
            definition.selectionSet, on: root, named: "Data", document: operation.document)
        let parameters = variables.map { (name, shape, optional) -> String in
            "\(Self.parameter(name)): \(shape.swiftType)\(optional ? " = nil" : "")"
        }
        let arguments = variables.map { name, _, _ in "\(SwiftName.label(name)): \(Self.argument(name))" }
        let variablesValue = "Variables(\(arguments.joined(separator: ", ")))"
        let member = service.runtimeMember
        let refType = isQuery ? observation.refType : "MutationRef"

        writer.block("extension \(typeName)") { body in
            var summary = Self.leadingComment(before: definition, in: operation.fileText)
            if summary.isEmpty { summary = "The `\(operation.name)` \(operation.kind)." }
            body.documentation(
                summary + "\n\n```graphql\n" + Self.sourceText(of: definition, in: operation.fileText) + "\n```")
            body.block("\(access) struct \(Self.typeName(of: operation)): Sendable") { type in
                type.documentation("The name \(service.nameDocumentation).")
                type.line("\(access) static let OperationName = \(SwiftName.literal(service.operationName(operation)))")
                type.line()
                type.documentation(
                    isQuery
                        ? "The query with its variables, which a view observes: ``execute(fetchPolicy:)`` publishes."
                        : "The mutation with its variables, to run later.")
                type.line("\(access) typealias Ref = \(refType)<Data, Variables>")
                type.line()
                type.documentation(service.runtimeDocumentation)
                type.line("\(access) let \(member): \(service.runtimeType)")
                type.line()
                type.documentation("Binds the \(operation.kind) to `\(member)`; the client type does it for each.")
                type.block("\(access) init(\(member): \(service.runtimeType))") { initializer in
                    initializer.line("self.\(member) = \(member)")
                }
                type.line()
                let policy = isQuery ? ["fetchPolicy: QueryFetchPolicy = .preferCache"] : []
                type.documentation(
                    isQuery
                        ? "Runs the query; by default from the cache while it is fresh, else from the service."
                        : "Runs the mutation.")
                type.block(
                    "\(access) func execute(\((parameters + policy).joined(separator: ", "))) async throws "
                        + "-> OperationResult<Data>"
                ) { function in
                    // `self.`, so a variable named like the runtime member does not stand in for it.
                    if isQuery {
                        function.line("try await self.\(member).executeQuery(")
                        function.line(
                            "    Self.OperationName, variables: \(variablesValue), as: Data.self, fetchPolicy: fetchPolicy)"
                        )
                    } else {
                        function.line("try await self.\(member).executeMutation(")
                        function.line("    Self.OperationName, variables: \(variablesValue), as: Data.self)")
                    }
                }
                type.line()
                type.documentation(
                    isQuery
                        ? "The query with these variables, for a view to observe."
                        : "The mutation with these variables.")
                if isQuery { type.line("@MainActor") }
                type.block("\(access) func ref(\(parameters.joined(separator: ", "))) -> Ref") { function in
                    function.line(
                        "Ref(\(isQuery ? "service" : member): self.\(member), operationName: Self.OperationName, "
                            + "variables: \(variablesValue))")
                }
                type.line()
                if variables.isEmpty {
                    type.documentation("It takes no variables.")
                    type.line("\(access) typealias Variables = NoVariables")
                } else {
                    type.documentation("The variables, as they travel.")
                    type.block("\(access) struct Variables: Encodable, Sendable") { body in
                        for (name, shape, _) in variables {
                            body.line("\(access) var \(SwiftName.member(name)): \(shape.swiftType)")
                        }
                        body.line()
                        body.documentation("The variables; those that may be left out default to nil.")
                        body.block("\(access) init(\(parameters.joined(separator: ", ")))") { initializer in
                            for (name, _, _) in variables {
                                initializer.line("self.\(SwiftName.member(name)) = \(Self.argument(name))")
                            }
                        }
                        body.line()
                        Self.codingKeys(variables.map(\.0), into: &body)
                        body.line()
                        Self.encodingMethod(variables.map { ($0.0, $0.1) }, prefix: "\(access) ", into: &body)
                    }
                }
                type.line()
                type.documentation("What the \(operation.kind) answers: its `data`, as selected.")
                objects.emit(data, into: &type)
            }
        }
    }

    /// How the generated query refs publish: Observation's `@Observable` (Firebase's `observableMacro`, the
    /// default), or Combine's `ObservableObject` (`observableObject`, on platforms with Combine).
    enum Observation: String, Sendable {
        case observableMacro
        case observableObject

        var refType: String {
            switch self {
            case .observableMacro: return "QueryRef"
            case .observableObject: return "QueryRefObservableObject"
            }
        }
    }

    /// Writes the client type: the static entry point, one property per operation, and where calls go.
    func writeClientType(
        _ typeName: String, documentation: String, operations: [Operation], into writer: inout SwiftSourceWriter
    ) {
        let member = service.runtimeMember
        let runtime = service.runtimeType
        writer.block("extension \(runtime)") { body in
            body.documentation("``\(typeName)``, made once: its calls share one HTTP client and one cache.")
            body.line("\(access) static let \(service.entryPoint) = \(typeName)(")
            body.line("    \(member): \(runtime)(\(service.runtimeArguments(typeName))))")
        }
        writer.line()
        writer.documentation(documentation)
        writer.block("\(access) final class \(typeName): Sendable") { body in
            for (name, declaration, documentation) in service.staticMembers {
                body.documentation(documentation)
                body.line("\(access) static let \(name) = \(declaration)")
                body.line()
            }
            body.documentation(service.runtimeDocumentation)
            body.line("\(access) let \(member): \(runtime)")
            for operation in operations {
                body.line()
                body.documentation("Runs `\(operation.name)`: `execute(…)` now, or `ref(…)` for later.")
                body.line("\(access) let \(Self.propertyName(of: operation)): \(Self.typeName(of: operation))")
            }
            body.line()
            body.documentation(
                """
                The operations, sending through `\(member)`.

                - Parameter \(member): Where calls go.
                """)
            body.block("\(access) init(\(member): \(runtime))") { initializer in
                initializer.line("self.\(member) = \(member)")
                for operation in operations {
                    initializer.line(
                        "self.\(Self.propertyName(of: operation)) = \(Self.typeName(of: operation))(\(member): \(member))"
                    )
                }
            }
            body.line()
            body.documentation(
                """
                Sends every later call to a local emulator over plain HTTP, such as `content serve`.

                - Parameters:
                  - host: Its host; `\(runtime).EmulatorDefaults.host` (127.0.0.1) by default.
                  - port: Its port; `\(runtime).EmulatorDefaults.port` by default.
                """)
            body.block(
                "\(access) func useEmulator(host: String = \(runtime).EmulatorDefaults.host, "
                    + "port: Int = \(runtime).EmulatorDefaults.port)"
            ) { function in
                function.line("self.\(member).useEmulator(host: host, port: port)")
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

    /// Checks that the operations of one client type make distinct Swift names: their types against each other
    /// and the schema's types, and their variables against the parameter `execute` adds.
    func checkNames(of operations: [Operation]) throws(GeneratorDiagnostic) {
        var owners = Dictionary(uniqueKeysWithValues: types.schemaTypeNames.map { ($0, "the schema type \($0)") })
        for operation in operations {
            func fail(_ message: String) -> GeneratorDiagnostic {
                GeneratorDiagnostic(file: operation.file, line: operation.line, column: operation.column, message)
            }
            let name = Self.typeName(of: operation)
            if let owner = owners[name] {
                throw fail(
                    "operation \(operation.name) makes the Swift type \(name), which \(owner) makes too; "
                        + "rename the operation")
            }
            owners[name] = "operation \(operation.name)"
            if operation.definition.operation == .query,
                operation.definition.variableDefinitions.contains(where: { $0.variable.name.value == "fetchPolicy" })
            {
                throw fail(
                    "operation \(operation.name) has a variable $fetchPolicy, which execute(…) takes for the cache; "
                        + "rename the variable")
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

    /// The operation's type, as Firebase's generator names it: `ListMoviesByGenreQuery`, `CreateMovieMutation`.
    static func typeName(of operation: Operation) -> String {
        SwiftName.type(operation.name) + (operation.definition.operation == .mutation ? "Mutation" : "Query")
    }

    /// The client type's property for the operation: `listMoviesByGenreQuery`.
    static func propertyName(of operation: Operation) -> String {
        SwiftName.member(SwiftName.lowerFirst(typeName(of: operation)))
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
    /// The service a client type calls: the runtime class that sends its operations, and how they are named.
    enum Service {
        /// A Data Connect connector, sent through a `DataConnect`.
        case dataConnect(location: String, service: String, connector: String, project: String)
        /// An AEM persisted-query configuration, sent through an `AEM`.
        case aem(configuration: String)

        /// The runtime class.
        var runtimeType: String {
            switch self {
            case .dataConnect: return "DataConnect"
            case .aem: return "AEM"
            }
        }

        /// The property that holds it, on the client type and on each operation.
        var runtimeMember: String {
            switch self {
            case .dataConnect: return "dataConnect"
            case .aem: return "aem"
            }
        }

        var runtimeDocumentation: String {
            switch self {
            case .dataConnect:
                return "Where calls go and who makes them: `settings` (endpoint, project, API key, ID-token and "
                    + "App Check providers), the cache, the HTTP client."
            case .aem:
                return "Where calls go and how they sign in: `settings` (the instance's URL, credentials, headers), "
                    + "the cache, the HTTP client."
            }
        }

        /// The static member of the runtime class that holds the client type: `moviesConnector`.
        var entryPoint: String {
            switch self {
            case .dataConnect(_, _, let connector, _):
                return SwiftName.member(SwiftName.lowerWords(connector) + "Connector")
            case .aem(let configuration):
                return SwiftName.member(SwiftName.lowerWords(configuration) + "Queries")
            }
        }

        /// The arguments that make the runtime object, inside the client type's static entry point.
        func runtimeArguments(_ typeName: String) -> String {
            switch self {
            case .dataConnect:
                return "connectorConfig: \(typeName).connectorConfig, projectID: \(typeName).projectID"
            case .aem:
                return "configuration: \(typeName).configuration"
            }
        }

        /// The client type's static members: name, value and documentation.
        var staticMembers: [(String, String, String)] {
            switch self {
            case .dataConnect(let location, let service, let connector, let project):
                return [
                    (
                        "connectorConfig",
                        "ConnectorConfig(serviceId: \(SwiftName.literal(service)), "
                            + "location: \(SwiftName.literal(location)), connector: \(SwiftName.literal(connector)))",
                        "The connector's service, location and id, as the workspace named them."
                    ),
                    (
                        "projectID", SwiftName.literal(project),
                        "The Firebase project calls name until `dataConnect.settings.project` is set: the workspace's "
                            + "`.firebaserc` default, else a `demo-` project, which only an emulator answers."
                    ),
                ]
            case .aem(let configuration):
                return [
                    (
                        "configuration", SwiftName.literal(configuration),
                        "The persisted-query configuration the queries belong to."
                    )
                ]
            }
        }

        /// What the operation's name is, for its `operationName`.
        var nameDocumentation: String {
            switch self {
            case .dataConnect: return "the service knows the operation by"
            case .aem: return "AEM knows the persisted query by, within its configuration"
            }
        }

        /// The name the service knows an operation by.
        func operationName(_ operation: Operation) -> String {
            switch self {
            case .dataConnect:
                return operation.name
            case .aem:
                // The file name is what AEM calls the query: the path's part after the configuration.
                return operation.path.split(separator: "/", maxSplits: 1).last.map(String.init) ?? operation.name
            }
        }
    }
}
