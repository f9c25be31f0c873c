internal import ContentDataConnectPostgres
internal import Foundation
internal import GRDB
internal import NIOConcurrencyHelpers

/// One row a statement returned: its column names and values, in the engine's storage forms (see ``StoredValue``).
struct SQLRecord: Sendable {
    var columns: [String]
    var values: [DatabaseValue]

    subscript(_ name: String) -> DatabaseValue? {
        columns.firstIndex(of: name).map { values[$0] }
    }
}

/// A failure of a statement, in terms both engines share, so that resolvers word it the same whatever ran it.
struct SQLFailure: Error, CustomStringConvertible {
    enum Kind: Equatable {
        /// `readOnly`: a write in a read-only transaction (PostgreSQL's SQLSTATE 25006).
        case unique, foreignKey, notNull, readOnly, other
    }

    var kind: Kind
    /// The columns the database named, by SQL name, when it named any.
    var columns: [String]
    var message: String

    var description: String { message }
}

/// One operation's access to the database, inside the transaction the operation runs in.
protocol SQLTransaction: Sendable {
    var dialect: SQLDialect { get }
    /// Runs a statement and reads the rows it returns.
    func rows(_ sql: SQLFragment) async throws -> [SQLRecord]
    /// Runs a statement and answers how many rows it changed.
    @discardableResult
    func execute(_ sql: SQLFragment) async throws -> Int
}

/// Where a Data Connect schema's rows are kept: SQLite (``DataConnectStore``) or PostgreSQL (``PostgresStore``).
protocol DataConnectStorage: Sendable {
    var dialect: SQLDialect { get }
    /// Whether the tables were created by this start, so that seed data should run.
    var isNew: Bool { get }
    /// The `@view` types whose SELECT the database refused, with what it said, by type name.
    var viewProblems: [String: String] { get }
    /// Runs `body` in one transaction, committing when it answers `commit: true` and rolling back otherwise.
    ///
    /// - Parameters:
    ///   - isMutation: Whether the operation writes.
    ///   - isSerializable: Whether it is a `@transaction` mutation.
    ///   - body: The operation.
    /// - Returns: What `body` answers.
    /// - Throws: What the database or `body` throws.
    func transaction<T: Sendable>(
        isMutation: Bool, isSerializable: Bool, _ body: @Sendable (any SQLTransaction) async throws -> (T, commit: Bool)
    ) async throws -> T
    /// Runs statements that only read, in one transaction: each sees the same committed rows.
    ///
    /// - Parameters:
    ///   - statements: The statements.
    ///   - readsView: Whether they read a `@view`, whose SELECT may call a function that writes.
    /// - Returns: The rows of each, in order.
    /// - Throws: What the database throws.
    func read(_ statements: [SQLFragment], readsView: Bool) async throws -> [[SQLRecord]]
    /// Runs a planned write (see ``CompiledOperation``) in one transaction, committed when `body` returns and rolled
    /// back when it throws; a write of one statement is that statement's own transaction, so `body` must not throw
    /// after it has run.
    ///
    /// - Parameters:
    ///   - isOneStatement: Whether `body` runs a single statement, which then needs no `BEGIN` and `COMMIT` around it.
    ///   - body: The write.
    /// - Returns: What `body` answers.
    /// - Throws: What the database or `body` throws.
    func plannedWrite<T: Sendable>(
        isOneStatement: Bool, _ body: @escaping @Sendable (any SQLTransaction) async throws -> T
    ) async throws -> T
    /// Stops what the storage runs in the background.
    func close() async
}

extension DataConnectStore: DataConnectStorage {
    var dialect: SQLDialect { .sqlite }

    /// One operation at a time (``SerialLock``), on the one connection, in an explicit transaction.
    func transaction<T: Sendable>(
        isMutation: Bool, isSerializable: Bool, _ body: @Sendable (any SQLTransaction) async throws -> (T, commit: Bool)
    ) async throws -> T {
        try await locked(isMutation ? "BEGIN IMMEDIATE" : "BEGIN DEFERRED", runsHere: false, body)
    }

    /// Holds the lock for a transaction opened with `begin`, its statements on the writer's queue or, with
    /// `runsHere`, on the calling thread.
    func locked<T: Sendable>(
        _ begin: String, runsHere: Bool, _ body: @Sendable (any SQLTransaction) async throws -> (T, commit: Bool)
    ) async throws -> T {
        let control = { @Sendable (sql: String) async throws in
            guard runsHere else { return try await transaction(sql) }
            try accessHere { db in
                if sql.hasPrefix("BEGIN"), db.isInsideTransaction { try db.cachedStatement(sql: "ROLLBACK").execute() }
                // Four fixed texts, kept prepared on the writing connection.
                try db.cachedStatement(sql: sql).execute()
            }
        }
        return try await lock.withLock {
            try await control(begin)
            let result: (T, commit: Bool)
            do {
                result = try await body(SQLiteTransaction(store: self, runsHere: runsHere))
            } catch {
                try await control("ROLLBACK")
                throw error
            }
            try await control(result.commit ? "COMMIT" : "ROLLBACK")
            return result.0
        }
    }

    /// The whole read in one visit to a reading connection, in one transaction, without the writer's lock: WAL
    /// lets it see every write committed before it began while the writer goes on.
    ///
    /// It runs on the calling thread (a serial queue that is idle runs a synchronous block there), which spares two
    /// thread switches per request; a reading connection is held only while one such block runs, and there are at
    /// least as many as cores, so a caller waits only for another caller's statements.
    ///
    /// No read of SQLite writes: its views are SELECTs, and its reading connections refuse writes.
    func read(_ statements: [SQLFragment], readsView: Bool) async throws -> [[SQLRecord]] {
        try Task.checkCancellation()
        return try readHere(statements)
    }

    /// Not async, so that GRDB's synchronous `read` is the one called.
    private func readHere(_ statements: [SQLFragment]) throws -> [[SQLRecord]] {
        func run(_ db: Database) throws -> [[SQLRecord]] {
            try statements.map { sql in
                try SQLiteTransaction.records(db, sql, prepared: keepsPrepared(sql.text))
            }
        }
        // One statement sees one snapshot by itself (SQLite's autocommit read in WAL), so it needs no transaction
        // around it: BEGIN and COMMIT were two of its three statements. Several share one transaction.
        return statements.count == 1 ? try queue.unsafeRead(run) : try queue.read(run)
    }

    /// Whether a statement text is kept prepared on each connection that runs it: a planned operation's texts
    /// repeat, and preparing one costs as much as running it; a bounded number of texts is kept, since the texts
    /// inline limits and offsets clients choose.
    func keepsPrepared(_ text: String, writing: Bool = false) -> Bool {
        (writing ? preparedWriteTexts : preparedTexts).withLockedValue { texts in
            if texts.contains(text) { return true }
            guard texts.count < Self.preparedTextLimit else { return false }
            texts.insert(text)
            return true
        }
    }

    /// Database work on the writing connection, on the calling thread (not async, so that GRDB's synchronous form is
    /// the one called).
    func accessHere<T>(_ body: (Database) throws -> T) throws -> T {
        try queue.writeWithoutTransaction(body)
    }

    /// Closes the connections and removes the temporary file: the engine's resolvers hold the engine, so the store
    /// is not released with the server, and a file must not outlive it.
    func close() async {
        try? queue.close()
        temporary?.remove()
    }
}

/// SQLite's side: statements on the store's one connection, whose transaction the store's lock keeps to one operation.
struct SQLiteTransaction: SQLTransaction {
    let store: DataConnectStore
    /// Whether statements run on the calling thread (``DataConnectStore/plannedWrite(isOneStatement:_:)``) rather
    /// than on the writer's queue.
    var runsHere = false
    var dialect: SQLDialect { .sqlite }

    func rows(_ sql: SQLFragment) async throws -> [SQLRecord] {
        do {
            if runsHere {
                return try store.accessHere { db in
                    try Self.records(db, sql, prepared: store.keepsPrepared(sql.text, writing: true))
                }
            }
            return try await store.access { db in try Self.records(db, sql) }
        } catch let error as DatabaseError {
            throw Self.failure(error)
        }
    }

    /// A statement's rows, prepared for this use unless `prepared` says the connection keeps it.
    static func records(_ db: Database, _ sql: SQLFragment, prepared: Bool = false) throws -> [SQLRecord] {
        let statement = try prepared ? db.cachedStatement(sql: sql.text) : db.makeStatement(sql: sql.text)
        let columns = statement.columnNames
        return try Row.fetchAll(statement, arguments: StatementArguments(sql.arguments)).map { row in
            SQLRecord(columns: columns, values: (0..<columns.count).map { row[$0] ?? .null })
        }
    }

    func execute(_ sql: SQLFragment) async throws -> Int {
        // A planned write's statements are kept prepared; the general executor's are made for each use.
        let prepared = runsHere && store.keepsPrepared(sql.text, writing: true)
        let run = { @Sendable (db: Database) throws -> Int in
            if prepared {
                try db.cachedStatement(sql: sql.text).execute(arguments: StatementArguments(sql.arguments))
            } else {
                try db.execute(sql: sql.text, arguments: StatementArguments(sql.arguments))
            }
            return db.changesCount
        }
        do {
            if runsHere { return try store.accessHere(run) }
            return try await store.access(run)
        } catch let error as DatabaseError {
            throw Self.failure(error)
        }
    }

    /// `UNIQUE constraint failed: movie.id, movie.title` names its columns after the colon.
    static func failure(_ error: DatabaseError) -> SQLFailure {
        let message = error.message ?? "\(error)"
        let named = (message.split(separator: ":").last.map(String.init) ?? "").split(separator: ",").map {
            $0.split(separator: ".").last.map(String.init)?.trimmingCharacters(in: .whitespaces) ?? ""
        }
        switch error.extendedResultCode {
        case .SQLITE_CONSTRAINT_PRIMARYKEY, .SQLITE_CONSTRAINT_UNIQUE:
            return SQLFailure(kind: .unique, columns: named, message: message)
        case .SQLITE_CONSTRAINT_FOREIGNKEY:
            return SQLFailure(kind: .foreignKey, columns: [], message: message)
        case .SQLITE_CONSTRAINT_NOTNULL:
            return SQLFailure(kind: .notNull, columns: named, message: message)
        default:
            return SQLFailure(kind: .other, columns: [], message: message)
        }
    }
}
