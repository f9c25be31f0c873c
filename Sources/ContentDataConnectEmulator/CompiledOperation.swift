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
    /// A root field: which table it reads, how, and the arguments its resolver receives.
    struct Root: Sendable {
        /// The response key: the alias, or the field's name.
        let key: String
        let table: DataConnectSchema.Table
        let kind: Kind
        /// Every argument the field defines, in the schema's order, as GraphQL hands them to the resolver.
        let arguments: [(name: String, value: GraphQLArgumentTemplate)]
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

    let variables: [GraphQLDeclaredVariable]
    let roots: [Root]

    /// Not of the shape a plan covers.
    private typealias NotPlanned = GraphQLArgumentTemplate.NotPlannable

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
            variables = try operation.variableDefinitions.map { try GraphQLDeclaredVariable($0, schema: schema) }
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
            arguments: try GraphQLArgumentTemplate.arguments(of: field, definition: definition), selections: [])
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
        let arguments = try GraphQLArgumentTemplate.arguments(of: field, definition: definition)
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

}

// MARK: - Running

extension DataConnectEngine {
    /// Runs a planned query, or answers `nil` for the general executor to run it (see ``CompiledOperation``).
    ///
    /// - Parameters:
    ///   - plan: The plan.
    ///   - variables: The request's variables.
    ///   - auth: The caller.
    /// - Returns: The response, or `nil`.
    func run(_ plan: CompiledOperation, variables: JSONObject, auth: AuthContext) async -> Outcome? {
        guard let coerced = GraphQLDeclaredVariable.coerced(plan.variables, given: GraphQLJSON.variables(variables))
        else { return nil }
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
        // A root is never a view (such an operation has no plan), but a filter may reach one.
        let results = try await store.read(statements, readsView: query.readsView)
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

    /// The insert, committed before the answer: in the next batch of SQLite's writing connection, or on PostgreSQL as
    /// one statement on a connection of the pool when it nests no rows.
    private func write(
        _ root: CompiledOperation.Root, data: Map, upsert: Bool, keyOutput: any GraphQLLeafType, values: ServerValues
    ) async throws -> Outcome {
        let isOneStatement = nestedInserts(in: root.table, data: data).isEmpty
        let key = try await store.plannedWrite(isOneStatement: isOneStatement) { transaction in
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
