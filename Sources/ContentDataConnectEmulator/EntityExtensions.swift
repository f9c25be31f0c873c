internal import ContentDataConnect
internal import ContentJSON
internal import GRDB
internal import GraphQL
internal import OrderedCollections

/// One entry of a response's `extensions.dataConnect`: where an entity, or a list of them, is in `data`, its `_id`s,
/// and what the operation did to it.
///
/// The service's `GraphqlResponseExtensions` (its `.proto`) holds `{ path, entity_id | entity_ids, action, max_age }`
/// per path; the SDKs' caches read `path` and the ids (the web SDK's `parseEntityIds`), keying each object by its
/// `_id`. Here: `GET` for an object of a table read by a query, `LIST` for a list of them, and `CREATE`, `UPSERT`,
/// `UPDATE`, `DELETE` for the key a single-entity mutation answers (`LIST`-shaped ids for `_insertMany` and
/// `_upsertMany`). `max_age` is never set, as the `.proto` says of the service. Which paths the service itself
/// reports is not written down anywhere this project has found; these are every path an id can be known for.
struct EntityRecord: Sendable {
    enum IDs: Sendable {
        case one(String)
        case many([String])
    }

    /// The path under `data`: response keys (aliases) and list indices.
    var path: [JSONValue]
    var ids: IDs
    /// The `Action` enum's name.
    var action: String

    var json: JSONValue {
        var object = JSONObject()
        object["path"] = .array(path)
        switch ids {
        case .one(let id): object["entityId"] = .string(id)
        case .many(let ids): object["entityIds"] = .array(ids.map(JSONValue.string))
        }
        object["action"] = .string(action)
        return .object(object)
    }

    /// `extensions` for a response whose final `data` is `data`, or `nil` when no entity is in it.
    ///
    /// A record whose path no longer leads to what it described (a root field nulled by a failed `@check`, a field
    /// `@redact` removed) is dropped; the rest are ordered by path, so that the same data always gives the same
    /// bytes (and the same `data_etag`).
    static func extensions(_ records: [EntityRecord], data: JSONValue) -> JSONValue? {
        let kept = records.filter { $0.matches(data) }.sorted { Self.precedes($0.path, $1.path) }
        guard !kept.isEmpty else { return nil }
        return .object(["dataConnect": .array(kept.map(\.json))])
    }

    private func matches(_ data: JSONValue) -> Bool {
        var current = data
        for element in path {
            switch (element, current) {
            case (.string(let key), .object(let object)):
                guard let next = object[key] else { return false }
                current = next
            case (.number(let number), .array(let items)):
                guard let index = number.int64Value.flatMap({ Int(exactly: $0) }), items.indices.contains(index)
                else { return false }
                current = items[index]
            default:
                return false
            }
        }
        switch (ids, current) {
        case (.one, .object): return true
        case (.many(let ids), .array(let items)): return ids.count == items.count
        default: return false
        }
    }

    private static func precedes(_ left: [JSONValue], _ right: [JSONValue]) -> Bool {
        let index = { (element: JSONValue) -> Int64? in
            if case .number(let number) = element { return number.int64Value }
            return nil
        }
        for (a, b) in zip(left, right) where a != b {
            switch (index(a), index(b)) {
            case (let x?, let y?): return x < y
            case (nil, _?): return true
            case (_?, nil): return false
            case (nil, nil): return (a.stringValue ?? "") < (b.stringValue ?? "")
            }
        }
        return left.count < right.count
    }
}

extension ExecutionState {
    /// Notes what a resolver of a table-typed field answered, at its path.
    func recordEntities(_ value: (any Sendable)?, table: DataConnectSchema.Table, path: IndexPath) {
        let ids: EntityRecord.IDs
        let action: String
        if let rows = value as? [[String: any Sendable]] {
            let found = rows.compactMap { ($0[DataConnectEngine.rowKey] as? RowData) }
            // A list of groups (aggregates) holds no entities.
            guard found.count == rows.count else { return }
            ids = .many(found.map { DataConnectEngine.entityID($0, table: table) })
            action = "LIST"
        } else if let row = (value as? [String: any Sendable])?[DataConnectEngine.rowKey] as? RowData {
            ids = .one(DataConnectEngine.entityID(row, table: table))
            action = "GET"
        } else {
            return
        }
        record(EntityRecord(path: path.elements.map(Self.json), ids: ids, action: action))
    }

    /// Notes the key a single-entity mutation answered, as the `_id` of the row it names.
    func recordKeys(_ value: (any Sendable)?, table: DataConnectSchema.Table, action: String, path: IndexPath) {
        let ids: EntityRecord.IDs
        if let keys = value as? [(any Sendable)?] {
            let found = keys.compactMap { ($0 as? Map).flatMap { Self.entityID(key: $0, table: table) } }
            guard found.count == keys.count else { return }
            ids = .many(found)
        } else if let key = value as? Map, let id = Self.entityID(key: key, table: table) {
            ids = .one(id)
        } else {
            return
        }
        record(EntityRecord(path: path.elements.map(Self.json), ids: ids, action: action))
    }

    /// The `_id` of the row a key output names: its values stored as a query would read them.
    static func entityID(key: Map, table: DataConnectSchema.Table) -> String? {
        var values: [String: DatabaseValue] = [:]
        for column in table.keyColumns {
            guard let stored = try? StoredValue.storage(key.member(column.field), as: column.type) else { return nil }
            values[column.field] = stored
        }
        return DataConnectEngine.entityID(RowData(rowid: .null, values: values, score: nil), table: table)
    }

    private static func json(_ element: IndexPathValue) -> JSONValue {
        switch element {
        case .index(let index): .number(JSONNumber(index))
        case .key(let key): .string(key)
        }
    }
}

extension DataConnectEngine {
    /// Wraps every resolver that answers rows of a table, and each mutation that answers keys, so that what they
    /// answer is noted for `extensions.dataConnect`.
    func attachEntityRecording() throws {
        let bySingular = KeyedWrite.tablesBySingular(workspace.schema)
        let byType = Dictionary(bySingular.values.map { ($0.typeName, $0) }, uniquingKeysWith: { first, _ in first })
        let mutation = schema.mutationType?.name
        for case let type as GraphQLObjectType in schema.typeMap.values {
            for (name, field) in try type.fields() {
                guard let resolve = field.resolve else { continue }
                if let named = getNamedType(type: field.type), let table = byType[named.name] {
                    field.resolve = { source, args, context, info in
                        let value = try await resolve(source, args, context, info)
                        (context as? ExecutionState)?.recordEntities(value, table: table, path: info.path)
                        return value
                    }
                } else if type.name == mutation, let write = KeyedWrite(field: name, tables: bySingular) {
                    field.resolve = { source, args, context, info in
                        let value = try await resolve(source, args, context, info)
                        (context as? ExecutionState)?.recordKeys(
                            value, table: write.table, action: write.action, path: info.path)
                        return value
                    }
                }
            }
        }
    }

}

/// A mutation root field that writes rows and answers their keys: `movie_insert` is `CREATE` on Movie.
struct KeyedWrite {
    var table: DataConnectSchema.Table
    /// The `Action` enum's name.
    var action: String
    /// `_insertMany` and `_upsertMany`, which answer a list of keys.
    var isMany: Bool

    private static let verbs = [
        ("_insertMany", "CREATE", true), ("_upsertMany", "UPSERT", true), ("_insert", "CREATE", false),
        ("_upsert", "UPSERT", false), ("_update", "UPDATE", false), ("_delete", "DELETE", false),
    ]

    /// The write a field name makes, or `nil`.
    ///
    /// - Parameters:
    ///   - field: The root field's name.
    ///   - tables: The tables by singular name (``tablesBySingular(_:)``).
    init?(field: String, tables: [String: DataConnectSchema.Table]) {
        for (suffix, action, isMany) in Self.verbs where field.hasSuffix(suffix) {
            guard let table = tables[String(field.dropLast(suffix.count))] else { continue }
            self.init(table: table, action: action, isMany: isMany)
            return
        }
        return nil
    }

    private init(table: DataConnectSchema.Table, action: String, isMany: Bool) {
        self.table = table
        self.action = action
        self.isMany = isMany
    }

    /// The tables that can be written, by singular name.
    static func tablesBySingular(_ schema: DataConnectSchema) -> [String: DataConnectSchema.Table] {
        Dictionary(
            schema.tables.filter { !$0.isView }.map { ($0.singular, $0) }, uniquingKeysWith: { first, _ in first })
    }
}
