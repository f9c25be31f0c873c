internal import ContentDataConnect
internal import ContentJSON
internal import Foundation
internal import GRDB
internal import GraphQL
internal import OrderedCollections

/// One stored row: its identity within the statement that read it (see ``SQLDialect/rowIdentity(_:table:)``) and
/// its values by field name.
struct RowData: Sendable {
    var rowid: DatabaseValue
    var values: [String: DatabaseValue]
    /// The search score that found the row (a distance or a relevance), when a search did.
    var score: Double?
}

/// A resolver's error: becomes a GraphQL error with the field's path.
struct FieldFailure: Error, CustomStringConvertible {
    let description: String
}

extension Map {
    /// A member of an input object, by a name known only at run time.
    func member(_ key: String) -> Map {
        dictionary?[key] ?? .undefined
    }

    var isAbsent: Bool {
        self == .null || self == .undefined
    }
}

extension DataConnectEngine {
    static let rowKey = "\u{1}row"
    static let metadataKey = "\u{1}metadata"

    /// A row's `_id`: the SDKs' cache key, the same for the same row in every response.
    ///
    /// The service documents `_id` as "a generated field that is used for caching results in SDKs", derived from
    /// the key columns (`@fdc_generated(from: "DirectedBy.movieId,directedbyId", purpose: ENTITY_ID)`), and gives
    /// no encoding; the SDKs treat it as opaque. Here it is the base64 of the type name and the key values in JSON.
    static func entityID(_ row: RowData, table: DataConnectSchema.Table) -> String {
        var text = Array(table.typeName.utf8) + Array("[".utf8)
        for (index, column) in table.keyColumns.enumerated() {
            if index > 0 { text += Array(",".utf8) }
            switch (row.values[column.field] ?? .null).storage {
            case .string(let string): JSONValue.writeString(string, to: &text)
            case .int64(let integer): text += Array("\(integer)".utf8)
            case .double(let double): text += Array("\(double)".utf8)
            case .blob(let data): text += Array("\"\(data.base64EncodedString())\"".utf8)
            case .null: text += Array("null".utf8)
            }
        }
        text += Array("]".utf8)
        return Data(text).base64EncodedString()
    }

    func attachResolvers() throws {
        let tables = workspace.schema.tables
        if let query = schema.queryType {
            let fields = try query.fields()
            for table in tables {
                if table.isView {
                    fields[table.plural]?.resolve = { _, args, context, info in
                        let state = try ExecutionState.from(context)
                        return try await self.listView(table, args: args, state: state, info: info)
                    }
                    continue
                }
                fields[table.singular]?.resolve = { _, args, context, _ in
                    let state = try ExecutionState.from(context)
                    var query = RowQuery(
                        schema: self.workspace.schema, values: state.values, dialect: state.sql.dialect)
                    let sql = try self.locate(table, args: args, query: &query)
                    return try await self.fetch(sql, table: table, in: state.sql).first.map {
                        self.render($0, table: table)
                    }
                }
                fields[table.plural]?.resolve = { _, args, context, info in
                    let state = try ExecutionState.from(context)
                    var query = RowQuery(
                        schema: self.workspace.schema, values: state.values, dialect: state.sql.dialect)
                    if let grouped = try Aggregates.selection(of: info, table: table) {
                        let sql = try query.aggregate(
                            table, alias: query.alias(), arguments: args, extra: nil, aggregates: grouped.aggregates,
                            groups: grouped.groups)
                        return try await self.fetchGroups(sql, grouped.aggregates, grouped.groups, in: state.sql)
                    }
                    let sql = try query.select(
                        table, alias: query.alias(), arguments: args, distinct: Self.distinctColumns(args, info, table))
                    return try await self.fetch(sql, table: table, in: state.sql).map { self.render($0, table: table) }
                }
            }
            for table in tables {
                if let language = table.searchableColumns.first?.searchLanguage {
                    fields["\(table.plural)_search"]?.resolve = { _, args, context, info in
                        let state = try ExecutionState.from(context)
                        if !args["having"].isAbsent {
                            throw FieldFailure(
                                description: "having filters groups of rows that a list with aggregates makes; a "
                                    + "search answers rows: filter them with where")
                        }
                        guard let text = args["query"].string else { return [[String: any Sendable]]() }
                        let format = args["queryFormat"].string ?? "QUERY"
                        // Parsed on both engines, so that a query that is not valid gets the same error.
                        let search = try FullTextSearch.parse(text, format: format, language: language)
                        var query = RowQuery(
                            schema: self.workspace.schema, values: state.values, dialect: state.sql.dialect)
                        let condition: @Sendable (String) -> SQLFragment
                        let rank: @Sendable (String) -> SQLFragment
                        if state.sql.dialect == .postgres {
                            let native = FullTextSearch.Native(text, format: format, language: language, table: table)
                            condition = { native.condition($0) }
                            rank = { native.relevance($0) }
                        } else {
                            condition = { FullTextSearch.condition(search, table: table, alias: $0) }
                            rank = { FullTextSearch.relevance(search, table: table, alias: $0) }
                        }
                        let threshold = args["relevanceThreshold"].double
                        let matches = { (alias: String) -> SQLFragment in
                            let matched = condition(alias)
                            guard let threshold else { return matched }
                            let relevance = rank(alias)
                            return .joined(
                                [
                                    matched,
                                    SQLFragment(
                                        text: "(\(relevance.text)) >= ?",
                                        arguments: relevance.arguments + [threshold.databaseValue]),
                                ], by: "AND")
                        }
                        let sql = try query.select(
                            table, alias: query.alias(), arguments: args, extra: matches,
                            distinct: Self.distinctColumns(args, info, table),
                            ranking: .init(score: rank, descending: true))
                        return try await self.fetch(sql, table: table, in: state.sql).map {
                            self.render($0, table: table, metadata: "relevance")
                        }
                    }
                }
                for column in table.columns where column.type == .vector && !column.isList {
                    fields["\(table.plural)_\(column.field)_similarity"]?.resolve = { _, args, context, _ in
                        let state = try ExecutionState.from(context)
                        let similarity = try VectorSimilarity(arguments: args, column: column, table: table)
                        var query = RowQuery(
                            schema: self.workspace.schema, values: state.values, dialect: state.sql.dialect)
                        let within = similarity.within.map { limit in
                            { (alias: String) -> SQLFragment in
                                let distance = similarity.distance(column, alias: alias, dialect: state.sql.dialect)
                                return SQLFragment(
                                    text: "(\(distance.text)) < ?",
                                    arguments: distance.arguments + [limit.databaseValue])
                            }
                        }
                        let sql = try query.select(
                            table, alias: query.alias(), arguments: args, extra: within,
                            ranking: .init(
                                score: { similarity.distance(column, alias: $0, dialect: state.sql.dialect) },
                                descending: false))
                        return try await self.fetch(sql, table: table, in: state.sql).map {
                            self.render($0, table: table, metadata: "distance")
                        }
                    }
                }
            }
            fields["_service"]?.resolve = { _, _, _, _ in self.serviceDescription }
            for (name, first) in [("_select", false), ("_selectFirst", true)] {
                fields[name]?.resolve = { _, args, context, info in
                    let state = try ExecutionState.from(context)
                    return try await self.native(.query, args: args, state: state, info: info, first: first)
                }
            }
            query.fields = { fields }
        }
        for table in tables {
            guard let type = schema.getType(name: table.typeName) as? GraphQLObjectType else { continue }
            let fields = try type.fields()
            // Distance and relevance are set by the vector and full-text searches that found the row, else null.
            fields["_metadata"]?.resolve = { source, _, _, _ in
                (source as? [String: any Sendable])?[Self.metadataKey] ?? [String: any Sendable]()
            }
            fields["_id"]?.resolve = { source, _, _, _ in
                guard let row = (source as? [String: any Sendable])?[Self.rowKey] as? RowData else {
                    throw FieldFailure(
                        description: "_id identifies one \(table.typeName) row; a list that selects aggregates "
                            + "answers groups, which have none")
                }
                return Self.entityID(row, table: table)
            }
            // Aggregates are computed by the list that holds the row, under their response keys.
            for (name, field) in fields where Aggregates.parse(name, table: table) != nil {
                field.resolve = { source, _, _, info in
                    guard case .key(let key)? = info.path.elements.last,
                        let row = source as? [String: any Sendable], row[Self.rowKey] == nil
                    else {
                        throw FieldFailure(
                            description: "\(name) is computed over a list of \(table.typeName) (such as "
                                + "\(table.plural) or a relation ending in _on_…), not on one row")
                    }
                    return row[key] ?? nil
                }
            }
            for reference in table.references {
                fields[reference.field]?.resolve = { source, _, context, _ in
                    let state = try ExecutionState.from(context)
                    return try await self.follow(reference, from: source, in: state.sql)
                }
            }
            for relation in table.relations {
                fields[relation.name]?.resolve = { source, args, context, info in
                    let state = try ExecutionState.from(context)
                    return try await self.related(
                        relation, of: table, from: source, args: args, state: state, info: info)
                }
            }
            type.fields = { fields }
        }
        if let mutation = schema.mutationType {
            let fields = try mutation.fields()
            for table in tables where !table.isView {
                attachMutations(table, to: fields)
            }
            // `query { … }` inside a mutation: the root query fields, reading this mutation's writes so far.
            fields["query"]?.resolve = { _, _, _, _ in [String: any Sendable]() }
            fields["_execute"]?.resolve = { _, args, context, info in
                let state = try ExecutionState.from(context)
                return try await self.savepoint(state) {
                    let statement = try self.nativeStatement(.mutation, info: info)
                    do {
                        let parameters = try NativeSQL.parameters(args["params"], values: state.values)
                        return try await statement.run(parameters, in: state.sql).changes
                    } catch let failure as NativeSQL.Failure {
                        throw FieldFailure(description: failure.description)
                    }
                }
            }
            for (name, first) in [("_executeReturning", false), ("_executeReturningFirst", true)] {
                fields[name]?.resolve = { _, args, context, info in
                    let state = try ExecutionState.from(context)
                    return try await self.savepoint(state) {
                        try await self.native(.mutation, args: args, state: state, info: info, first: first)
                    }
                }
            }
            // Run field by field, a mutation's other root fields stand aside (see `run`).
            for field in fields.values {
                guard let resolve = field.resolve else { continue }
                field.resolve = { source, args, context, info in
                    if let state = context as? ExecutionState, state.skips(info) { return nil }
                    return try await resolve(source, args, context, info)
                }
            }
            mutation.fields = { fields }
        }
    }

    /// `Query._service`: the schema this service generated, and the workspace's schema source.
    var serviceDescription: [String: any Sendable] {
        let source = workspace.schemaFiles.map(\.text).joined(separator: "\n")
        return [
            "sdl": DataConnectSDL.make(workspace.schema),
            "schema": source,
            "schemas": [["id": "main", "source": source] as [String: any Sendable]],
            "docs": [[String: any Sendable]](),
        ]
    }

    /// A native SQL field's statement, its refusal turned into the field's error.
    func nativeStatement(_ kind: NativeSQL.Kind, info: GraphQLResolveInfo) throws -> NativeSQL {
        do {
            return try NativeSQL(field: info, kind: kind, dialect: store.dialect)
        } catch let failure as NativeSQL.Failure {
            throw FieldFailure(description: failure.description)
        }
    }

    /// Runs a native SQL field that answers rows: all of them, or the first (`null` when none).
    func native(_ kind: NativeSQL.Kind, args: Map, state: ExecutionState, info: GraphQLResolveInfo, first: Bool)
        async throws -> (any Sendable)?
    {
        let statement = try nativeStatement(kind, info: info)
        do {
            let rows = try await statement.run(
                try NativeSQL.parameters(args["params"], values: state.values), in: state.sql
            ).rows
            return first ? rows.first : rows
        } catch let failure as NativeSQL.Failure {
            throw FieldFailure(description: failure.description)
        }
    }

    /// Reads the groups of an aggregate query: each group's columns and its aggregates by response key.
    func fetchGroups(
        _ sql: SQLFragment, _ aggregates: [Aggregates.Selected], _ groups: [DataConnectSchema.Column],
        in transaction: any SQLTransaction
    ) async throws -> [[String: any Sendable]] {
        try await transaction.rows(sql).map { row in
            var item: [String: any Sendable] = [:]
            for column in groups {
                let value: DatabaseValue = row[column.sqlName] ?? .null
                if let wire = StoredValue.wire(value, as: column.type) { item[column.field] = wire }
            }
            for (index, aggregate) in aggregates.enumerated() {
                let value: DatabaseValue = row["__aggregate\(index)"] ?? .null
                switch aggregate.function {
                case "count":
                    item[aggregate.key] = Int.fromDatabaseValue(value) ?? 0
                case "avg":
                    if let average = Double.fromDatabaseValue(value) { item[aggregate.key] = average }
                default:
                    if let column = aggregate.column, let wire = StoredValue.wire(value, as: column.type) {
                        item[aggregate.key] = wire
                    }
                }
            }
            return item
        }
    }

    /// The rows of a `@view`, as a list field reads a table's.
    func listView(_ table: DataConnectSchema.Table, args: Map, state: ExecutionState, info: GraphQLResolveInfo)
        async throws -> (any Sendable)?
    {
        if let problem = store.viewProblems[table.typeName] {
            throw viewFailure(table, problem)
        }
        var query = RowQuery(schema: workspace.schema, values: state.values, dialect: state.sql.dialect)
        if let grouped = try Aggregates.selection(of: info, table: table) {
            let sql = try query.aggregate(
                table, alias: query.alias(), arguments: args, extra: nil, aggregates: grouped.aggregates,
                groups: grouped.groups)
            do {
                return try await fetchGroups(sql, grouped.aggregates, grouped.groups, in: state.sql)
            } catch let error as SQLFailure {
                throw viewFailure(table, error.message)
            }
        }
        let sql = try query.select(
            table, alias: query.alias(), arguments: args, distinct: Self.distinctColumns(args, info, table))
        return try await fetch(sql, table: table, in: state.sql).map { render($0, table: table) }
    }

    /// A `@view` that SQLite cannot read, with what it said and what to do.
    func viewFailure(_ table: DataConnectSchema.Table, _ message: String) -> FieldFailure {
        if store.dialect == .postgres {
            guard case .named = table.view else {
                return FieldFailure(
                    description: "the SELECT of @view(sql:) on \(table.typeName) does not run on PostgreSQL: \(message)"
                )
            }
            return FieldFailure(
                description: "\(table.typeName) reads the database view \(table.sqlName), which this database does not "
                    + "have (\(message)): create it in PostgreSQL, or give its SELECT as @view(sql:)")
        }
        switch table.view {
        case .sql(let sql)?:
            return FieldFailure(
                description: "the SELECT of @view(sql:) on \(table.typeName) does not run on the emulator's SQLite: "
                    + "\(message). The service runs it on PostgreSQL as written; rewrite it in SQL both understand "
                    + "to read it here (\(sql.prefix(200)))")
        default:
            return FieldFailure(
                description: "\(table.typeName) reads the database view \(table.sqlName), which the emulator's "
                    + "database cannot read (\(message)): @view(name:) names a view made in PostgreSQL; give its "
                    + "SELECT as @view(sql:) to read it here")
        }
    }

    /// Reads rows and maps their columns to field names.
    func fetch(_ sql: SQLFragment, table: DataConnectSchema.Table, in transaction: any SQLTransaction) async throws
        -> [RowData]
    {
        if table.isView {
            if let problem = store.viewProblems[table.typeName] { throw viewFailure(table, problem) }
            do {
                return try await fetchRows(sql, table: table, in: transaction)
            } catch let error as SQLFailure {
                throw viewFailure(table, error.message)
            }
        }
        return try await fetchRows(sql, table: table, in: transaction)
    }

    private func fetchRows(_ sql: SQLFragment, table: DataConnectSchema.Table, in transaction: any SQLTransaction)
        async throws -> [RowData]
    {
        Self.rows(try await transaction.rows(sql), table: table)
    }

    /// Records read by ``RowQuery`` as rows: each column under its field's name.
    static func rows(_ records: [SQLRecord], table: DataConnectSchema.Table) -> [RowData] {
        guard let first = records.first else { return [] }
        // Each column's position, found once for all the rows.
        let positions = table.columns.map { column in (column.field, first.columns.firstIndex(of: column.sqlName)) }
        let rowid = first.columns.firstIndex(of: "__rowid")
        let score = first.columns.firstIndex(of: "__score")
        return records.map { record in
            var values: [String: DatabaseValue] = [:]
            for (field, position) in positions { values[field] = position.map { record.values[$0] } ?? .null }
            return RowData(
                rowid: rowid.map { record.values[$0] } ?? .null, values: values,
                score: score.flatMap { Double.fromDatabaseValue(record.values[$0]) })
        }
    }

    /// A row as the nested dictionaries the default resolvers read, with the raw row kept for relations.
    ///
    /// - Parameters:
    ///   - row: The row.
    ///   - table: Its table.
    ///   - metadata: The `_metadata` field its search score fills (`distance`, `relevance`), if any.
    /// - Returns: The field values by name, the row under ``rowKey`` and the score under ``metadataKey``.
    func render(_ row: RowData, table: DataConnectSchema.Table, metadata: String? = nil) -> [String: any Sendable] {
        var item: [String: any Sendable] = [Self.rowKey: row]
        if let metadata, let score = row.score { item[Self.metadataKey] = [metadata: score] as [String: any Sendable] }
        for column in table.columns {
            if let value = StoredValue.wire(row.values[column.field] ?? .null, as: column.type, isList: column.isList) {
                item[column.field] = value
            }
        }
        return item
    }

    /// The `SELECT … LIMIT 1` for `id`, `id_expr`, `key` or `first`.
    func locate(_ table: DataConnectSchema.Table, args: Map, query: inout RowQuery) throws -> SQLFragment {
        var pairs: [(DataConnectSchema.Column, DatabaseValue)] = []
        if let id = table.column("id"), table.key == ["id"] {
            if !args["id"].isAbsent { pairs.append((id, try StoredValue.storage(args["id"], as: id.type))) }
            if case .string(let expression) = args["id_expr"] {
                pairs.append((id, try query.values.evaluate(expression, as: id.type)))
            }
        }
        let key = args["key"]
        if !key.isAbsent {
            for column in table.keyColumns {
                let value = key.member(column.field)
                if !value.isAbsent {
                    pairs.append((column, try StoredValue.storage(value, as: column.type)))
                } else if case .string(let expression) = key.member(column.field + "_expr") {
                    pairs.append((column, try query.values.evaluate(expression, as: column.type)))
                } else {
                    throw FieldFailure(
                        description:
                            "\(table.typeName)_Key needs \(column.field) (or \(column.field)_expr); the key is "
                            + table.key.joined(separator: ", "))
                }
            }
        }
        let first = args["first"]
        guard !pairs.isEmpty || !first.isAbsent else {
            throw FieldFailure(description: "pass id, key or first to pick one \(table.typeName)")
        }
        let conditions = pairs
        var sql = try query.select(
            table, alias: query.alias(), arguments: first.isAbsent ? [:] : first,
            extra: conditions.isEmpty
                ? nil
                : { alias in
                    .joined(
                        conditions.map { SQLFragment(text: "\(RowQuery.column(alias, $0.0)) = ?", arguments: [$0.1]) },
                        by: "AND")
                })
        sql.text += " LIMIT 1"
        return sql
    }

    /// The target row of a many-to-one reference.
    private func follow(
        _ reference: DataConnectSchema.Reference, from source: any Sendable, in transaction: any SQLTransaction
    ) async throws -> (any Sendable)? {
        guard let parent = (source as? [String: any Sendable])?[Self.rowKey] as? RowData,
            let target = workspace.schema.table(reference.target)
        else { return nil }
        var conditions: [String] = []
        var arguments: [DatabaseValue] = []
        for pair in reference.columns {
            let value = parent.values[pair.local] ?? .null
            if value.isNull { return nil }
            conditions.append("t1.\(DataConnectStore.quote(target.column(pair.target)?.sqlName ?? pair.target)) = ?")
            arguments.append(value)
        }
        let sql = SQLFragment(
            text: "SELECT \(transaction.dialect.rowIdentity("t1", table: target)) AS \"__rowid\", t1.* FROM "
                + "\(DataConnectStore.quote(target.sqlName)) t1 WHERE " + conditions.joined(separator: " AND ")
                + " LIMIT 1",
            arguments: arguments)
        return try await fetch(sql, table: target, in: transaction).first.map { render($0, table: target) }
    }

    /// The rows of a back-reference or many-to-many field, filtered, ordered and paged by its arguments.
    private func related(
        _ relation: DataConnectSchema.Relation, of table: DataConnectSchema.Table, from source: any Sendable,
        args: Map, state: ExecutionState, info: GraphQLResolveInfo
    ) async throws -> (any Sendable)? {
        guard let parent = (source as? [String: any Sendable])?[Self.rowKey] as? RowData,
            let target = workspace.schema.table(relation.resultType)
        else { return nil }
        var query = RowQuery(schema: workspace.schema, values: state.values, dialect: state.sql.dialect)
        switch relation.kind {
        case .backReference(let sourceName, let field, let isSingle):
            guard let reference = workspace.schema.table(sourceName)?.reference(field) else { return nil }
            let values = reference.columns.map { parent.values[$0.target] ?? .null }
            let correlation = { (alias: String) in
                SQLFragment(
                    text: reference.columns.map { pair in
                        "\(alias).\(DataConnectStore.quote(target.column(pair.local)?.sqlName ?? pair.local)) = ?"
                    }.joined(separator: " AND "),
                    arguments: values)
            }
            if isSingle {
                var sql = try query.select(target, alias: query.alias(), arguments: [:], extra: correlation)
                sql.text += " LIMIT 1"
                return try await fetch(sql, table: target, in: state.sql).first.map { render($0, table: target) }
            }
            if let grouped = try Aggregates.selection(of: info, table: target) {
                let sql = try query.aggregate(
                    target, alias: query.alias(), arguments: args, extra: correlation, aggregates: grouped.aggregates,
                    groups: grouped.groups)
                guard target.isView else {
                    return try await fetchGroups(sql, grouped.aggregates, grouped.groups, in: state.sql)
                }
                if let problem = store.viewProblems[target.typeName] { throw viewFailure(target, problem) }
                do {
                    return try await fetchGroups(sql, grouped.aggregates, grouped.groups, in: state.sql)
                } catch let error as SQLFailure {
                    throw viewFailure(target, error.message)
                }
            }
            let sql = try query.select(
                target, alias: query.alias(), arguments: args, extra: correlation,
                distinct: Self.distinctColumns(args, info, target))
            return try await fetch(sql, table: target, in: state.sql).map { render($0, table: target) }
        case .manyToMany(let joinName, let near, let far, _):
            // The arguments filter, order and page the join table's rows; each leads to one far row.
            guard let join = workspace.schema.table(joinName), let nearReference = join.reference(near),
                let farReference = join.reference(far)
            else { return nil }
            let values = nearReference.columns.map { parent.values[$0.target] ?? .null }
            let correlation = { (alias: String) in
                SQLFragment(
                    text: nearReference.columns.map { pair in
                        "\(alias).\(DataConnectStore.quote(join.column(pair.local)?.sqlName ?? pair.local)) = ?"
                    }.joined(separator: " AND "),
                    arguments: values)
            }
            if let grouped = try Aggregates.selection(of: info, table: target) {
                return try await aggregateFar(
                    grouped, target: target, join: join, near: nearReference, far: farReference, values: values,
                    args: args, query: &query, relation: relation.name, in: state.sql)
            }
            let sql = try query.select(join, alias: query.alias(), arguments: args, extra: correlation)
            var rows: [[String: any Sendable]] = []
            for joinRow in try await fetch(sql, table: join, in: state.sql) {
                let rendered = render(joinRow, table: join)
                if let row = try await follow(farReference, from: rendered, in: state.sql) as? [String: any Sendable] {
                    rows.append(row)
                }
            }
            return args["distinct"].bool == true ? Self.distinct(rows, info: info) : rows
        }
    }

    /// Aggregates over the far rows of a many-to-many field (`actors_via_MovieActor { _count }`): the rows of
    /// `target` that a join row links to this parent, the join rows picked by `where` as for the list itself;
    /// `limit` and `offset` page the groups, as they do on any list that selects aggregates.
    private func aggregateFar(
        _ grouped: (aggregates: [Aggregates.Selected], groups: [DataConnectSchema.Column]),
        target: DataConnectSchema.Table, join: DataConnectSchema.Table, near: DataConnectSchema.Reference,
        far: DataConnectSchema.Reference, values: [DatabaseValue], args: Map, query: inout RowQuery,
        relation: String, in transaction: any SQLTransaction
    ) async throws -> (any Sendable)? {
        // `orderBy` and `having` name the join table's fields, which the groups of far rows do not have.
        for name in ["orderBy", "having"] where !args[name].isAbsent {
            throw FieldFailure(
                description: "\(relation) orders and filters its \(join.typeName) rows; with aggregates selected, "
                    + "\(name) has no \(join.typeName) row to apply to: leave it out, or aggregate the "
                    + "\(join.plural) list instead")
        }
        let joinAlias = query.alias()
        let joinFilter = try query.filter(args["where"], table: join, alias: joinAlias)
        let column = { (table: DataConnectSchema.Table, field: String) in
            DataConnectStore.quote(table.column(field)?.sqlName ?? field)
        }
        let links = { (alias: String) -> SQLFragment in
            let onFar = far.columns.map {
                "\(joinAlias).\(column(join, $0.local)) = \(alias).\(column(target, $0.target))"
            }
            let onNear = near.columns.map { "\(joinAlias).\(column(join, $0.local)) = ?" }
            return SQLFragment(
                text: "EXISTS (SELECT 1 FROM \(DataConnectStore.quote(join.sqlName)) \(joinAlias) WHERE "
                    + (onFar + onNear).joined(separator: " AND ") + " AND (\(joinFilter.text)))",
                arguments: values + joinFilter.arguments)
        }
        var paging: OrderedDictionary<String, Map> = [:]
        for name in ["limit", "offset"] where !args[name].isAbsent { paging[name] = args[name] }
        let sql = try query.aggregate(
            target, alias: query.alias(), arguments: .dictionary(paging), extra: links,
            aggregates: grouped.aggregates, groups: grouped.groups)
        return try await fetchGroups(sql, grouped.aggregates, grouped.groups, in: transaction)
    }

    /// The selected columns `distinct: true` compares, or none when it is not asked for.
    static func distinctColumns(_ args: Map, _ info: GraphQLResolveInfo, _ table: DataConnectSchema.Table)
        -> [DataConnectSchema.Column]
    {
        distinctColumns(
            args,
            selected: info.fieldASTs.first?.selectionSet?.selections.compactMap { ($0 as? Field)?.name.value } ?? [],
            table)
    }

    /// The columns `distinct: true` compares: those selected, or all when none is.
    static func distinctColumns(_ args: Map, selected: [String], _ table: DataConnectSchema.Table)
        -> [DataConnectSchema.Column]
    {
        guard args["distinct"].bool == true else { return [] }
        let columns = selected.compactMap(table.column)
        return columns.isEmpty ? table.columns : columns
    }

    /// Rows that differ in the fields the query selects, first of each kept.
    static func distinct(_ rows: [[String: any Sendable]], info: GraphQLResolveInfo) -> [[String: any Sendable]] {
        let selected = info.fieldASTs.first?.selectionSet?.selections.compactMap { ($0 as? Field)?.name.value } ?? []
        var seen = Set<String>()
        return rows.filter { row in
            let signature = selected.map { name in row[name].map { "\($0)" } ?? "null" }.joined(separator: "\u{1F}")
            return seen.insert(signature).inserted
        }
    }
}
