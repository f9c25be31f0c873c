internal import GraphQL
internal import OrderedCollections

/// A result struct to write: the fields one selection set picks from a GraphQL object type.
final class SelectedObject {
    let name: String
    let typeName: String
    var fields: OrderedDictionary<String, SelectedField> = [:]

    init(name: String, typeName: String) {
        self.name = name
        self.typeName = typeName
    }
}

/// One field of a result struct.
struct SelectedField {
    let fieldName: String
    var shape: SwiftTypeShape
    var object: SelectedObject?
}

/// Collects selection sets into ``SelectedObject`` trees (merging fields, inline fragments and fragment
/// spreads the way GraphQL executes them) and writes them as `Decodable` structs.
struct ObjectTranslator {
    let schema: GraphQLSchema
    let types: SchemaTypes
    let access: String
    let file: String
    /// Whether results of a GraphQL type are `Identifiable` once their `id` is selected.
    let identifiable: (String) -> Bool

    /// The object a selection set picks from `type`.
    func collect(
        _ sets: [SelectionSet], on type: any GraphQLNamedType, named name: String, document: Document
    ) throws(GeneratorDiagnostic) -> SelectedObject {
        let object = SelectedObject(name: name, typeName: type.name)
        var nested: [String: [SelectionSet]] = [:]
        var nestedTypes: [String: any GraphQLNamedType] = [:]
        for set in sets {
            try gather(
                set, on: type, conditional: false, document: document, into: object, nested: &nested,
                nestedTypes: &nestedTypes)
        }
        let siblings = Set(object.fields.keys.map(SwiftName.type))
        for (key, field) in object.fields {
            guard let sets = nested[key], let namedType = nestedTypes[key] else { continue }
            var updated = field
            // A list's element reads best in the singular (`movies` → `Movie`) unless a sibling has that name.
            var name = SwiftName.type(key)
            if case .list = field.shape.unwrapped, name.hasSuffix("s"), !name.hasSuffix("ss"), name.count > 1,
                !siblings.contains(String(name.dropLast()))
            {
                name.removeLast()
            }
            updated.shape = field.shape.renamingNamed(SwiftName.type(key), to: name)
            updated.object = try collect(sets, on: namedType, named: name, document: document)
            object.fields[key] = updated
        }
        return object
    }

    private func gather(
        _ set: SelectionSet, on type: any GraphQLNamedType, conditional: Bool, document: Document,
        into object: SelectedObject, nested: inout [String: [SelectionSet]],
        nestedTypes: inout [String: any GraphQLNamedType]
    ) throws(GeneratorDiagnostic) {
        for selection in set.selections {
            switch selection {
            case let field as Field:
                let key = field.alias?.value ?? field.name.value
                if field.name.value == "__typename" {
                    object.fields[key] = SelectedField(
                        fieldName: "__typename", shape: .named(swift: "String", wire: nil))
                    continue
                }
                guard let definition = fields(of: type)[field.name.value] else {
                    throw diagnostic(at: field.loc, "\(type.name) has no field \(field.name.value)")
                }
                let namedType = getNamedType(type: definition.type)
                let isObject =
                    namedType is GraphQLObjectType || namedType is GraphQLInterfaceType
                    || namedType is GraphQLUnionType
                var shape = SwiftTypeShape.of(definition.type) { named in
                    isObject ? (SwiftName.type(key), nil) : types.name(for: named)
                }
                // A field only some member types have is absent for the others.
                if conditional, !shape.isOptional { shape = .optional(shape) }
                if let existing = object.fields[key], existing.shape.isOptional, !shape.isOptional {
                    shape = existing.shape.unwrapped == shape ? shape : existing.shape
                }
                object.fields[key] = SelectedField(fieldName: field.name.value, shape: shape, object: nil)
                if let subselection = field.selectionSet, let namedType, isObject {
                    nested[key, default: []].append(subselection)
                    nestedTypes[key] = namedType
                }
            case let fragment as InlineFragment:
                let condition = fragment.typeCondition.flatMap { schema.getType(name: $0.name.value) } ?? type
                try gather(
                    fragment.selectionSet, on: condition, conditional: conditional || condition.name != type.name,
                    document: document, into: object, nested: &nested, nestedTypes: &nestedTypes)
            case let spread as FragmentSpread:
                let definition = document.definitions.lazy.compactMap { $0 as? FragmentDefinition }
                    .first { $0.name.value == spread.name.value }
                guard let definition, let condition = schema.getType(name: definition.typeCondition.name.value) else {
                    throw diagnostic(at: spread.loc, "fragment \(spread.name.value) is not defined in this file")
                }
                try gather(
                    definition.selectionSet, on: condition, conditional: conditional || condition.name != type.name,
                    document: document, into: object, nested: &nested, nestedTypes: &nestedTypes)
            default:
                continue
            }
        }
    }

    private func fields(of type: any GraphQLNamedType) -> GraphQLFieldMap {
        switch type {
        case let object as GraphQLObjectType: return (try? object.fields()) ?? [:]
        case let interface as GraphQLInterfaceType: return (try? interface.fields()) ?? [:]
        default: return [:]
        }
    }

    private func diagnostic(at location: Location?, _ message: String) -> GeneratorDiagnostic {
        GeneratorDiagnostic(
            file: file, line: location?.startToken.line, column: location?.startToken.column, message)
    }

    /// Writes `object` as a struct, its nested objects inside it.
    func emit(_ object: SelectedObject, into writer: inout SwiftSourceWriter) {
        var conformances = ["Decodable", "Sendable", "Hashable"]
        if identifiable(object.typeName), let id = object.fields["id"], id.fieldName == "id", !id.shape.isOptional {
            conformances.append("Identifiable")
        }
        writer.block("\(access) struct \(object.name): \(conformances.joined(separator: ", "))") { body in
            for (key, field) in object.fields {
                body.line("\(access) let \(SwiftName.member(key)): \(field.shape.swiftType)")
            }
            let needsWire = object.fields.values.contains { $0.shape.fromWire("value") != nil }
            if needsWire {
                body.line()
                OperationTranslator.codingKeys(Array(object.fields.keys), into: &body)
                body.line()
                body.block("\(access) init(from decoder: any Decoder) throws") { initializer in
                    initializer.line("let container = try decoder.container(keyedBy: CodingKeys.self)")
                    for (key, field) in object.fields {
                        let member = SwiftName.member(key)
                        let shape = field.shape
                        let call =
                            shape.isOptional
                            ? "container.decodeIfPresent(\(shape.unwrapped.wireType).self, forKey: .\(member))"
                            : "container.decode(\(shape.wireType).self, forKey: .\(member))"
                        initializer.line("self.\(member) = \(shape.fromWire("try \(call)") ?? "try \(call)")")
                    }
                }
            }
            for field in object.fields.values {
                guard let nested = field.object else { continue }
                body.line()
                emit(nested, into: &body)
            }
        }
    }
}
