internal import ContentCore
internal import ContentDataConnect
internal import ContentEmulator
internal import ContentJSON
internal import Foundation
internal import GRDB
internal import NIOConcurrencyHelpers
internal import OrderedCollections

/// The tables of a Data Connect schema in SQLite, in WAL mode: in a file with `--data`, else in a temporary file
/// removed when the store goes.
///
/// Operations through the executor hold ``lock`` for their whole run and open their transaction explicitly, across
/// several database accesses on the one writing connection, so a mutation commits or rolls back as one unit before
/// the response is sent. Planned queries (``CompiledOperation``) read on the pool's reading connections instead, each in
/// a transaction of its own that sees what was committed when it began, beside each other and beside the writer.
/// A temporary file rather than SQLite's memory: only a file gives WAL's readers beside the writer.
struct DataConnectStore: Sendable {
    let queue: DatabasePool
    let lock = SerialLock()
    /// Planned writes waiting to run, a batch to a transaction.
    let plannedWrites = PlannedWrites()
    /// The temporary file when no `--data` was given, removed when the store closes.
    let temporary: TemporaryDatabaseFile?
    /// The statement texts the connections keep prepared, at most ``preparedTextLimit`` for reads and as many for
    /// writes, so that neither can take the other's place.
    let preparedTexts = NIOLockedValueBox(Set<String>())
    let preparedWriteTexts = NIOLockedValueBox(Set<String>())
    static let preparedTextLimit = 512
    /// Whether the tables were created by this open (so the seed data should run).
    let isNew: Bool
    /// The `@view(sql:)` types whose SELECT SQLite refused, with what it said, by type name.
    let viewProblems: [String: String]

    static let metadataTable = "_content_dataconnect"

    /// Opens (or creates) the database and its tables.
    ///
    /// - Parameters:
    ///   - path: A database file, or `nil` for memory.
    ///   - schema: The tables.
    ///   - fingerprint: Identifies the schema; a file made for another schema is refused.
    /// - Throws: ``EmulatorError``.
    init(path: String?, schema: DataConnectSchema, fingerprint: String) throws {
        let searches = schema.tables.contains { !$0.searchableColumns.isEmpty }
        var configuration = Configuration()
        configuration.allowsUnsafeTransactions = true
        configuration.busyMode = .timeout(10)
        // Readers as the machine has cores to run them: more would only wait.
        configuration.maximumReaderCount = max(2, ProcessInfo.processInfo.activeProcessorCount)
        let temporary = path == nil ? TemporaryDatabaseFile() : nil
        configuration.prepareDatabase { db in
            // Rows that end with the process need not survive a power cut.
            if temporary != nil, !db.configuration.readonly { try db.execute(sql: "PRAGMA synchronous = OFF") }
            // Postgres LIKE is case-sensitive; make SQLite's match.
            try db.execute(sql: "PRAGMA case_sensitive_like = ON")
            db.add(function: Self.regexFunction)
            db.add(function: VectorSimilarity.distanceFunction)
            if !TextSearchRank.register(on: db), searches {
                throw EmulatorError.database(
                    "this SQLite has no FTS5, which full-text search (@searchable) needs; use a SQLite built with it")
            }
        }
        do {
            if let path { try EmulatorDataFile.prepare(path) }
            self.temporary = temporary
            queue = try DatabasePool(path: path ?? temporary?.path ?? "", configuration: configuration)
            isNew = try queue.write { db -> Bool in
                let exists = try db.tableExists(Self.metadataTable)
                if exists {
                    let stored = try String.fetchOne(db, sql: "SELECT fingerprint FROM \(Self.metadataTable)")
                    guard stored == fingerprint else {
                        throw EmulatorError.workspace(
                            "\(path ?? "the database") holds Data Connect tables of a different schema; remove it or "
                                + "pass another --data file")
                    }
                    return false
                }
                for table in schema.tables where !table.isView {
                    guard try db.tableExists(table.sqlName) else { continue }
                    throw EmulatorError.workspace(
                        "\(path ?? "the database") already has a table named \(table.sqlName) that this schema did "
                            + "not make; pass another --data file")
                }
                for table in schema.tables where !table.isView {
                    try db.execute(sql: Self.createStatement(table, in: schema))
                    for (number, fields) in table.indexes.enumerated() {
                        let columns = fields.map { Self.quote(table.column($0)?.sqlName ?? $0) }.joined(separator: ", ")
                        try db.execute(
                            sql: "CREATE INDEX \(Self.quote("\(table.sqlName)_\(number)_idx")) ON "
                                + "\(Self.quote(table.sqlName)) (\(columns))")
                    }
                    for statement in FullTextSearch.statements(table) { try db.execute(sql: statement) }
                }
                try db.execute(sql: "CREATE TABLE \(Self.metadataTable) (fingerprint TEXT NOT NULL)")
                try db.execute(sql: "INSERT INTO \(Self.metadataTable) VALUES (?)", arguments: [fingerprint])
                return true
            }
            viewProblems = try queue.write { db in try Self.createViews(schema, in: db) }
        } catch let error as EmulatorError {
            throw error
        } catch {
            throw EmulatorError.database("\(path ?? ":memory:"): \(error)")
        }
    }

    /// Creates the `@view(sql:)` views, as temporary views of the one connection: they are not data, so a data
    /// file stays bound to its tables alone, and a changed SELECT needs no new file.
    ///
    /// Each view numbers its rows as `rowid`, which ordering, paging and `distinct` need and a view lacks, and gives
    /// `NULL` for each field its SELECT does not (the service's documentation: such a field "will always be null"),
    /// so that filters and orders on it work. Each is read once here, so a SELECT SQLite cannot run, or a
    /// `@view(name:)` the database does not have, is known at start.
    ///
    /// - Returns: What SQLite said of each view it cannot read, by type name.
    private static func createViews(_ schema: DataConnectSchema, in db: Database) throws -> [String: String] {
        var problems: [String: String] = [:]
        for table in schema.tables {
            switch table.view {
            case .sql?:
                let select = table.viewSelect ?? ""
                do {
                    // Alone first: GRDB refuses a second statement, which inside parentheses is a syntax error.
                    _ = try db.makeStatement(sql: select)
                    // On lines of its own, so that a comment at its end does not swallow the closing parenthesis.
                    let source = "(\n\(select)\n)"
                    let given = Set(try db.makeStatement(sql: "SELECT * FROM \(source)").columnNames)
                    let missing = table.columns.filter { !given.contains($0.sqlName) }
                        .map { ", NULL AS \(quote($0.sqlName))" }.joined()
                    try db.makeStatement(
                        sql: "CREATE TEMP VIEW \(quote(table.sqlName)) AS SELECT row_number() OVER () AS rowid, *"
                            + "\(missing) FROM \(source)"
                    ).execute()
                    _ = try Row.fetchOne(db, sql: "SELECT * FROM \(quote(table.sqlName)) LIMIT 1")
                } catch let error as DatabaseError {
                    let message = error.message ?? "\(error)"
                    problems[table.typeName] =
                        message.contains("Multiple statements") ? "@view(sql:) takes one SELECT" : message
                }
            case .named(let name)?:
                if try !db.viewExists(name) && !db.tableExists(name) {
                    problems[table.typeName] = "no such view: \(name)"
                }
            case nil:
                continue
            }
        }
        return problems
    }

    /// Runs database work on the writing connection, inside whatever transaction the operation holds.
    func access<T: Sendable>(_ body: @escaping @Sendable (Database) throws -> T) async throws -> T {
        try await queue.writeWithoutTransaction(body)
    }

    /// Opens or closes a request's transaction, whatever has become of the request's task.
    ///
    /// GRDB refuses work to a cancelled task, and a request is cancelled when its client goes; the statement that
    /// ends its transaction must still run, or the next request would find that transaction open. An unstructured
    /// task is not reached by the request's cancellation. Opening first rolls back anything a failure left open.
    ///
    /// - Parameter sql: `BEGIN …`, `COMMIT` or `ROLLBACK`.
    /// - Throws: What SQLite says.
    func transaction(_ sql: String) async throws {
        try await Task {
            try await self.access { db in
                if sql.hasPrefix("BEGIN"), db.isInsideTransaction { try db.execute(sql: "ROLLBACK") }
                try db.execute(sql: sql)
            }
        }.value
    }

    static func quote(_ identifier: String) -> String {
        // Identifiers rarely hold a quote; looking first spares Foundation's replacement on every column of a query.
        guard identifier.utf8.contains(UInt8(ascii: "\"")) else { return "\"" + identifier + "\"" }
        return "\"" + identifier.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }

    static func sqlType(_ column: DataConnectSchema.Column) -> String {
        if column.isList { return "TEXT" }
        switch column.type {
        case .int, .int64, .boolean: return "INTEGER"
        case .float: return "REAL"
        default: return "TEXT"
        }
    }

    static func createStatement(_ table: DataConnectSchema.Table, in schema: DataConnectSchema) -> String {
        var lines = table.columns.map { column in
            "\(quote(column.sqlName)) \(sqlType(column))\(column.isRequired ? " NOT NULL" : "")"
        }
        let sqlName = { (field: String) in table.column(field)?.sqlName ?? field }
        lines.append("PRIMARY KEY (\(table.key.map { quote(sqlName($0)) }.joined(separator: ", ")))")
        for unique in table.uniques where unique != table.key {
            lines.append("UNIQUE (\(unique.map { quote(sqlName($0)) }.joined(separator: ", ")))")
        }
        for reference in table.references {
            guard let target = schema.table(reference.target) else { continue }
            let local = reference.columns.map { quote(sqlName($0.local)) }.joined(separator: ", ")
            let remote = reference.columns.map { quote(target.column($0.target)?.sqlName ?? $0.target) }
                .joined(separator: ", ")
            lines.append(
                "FOREIGN KEY (\(local)) REFERENCES \(quote(target.sqlName)) (\(remote)) ON DELETE "
                    + (reference.isRequired ? "CASCADE" : "SET NULL"))
        }
        return "CREATE TABLE \(quote(table.sqlName)) (\n  " + lines.joined(separator: ",\n  ") + "\n)"
    }

    /// `content_regexp(pattern, value, ignoreCase)` for `String_Pattern.regex`.
    static let regexFunction = DatabaseFunction("content_regexp", argumentCount: 3, pure: true) { values in
        guard let pattern = String.fromDatabaseValue(values[0]), let value = String.fromDatabaseValue(values[1]) else {
            return nil
        }
        let ignoreCase = Int.fromDatabaseValue(values[2]) == 1
        guard
            let expression = try? NSRegularExpression(
                pattern: pattern, options: ignoreCase ? [.caseInsensitive] : [])
        else { return false }
        return expression.firstMatch(in: value, range: NSRange(value.startIndex..., in: value)) != nil
    }
}
