package import GraphQL
internal import OrderedCollections

/// An argument value read once from a validated document, with the operation's variables still to fill in: what
/// GraphQLSwift's `valueFromAST` works out again on every request, kept for a plan that runs the same operation many
/// times.
package indirect enum GraphQLArgumentTemplate: Sendable {
    case constant(Map)
    /// A variable at a position whose type is non-null when `isRequired`.
    case variable(String, isRequired: Bool)
    case list([GraphQLArgumentTemplate])
    case object([(name: String, value: GraphQLArgumentTemplate)])

    /// A document a plan does not cover: the general executor runs it.
    package struct NotPlannable: Error {
        package init() {}
    }

    /// The value with the variables filled in, or `nil` when a required position got no value (GraphQL's error,
    /// which the general executor words).
    package func filled(_ variables: [String: Map]) -> Map? {
        switch self {
        case .constant(let value):
            return value
        case .variable(let name, let isRequired):
            let value = variables[name] ?? .undefined
            if isRequired, value == .null || value == .undefined { return nil }
            return value
        case .list(let items):
            var values: [Map] = []
            values.reserveCapacity(items.count)
            for item in items {
                guard let value = item.filled(variables) else { return nil }
                values.append(value)
            }
            return .array(values)
        case .object(let members):
            var dictionary = OrderedDictionary<String, Map>()
            for member in members {
                guard let value = member.value.filled(variables) else { return nil }
                dictionary[member.name] = value
            }
            return .dictionary(dictionary)
        }
    }

    /// Whether the value has no variable in it.
    package var isConstant: Bool {
        if case .constant = self { return true }
        return false
    }

    /// Every argument a field defines, in the schema's order: given ones as templates, the rest as their default or
    /// `undefined`, as GraphQLSwift's `getArgumentValues` hands them to a resolver.
    ///
    /// - Parameters:
    ///   - field: The field as the document selects it.
    ///   - definition: The field's definition.
    /// - Returns: The arguments, by name.
    /// - Throws: ``NotPlannable`` for an argument the definition does not have, or a value no template covers.
    package static func arguments(of field: Field, definition: GraphQLField) throws(NotPlannable) -> [(
        name: String, value: GraphQLArgumentTemplate
    )] {
        let given = Dictionary(
            field.arguments.map { ($0.name.value, $0.value) }, uniquingKeysWith: { first, _ in first })
        guard given.keys.allSatisfy({ definition.args[$0] != nil }) else { throw NotPlannable() }
        var arguments: [(name: String, value: GraphQLArgumentTemplate)] = []
        for (name, argument) in definition.args {
            let value = try given[name].map { literal throws(NotPlannable) in try template(literal, type: argument.type)
            }
            arguments.append((name: name, value: value ?? .constant(argument.defaultValue ?? .undefined)))
        }
        return arguments
    }

    /// The arguments filled with the variables, as a resolver receives them, or `nil` when a required one got no
    /// value.
    ///
    /// - Parameters:
    ///   - arguments: What ``arguments(of:definition:)`` made.
    ///   - variables: The coerced variables.
    /// - Returns: The arguments.
    package static func filled(
        _ arguments: [(name: String, value: GraphQLArgumentTemplate)], _ variables: [String: Map]
    )
        -> Map?
    {
        var dictionary = OrderedDictionary<String, Map>()
        for argument in arguments {
            guard let value = argument.value.filled(variables) else { return nil }
            dictionary[argument.name] = value
        }
        return .dictionary(dictionary)
    }

    /// An argument's literal as GraphQLSwift's `valueFromAST` reads it (every field of an input object present, in
    /// the type's order, `undefined` when not given and without a default; a lone value where a list is expected
    /// made a list of one), with each variable left as a hole.
    ///
    /// - Parameters:
    ///   - literal: The value in the document.
    ///   - type: The type at its position.
    ///   - isRequired: Whether the position is non-null.
    /// - Returns: The template.
    /// - Throws: ``NotPlannable`` for a value no template covers (a `@oneOf` input, say).
    package static func template(_ literal: any Value, type: any GraphQLInputType, isRequired: Bool = false)
        throws(NotPlannable) -> GraphQLArgumentTemplate
    {
        if let nonNull = type as? GraphQLNonNull {
            guard !(literal is NullValue), let inner = nonNull.ofType as? any GraphQLInputType else {
                throw NotPlannable()
            }
            return try template(literal, type: inner, isRequired: true)
        }
        if literal is NullValue { return .constant(.null) }
        if let variable = literal as? Variable { return .variable(variable.name.value, isRequired: isRequired) }
        if let list = type as? GraphQLList {
            guard let item = list.ofType as? any GraphQLInputType else { throw NotPlannable() }
            var items: [GraphQLArgumentTemplate] = []
            for value in (literal as? ListValue)?.values ?? [literal] { items.append(try template(value, type: item)) }
            guard items.allSatisfy(\.isConstant) else { return .list(items) }
            return .constant(.array(items.compactMap { if case .constant(let value) = $0 { value } else { nil } }))
        }
        if let object = type as? GraphQLInputObjectType {
            guard !object.isOneOf, let value = literal as? ObjectValue, let fields = try? object.fields() else {
                throw NotPlannable()
            }
            let given = Dictionary(
                value.fields.map { ($0.name.value, $0.value) }, uniquingKeysWith: { first, _ in first })
            var members: [(name: String, value: GraphQLArgumentTemplate)] = []
            for (name, field) in fields {
                let member = try given[name].map { literal throws(NotPlannable) in
                    try template(literal, type: field.type)
                }
                members.append((name: name, value: member ?? .constant(field.defaultValue ?? .undefined)))
            }
            guard members.allSatisfy(\.value.isConstant) else { return .object(members) }
            var dictionary = OrderedDictionary<String, Map>()
            for member in members { if case .constant(let value) = member.value { dictionary[member.name] = value } }
            return .constant(.dictionary(dictionary))
        }
        if let leaf = type as? any GraphQLLeafType {
            return .constant((try? leaf.parseLiteral(valueAST: literal)) ?? .null)
        }
        throw NotPlannable()
    }
}

/// A variable an operation declares, of a leaf type or a list of one, which a plan coerces as GraphQL does without
/// input objects.
package struct GraphQLDeclaredVariable: Sendable {
    package let name: String
    package let type: any GraphQLInputType
    /// The default, already read from its literal, as GraphQL reads it when the variable is not given.
    package let defaultValue: Map?

    /// Reads a declaration.
    ///
    /// - Parameters:
    ///   - definition: The declaration.
    ///   - schema: The schema its type is from.
    /// - Throws: ``GraphQLArgumentTemplate/NotPlannable`` for a type whose named type is not a leaf.
    package init(_ definition: VariableDefinition, schema: GraphQLSchema) throws(GraphQLArgumentTemplate.NotPlannable) {
        let type = try Self.inputType(definition.type, schema: schema)
        // Leaves and lists of them, which coerce without input objects.
        guard getNamedType(type: type) is any GraphQLLeafType else { throw GraphQLArgumentTemplate.NotPlannable() }
        if let literal = definition.defaultValue {
            guard case .constant(let value) = try GraphQLArgumentTemplate.template(literal, type: type) else {
                throw GraphQLArgumentTemplate.NotPlannable()
            }
            defaultValue = value
        } else {
            defaultValue = nil
        }
        name = definition.variable.name.value
        self.type = type
    }

    private static func inputType(_ type: any `Type`, schema: GraphQLSchema) throws(GraphQLArgumentTemplate
        .NotPlannable)
        -> any GraphQLInputType
    {
        switch type {
        case let named as NamedType:
            guard let found = schema.getType(name: named.name.value) as? any GraphQLInputType else {
                throw GraphQLArgumentTemplate.NotPlannable()
            }
            return found
        case let list as ListType:
            return GraphQLList(try inputType(list.type, schema: schema))
        case let nonNull as NonNullType:
            guard let inner = try inputType(nonNull.type, schema: schema) as? any GraphQLNullableType else {
                throw GraphQLArgumentTemplate.NotPlannable()
            }
            return GraphQLNonNull(inner)
        default:
            throw GraphQLArgumentTemplate.NotPlannable()
        }
    }

    /// The variables as GraphQL coerces them, or `nil` when one needs GraphQL's own words (a value its type refuses).
    ///
    /// - Parameters:
    ///   - variables: The declarations.
    ///   - given: The request's variables, as GraphQL values.
    /// - Returns: The coerced variables, by name.
    package static func coerced(_ variables: [GraphQLDeclaredVariable], given: [String: Map]) -> [String: Map]? {
        var coerced: [String: Map] = [:]
        for variable in variables {
            var input = given[variable.name] ?? .undefined
            if input == .undefined, let defaultValue = variable.defaultValue { input = defaultValue }
            guard let value = coerce(input, to: variable.type) else { return nil }
            coerced[variable.name] = value
        }
        return coerced
    }

    /// GraphQLSwift's `validate` then `coerceValue`, for the leaf and list-of-leaf types a plan admits.
    private static func coerce(_ value: Map, to type: any GraphQLInputType) -> Map? {
        if let nonNull = type as? GraphQLNonNull {
            guard value != .null, value != .undefined, let inner = nonNull.ofType as? any GraphQLInputType else {
                return nil
            }
            return coerce(value, to: inner)
        }
        if value == .null || value == .undefined { return value }
        if let list = type as? GraphQLList {
            guard let item = list.ofType as? any GraphQLInputType else { return nil }
            guard case .array(let elements) = value else { return coerce(value, to: item).map { .array([$0]) } }
            var coerced: [Map] = []
            for element in elements {
                guard let value = coerce(element, to: item) else { return nil }
                coerced.append(value)
            }
            return .array(coerced)
        }
        guard let leaf = type as? any GraphQLLeafType, let parsed = try? leaf.parseValue(value: value),
            parsed != .null, parsed != .undefined
        else { return nil }
        return parsed
    }
}
