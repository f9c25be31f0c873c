internal import ContentDataConnect
internal import ContentGraphQL
internal import ContentJSON
internal import GRDB
internal import GraphQL
internal import OrderedCollections

/// A connector operation planned once, when the workspace loads, for the shapes most requests have: a query whose
/// root fields list rows of a table (`movies(where:, orderBy:, limit:, offset:, distinct:)`) or pick one
/// (`movie(id:)`), selecting its columns and `_id`; or a mutation of one root field that inserts or upserts a row
/// (`movie_insert(data:)`).
///
/// The general executor works each request's arguments out of the document again, walking every input type of a
/// `where` or a `data` (GraphQLSwift rebuilds and re-checks an input type's fields on each access), then resolves
/// every field of every row through an async resolver. A plan does that work once: each argument is kept as a
/// template whose only holes are the operation's variables, and each selected field as the column and leaf type it
/// reads. A request then fills the holes and calls the same code the resolvers call (``RowQuery`` and
/// ``DataConnectEngine/insert(_:data:state:upsert:)``); a query reads every root field in one read of the store, on
/// a reading connection of its own, and the response is written directly.
///
/// The plan answers only when it is certain to answer as the general executor would: an operation of any other
/// shape has no plan, and a request whose variables GraphQL would refuse, or whose run fails (a mutation's
/// transaction is then rolled back), goes to the general executor, which gives the error in its usual words. The
/// tests run each request both ways and compare the bytes.
struct CompiledOperation: Sendable {
    /// A declared variable: the leaf type it coerces to, and its default.
    struct DeclaredVariable: Sendable {
        let name: String
        let type: any GraphQLInputType
        /// The default, already read from its literal, as GraphQL reads it when the variable is not given.
        let defaultValue: Map?
    }

    /// A root field: which table it reads, how, and the arguments its resolver receives.
    struct Root: Sendable {
        /// The response key: the alias, or the field's name.
        let key: String
        let table: DataConnectSchema.Table
        let kind: Kind
        /// Every argument the field defines, in the schema's order, as GraphQL hands them to the resolver.
        let arguments: [(name: String, value: ArgumentTemplate)]
        let selections: [Selection]
    }

    /// What a root field does.
    enum Kind: Sendable {
        /// Lists rows (`movies`).
        case list
        /// Picks one row (`movie`).
        case one
        /// Inserts a row (`movie_insert`), or upserts it, and answers its key as the field's leaf type writes it.
        case insert(upsert: Bool, key: any GraphQLLeafType)
    }

    /// A selected field of each row.
    struct Selection: Sendable {
        let key: String
        /// The column it reads, or `nil` for `_id`.
        let column: DataConnectSchema.Column?
        let leaf: any GraphQLLeafType
        let isNonNull: Bool
        let isItemNonNull: Bool
    }

    let variables: [DeclaredVariable]
    let roots: [Root]

    /// An argument value with the operation's variables still to fill in.
    indirect enum ArgumentTemplate: Sendable {
        case constant(Map)
        /// A variable at a position whose type is non-null when `isRequired`.
        case variable(String, isRequired: Bool)
        case list([ArgumentTemplate])
        case object([(name: String, value: ArgumentTemplate)])

        /// The value with the variables filled in, or `nil` when a required position got no value (GraphQL's
        /// error, which the general executor words).
        func filled(_ variables: [String: Map]) -> Map? {
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

        var isConstant: Bool {
            if case .constant = self { return true }
            return false
        }
    }

    /// Not of the shape a plan covers.
    private struct NotPlanned: Error {}

    /// Plans a validated query operation, or answers `nil` when its shape needs the general executor.
    ///
    /// - Parameters:
    ///   - document: The operation's validated document (one operation, no fragments).
    ///   - schema: The executable schema.
    ///   - tables: The workspace's tables.
    init?(document: Document, schema: GraphQLSchema, tables: DataConnectSchema) {
        guard document.definitions.count == 1, let operation = document.definitions.first as? OperationDefinition
        else { return nil }
        let isQuery = operation.operation == .query
        // `@transaction` runs field by field; `@refresh` matters only to subscriptions, which run the general way.
        let allowed: Set<String> = isQuery ? ["auth", "refresh"] : ["auth"]
        guard operation.directives.allSatisfy({ allowed.contains($0.name.value) }),
            let root = isQuery ? schema.queryType : schema.mutationType, let fields = try? root.fields()
        else { return nil }
        do {
            variables = try operation.variableDefinitions.map { try Self.variable($0, schema: schema) }
            roots = try operation.selectionSet.selections.map { selection in
                guard let field = selection as? Field, field.directives.isEmpty,
                    let definition = fields[field.name.value]
                else { throw NotPlanned() }
                return isQuery
                    ? try Self.root(field, definition: definition, schema: schema, tables: tables)
                    : try Self.write(field, definition: definition, tables: tables)
            }
        } catch {
            return nil
        }
        // A mutation of several root fields isolates each under a savepoint, as the general executor does.
        guard !roots.isEmpty, isQuery || roots.count == 1 else { return nil }
    }

    /// `{table}_insert(data:)` or `{table}_upsert(data:)`, answering the key.
    private static func write(_ field: Field, definition: GraphQLField, tables: DataConnectSchema) throws -> Root {
        let name = field.name.value
        let upsert: Bool
        let singular: Substring
        if name.hasSuffix("_insert") {
            (upsert, singular) = (false, name.dropLast("_insert".count))
        } else if name.hasSuffix("_upsert") {
            (upsert, singular) = (true, name.dropLast("_upsert".count))
        } else {
            throw NotPlanned()
        }
        guard field.selectionSet == nil, let key = getNamedType(type: definition.type) as? any GraphQLLeafType,
            let table = tables.tables.first(where: { !$0.isView && $0.singular == singular })
        else { throw NotPlanned() }
        return Root(
            key: field.alias?.value ?? name, table: table, kind: .insert(upsert: upsert, key: key),
            arguments: try arguments(of: field, definition: definition), selections: [])
    }

    /// Every argument the field defines, in the schema's order: given ones as templates, the rest as their default
    /// or `undefined`, as GraphQLSwift's `getArgumentValues` hands them to a resolver.
    private static func arguments(of field: Field, definition: GraphQLField) throws -> [(
        name: String, value: ArgumentTemplate
    )] {
        let given = Dictionary(
            field.arguments.map { ($0.name.value, $0.value) }, uniquingKeysWith: { first, _ in first })
        guard given.keys.allSatisfy({ definition.args[$0] != nil }) else { throw NotPlanned() }
        return try definition.args.map { (name, argument) in
            (
                name: name,
                value: try given[name].map { try template($0, type: argument.type) }
                    ?? .constant(argument.defaultValue ?? .undefined)
            )
        }
    }

    private static func variable(_ definition: VariableDefinition, schema: GraphQLSchema) throws -> DeclaredVariable {
        let type = try inputType(definition.type, schema: schema)
        // Leaves and lists of them, which coerce without input objects.
        guard getNamedType(type: type) is any GraphQLLeafType else { throw NotPlanned() }
        let defaultValue = try definition.defaultValue.map { literal -> Map in
            guard case .constant(let value) = try template(literal, type: type) else { throw NotPlanned() }
            return value
        }
        return DeclaredVariable(name: definition.variable.name.value, type: type, defaultValue: defaultValue)
    }

    private static func inputType(_ type: any `Type`, schema: GraphQLSchema) throws -> any GraphQLInputType {
        switch type {
        case let named as NamedType:
            guard let found = schema.getType(name: named.name.value) as? any GraphQLInputType else {
                throw NotPlanned()
            }
            return found
        case let list as ListType:
            return GraphQLList(try inputType(list.type, schema: schema))
        case let nonNull as NonNullType:
            guard let inner = try inputType(nonNull.type, schema: schema) as? any GraphQLNullableType else {
                throw NotPlanned()
            }
            return GraphQLNonNull(inner)
        default:
            throw NotPlanned()
        }
    }

    private static func root(
        _ field: Field, definition: GraphQLField, schema: GraphQLSchema, tables: DataConnectSchema
    ) throws -> Root {
        let name = field.name.value
        let table: DataConnectSchema.Table
        let kind: Kind
        if let listed = tables.tables.first(where: { !$0.isView && $0.plural == name }) {
            (table, kind) = (listed, .list)
        } else if let picked = tables.tables.first(where: { !$0.isView && $0.singular == name }) {
            (table, kind) = (picked, .one)
        } else {
            throw NotPlanned()
        }
        guard !field.arguments.contains(where: { $0.name.value == "having" }) else { throw NotPlanned() }
        let arguments = try arguments(of: field, definition: definition)
        guard let rowType = getNamedType(type: definition.type) as? GraphQLObjectType,
            let rowFields = try? rowType.fields(), let selected = field.selectionSet?.selections, !selected.isEmpty
        else { throw NotPlanned() }
        let selections = try selected.map { selection -> Selection in
            guard let column = selection as? Field, column.directives.isEmpty, column.arguments.isEmpty,
                column.selectionSet == nil, let definition = rowFields[column.name.value]
            else { throw NotPlanned() }
            let name = column.name.value
            let stored = table.column(name)
            guard stored != nil || name == "_id", let leaf = getNamedType(type: definition.type) as? any GraphQLLeafType
            else { throw NotPlanned() }
            var type: any GraphQLType = definition.type
            let isNonNull = type is GraphQLNonNull
            if let nonNull = type as? GraphQLNonNull { type = nonNull.ofType }
            let isItemNonNull = (type as? GraphQLList)?.ofType is GraphQLNonNull
            // A list column is a list of leaves; anything else is one leaf.
            guard (type is GraphQLList) == (stored?.isList ?? false) else { throw NotPlanned() }
            return Selection(
                key: column.alias?.value ?? name, column: stored, leaf: leaf, isNonNull: isNonNull,
                isItemNonNull: isItemNonNull)
        }
        return Root(
            key: field.alias?.value ?? name, table: table, kind: kind, arguments: arguments, selections: selections)
    }

    /// An argument's literal as GraphQLSwift's `valueFromAST` reads it (every field of an input object present, in
    /// the type's order, `undefined` when not given and without a default; a lone value where a list is expected
    /// made a list of one), with each variable left as a hole.
    private static func template(_ literal: any Value, type: any GraphQLInputType, isRequired: Bool = false) throws
        -> ArgumentTemplate
    {
        if let nonNull = type as? GraphQLNonNull {
            guard !(literal is NullValue), let inner = nonNull.ofType as? any GraphQLInputType else {
                throw NotPlanned()
            }
            return try template(literal, type: inner, isRequired: true)
        }
        if literal is NullValue { return .constant(.null) }
        if let variable = literal as? Variable { return .variable(variable.name.value, isRequired: isRequired) }
        if let list = type as? GraphQLList {
            guard let item = list.ofType as? any GraphQLInputType else { throw NotPlanned() }
            let items = try ((literal as? ListValue)?.values ?? [literal]).map { try template($0, type: item) }
            guard items.allSatisfy(\.isConstant) else { return .list(items) }
            return .constant(.array(items.compactMap { if case .constant(let value) = $0 { value } else { nil } }))
        }
        if let object = type as? GraphQLInputObjectType {
            guard !object.isOneOf, let value = literal as? ObjectValue else { throw NotPlanned() }
            let given = Dictionary(
                value.fields.map { ($0.name.value, $0.value) }, uniquingKeysWith: { first, _ in first })
            let members = try object.fields().map { (name, field) in
                (
                    name: name,
                    value: try given[name].map { try template($0, type: field.type) }
                        ?? .constant(field.defaultValue ?? .undefined)
                )
            }
            guard members.allSatisfy(\.value.isConstant) else { return .object(members) }
            var dictionary = OrderedDictionary<String, Map>()
            for member in members { if case .constant(let value) = member.value { dictionary[member.name] = value } }
            return .constant(.dictionary(dictionary))
        }
        if let leaf = type as? any GraphQLLeafType {
            return .constant((try? leaf.parseLiteral(valueAST: literal)) ?? .null)
        }
        throw NotPlanned()
    }

    // MARK: - Running

    /// The variables as GraphQL coerces them, or `nil` when one needs GraphQL's own words (a value its type
    /// refuses).
    func coercedVariables(_ given: JSONObject) -> [String: Map]? {
        var coerced: [String: Map] = [:]
        for variable in variables {
            var input = given[variable.name].map(GraphQLJSON.map) ?? .undefined
            if input == .undefined, let defaultValue = variable.defaultValue { input = defaultValue }
            guard let value = Self.coerce(input, to: variable.type) else { return nil }
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

extension DataConnectEngine {
    /// Runs a planned query, or answers `nil` for the general executor to run it (see ``CompiledOperation``).
    ///
    /// - Parameters:
    ///   - plan: The plan.
    ///   - variables: The request's variables.
    ///   - auth: The caller.
    /// - Returns: The response, or `nil`.
    func run(_ plan: CompiledOperation, variables: JSONObject, auth: AuthContext) async -> Outcome? {
        guard let coerced = plan.coercedVariables(variables) else { return nil }
        var arguments: [Map] = []
        for root in plan.roots {
            var members = OrderedDictionary<String, Map>()
            for argument in root.arguments {
                guard let value = argument.value.filled(coerced) else { return nil }
                members[argument.name] = value
            }
            arguments.append(.dictionary(members))
        }
        let values = ServerValues(auth: auth, now: DataConnectScalars.now(), variables: variables)
        do {
            try Task.checkCancellation()
            if let root = plan.roots.first, case .insert(let upsert, let keyOutput) = root.kind,
                let data = arguments.first
            {
                return try await write(root, data: data["data"], upsert: upsert, keyOutput: keyOutput, values: values)
            }
            return try await read(plan.roots, arguments: arguments, values: values)
        } catch {
            // Whatever went wrong is worded, with its path, by the general executor; a write was rolled back.
            return nil
        }
    }

    private func read(_ roots: [CompiledOperation.Root], arguments: [Map], values: ServerValues) async throws
        -> Outcome
    {
        var query = RowQuery(schema: workspace.schema, values: values, dialect: store.dialect)
        var statements: [SQLFragment] = []
        for (root, arguments) in zip(roots, arguments) {
            if case .list = root.kind {
                let distinct = Self.distinctColumns(
                    arguments, selected: root.selections.map { $0.column?.field ?? "_id" }, root.table)
                statements.append(
                    try query.select(root.table, alias: query.alias(), arguments: arguments, distinct: distinct))
            } else {
                statements.append(try locate(root.table, args: arguments, query: &query))
            }
        }
        let results = try await store.read(statements)
        var data = JSONObject()
        var entities: [EntityRecord] = []
        for (root, records) in zip(roots, results) {
            let rows = Self.rows(records, table: root.table)
            if case .list = root.kind {
                data[root.key] = .array(try rows.map { try Self.object(for: $0, root) })
                entities.append(
                    EntityRecord(
                        path: [.string(root.key)], ids: .many(rows.map { Self.entityID($0, table: root.table) }),
                        action: "LIST"))
            } else if let row = rows.first {
                data[root.key] = try Self.object(for: row, root)
                entities.append(
                    EntityRecord(
                        path: [.string(root.key)], ids: .one(Self.entityID(row, table: root.table)), action: "GET"))
            } else {
                data[root.key] = .null
            }
        }
        return Self.response(data, entities)
    }

    /// The insert in a transaction of its own on the writing connection, committed before the answer.
    private func write(
        _ root: CompiledOperation.Root, data: Map, upsert: Bool, keyOutput: any GraphQLLeafType, values: ServerValues
    ) async throws -> Outcome {
        let key = try await store.plannedWrite { transaction in
            let state = ExecutionState(values: values, transaction: transaction, isolatesRootFields: false)
            return try await self.insert(root.table, data: data, state: state, upsert: upsert)
        }
        var data = JSONObject()
        data[root.key] = GraphQLJSON.json(try keyOutput.serialize(value: key))
        let ids = ExecutionState.entityID(key: key, table: root.table).map { id in
            [EntityRecord(path: [.string(root.key)], ids: .one(id), action: upsert ? "UPSERT" : "CREATE")]
        }
        return Self.response(data, ids ?? [])
    }

    private static func response(_ data: JSONObject, _ entities: [EntityRecord]) -> Outcome {
        var body = JSONObject()
        body["data"] = .object(data)
        if let extensions = EntityRecord.extensions(entities, data: .object(data)) {
            body["extensions"] = extensions
        }
        return .response(.object(body))
    }

    /// One row's selected fields, as the general executor completes them: the wire value each column's default
    /// resolver reads, serialized by the field's leaf type.
    private static func object(for row: RowData, _ root: CompiledOperation.Root) throws -> JSONValue {
        var object = JSONObject()
        for selection in root.selections {
            guard let column = selection.column else {
                object[selection.key] = GraphQLJSON.json(
                    try selection.leaf.serialize(value: entityID(row, table: root.table)))
                continue
            }
            let wire = StoredValue.wire(row.values[column.field] ?? .null, as: column.type, isList: column.isList)
            guard let wire else {
                if selection.isNonNull { throw FieldFailure(description: "null in a non-null field") }
                object[selection.key] = .null
                continue
            }
            guard column.isList else {
                object[selection.key] = GraphQLJSON.json(try selection.leaf.serialize(value: wire))
                continue
            }
            guard let items = wire as? [(any Sendable)?] else { throw FieldFailure(description: "not a list") }
            object[selection.key] = .array(
                try items.map { item in
                    guard let item else {
                        if selection.isItemNonNull { throw FieldFailure(description: "null in a non-null item") }
                        return .null
                    }
                    return GraphQLJSON.json(try selection.leaf.serialize(value: item))
                })
        }
        return .object(object)
    }
}
