internal import GraphQL
internal import OrderedCollections

/// A result struct to write: the fields one selection set picks from a GraphQL object type.
final class SelectedObject {
    let name: String
    /// The GraphQL type it selects from, or `nil` when its selections come from several (fragments on a union).
    let typeName: String?
    var fields: OrderedDictionary<String, SelectedField> = [:]

    init(name: String, typeName: String?) {
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
    /// One place a response key selects sub-fields: the selection set, the type it selects from, and whether
    /// it applies only sometimes (under a type condition or `@include`/`@skip`).
    struct Occurrence {
        var set: SelectionSet
        var type: any GraphQLNamedType
        var conditional: Bool
    }

    let schema: GraphQLSchema
    let types: SchemaTypes
    let access: String
    let file: String
    /// Whether results of a GraphQL type are `Identifiable` once their `id` is selected.
    let identifiable: (String) -> Bool
    /// Type names nested structs must not take, because the generated code refers to them from inside: the
    /// schema's enums and inputs.
    let reservedNames: Set<String>

    /// The object a selection set picks from `type`.
    func collect(
        _ set: SelectionSet, on type: any GraphQLNamedType, named name: String, document: Document
    ) throws(GeneratorDiagnostic) -> SelectedObject {
        try collect([Occurrence(set: set, type: type, conditional: false)], named: name, document: document)
    }

    private func collect(_ occurrences: [Occurrence], named name: String, document: Document)
        throws(GeneratorDiagnostic) -> SelectedObject
    {
        let typeNames = Set(occurrences.map(\.type.name))
        let object = SelectedObject(name: name, typeName: typeNames.count == 1 ? typeNames.first : nil)
        // A sub-field is certain only where its occurrence is: when every occurrence is conditional, one alone
        // still is certain whenever the object is there, several are not.
        let allConditional = occurrences.allSatisfy(\.conditional)
        var nested: [String: [Occurrence]] = [:]
        for occurrence in occurrences {
            let conditional = allConditional ? occurrences.count > 1 : occurrence.conditional
            try gather(
                occurrence.set, on: occurrence.type, conditional: conditional, document: document, into: object,
                nested: &nested)
        }
        let plainNames = Set(object.fields.keys.filter { nested[$0] != nil }.map(SwiftName.type))
        var taken = reservedNames
        for (key, field) in object.fields {
            guard let occurrences = nested[key] else { continue }
            var updated = field
            // A list's element reads best in the singular (`movies` → `Movie`) unless another field has that name.
            let plural = SwiftName.upperFirst(key)
            var name = SwiftName.type(plural)
            if case .list = field.shape.unwrapped, plural.hasSuffix("s"), !plural.hasSuffix("ss"), plural.count > 1 {
                let singular = SwiftName.type(String(plural.dropLast()))
                if !plainNames.contains(singular), !taken.contains(singular) { name = singular }
            }
            // Aliases that differ only in case, or names the schema's types hold, get an underscore.
            while taken.contains(name) { name += "_" }
            taken.insert(name)
            updated.shape = field.shape.renamingNamed(SwiftName.type(key), to: name)
            updated.object = try collect(occurrences, named: name, document: document)
            object.fields[key] = updated
        }
        return object
    }

    private func gather(
        _ set: SelectionSet, on type: any GraphQLNamedType, conditional: Bool, document: Document,
        into object: SelectedObject, nested: inout [String: [Occurrence]]
    ) throws(GeneratorDiagnostic) {
        for selection in set.selections {
            switch selection {
            case let field as Field:
                let key = field.alias?.value ?? field.name.value
                let fieldConditional = conditional || Self.mayBeLeftOut(field.directives)
                if field.name.value == "__typename" {
                    let shape = SwiftTypeShape.named(swift: "String", wire: nil)
                    object.fields[key] = SelectedField(
                        fieldName: "__typename",
                        shape: merged(fieldConditional ? .optional(shape) : shape, into: object.fields[key]))
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
                // A field only some member types have, or one a directive may drop, is absent at times.
                if fieldConditional, !shape.isOptional { shape = .optional(shape) }
                object.fields[key] = SelectedField(
                    fieldName: field.name.value, shape: merged(shape, into: object.fields[key]), object: nil)
                if let subselection = field.selectionSet, let namedType, isObject {
                    nested[key, default: []].append(
                        Occurrence(set: subselection, type: namedType, conditional: fieldConditional))
                }
            case let fragment as InlineFragment:
                let condition = fragment.typeCondition.flatMap { schema.getType(name: $0.name.value) } ?? type
                try gather(
                    fragment.selectionSet, on: condition,
                    conditional: conditional || condition.name != type.name || Self.mayBeLeftOut(fragment.directives),
                    document: document, into: object, nested: &nested)
            case let spread as FragmentSpread:
                let definition = document.definitions.lazy.compactMap { $0 as? FragmentDefinition }
                    .first { $0.name.value == spread.name.value }
                guard let definition, let condition = schema.getType(name: definition.typeCondition.name.value) else {
                    throw diagnostic(at: spread.loc, "fragment \(spread.name.value) is not defined in this file")
                }
                try gather(
                    definition.selectionSet, on: condition,
                    conditional: conditional || condition.name != type.name || Self.mayBeLeftOut(spread.directives),
                    document: document, into: object, nested: &nested)
            default:
                continue
            }
        }
    }

    /// The shape of a field selected again: certain if either selection is.
    private func merged(_ shape: SwiftTypeShape, into existing: SelectedField?) -> SwiftTypeShape {
        guard let existing, existing.shape.isOptional, !shape.isOptional else { return shape }
        return existing.shape.unwrapped == shape ? shape : existing.shape
    }

    /// Whether `@include` or `@skip` may leave the selection out: anything but `@include(if: true)` or
    /// `@skip(if: false)` may.
    static func mayBeLeftOut(_ directives: [Directive]) -> Bool {
        directives.contains { directive in
            let keeps: Bool
            switch directive.name.value {
            case "include": keeps = true
            case "skip": keeps = false
            default: return false
            }
            let condition = directive.arguments.first { $0.name.value == "if" }?.value as? BooleanValue
            return condition?.value != keeps
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
        if let typeName = object.typeName, identifiable(typeName), let id = object.fields["id"], id.fieldName == "id",
            !id.shape.isOptional
        {
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
                OperationTranslator.decodingInitializer(
                    object.fields.map { ($0.key, $0.value.shape) }, access: access, into: &body)
            }
            for field in object.fields.values {
                guard let nested = field.object else { continue }
                body.line()
                emit(nested, into: &body)
            }
        }
    }
}
