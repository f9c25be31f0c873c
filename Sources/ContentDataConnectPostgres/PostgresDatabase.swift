internal import Foundation
internal import Logging
internal import NIOCore
internal import NIOSSL
internal import PostgresNIO
internal import Synchronization

/// What went wrong talking to PostgreSQL, reduced to what the emulator answers differently.
public struct PostgresFailure: Error, CustomStringConvertible, Sendable {
    /// The kinds of failure the emulator tells apart.
    public enum Kind: Sendable, Equatable {
        /// The server cannot be reached, or the connection was lost.
        case unavailable
        /// The server refused the login or the database.
        case login
        /// A serializable transaction lost to a concurrent one (SQLSTATE 40001) or a deadlock (40P01).
        case serialization
        /// A unique or primary key constraint (23505).
        case unique
        /// A foreign key constraint (23503).
        case foreignKey
        /// A NOT NULL constraint (23502).
        case notNull
        /// A write in a read-only transaction (25006).
        case readOnly
        /// Anything else the server said.
        case other
    }

    /// What kind of failure it is.
    public var kind: Kind
    /// What failed, naming the server without its password or the server's own words.
    public var message: String
    /// The column or constraint the server named, if any.
    public var column: String?
    /// The constraint the server named, if any.
    public var constraint: String?
    /// The server's detail line (`Key (id)=(…) already exists.`), if any.
    public var detail: String?

    /// The message.
    public var description: String { message }

    /// Classifies an error of PostgresNIO (anything else, when connecting).
    static func from(_ error: any Error, location: PostgresLocation) -> PostgresFailure {
        if let failure = error as? PostgresFailure { return failure }
        guard let error = error as? PSQLError else {
            return PostgresFailure(kind: .unavailable, message: "\(location): \(error)")
        }
        guard error.code == .server, let info = error.serverInfo else {
            let kind: Kind =
                [.sslUnsupported, .authMechanismRequiresPassword, .unsupportedAuthMechanism, .saslError]
                    .contains(error.code) ? .login : .unavailable
            let cause = error.underlying.map { "\($0)" } ?? "\(error.code)"
            return PostgresFailure(kind: kind, message: "\(location): \(cause)")
        }
        let state = info[.sqlState] ?? ""
        let message = info[.message] ?? "error \(state)"
        let kind: Kind
        switch state {
        case "40001", "40P01": kind = .serialization
        case "23505": kind = .unique
        case "23503": kind = .foreignKey
        case "23502": kind = .notNull
        case "25006": kind = .readOnly
        case "28000", "28P01", "3D000": kind = .login
        case let code where code.hasPrefix("08") || code.hasPrefix("57P"): kind = .unavailable
        default: kind = .other
        }
        return PostgresFailure(
            kind: kind, message: message, column: info[.columnName], constraint: info[.constraintName],
            detail: info[.detail])
    }
}

/// A PostgreSQL server reached through a pool of connections.
///
/// Each operation leases one connection for its transaction, so operations run side by side; the server orders
/// what conflicts.
public final class PostgresDatabase: Sendable {
    /// The server, without its password when shown.
    public let location: PostgresLocation
    private let client: PostgresClient
    private let running: Task<Void, Never>
    /// pgvector's `vector` type, once ``findExtensionTypes()`` has found it installed.
    private let vectorType = Mutex<PostgresDataType?>(nil)
    private static let logger = Logger(label: "content.postgres", factory: { _ in SwiftLogNoOpLogHandler() })

    /// How many times a serializable transaction that lost to another is run again before its error is answered.
    ///
    /// Each lost race means another transaction committed, so a burst of n conflicting transactions needs at most n - 1.
    public static let serializationRetries = 10

    /// Connects, checking the server and the login first with one connection of its own, so that a wrong host or
    /// password is told at once instead of when the first request waits on the pool.
    ///
    /// - Throws: ``PostgresFailure`` of kind `.unavailable` or `.login`, naming the server without its password.
    public init(location: PostgresLocation, connections: Int) async throws {
        self.location = location
        try await Self.probe(location)
        client = PostgresClient(
            configuration: location.clientConfiguration(connections: connections), backgroundLogger: Self.logger)
        let client = self.client
        running = Task { await client.run() }
    }

    private static func probe(_ location: PostgresLocation) async throws {
        var configuration: PostgresConnection.Configuration
        if let directory = location.socketDirectory {
            configuration = .init(
                unixSocketPath: "\(directory)/.s.PGSQL.\(location.port)", username: location.user,
                password: location.password, database: location.database)
        } else {
            let tls: PostgresConnection.Configuration.TLS
            do {
                switch location.tlsMode {
                case .disable: tls = .disable
                case .prefer: tls = .prefer(try NIOSSLContext(configuration: .makeClientConfiguration()))
                case .require: tls = .require(try NIOSSLContext(configuration: .makeClientConfiguration()))
                }
            } catch {
                throw PostgresFailure(kind: .unavailable, message: "\(location): cannot set up TLS: \(error)")
            }
            configuration = .init(
                host: location.host, port: location.port, username: location.user, password: location.password,
                database: location.database, tls: tls)
        }
        configuration.options.connectTimeout = .seconds(5)
        do {
            let connection = try await PostgresConnection.connect(configuration: configuration, id: 0, logger: logger)
            try? await connection.close()
        } catch {
            throw PostgresFailure.from(error, location: location)
        }
    }

    /// Looks up pgvector's `vector` type, so that its values are read.
    ///
    /// An extension's type has an OID of its own in each database. Run once the schema is in place.
    ///
    /// - Throws: ``PostgresFailure``.
    public func findExtensionTypes() async throws {
        let records = try await withSession { session in
            try await session.rows("SELECT to_regtype('vector')::oid AS oid")
        }
        guard case .integer(let oid)? = records.first?["oid"] else { return }
        vectorType.withLock { $0 = PostgresDataType(UInt32(truncatingIfNeeded: oid)) }
    }

    /// Stops the pool; operations still waiting for a connection fail.
    public func close() async {
        // Cancelling `run()` closes the client (PostgresClient's documentation).
        running.cancel()
        await running.value
    }

    /// Runs `body` in one transaction on one connection, committing when it answers `commit: true` and rolling back
    /// when it answers `false` or throws.
    ///
    /// - Parameters:
    ///   - serializable: Whether the transaction is `SERIALIZABLE` (`@transaction` mutations); such a transaction that
    ///     loses to a concurrent one is run again, up to ``serializationRetries`` times.
    ///   - readOnly: Whether it only reads.
    ///   - body: The work; its session must not outlive it.
    /// - Returns: What `body` answers.
    /// - Throws: ``PostgresFailure``, or what `body` throws.
    public func transaction<T: Sendable>(
        serializable: Bool = false, readOnly: Bool = false,
        _ body: (PostgresSession) async throws -> (T, commit: Bool)
    ) async throws -> T {
        var attempt = 0
        while true {
            do {
                return try await once(serializable: serializable, readOnly: readOnly, body)
            } catch let failure as PostgresFailure
                where failure.kind == .serialization && serializable && attempt < Self.serializationRetries
            {
                attempt += 1
            }
        }
    }

    /// Runs `body` in one transaction that commits when it returns.
    ///
    /// - Parameter body: The work.
    /// - Returns: What `body` answers.
    /// - Throws: ``PostgresFailure``, or what `body` throws.
    public func transaction<T: Sendable>(_ body: (PostgresSession) async throws -> T) async throws -> T {
        try await transaction { session in (try await body(session), commit: true) }
    }

    private func once<T: Sendable>(
        serializable: Bool, readOnly: Bool, _ body: (PostgresSession) async throws -> (T, commit: Bool)
    ) async throws -> T {
        let location = self.location
        let vectorType = vectorType.withLock { $0 }
        do {
            return try await client.withConnection { connection in
                let session = PostgresSession(connection: connection, location: location, vectorType: vectorType)
                let mode = (serializable ? " ISOLATION LEVEL SERIALIZABLE" : "") + (readOnly ? " READ ONLY" : "")
                do {
                    try await session.run("BEGIN" + mode)
                    let result = try await body(session)
                    try await session.run(result.commit ? "COMMIT" : "ROLLBACK")
                    return result.0
                } catch {
                    // A connection that cannot roll back (its request was cancelled mid-statement, say) is in a state
                    // no one knows: closed, so that the pool never hands an open transaction to the next operation.
                    do {
                        try await session.run("ROLLBACK")
                    } catch {
                        try? await connection.close()
                    }
                    throw error
                }
            }
        } catch let error as PSQLError {
            throw PostgresFailure.from(error, location: location)
        }
    }

    /// Runs `body` on one connection outside any transaction: DDL that manages its own, or one statement that is a
    /// transaction by itself.
    ///
    /// - Parameter body: The work.
    /// - Returns: What `body` answers.
    /// - Throws: ``PostgresFailure``, or what `body` throws.
    public func withSession<T: Sendable>(_ body: (PostgresSession) async throws -> T) async throws -> T {
        let location = self.location
        let vectorType = vectorType.withLock { $0 }
        do {
            return try await client.withConnection { connection in
                try await body(PostgresSession(connection: connection, location: location, vectorType: vectorType))
            }
        } catch let error as PSQLError {
            throw PostgresFailure.from(error, location: location)
        }
    }
}

/// One leased connection, for the length of a transaction.
public struct PostgresSession: Sendable {
    let connection: PostgresConnection
    let location: PostgresLocation
    let vectorType: PostgresDataType?

    /// Runs one statement with `$1`, `$2`, … bound to `arguments`, and reads every row it returns.
    ///
    /// - Parameters:
    ///   - sql: The statement.
    ///   - arguments: Its parameters, typed by PostgreSQL from where they stand.
    /// - Returns: The rows.
    /// - Throws: ``PostgresFailure``.
    @discardableResult
    public func rows(_ sql: String, _ arguments: [PostgresValue] = []) async throws -> [PostgresRecord] {
        var bindings = PostgresBindings(capacity: arguments.count)
        for argument in arguments {
            if let text = argument.parameterText {
                bindings.append(UntypedParameter(text: text))
            } else {
                bindings.appendNull()
            }
        }
        do {
            var records: [PostgresRecord] = []
            var columns: [String]?
            for try await row in try await connection.query(
                PostgresQuery(unsafeSQL: sql, binds: bindings), logger: PostgresDatabase.quiet)
            {
                let names = columns ?? row.map(\.columnName)
                columns = names
                records.append(
                    PostgresRecord(
                        columns: names, values: row.map { PostgresValueDecoding.value($0, vector: vectorType) }))
            }
            return records
        } catch let error as PSQLError {
            throw PostgresFailure.from(error, location: location)
        }
    }

    /// Runs a statement that returns no rows.
    ///
    /// - Parameter sql: The statement.
    /// - Throws: ``PostgresFailure``.
    public func run(_ sql: String) async throws {
        try await rows(sql)
    }
}

extension PostgresDatabase {
    static let quiet = Logger(label: "content.postgres.query", factory: { _ in SwiftLogNoOpLogHandler() })
}
