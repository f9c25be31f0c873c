public import ContentDataConnect
internal import Foundation

/// A database whose tables the schema cannot use without losing or changing data.
public struct PostgresSchemaConflict: Error, CustomStringConvertible, Sendable {
    /// The table, by its SQL name.
    public var table: String
    /// The column, by its SQL name, when one is at issue.
    public var column: String?
    /// What the schema would change.
    public var reason: String

    /// What conflicts, and what to do.
    public var description: String {
        "\(table)\(column.map { ".\($0)" } ?? ""): \(reason); the schema can only add tables, nullable columns and "
            + "indexes to a database made by an earlier one. Pass --reset to drop the schema's tables and recreate "
            + "them (their rows are lost), or point --postgres at another database"
    }
}

/// Brings a database to a schema: creates what is missing when that only adds, and refuses any other change.
///
/// Firebase migrates a deployed service with `firebase dataconnect:sql:migrate`, which asks before anything
/// destructive; the emulator does the additive part by itself and leaves the rest to an explicit `--reset`.
public enum PostgresSchemaMigration {
    /// What preparing the database did.
    public struct Outcome: Sendable {
        /// Whether every table was made now, so that seed data should run.
        public var isNew: Bool
        /// One line per change, for the log.
        public var changes: [String]
    }

    /// Prepares `database` for `schema`.
    ///
    /// - Parameters:
    ///   - schema: The tables.
    ///   - database: The server.
    ///   - validation: How the existing tables are held to the schema: `STRICT` refuses a column the schema does not
    ///     have, a changed type and a column made required; `COMPATIBLE` accepts columns the schema does not use;
    ///   `NONE` checks nothing. Missing tables and columns are made in every mode.
    ///   - reset: Whether to drop the schema's existing tables first.
    ///   - announce: Told each table `reset` drops, before it is dropped.
    /// - Returns: Whether the tables are new, and what changed.
    /// - Throws: ``PostgresSchemaConflict``, or ``PostgresFailure``.
    public static func prepare(
        _ schema: DataConnectSchema, on database: PostgresDatabase,
        validation: DataConnectWorkspace.SchemaValidation = .strict, reset: Bool, announce: (String) -> Void
    ) async throws -> Outcome {
        let tables = schema.tables.filter { !$0.isView }
        var existing = try await catalog(database)
        if reset {
            let doomed = tables.map(\.sqlName).filter { existing[$0] != nil }
            if !doomed.isEmpty {
                for name in doomed {
                    announce("dropping table public.\(name) and its rows (--reset)")
                }
                try await database.withSession { session in
                    try await session.run(
                        "DROP TABLE IF EXISTS "
                            + doomed.map { PostgresSchemaSQL.qualified($0) }.joined(separator: ", ") + " CASCADE")
                }
                existing = try await catalog(database)
            }
        }
        var statements: [String] = []
        var changes: [String] = []
        var created: [DataConnectSchema.Table] = []
        if let vector = tables.lazy.flatMap({ table in table.columns.map { (table, $0) } })
            .first(where: { $0.1.type == .vector })
        {
            try await requireVector(database, table: vector.0, column: vector.1)
        }
        for table in tables {
            guard let columns = existing[table.sqlName] else {
                statements.append(PostgresSchemaSQL.createTable(table, in: schema))
                statements += PostgresSchemaSQL.indexes(table)
                created.append(table)
                changes.append("created table public.\(table.sqlName)")
                continue
            }
            for column in table.columns {
                guard let found = columns[column.sqlName] else {
                    guard !column.isRequired || column.defaultValue != nil else {
                        throw PostgresSchemaConflict(
                            table: table.sqlName, column: column.sqlName,
                            reason: "the schema adds the required column \(column.field) with no default, which the "
                                + "rows already there cannot have")
                    }
                    statements.append(
                        "ALTER TABLE \(PostgresSchemaSQL.qualified(table.sqlName)) ADD COLUMN "
                            + PostgresSchemaSQL.columnDefinition(column))
                    changes.append("added column public.\(table.sqlName).\(column.sqlName)")
                    continue
                }
                let wanted = PostgresSchemaSQL.catalogType(column)
                if validation == .none { continue }
                guard found.type == wanted else {
                    throw PostgresSchemaConflict(
                        table: table.sqlName, column: column.sqlName,
                        reason: "the column is \(found.type) and the schema makes it \(wanted)")
                }
                if column.isRequired && found.isNullable {
                    throw PostgresSchemaConflict(
                        table: table.sqlName, column: column.sqlName,
                        reason: "the schema makes the nullable column required")
                }
            }
            let kept = Set(table.columns.map(\.sqlName))
            if validation == .strict, let dropped = columns.keys.sorted().first(where: { !kept.contains($0) }) {
                throw PostgresSchemaConflict(
                    table: table.sqlName, column: dropped,
                    reason: "the schema does not have this column, which schemaValidation STRICT (the default) "
                        + "refuses; set schema.datasource.postgresql.schemaValidation: COMPATIBLE in dataconnect.yaml "
                        + "to keep it")
            }
            // Indexes are named, so one the database lacks is made and one it has is left alone.
            statements += PostgresSchemaSQL.indexes(table)
        }
        statements += created.flatMap { PostgresSchemaSQL.foreignKeys($0, in: schema) }
        let planned = statements
        if !planned.isEmpty {
            try await database.transaction { session in
                for statement in planned { try await session.run(statement) }
            }
        }
        return Outcome(isNew: !created.isEmpty && created.count == tables.count, changes: changes)
    }

    /// Each table of `public` with its columns' catalog types and nullability.
    static func catalog(_ database: PostgresDatabase) async throws -> [String: [String: (
        type: String, isNullable: Bool
    )]] {
        let rows = try await database.withSession { session in
            try await session.rows(
                "SELECT table_name::text, column_name::text, udt_name::text, is_nullable::text "
                    + "FROM information_schema.columns WHERE table_schema = 'public'")
        }
        var tables: [String: [String: (type: String, isNullable: Bool)]] = [:]
        for row in rows {
            guard case .text(let table)? = row["table_name"], case .text(let column)? = row["column_name"],
                case .text(let type)? = row["udt_name"], case .text(let nullable)? = row["is_nullable"]
            else { continue }
            tables[table, default: [:]][column] = (type, nullable == "YES")
        }
        return tables
    }

    /// Makes sure pgvector is there for a `Vector` column, installing it when the server has it.
    private static func requireVector(
        _ database: PostgresDatabase, table: DataConnectSchema.Table, column: DataConnectSchema.Column
    ) async throws {
        do {
            try await database.withSession { session in
                try await session.run("CREATE EXTENSION IF NOT EXISTS vector")
            }
        } catch let failure as PostgresFailure where failure.kind == .other {
            throw PostgresSchemaConflict(
                table: table.sqlName, column: column.sqlName,
                reason: "\(table.typeName).\(column.field) is a Vector, which needs the pgvector extension, and "
                    + "PostgreSQL says: \(failure.message). Install pgvector on the server (Debian: "
                    + "postgresql-NN-pgvector), or run the emulator without --postgres")
        }
    }
}
