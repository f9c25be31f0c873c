internal import ContentDataConnect
internal import ContentDataConnectPostgres

/// Where the SQL of the two engines differs: SQLite (the default, in memory or a file) and PostgreSQL (`--postgres`).
///
/// Statements are built once with `?` for each argument; PostgreSQL's `$1`, `$2`, … are numbered when it runs them.
enum SQLDialect: Sendable {
    case sqlite, postgres

    /// The column that tells a table's rows apart within one statement.
    ///
    /// SQLite's `rowid`, PostgreSQL's `ctid`; a `@view(sql:)` numbers its rows as `rowid` on both. Used to break ties in ordering and to pick one row per `distinct`
    /// group, never to find a row again later: a row is found again by its key.
    func rowIdentity(_ alias: String, table: DataConnectSchema.Table) -> String {
        switch self {
        case .sqlite: return "\(alias).rowid"
        case .postgres:
            switch table.view {
            case .sql?: return "\(alias).rowid"
            // A view of the database's own has nothing to tell its rows apart by.
            case .named?: return "NULL"
            case nil: return "\(alias).ctid"
            }
        }
    }

    /// `LIMIT … OFFSET …`; SQLite spells "no limit" -1, PostgreSQL `ALL`.
    func limit(_ limit: Int?, offset: Int?) -> String {
        switch self {
        case .sqlite: return " LIMIT \(limit ?? -1) OFFSET \(offset ?? 0)"
        case .postgres: return " LIMIT \(limit.map(String.init) ?? "ALL") OFFSET \(offset ?? 0)"
        }
    }

    /// `contains`: the text holds the argument.
    func contains(_ expression: String) -> String {
        switch self {
        case .sqlite: return "instr(\(expression), ?) > 0"
        case .postgres: return "strpos(\(expression), ?::text) > 0"
        }
    }

    /// `startsWith`, with the argument given twice.
    func startsWith(_ expression: String) -> String {
        switch self {
        case .sqlite: return "substr(\(expression), 1, length(?)) = ?"
        case .postgres: return "left(\(expression), length(?::text)) = ?::text"
        }
    }

    /// `endsWith`, with the argument given three times.
    func endsWith(_ expression: String) -> String {
        switch self {
        case .sqlite: return "(length(?) = 0 OR substr(\(expression), -length(?)) = ?)"
        case .postgres: return "(length(?::text) = 0 OR right(\(expression), length(?::text)) = ?::text)"
        }
    }

    /// `pattern.regex`: the pattern, then (SQLite only) whether case is ignored, as arguments.
    func regex(_ expression: String, ignoreCase: Bool) -> String {
        switch self {
        case .sqlite: return "content_regexp(?, \(expression), ?)"
        case .postgres: return "\(expression) \(ignoreCase ? "~*" : "~") ?::text"
        }
    }

    /// Whether a list column holds the argument.
    func listHolds(_ expression: String) -> String {
        switch self {
        case .sqlite: return "EXISTS (SELECT 1 FROM json_each(\(expression)) WHERE value = ?)"
        case .postgres: return "? = ANY(\(expression))"
        }
    }

    /// Where a value is written to a column: a list arrives as JSON text, which PostgreSQL turns into its array.
    func placeholder(for column: DataConnectSchema.Column) -> String {
        guard self == .postgres, column.isList else { return "?" }
        let element = PostgresColumnType.element(column)
        let elements = column.type == .any ? "jsonb_array_elements(?::jsonb)" : "jsonb_array_elements_text(?::jsonb)"
        return "ARRAY(SELECT \(elements))::\(element)[]"
    }

    /// A statement's text as the engine runs it: `?` numbered `$1`, `$2`, … for PostgreSQL, outside quotes.
    func numbered(_ text: String) -> String {
        guard self == .postgres else { return text }
        // Byte by byte: `?` and both quotes are ASCII, so they never occur inside a multi-byte character.
        var output: [UInt8] = []
        output.reserveCapacity(text.utf8.count + 16)
        var number = 0
        var quote: UInt8?
        for byte in text.utf8 {
            if let open = quote {
                if byte == open { quote = nil }
                output.append(byte)
            } else if byte == UInt8(ascii: "'") || byte == UInt8(ascii: "\"") {
                quote = byte
                output.append(byte)
            } else if byte == UInt8(ascii: "?") {
                number += 1
                output.append(UInt8(ascii: "$"))
                output += String(number).utf8
            } else {
                output.append(byte)
            }
        }
        return String(decoding: output, as: UTF8.self)
    }
}

/// The element type of a list column in PostgreSQL, for casts.
enum PostgresColumnType {
    static func element(_ column: DataConnectSchema.Column) -> String {
        var scalar = column
        scalar.isList = false
        return PostgresSchemaSQL.type(scalar)
    }
}
