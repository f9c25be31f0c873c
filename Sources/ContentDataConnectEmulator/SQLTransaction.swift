internal import ContentDataConnectPostgres
internal import Foundation
internal import GRDB

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
        case unique, foreignKey, notNull, other
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
    /// Stops what the storage runs in the background.
    func close() async
}

extension DataConnectStore: DataConnectStorage {
    var dialect: SQLDialect { .sqlite }

    /// One operation at a time (``SerialLock``), on the one connection, in an explicit transaction.
    func transaction<T: Sendable>(
        isMutation: Bool, isSerializable: Bool, _ body: @Sendable (any SQLTransaction) async throws -> (T, commit: Bool)
    ) async throws -> T {
        try await lock.withLock {
            try await transaction(isMutation ? "BEGIN IMMEDIATE" : "BEGIN DEFERRED")
            let result: (T, commit: Bool)
            do {
                result = try await body(SQLiteTransaction(store: self))
            } catch {
                try await transaction("ROLLBACK")
                throw error
            }
            try await transaction(result.commit ? "COMMIT" : "ROLLBACK")
            return result.0
        }
    }

    func close() async {}
}

/// SQLite's side: statements on the store's one connection, whose transaction the store's lock keeps to one operation.
struct SQLiteTransaction: SQLTransaction {
    let store: DataConnectStore
    var dialect: SQLDialect { .sqlite }

    func rows(_ sql: SQLFragment) async throws -> [SQLRecord] {
        do {
            return try await store.access { db in
                let statement = try db.makeStatement(sql: sql.text)
                let columns = statement.columnNames
                return try Row.fetchAll(statement, arguments: StatementArguments(sql.arguments)).map { row in
                    SQLRecord(columns: columns, values: (0..<columns.count).map { row[$0] ?? .null })
                }
            }
        } catch let error as DatabaseError {
            throw Self.failure(error)
        }
    }

    func execute(_ sql: SQLFragment) async throws -> Int {
        do {
            return try await store.access { db in
                try db.execute(sql: sql.text, arguments: StatementArguments(sql.arguments))
                return db.changesCount
            }
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
