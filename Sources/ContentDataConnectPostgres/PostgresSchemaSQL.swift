public import ContentDataConnect
internal import ContentJSON
internal import Foundation

/// The DDL of a Data Connect schema in PostgreSQL, as the service lays it out.
///
/// Types follow the `@col` reference in the service's prelude: `UUID` is `uuid`, `String` `text`, `Int` `integer`,
/// `Int64` `bigint`, `Float` `double precision`, `Boolean` `boolean`, `Date` `date`, `Timestamp` `timestamptz`, `Any`
/// `jsonb`, `Vector` pgvector's `vector`, and a list the array of its element type. Tables live in `public` under
/// their snake_case names (the prelude's example: `CREATE TABLE "public"."post"`). The prelude does not say how an
/// enum is stored; it is its value's name in `text` here, as it is on the wire.
public enum PostgresSchemaSQL {
    /// Every statement that makes the schema's tables, indexes and foreign keys in an empty database, in order.
    public static func statements(_ schema: DataConnectSchema) -> [String] {
        let tables = schema.tables.filter { !$0.isView }
        return tables.map { createTable($0, in: schema) } + tables.flatMap(indexes)
            + tables.flatMap { foreignKeys($0, in: schema) }
    }

    /// The whole script, as `--print-schema-sql` shows it: the tables, then each `@view(sql:)` as its SELECT is written.
    public static func script(_ schema: DataConnectSchema) -> String {
        let views = schema.tables.compactMap { table in
            table.viewSelect.map { "CREATE VIEW \(qualified(table.sqlName)) AS\n\($0)" }
        }
        return (statements(schema) + views).map { $0 + ";\n" }.joined(separator: "\n")
    }

    /// An identifier in double quotes, any quote in it doubled.
    public static func quote(_ identifier: String) -> String {
        "\"" + identifier.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }

    static func qualified(_ table: String) -> String { "\"public\".\(quote(table))" }

    /// The column type as DDL writes it.
    public static func type(_ column: DataConnectSchema.Column) -> String {
        let element = names(column.type)
        let written = column.type == .vector ? column.size.map { "vector(\($0))" } ?? "vector" : element.written
        return column.isList ? written + "[]" : written
    }

    /// The type as the catalog names it (`information_schema.columns.udt_name`), to compare an existing table.
    public static func catalogType(_ column: DataConnectSchema.Column) -> String {
        (column.isList ? "_" : "") + names(column.type).catalog
    }

    /// A scalar's PostgreSQL type as DDL writes it and as the catalog names it.
    private static func names(_ type: ScalarType) -> (written: String, catalog: String) {
        switch type {
        case .uuid: return ("uuid", "uuid")
        case .string, .enumeration: return ("text", "text")
        case .int: return ("integer", "int4")
        case .int64: return ("bigint", "int8")
        case .float: return ("double precision", "float8")
        case .boolean: return ("boolean", "bool")
        case .date: return ("date", "date")
        case .timestamp: return ("timestamptz", "timestamptz")
        case .any: return ("jsonb", "jsonb")
        case .vector: return ("vector", "vector")
        }
    }

    /// `"title" text NOT NULL DEFAULT …`.
    public static func columnDefinition(_ column: DataConnectSchema.Column) -> String {
        var line = "\(quote(column.sqlName)) \(type(column))"
        if column.isRequired { line += " NOT NULL" }
        if let value = defaultSQL(column) { line += " DEFAULT \(value)" }
        return line
    }

    static func createTable(_ table: DataConnectSchema.Table, in schema: DataConnectSchema) -> String {
        var lines = table.columns.map(columnDefinition)
        let sqlName = { (field: String) in quote(table.column(field)?.sqlName ?? field) }
        lines.append("PRIMARY KEY (\(table.key.map(sqlName).joined(separator: ", ")))")
        for unique in table.uniques where unique != table.key {
            let columns = unique.map { table.column($0)?.sqlName ?? $0 }
            lines.append(
                "CONSTRAINT \(quote(([table.sqlName] + columns + ["key"]).joined(separator: "_"))) UNIQUE ("
                    + columns.map(quote).joined(separator: ", ") + ")")
        }
        return "CREATE TABLE \(qualified(table.sqlName)) (\n  " + lines.joined(separator: ",\n  ") + "\n)"
    }

    /// The `@index` indexes, named as PostgreSQL names one it is not given a name for.
    public static func indexes(_ table: DataConnectSchema.Table) -> [String] {
        table.indexes.map { fields in
            let columns = fields.map { table.column($0)?.sqlName ?? $0 }
            return "CREATE INDEX IF NOT EXISTS \(quote(([table.sqlName] + columns + ["idx"]).joined(separator: "_"))) "
                + "ON \(qualified(table.sqlName)) (\(columns.map(quote).joined(separator: ", ")))"
        }
    }

    /// The foreign keys, added once every table exists (a reference may point at a later table, or its own).
    static func foreignKeys(_ table: DataConnectSchema.Table, in schema: DataConnectSchema) -> [String] {
        table.references.compactMap { reference in
            guard let target = schema.table(reference.target) else { return nil }
            let local = reference.columns.map { table.column($0.local)?.sqlName ?? $0.local }
            let remote = reference.columns.map { target.column($0.target)?.sqlName ?? $0.target }
            return "ALTER TABLE \(qualified(table.sqlName)) ADD CONSTRAINT "
                + quote(([table.sqlName] + local + ["fkey"]).joined(separator: "_"))
                + " FOREIGN KEY (\(local.map(quote).joined(separator: ", "))) REFERENCES "
                + "\(qualified(target.sqlName)) (\(remote.map(quote).joined(separator: ", "))) ON DELETE "
                + (reference.isRequired ? "CASCADE" : "SET NULL")
        }
    }

    /// A column's default as PostgreSQL evaluates it.
    ///
    /// `@default(sql:)` as written, a constant as a literal, and the server expressions that have a PostgreSQL
    /// equivalent. `auth.uid` and other request values have none; the
    /// emulator fills them on insert, as it does every default, so the DDL only matters to SQL run by hand.
    static func defaultSQL(_ column: DataConnectSchema.Column) -> String? {
        switch column.defaultValue {
        case .sql(let sql)?:
            return "(\(sql))"
        case .expression(let expression)?:
            switch expression.filter({ !$0.isWhitespace }) {
            case "uuidV4()": return "gen_random_uuid()"
            case "request.time": return column.type == .date ? "CURRENT_DATE" : "now()"
            default: return nil
            }
        case .value(let value)?:
            guard let literal = literal(value, column: column) else { return nil }
            return literal
        case nil:
            return nil
        }
    }

    private static func literal(_ value: JSONValue, column: DataConnectSchema.Column) -> String? {
        if column.type == .any { return "'" + value.jsonText.replacingOccurrences(of: "'", with: "''") + "'::jsonb" }
        if column.isList {
            guard case .array(let elements) = value else { return nil }
            var scalar = column
            scalar.isList = false
            let items = elements.compactMap { literal($0, column: scalar) }
            return "ARRAY[\(items.joined(separator: ", "))]::\(type(column))"
        }
        switch value {
        case .null: return "NULL"
        case .bool(let flag): return flag ? "true" : "false"
        case .number(let number): return "\(number.text)::\(type(column))"
        case .string(let text): return "'" + text.replacingOccurrences(of: "'", with: "''") + "'::\(type(column))"
        default: return nil
        }
    }
}
