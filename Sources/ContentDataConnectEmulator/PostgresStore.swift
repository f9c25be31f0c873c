internal import ContentDataConnect
internal import ContentDataConnectPostgres
internal import ContentEmulator
public import Foundation
internal import GRDB
internal import NIOConcurrencyHelpers

/// A Data Connect schema's rows in PostgreSQL (`content serve --postgres URL`): the engine the service runs on.
///
/// Operations run side by side, each in its own transaction on a connection of the pool; `@transaction` mutations
/// are `SERIALIZABLE` and run again when they lose to a concurrent one.
struct PostgresStore: DataConnectStorage {
    let database: PostgresDatabase
    let isNew: Bool
    let viewProblems: [String: String]
    var dialect: SQLDialect { .postgres }

    /// Connects and brings the database to the schema (see ``PostgresSchemaMigration``).
    ///
    /// - Throws: ``EmulatorError``: `.transport` when the server cannot be reached or refuses the login, `.workspace`
    ///   when its tables conflict with the schema.
    /// A URL without a database uses the one `dataconnect.yaml` names (`schema.datasource.postgresql.database`), as
    /// Firebase's emulator names the database it makes.
    static func open(_ settings: PostgresSettings, workspace: DataConnectWorkspace) async throws -> PostgresStore {
        let schema = workspace.schema
        var location = try settings.location()
        if !location.namesDatabase, let database = workspace.postgresDatabase {
            location.database = database
            location.namesDatabase = true
        }
        settings.announce("keeping rows in \(location)")
        let database: PostgresDatabase
        do {
            database = try await PostgresDatabase(location: location, connections: settings.connections)
        } catch let failure as PostgresFailure {
            let check =
                failure.kind == .login
                ? "check the user, password and database name in the URL (a URL without one uses dataconnect.yaml's "
                    + "schema.datasource.postgresql.database; createdb makes it)"
                : "check that PostgreSQL runs there and accepts connections (pg_isready)"
            throw EmulatorError.transport("cannot connect to \(location): \(failure.message); \(check)")
        }
        do {
            let outcome = try await PostgresSchemaMigration.prepare(
                schema, on: database, validation: workspace.schemaValidation, reset: settings.reset,
                announce: settings.announce)
            for change in outcome.changes { settings.announce(change) }
            try await database.findExtensionTypes()
            let problems = try await createViews(schema, in: database)
            return PostgresStore(database: database, isNew: outcome.isNew, viewProblems: problems)
        } catch let conflict as PostgresSchemaConflict {
            await database.close()
            throw EmulatorError.workspace("\(location): \(conflict)")
        } catch let failure as PostgresFailure {
            await database.close()
            throw EmulatorError.database("\(location): \(failure.message)")
        }
    }

    /// Makes each `@view(sql:)` a view of `public` under the type's SQL name, as the service does, and checks that each
    /// `@view(name:)` exists.
    ///
    /// As on SQLite, the view numbers its rows as `rowid` (which ordering, paging and `distinct` need) and gives `NULL`
    /// for each field its SELECT does not (the service's documentation: such a field "will always be null"); those
    /// columns come after the SELECT's own. Each view is made in a transaction of its own, so one PostgreSQL refuses
    /// is reported and the others are served.
    ///
    /// - Returns: What PostgreSQL said of each view it cannot make or find, by type name.
    private static func createViews(_ schema: DataConnectSchema, in database: PostgresDatabase) async throws
        -> [String: String]
    {
        var problems: [String: String] = [:]
        for table in schema.tables {
            switch table.view {
            case .sql?:
                let select = table.viewSelect ?? ""
                do {
                    _ = try NativeSQL.scan(select)
                } catch {
                    problems[table.typeName] = "@view(sql:) takes one SELECT"
                    continue
                }
                let name = "\"public\".\(DataConnectStore.quote(table.sqlName))"
                // On lines of its own, so that a comment at its end does not swallow the closing parenthesis.
                let numbered = "SELECT row_number() OVER () AS rowid, source.* FROM (\n\(select)\n) AS source"
                do {
                    try await database.transaction { session in
                        try await session.run("DROP VIEW IF EXISTS \(name)")
                        try await session.run("CREATE VIEW \(name) AS \(numbered)")
                        let given = Set(
                            try await session.rows(
                                "SELECT column_name::text AS name FROM information_schema.columns WHERE "
                                    + "table_schema = 'public' AND table_name = $1",
                                [.text(table.sqlName)]
                            ).compactMap { row -> String? in
                                guard case .text(let name)? = row["name"] else { return nil }
                                return name
                            })
                        let missing = table.columns.filter { !given.contains($0.sqlName) }
                        guard !missing.isEmpty else { return }
                        let nulls = missing.map {
                            ", NULL::\(PostgresSchemaSQL.type($0)) AS \(DataConnectStore.quote($0.sqlName))"
                        }
                        try await session.run(
                            "CREATE OR REPLACE VIEW \(name) AS SELECT row_number() OVER () AS rowid, source.*"
                                + nulls.joined() + " FROM (\n\(select)\n) AS source")
                    }
                } catch let failure as PostgresFailure {
                    guard failure.kind == .other else { throw failure }
                    problems[table.typeName] = failure.message
                }
            case .named(let name)?:
                let found = try await database.withSession { session in
                    try await session.rows(
                        "SELECT 1 FROM information_schema.tables WHERE table_schema = 'public' AND table_name = $1",
                        [.text(name)])
                }
                if found.isEmpty { problems[table.typeName] = "no such view: \(name)" }
            case nil:
                continue
            }
        }
        return problems
    }

    func transaction<T: Sendable>(
        isMutation: Bool, isSerializable: Bool, _ body: @Sendable (any SQLTransaction) async throws -> (T, commit: Bool)
    ) async throws -> T {
        try await database.transaction(serializable: isSerializable, readOnly: !isMutation) { session in
            try await Self.operation(on: session, body)
        }
    }

    /// Runs an operation's statements on a leased connection.
    ///
    /// A lost connection or a lost serialization race inside a resolver became that field's error; the whole
    /// operation answers it instead (and a serializable one runs again).
    private static func operation<T: Sendable>(
        on session: PostgresSession, _ body: @Sendable (any SQLTransaction) async throws -> T
    ) async throws -> T {
        let transaction = PostgresTransaction(session: session)
        let result = try await body(transaction)
        if let fatal = transaction.fatal { throw fatal }
        return result
    }

    // A statement alone is atomic and sees one snapshot: PostgreSQL makes it a transaction of its own. `BEGIN` and
    // `COMMIT` around it changed nothing but its cost, two more round trips on the leased connection, each a wake-up
    // of the server's process (Benchmarks/README.md, "Data Connect on SQLite and on PostgreSQL").

    /// A read that reaches a `@view` stays in `BEGIN READ ONLY`, as the general executor runs every query: a view's
    /// SELECT may call a function that writes, which that transaction refuses and a statement of its own would not.
    func read(_ statements: [SQLFragment], readsView: Bool) async throws -> [[SQLRecord]] {
        guard statements.count == 1, !readsView else {
            return try await transaction(isMutation: false, isSerializable: false) { transaction in
                var results: [[SQLRecord]] = []
                for statement in statements { results.append(try await transaction.rows(statement)) }
                return (results, commit: true)
            }
        }
        return try await database.withSession { session in
            [try await PostgresTransaction(session: session).rows(statements[0])]
        }
    }

    func plannedWrite<T: Sendable>(
        isOneStatement: Bool, _ body: @escaping @Sendable (any SQLTransaction) async throws -> T
    ) async throws -> T {
        guard isOneStatement else {
            return try await transaction(isMutation: true, isSerializable: false) { (try await body($0), commit: true) }
        }
        return try await database.withSession { session in try await Self.operation(on: session, body) }
    }

    func close() async {
        await database.close()
    }
}

/// PostgreSQL's side of one operation: statements on its leased connection, numbered `$1`, `$2`, ….
final class PostgresTransaction: SQLTransaction {
    let session: PostgresSession
    private let fatalFailure = NIOLockedValueBox<PostgresFailure?>(nil)
    var dialect: SQLDialect { .postgres }

    init(session: PostgresSession) {
        self.session = session
    }

    /// A failure that ends the operation whatever field it happened in.
    var fatal: PostgresFailure? { fatalFailure.withLockedValue { $0 } }
    /// One read-only window at a time: GraphQL runs sibling fields concurrently, and two windows interleaved on the one
    /// connection would end each other's read-only setting.
    private let readOnlyWindows = SerialLock()

    /// Runs `body` read-only, also inside a transaction that writes: under a savepoint with
    /// `transaction_read_only` on (which a transaction may always turn on), rolled back to afterwards, which ends the
    /// setting with it, so that the operation's fields after it still write.
    ///
    /// - Parameter body: The statements.
    /// - Returns: What `body` answers.
    /// - Throws: What `body` throws, after the savepoint is rolled back to; a failure to roll back is named as such.
    func readOnly<T: Sendable>(_ body: @Sendable () async throws -> T) async throws -> T {
        try await readOnlyWindows.withLock {
            try await execute(SQLFragment(text: "SAVEPOINT read_only_window"))
            let outcome: Result<T, any Error>
            do {
                try await execute(SQLFragment(text: "SET LOCAL transaction_read_only = on"))
                outcome = .success(try await body())
            } catch {
                outcome = .failure(error)
            }
            do {
                try await execute(SQLFragment(text: "ROLLBACK TO SAVEPOINT read_only_window"))
                try await execute(SQLFragment(text: "RELEASE SAVEPOINT read_only_window"))
            } catch {
                throw SQLFailure(
                    kind: .other, columns: [],
                    message: "could not end a read-only window (\(error)); run the operation again")
            }
            return try outcome.get()
        }
    }

    func rows(_ sql: SQLFragment) async throws -> [SQLRecord] {
        do {
            return try await session.rows(sql.dialectText(.postgres), sql.arguments.map(Self.value)).map { record in
                SQLRecord(columns: record.columns, values: record.values.map(Self.databaseValue))
            }
        } catch let failure as PostgresFailure {
            throw classify(failure)
        }
    }

    @discardableResult
    func execute(_ sql: SQLFragment) async throws -> Int {
        // The changed rows are counted from what the statement returns; PostgresNIO's row sequence does not carry the
        // command tag's count. The engine's own statements come here, never one with a RETURNING of its own.
        var counted = sql
        let changes = ["INSERT", "UPDATE", "DELETE"].contains { sql.text.hasPrefix($0) }
        if changes { counted.text += " RETURNING 1" }
        let rows = try await self.rows(counted)
        return changes ? rows.count : 0
    }

    private func classify(_ failure: PostgresFailure) -> any Error {
        switch failure.kind {
        case .unavailable, .serialization, .login:
            fatalFailure.withLockedValue { if $0 == nil { $0 = failure } }
            return failure
        case .unique:
            return SQLFailure(kind: .unique, columns: Self.columns(of: failure), message: failure.message)
        case .foreignKey:
            return SQLFailure(kind: .foreignKey, columns: [], message: failure.message)
        case .notNull:
            return SQLFailure(kind: .notNull, columns: failure.column.map { [$0] } ?? [], message: failure.message)
        case .readOnly:
            return SQLFailure(kind: .readOnly, columns: [], message: failure.message)
        case .other:
            return SQLFailure(kind: .other, columns: [], message: failure.message)
        }
    }

    /// `Key (id)=(…) already exists.` names the columns of a unique violation.
    private static func columns(of failure: PostgresFailure) -> [String] {
        guard let detail = failure.detail, let open = detail.firstIndex(of: "("),
            let close = detail[open...].firstIndex(of: ")")
        else { return [] }
        return detail[detail.index(after: open)..<close].split(separator: ",").map {
            $0.trimmingCharacters(in: CharacterSet(charactersIn: " \""))
        }
    }

    static func value(_ value: DatabaseValue) -> PostgresValue {
        switch value.storage {
        case .null: return .null
        case .int64(let number): return .integer(number)
        case .double(let number): return .real(number)
        case .string(let text): return .text(text)
        case .blob(let data): return .text(data.base64EncodedString())
        }
    }

    static func databaseValue(_ value: PostgresValue) -> DatabaseValue {
        switch value {
        case .null: return .null
        case .integer(let number): return number.databaseValue
        case .real(let number): return number.databaseValue
        case .text(let text): return text.databaseValue
        }
    }
}

extension SQLFragment {
    /// The text as `dialect` runs it.
    func dialectText(_ dialect: SQLDialect) -> String {
        isNumbered ? text : dialect.numbered(text)
    }
}

/// How `content serve --postgres` was asked to reach PostgreSQL, as given.
public struct PostgresSettings: Sendable {
    /// The connection URL, in libpq's form.
    public var url: String
    /// The most connections the pool opens.
    public var connections: Int
    /// Whether to drop the schema's tables and recreate them.
    public var reset: Bool
    /// Told each change made to the database's tables.
    public var announce: @Sendable (String) -> Void

    /// Settings for a server.
    public init(
        url: String, connections: Int = 16, reset: Bool = false,
        announce: @escaping @Sendable (String) -> Void = { _ in }
    ) {
        self.url = url
        self.connections = connections
        self.reset = reset
        self.announce = announce
    }

    /// The URL with its password replaced, for messages.
    public var redacted: String { PostgresLocation.redacted(url) }

    /// The server's address without its password, or why the URL is not one.
    public func checkedLocation() throws -> String {
        try location().description
    }

    func location() throws -> PostgresLocation {
        do {
            return try PostgresLocation(url: url)
        } catch let invalid as PostgresLocation.Invalid {
            throw EmulatorError.usage(invalid.description)
        }
    }
}

extension DataConnectEmulator {
    /// The PostgreSQL DDL of a workspace's schema, as the service creates its tables (`--print-schema-sql`).
    ///
    /// - Parameter folder: A folder that leads to a `dataconnect.yaml`.
    /// - Returns: The statements, each ending in `;`.
    /// - Throws: A workspace error naming file, line and column.
    public static func postgresSchemaSQL(workspace folder: URL) throws -> String {
        PostgresSchemaSQL.script(try DataConnectWorkspace.load(from: folder).schema)
    }
}
