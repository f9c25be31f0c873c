internal import GraphQL
internal import OrderedCollections

/// The Swift spelling of the schema's scalars, and the enums and input objects a connector uses, collected
/// while its operations are translated and written once at the end.
final class SchemaTypes {
    private let schema: GraphQLSchema
    private let scalar: (String) -> (swift: String, wire: String?)
    /// The key fields of a table's `<Table>_Key` input, by the input's name.
    private let keyFields: (String) -> [String]?
    private var enums: [String: GraphQLEnumType] = [:]
    private var inputs: [String: GraphQLInputObjectType] = [:]
    /// Inputs that results hold too (a table's `_Key`, for `_KeyOutput`), so they also decode.
    private var decodable: Set<String> = []

    /// The Swift names of every enum and input object in the schema, used or not: nested result structs must
    /// not take them, and operations must not make them.
    let schemaTypeNames: Set<String>

    /// - Parameters:
    ///   - schema: The schema the names come from.
    ///   - scalar: The Swift type, and wire type when it differs, for each scalar name.
    ///   - keyFields: The key fields of a `<Table>_Key` input, or `nil` for other inputs.
    init(
        schema: GraphQLSchema, scalar: @escaping (String) -> (swift: String, wire: String?),
        keyFields: @escaping (String) -> [String]? = { _ in nil }
    ) {
        self.schema = schema
        self.scalar = scalar
        self.keyFields = keyFields
        schemaTypeNames = Set(
            schema.typeMap.values.filter { $0 is GraphQLEnumType || $0 is GraphQLInputObjectType }
                .map { SwiftName.type($0.name) })
    }

    /// The Swift type for a named GraphQL type, and its wire type when that differs; enums and input
    /// objects are remembered so their definitions get written.
    func name(for type: any GraphQLNamedType) -> (swift: String, wire: String?) {
        switch type {
        case let enumeration as GraphQLEnumType:
            enums[enumeration.name] = enumeration
            return (SwiftName.type(enumeration.name), nil)
        case let input as GraphQLInputObjectType:
            inputs[input.name] = input
            return (SwiftName.type(input.name), nil)
        default:
            // A mutation answers with the key it wrote as `<Table>_KeyOutput`: the same members as `<Table>_Key`,
            // so it decodes into that type, as Firebase's SDK does.
            if type.name.hasSuffix("_KeyOutput"),
                let key = schema.getType(name: String(type.name.dropLast("Output".count))) as? GraphQLInputObjectType
            {
                inputs[key.name] = key
                decodable.insert(key.name)
                return (SwiftName.type(key.name), nil)
            }
            return scalar(type.name)
        }
    }

    /// The definitions of every enum and input object used so far (and those they use), by name.
    func definitions(access: String) throws(GeneratorDiagnostic) -> [String] {
        var written: Set<String> = []
        var out: [(String, String)] = []
        while let name = (enums.keys.sorted() + inputs.keys.sorted()).first(where: { !written.contains($0) }) {
            written.insert(name)
            let swiftName = SwiftName.type(name)
            if let other = written.first(where: { $0 != name && SwiftName.type($0) == swiftName }) {
                throw GeneratorDiagnostic(
                    "the schema types \(other) and \(name) both make the Swift type \(swiftName); rename one")
            }
            if let enumeration = enums[name] {
                out.append((name, enumDefinition(enumeration, access: access)))
            } else if let input = inputs[name] {
                out.append((name, try inputDefinition(input, access: access)))
            }
        }
        return out.sorted { $0.0 < $1.0 }.map(\.1)
    }

    private func enumDefinition(_ type: GraphQLEnumType, access: String) -> String {
        var writer = SwiftSourceWriter()
        writer.documentation("The `\(type.name)` enum.")
        writer.block("\(access) enum \(SwiftName.type(type.name)): String, Codable, Sendable, Hashable, CaseIterable") {
            body in
            let names = SwiftName.enumCases(type.values.map(\.name))
            for (value, name) in zip(type.values, names) {
                body.line("case \(name) = \(SwiftName.literal(value.name))")
            }
        }
        return String(writer.text.dropLast())
    }

    private func inputDefinition(_ type: GraphQLInputObjectType, access: String) throws(GeneratorDiagnostic) -> String {
        let fields: InputObjectFieldMap
        do {
            fields = try type.fields()
        } catch {
            throw GeneratorDiagnostic("the schema's input \(type.name) cannot be read: \(error)")
        }
        var members = fields.map { name, field in
            (name, SwiftTypeShape.of(field.type, naming: { self.name(for: $0) }))
        }
        // A table's key is its key fields, all present, as Firebase's SDK types it (`MovieKey { id: UUID }`): what a
        // mutation answers and a lookup takes. The schema's input also has `<field>_expr` forms, for server
        // expressions written in a `.gql` file, which a client has no use for.
        if let keys = keyFields(type.name) {
            members = members.filter { keys.contains($0.0) }.map { ($0.0, $0.1.unwrapped) }
        }
        // Inputs holding other inputs can form cycles (a filter's `_not`, relation filters both ways), which a
        // struct cannot store; a class can.
        let recursive = fields.values.contains { field in
            !(field.type is GraphQLList) && getNamedType(type: field.type) is GraphQLInputObjectType
        }
        var writer = SwiftSourceWriter()
        writer.documentation("The `\(type.name)` input.")
        let kind = recursive ? "final class" : "struct"
        let decodes = decodable.contains(type.name) && !recursive
        let conformances = decodes ? "Codable, Sendable, Hashable" : "Encodable, Sendable"
        writer.block("\(access) \(kind) \(SwiftName.type(type.name)): \(conformances)") { body in
            for (name, shape) in members { body.line("\(access) let \(SwiftName.member(name)): \(shape.swiftType)") }
            body.line()
            let parameters = members.map { name, shape in
                "\(SwiftName.member(name)): \(shape.swiftType)\(shape.isOptional ? " = nil" : "")"
            }
            body.block("\(access) init(\(parameters.joined(separator: ", ")))") { initializer in
                for (name, _) in members {
                    initializer.line("self.\(SwiftName.member(name)) = \(SwiftName.member(name))")
                }
            }
            body.line()
            OperationTranslator.codingKeys(members.map(\.0), into: &body)
            if decodes {
                body.line()
                OperationTranslator.decodingInitializer(members, access: access, into: &body)
            }
            body.line()
            OperationTranslator.encodingMethod(members, prefix: "\(access) ", into: &body)
        }
        return String(writer.text.dropLast())
    }
}
