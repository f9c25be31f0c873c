internal import ContentDataConnect
internal import ContentGraphQL
internal import ContentJSON
internal import Foundation
internal import GRDB
internal import GraphQL
internal import OrderedCollections

extension DataConnectEngine {
    typealias Assignment = (column: DataConnectSchema.Column, value: DatabaseValue)

    func attachMutations(_ table: DataConnectSchema.Table, to fields: GraphQLFieldMap) {
        let name = table.singular
        fields["\(name)_insert"]?.resolve = { _, args, context, _ in
            let state = try ExecutionState.from(context)
            return try await self.savepoint(state) {
                try await self.insert(table, data: args["data"], state: state, upsert: false)
            }
        }
        fields["\(name)_insertMany"]?.resolve = { _, args, context, _ in
            let state = try ExecutionState.from(context)
            return try await self.savepoint(state) {
                var keys: [Map] = []
                for data in args["data"].array ?? [] {
                    keys.append(try await self.insert(table, data: data, state: state, upsert: false))
                }
                return keys as [(any Sendable)?]
            }
        }
        fields["\(name)_upsert"]?.resolve = { _, args, context, _ in
            let state = try ExecutionState.from(context)
            return try await self.savepoint(state) {
                try await self.insert(table, data: args["data"], state: state, upsert: true)
            }
        }
        fields["\(name)_upsertMany"]?.resolve = { _, args, context, _ in
            let state = try ExecutionState.from(context)
            return try await self.savepoint(state) {
                var keys: [Map] = []
                for data in args["data"].array ?? [] {
                    keys.append(try await self.insert(table, data: data, state: state, upsert: true))
                }
                return keys as [(any Sendable)?]
            }
        }
        fields["\(name)_update"]?.resolve = { _, args, context, _ in
            let state = try ExecutionState.from(context)
            return try await self.savepoint(state) {
                guard let row = try await self.locateRow(table, args: args, state: state) else { return nil }
                let assignments = try self.assignments(table, data: args["data"], state: state, isInsert: false)
                let found = Self.keyCondition(table, row.values)
                try await self.update(
                    table, assignments: assignments, updates: FieldUpdate.all(in: args["data"], table: table),
                    state: state, rowCondition: found.text, found.arguments)
                // The key it has now: the data may have set a key field.
                var values = row.values
                for assignment in assignments where table.key.contains(assignment.column.field) {
                    values[assignment.column.field] = assignment.value
                }
                return StoredValue.keyOutput(values, table: table)
            }
        }
        fields["\(name)_updateMany"]?.resolve = { _, args, context, _ in
            let state = try ExecutionState.from(context)
            return try await self.savepoint(state) {
                let condition = try self.manyCondition(table, args: args, state: state, verb: "updateMany")
                let assignments = try self.assignments(table, data: args["data"], state: state, isInsert: false)
                return
                    (try await self.update(
                        table, assignments: assignments, updates: FieldUpdate.all(in: args["data"], table: table),
                        state: state, rowCondition: condition.text, condition.arguments))
            }
        }
        fields["\(name)_delete"]?.resolve = { _, args, context, _ in
            let state = try ExecutionState.from(context)
            return try await self.savepoint(state) {
                guard let row = try await self.locateRow(table, args: args, state: state) else { return nil }
                let found = Self.keyCondition(table, row.values)
                try await self.write(table) {
                    try await state.sql.execute(
                        SQLFragment(
                            text: "DELETE FROM \(DataConnectStore.quote(table.sqlName)) WHERE \(found.text)",
                            arguments: found.arguments))
                }
                return StoredValue.keyOutput(row.values, table: table)
            }
        }
        fields["\(name)_deleteMany"]?.resolve = { _, args, context, _ in
            let state = try ExecutionState.from(context)
            return try await self.savepoint(state) {
                let condition = try self.manyCondition(table, args: args, state: state, verb: "deleteMany")
                return try await self.write(table) {
                    try await state.sql.execute(
                        SQLFragment(
                            text: "DELETE FROM \(DataConnectStore.quote(table.sqlName)) WHERE \(condition.text)",
                            arguments: condition.arguments))
                }
            }
        }
    }

    /// The condition that finds a row again by its key: a row's identity does not outlive the statement that read
    /// it on PostgreSQL, and a concurrent operation may move the row meanwhile.
    static func keyCondition(_ table: DataConnectSchema.Table, _ values: [String: DatabaseValue]) -> SQLFragment {
        SQLFragment(
            text: table.keyColumns.map { "\(DataConnectStore.quote($0.sqlName)) = ?" }.joined(separator: " AND "),
            arguments: table.keyColumns.map { values[$0.field] ?? .null })
    }

    /// Runs one root field so that it changes everything or nothing: a failed field leaves no partial writes.
    ///
    /// An operation of one root field needs no savepoint of its own: its transaction is that field's (and on
    /// PostgreSQL each savepoint is two more round trips).
    func savepoint(_ state: ExecutionState, _ body: @Sendable () async throws -> (any Sendable)?)
        async throws -> (any Sendable)?
    {
        guard state.isolatesRootFields else { return try await body() }
        let transaction = state.sql
        try await transaction.execute(SQLFragment(text: "SAVEPOINT field"))
        do {
            let result = try await body()
            try await transaction.execute(SQLFragment(text: "RELEASE field"))
            return result
        } catch {
            try await transaction.execute(SQLFragment(text: "ROLLBACK TO field"))
            try await transaction.execute(SQLFragment(text: "RELEASE field"))
            throw error
        }
    }

    /// Runs a write, turning constraint failures into messages about the schema rather than SQL.
    @discardableResult
    func write<T: Sendable>(_ table: DataConnectSchema.Table, _ body: () async throws -> T) async throws -> T {
        do {
            return try await body()
        } catch let failure as SQLFailure {
            let fields = failure.columns.map { sqlName in
                table.columns.first { $0.sqlName == sqlName }?.field ?? sqlName
            }
            let named = fields.isEmpty ? "key" : fields.joined(separator: ", ")
            switch failure.kind {
            case .unique:
                throw FieldFailure(description: "a \(table.typeName) with the same \(named) already exists")
            case .foreignKey:
                throw FieldFailure(
                    description: "\(table.typeName) refers to a row that does not exist (or is still referred to)")
            case .notNull:
                throw FieldFailure(description: "\(table.typeName): \(named) must not be null")
            case .readOnly, .other:
                throw FieldFailure(description: "\(table.typeName): \(failure.message)")
            }
        }
    }

    /// Inserts one row (or updates it on a key conflict, for upsert) and returns its key.
    func insert(_ table: DataConnectSchema.Table, data: Map, state: ExecutionState, upsert: Bool) async throws -> Map {
        let assignments = try self.assignments(table, data: data, state: state, isInsert: true)
        // The columns the input names (not those defaults filled): an upsert that finds the row updates only these.
        var provided = Set<String>()
        // Coerced input objects list every field; those the input left out are `undefined`.
        for (key, value) in data.dictionary ?? [:] where value != .undefined {
            var field = key
            for suffix in ["_expr", "_date", "_time"] where key.hasSuffix(suffix) {
                if table.column(String(key.dropLast(suffix.count))) != nil {
                    field = String(key.dropLast(suffix.count))
                }
            }
            if let reference = table.reference(field) {
                provided.formUnion(reference.columns.map(\.local))
            } else {
                provided.insert(field)
            }
        }
        let dialect = state.sql.dialect
        let names = assignments.map { DataConnectStore.quote($0.column.sqlName) }
        var sql =
            assignments.isEmpty
            ? "INSERT INTO \(DataConnectStore.quote(table.sqlName)) DEFAULT VALUES"
            : "INSERT INTO \(DataConnectStore.quote(table.sqlName)) (\(names.joined(separator: ", "))) VALUES ("
                + assignments.map { dialect.placeholder(for: $0.column) }.joined(separator: ", ") + ")"
        if upsert {
            let keyNames = table.keyColumns.map { DataConnectStore.quote($0.sqlName) }.joined(separator: ", ")
            let updates = assignments.filter { assignment in
                !table.key.contains(assignment.column.field) && provided.contains(assignment.column.field)
            }
            sql +=
                updates.isEmpty
                ? " ON CONFLICT (\(keyNames)) DO NOTHING"
                : " ON CONFLICT (\(keyNames)) DO UPDATE SET "
                    + updates.map {
                        "\(DataConnectStore.quote($0.column.sqlName)) = excluded.\(DataConnectStore.quote($0.column.sqlName))"
                    }
                    .joined(separator: ", ")
        }
        var keyRow: [String: DatabaseValue] = [:]
        for assignment in assignments { keyRow[assignment.column.field] = assignment.value }
        let keyGiven = table.keyColumns.allSatisfy { !(keyRow[$0.field] ?? .null).isNull }
        if !keyGiven {
            // A key the database makes (a serial column, or a default of its own): read back as the row is written.
            sql += " RETURNING " + table.keyColumns.map { DataConnectStore.quote($0.sqlName) }.joined(separator: ", ")
        }
        let statement = SQLFragment(text: sql, arguments: assignments.map(\.value))
        let returned = try await write(table) { try await state.sql.rows(statement) }
        let key: Map
        if keyGiven {
            key = StoredValue.keyOutput(keyRow, table: table)
        } else {
            guard let row = returned.first else { return .null }
            var values: [String: DatabaseValue] = [:]
            for column in table.keyColumns { values[column.field] = row[column.sqlName] ?? .null }
            key = StoredValue.keyOutput(values, table: table)
        }
        try await insertNested(in: table, data: data, key: key, state: state)
        return key
    }

    /// The lists of rows an insert's `data` nests under its back references (`reviews_on_movie: [...]`), each with
    /// the table it goes to and the reference there: an insert without any is one statement.
    func nestedInserts(in table: DataConnectSchema.Table, data: Map) -> [(
        source: DataConnectSchema.Table, field: String, reference: DataConnectSchema.Reference, children: [Map]
    )] {
        table.relations.compactMap { relation in
            guard case .backReference(let sourceName, let field, isSingle: false) = relation.kind,
                let children = data.member(relation.name).array, !children.isEmpty,
                let source = workspace.schema.table(sourceName), let reference = source.reference(field)
            else { return nil }
            return (source, field, reference, children)
        }
    }

    /// The rows a `T_Data` nests under its back-references (`reviews_on_movie: [Review_Data!]`), inserted with
    /// their reference set to the row just inserted.
    private func insertNested(in table: DataConnectSchema.Table, data: Map, key: Map, state: ExecutionState)
        async throws
    {
        for (source, field, reference, children) in nestedInserts(in: table, data: data) {
            for child in children {
                guard var members = child.dictionary else { continue }
                // The reference is this row, whatever the nested input says about it.
                for pair in reference.columns {
                    members[pair.local] = nil
                    members[pair.local + "_expr"] = nil
                }
                members[field] = key
                _ = try await insert(source, data: .dictionary(members), state: state, upsert: false)
            }
        }
    }

    /// `UPDATE … SET … WHERE …`; returns how many rows changed.
    @discardableResult
    func update(
        _ table: DataConnectSchema.Table, assignments: [Assignment], updates: [FieldUpdate] = [],
        state: ExecutionState, rowCondition: String, _ arguments: [DatabaseValue]
    ) async throws -> Int {
        if !updates.isEmpty {
            return try await update(
                table, assignments: assignments, updates: updates, state: state, rowCondition, arguments)
        }
        guard !assignments.isEmpty else {
            let counted = try await state.sql.rows(
                SQLFragment(
                    text: "SELECT COUNT(*) AS \"count\" FROM \(DataConnectStore.quote(table.sqlName)) WHERE "
                        + rowCondition,
                    arguments: arguments))
            return counted.first?["count"].flatMap { Int.fromDatabaseValue($0) } ?? 0
        }
        let dialect = state.sql.dialect
        let sets = assignments.map {
            "\(DataConnectStore.quote($0.column.sqlName)) = \(dialect.placeholder(for: $0.column))"
        }
        .joined(separator: ", ")
        let statement = SQLFragment(
            text: "UPDATE \(DataConnectStore.quote(table.sqlName)) SET \(sets) WHERE \(rowCondition)",
            arguments: assignments.map(\.value) + arguments)
        return try await write(table) { try await state.sql.execute(statement) }
    }

    /// An update with `_update` operations: each matched row is read, changed and written back by its key.
    private func update(
        _ table: DataConnectSchema.Table, assignments: [Assignment], updates: [FieldUpdate], state: ExecutionState,
        _ rowCondition: String, _ arguments: [DatabaseValue]
    ) async throws -> Int {
        let keys = table.keyColumns
        let columns = (keys.map(\.sqlName) + updates.map(\.column.sqlName)).map(DataConnectStore.quote)
            .joined(separator: ", ")
        // Each row as its key and the current values of the updated columns.
        let rows = try await state.sql.rows(
            SQLFragment(
                text: "SELECT \(columns) FROM \(DataConnectStore.quote(table.sqlName)) WHERE \(rowCondition)",
                arguments: arguments))
        for row in rows {
            var changes = assignments
            for (offset, update) in updates.enumerated() {
                do {
                    let current = row.values[keys.count + offset]
                    changes.append((update.column, try update.apply(to: current, values: state.values)))
                } catch let failure as FieldUpdate.Failure {
                    throw FieldFailure(description: failure.description)
                }
            }
            var key: [String: DatabaseValue] = [:]
            for (offset, column) in keys.enumerated() { key[column.field] = row.values[offset] }
            let found = Self.keyCondition(table, key)
            try await update(table, assignments: changes, state: state, rowCondition: found.text, found.arguments)
        }
        return rows.count
    }

    /// The row `id`, `key` or `first` picks, or `nil`.
    func locateRow(_ table: DataConnectSchema.Table, args: Map, state: ExecutionState) async throws -> RowData? {
        var query = RowQuery(schema: workspace.schema, values: state.values, dialect: state.sql.dialect)
        let sql = try locate(table, args: args, query: &query)
        return try await fetch(sql, table: table, in: state.sql).first
    }

    /// The condition of `updateMany`/`deleteMany`, which must say `where` or `all: true`.
    func manyCondition(_ table: DataConnectSchema.Table, args: Map, state: ExecutionState, verb: String) throws
        -> SQLFragment
    {
        if args["where"].isAbsent {
            guard args["all"].bool == true else {
                throw FieldFailure(
                    description: "\(table.singular)_\(verb) needs where, or all: true to change every row")
            }
            return .always
        }
        var query = RowQuery(schema: workspace.schema, values: state.values, dialect: state.sql.dialect)
        let alias = query.alias()
        let condition = try query.filter(args["where"], table: table, alias: alias)
        let dialect = state.sql.dialect
        let target = DataConnectStore.quote(table.sqlName)
        return SQLFragment(
            text: "\(dialect.rowIdentity(target, table: table)) IN (SELECT \(dialect.rowIdentity(alias, table: table)) "
                + "FROM \(target) \(alias) WHERE " + condition.text + ")",
            arguments: condition.arguments)
    }

    /// The columns a `T_Data` input sets; on insert, defaults fill the rest and required columns are checked.
    func assignments(_ table: DataConnectSchema.Table, data: Map, state: ExecutionState, isInsert: Bool) throws
        -> [Assignment]
    {
        var values: OrderedDictionary<String, DatabaseValue> = [:]
        let values0 = state.values
        for (key, value) in data.dictionary ?? [:] {
            if key == "_empty" || value == .undefined { continue }
            if key.hasSuffix("_update"), table.column(String(key.dropLast(7))) != nil, table.column(key) == nil {
                // Read by `FieldUpdate`, against each row's current value.
                guard !isInsert || value.isAbsent else {
                    throw FieldFailure(
                        description: "\(key) changes a value a row already has; an insert gives "
                            + "\(key.dropLast(7)) its value instead")
                }
                continue
            }
            if let relation = table.relations.first(where: { $0.name == key }),
                case .backReference(_, _, isSingle: false) = relation.kind
            {
                // Inserted after the row itself, by `insertNested`.
                guard isInsert || value.isAbsent else {
                    throw FieldFailure(
                        description: "\(key) inserts rows with a new \(table.typeName); an update cannot nest them")
                }
                continue
            }
            if let column = table.column(key) {
                if let size = column.size, case .array(let elements) = value {
                    // A `[Vector]` column's size is that of each of its vectors.
                    for case .array(let numbers) in column.isList ? elements : [value] where numbers.count != size {
                        throw FieldFailure(
                            description:
                                "\(table.typeName).\(key) holds \(column.isList ? "Vectors" : "a Vector") of \(size) "
                                + "numbers (@col(size: \(size))); this one has \(numbers.count)")
                    }
                }
                values[key] = try StoredValue.storage(value, as: column.type, isList: column.isList)
            } else if key.hasSuffix("_expr"), let column = table.column(String(key.dropLast(5))) {
                guard case .string(let expression) = value else { continue }
                values[column.field] = try values0.evaluate(expression, as: column.type)
            } else if key.hasSuffix("_date"), let column = table.column(String(key.dropLast(5))) {
                values[column.field] = value.isAbsent ? .null : try values0.relativeDate(value).databaseValue
            } else if key.hasSuffix("_time"), let column = table.column(String(key.dropLast(5))) {
                values[column.field] =
                    value.isAbsent ? .null : try values0.relativeTimestamp(value).databaseValue
            } else if let reference = table.reference(key) {
                guard let target = workspace.schema.table(reference.target) else { continue }
                for pair in reference.columns {
                    guard let targetColumn = target.column(pair.target) else { continue }
                    if value.isAbsent {
                        values[pair.local] = .null
                    } else if !value.member(pair.target).isAbsent {
                        values[pair.local] = try StoredValue.storage(value.member(pair.target), as: targetColumn.type)
                    } else if case .string(let expression) = value.member(pair.target + "_expr") {
                        values[pair.local] = try values0.evaluate(expression, as: targetColumn.type)
                    } else {
                        throw FieldFailure(description: "\(reference.target)_Key for \(key) needs \(pair.target)")
                    }
                }
            } else {
                throw FieldFailure(description: "\(table.typeName)_Data has no field \(key)")
            }
        }
        if isInsert {
            for column in table.columns where values[column.field] == nil {
                switch column.defaultValue {
                case .value(let constant)?:
                    values[column.field] = try StoredValue.storage(
                        GraphQLJSON.map(constant), as: column.type, isList: column.isList)
                case .expression(let expression)?:
                    values[column.field] = try values0.evaluate(expression, as: column.type)
                case .sql(let sql)?:
                    do {
                        values[column.field] = try SQLDefault.evaluate(sql, as: column.type, values: values0)
                    } catch let unsupported as SQLDefault.Unsupported {
                        throw FieldFailure(description: "\(table.typeName).\(column.field): \(unsupported)")
                    }
                case nil:
                    if column.isRequired {
                        throw FieldFailure(
                            description:
                                "\(table.typeName)_Data needs \(column.field): it is required and has no default")
                    }
                }
            }
        }
        for (field, value) in values where value.isNull {
            if let column = table.column(field), column.isRequired {
                throw FieldFailure(description: "\(table.typeName).\(field) is required; it cannot be set to null")
            }
        }
        return values.compactMap { field, value in table.column(field).map { ($0, value) } }
    }
}
