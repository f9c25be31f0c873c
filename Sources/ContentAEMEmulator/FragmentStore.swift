internal import ContentEmulator
internal import ContentJSON
internal import Foundation
internal import GRDB
internal import NIOConcurrencyHelpers

/// Content fragments and persisted queries in SQLite: in memory by default, in a file with `--data`.
///
/// Fragment values are stored as JSON text next to their path and model; queries read them back per
/// model and the GraphQL layer filters, sorts and pages them.
struct FragmentStore: Sendable {
    private let database: DatabaseQueue
    /// Fragments already read and parsed, by path, id and model: at most every fragment once.
    ///
    /// Fragments change only when ``seed(from:)`` loads them, before anything is served, and it empties this; the
    /// emulator has no other write to them.
    private let read = NIOLockedValueBox(ReadFragments())

    private struct ReadFragments {
        var byPath: [String: AEMWorkspace.Fragment] = [:]
        var byID: [String: AEMWorkspace.Fragment] = [:]
        var byModel: [String: [AEMWorkspace.Fragment]] = [:]
        /// Paths asked for that hold no fragment (asset references, mostly), so each is looked up once; the paths are
        /// partly the client's, so the set is emptied when it reaches ``missingLimit``.
        var missing: Set<String> = []
        /// The configurations with persisted queries, until a query is saved.
        var configurations: Set<String>?
        /// Counts saves, so a read that began before one does not keep what it read after it.
        var saves = 0

        mutating func forgetConfigurations() {
            configurations = nil
            saves &+= 1
        }
    }

    private static let missingLimit = 4096

    /// Opens (or creates) a store.
    ///
    /// - Parameter path: A database file, or `nil` for memory.
    /// - Throws: ``EmulatorError/database(_:)``.
    init(path: String?) throws {
        do {
            if let path {
                var configuration = Configuration()
                configuration.prepareDatabase { db in try db.execute(sql: "PRAGMA journal_mode = WAL") }
                try EmulatorDataFile.prepare(path)
                database = try DatabaseQueue(path: path, configuration: configuration)
            } else {
                database = try DatabaseQueue()
            }
            try database.write { db in
                try db.execute(
                    sql: """
                        CREATE TABLE IF NOT EXISTS fragment (
                            path TEXT PRIMARY KEY NOT NULL,
                            id TEXT NOT NULL,
                            model TEXT NOT NULL,
                            data TEXT NOT NULL
                        );
                        CREATE INDEX IF NOT EXISTS fragment_model ON fragment(model);
                        CREATE TABLE IF NOT EXISTS persisted_query (
                            configuration TEXT NOT NULL,
                            name TEXT NOT NULL,
                            query TEXT NOT NULL,
                            cache_control TEXT,
                            PRIMARY KEY (configuration, name)
                        );
                        """
                )
                // A file an earlier version made has no surrogate_control column yet.
                let columns = try db.columns(in: "persisted_query").map(\.name)
                if !columns.contains("surrogate_control") {
                    try db.execute(sql: "ALTER TABLE persisted_query ADD COLUMN surrogate_control TEXT")
                }
            }
        } catch {
            throw EmulatorError.database("\(path ?? ":memory:"): \(error)")
        }
    }

    /// Loads a workspace into an empty store; a store that already holds fragments keeps them.
    ///
    /// - Parameter workspace: The workspace.
    /// - Throws: ``EmulatorError/database(_:)``.
    func seed(from workspace: AEMWorkspace) throws {
        read.withLockedValue { $0 = ReadFragments(saves: $0.saves &+ 1) }
        defer { read.withLockedValue { $0.forgetConfigurations() } }
        do {
            try database.write { db in
                let existing = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM fragment") ?? 0
                if existing == 0 {
                    for fragment in workspace.fragments {
                        try db.execute(
                            sql: "INSERT INTO fragment (path, id, model, data) VALUES (?, ?, ?, ?)",
                            arguments: [
                                fragment.path, fragment.id, fragment.model, JSONValue.object(fragment.values).jsonText,
                            ]
                        )
                    }
                }
                for query in workspace.queries {
                    try db.execute(
                        sql:
                            "INSERT OR IGNORE INTO persisted_query (configuration, name, query, cache_control, surrogate_control) "
                            + "VALUES (?, ?, ?, ?, ?)",
                        arguments: [
                            query.configuration, query.name, query.query, query.cacheControl, query.surrogateControl,
                        ]
                    )
                }
            }
        } catch {
            throw EmulatorError.database("\(error)")
        }
    }

    /// Every fragment of a model, by path.
    func fragments(model: String) throws -> [AEMWorkspace.Fragment] {
        if let known = read.withLockedValue({ $0.byModel[model] }) { return known }
        let found = try database.read { db in
            try Row.fetchAll(
                db, sql: "SELECT path, id, model, data FROM fragment WHERE model = ? ORDER BY path", arguments: [model]
            )
            .map(Self.fragment)
        }
        read.withLockedValue { $0.byModel[model] = found }
        return found
    }

    /// The fragments under a folder (every one when it is `/`), in path order, after a path and at most `limit`.
    func fragments(under folder: String, after: String?, limit: Int) throws -> [AEMWorkspace.Fragment] {
        let prefix = folder.hasSuffix("/") ? folder : folder + "/"
        return try database.read { db in
            try Row.fetchAll(
                db,
                sql: "SELECT path, id, model, data FROM fragment WHERE substr(path, 1, length(?)) = ? AND path > ? "
                    + "ORDER BY path LIMIT ?",
                arguments: [prefix, prefix, after ?? "", limit]
            )
            .map(Self.fragment)
        }
    }

    /// The fragment with an id.
    func fragment(id: String) throws -> AEMWorkspace.Fragment? {
        if let known = read.withLockedValue({ $0.byID[id] }) { return known }
        let found = try database.read { db in
            try Row.fetchOne(db, sql: "SELECT path, id, model, data FROM fragment WHERE id = ?", arguments: [id])
                .map(Self.fragment)
        }
        // Only fragments that exist are kept: the ids asked for are the client's, and unbounded.
        if let found { read.withLockedValue { $0.byID[id] = found } }
        return found
    }

    /// The fragment at a path.
    func fragment(path: String) throws -> AEMWorkspace.Fragment? {
        let known = read.withLockedValue { read -> (fragment: AEMWorkspace.Fragment?, missing: Bool) in
            (read.byPath[path], read.missing.contains(path))
        }
        if let fragment = known.fragment { return fragment }
        if known.missing { return nil }
        let found = try database.read { db in
            try Row.fetchOne(db, sql: "SELECT path, id, model, data FROM fragment WHERE path = ?", arguments: [path])
                .map(Self.fragment)
        }
        read.withLockedValue { read in
            if let found {
                read.byPath[path] = found
            } else {
                if read.missing.count >= Self.missingLimit { read.missing.removeAll(keepingCapacity: true) }
                read.missing.insert(path)
            }
        }
        return found
    }

    private static func fragment(_ row: Row) throws -> AEMWorkspace.Fragment {
        let data: String = row["data"]
        let values = try JSONParser().parse(data).objectValue ?? JSONObject()
        return AEMWorkspace.Fragment(path: row["path"], id: row["id"], model: row["model"], values: values)
    }

    /// One persisted query.
    func persistedQuery(configuration: String, name: String) throws -> AEMWorkspace.PersistedQuery? {
        try database.read { db in
            try Row.fetchOne(
                db,
                sql:
                    "SELECT configuration, name, query, cache_control, surrogate_control FROM persisted_query WHERE configuration = ? AND name = ?",
                arguments: [configuration, name]
            ).map(Self.query)
        }
    }

    /// The persisted queries, of one configuration or all, by configuration and name.
    func persistedQueries(configuration: String?) throws -> [AEMWorkspace.PersistedQuery] {
        try database.read { db in
            if let configuration {
                return try Row.fetchAll(
                    db,
                    sql:
                        "SELECT configuration, name, query, cache_control, surrogate_control FROM persisted_query WHERE configuration = ? ORDER BY name",
                    arguments: [configuration]
                ).map(Self.query)
            }
            return try Row.fetchAll(
                db,
                sql:
                    "SELECT configuration, name, query, cache_control, surrogate_control FROM persisted_query ORDER BY configuration, name"
            ).map(Self.query)
        }
    }

    /// Creates or replaces a persisted query.
    ///
    /// - Returns: Whether the query already existed.
    @discardableResult
    func savePersistedQuery(_ query: AEMWorkspace.PersistedQuery) throws -> Bool {
        defer { read.withLockedValue { $0.forgetConfigurations() } }
        return try database.write { db in
            let existed =
                try Int.fetchOne(
                    db,
                    sql: "SELECT COUNT(*) FROM persisted_query WHERE configuration = ? AND name = ?",
                    arguments: [query.configuration, query.name]
                ) ?? 0 > 0
            try db.execute(
                sql:
                    "INSERT OR REPLACE INTO persisted_query (configuration, name, query, cache_control, surrogate_control) "
                    + "VALUES (?, ?, ?, ?, ?)",
                arguments: [query.configuration, query.name, query.query, query.cacheControl, query.surrogateControl]
            )
            return existed
        }
    }

    /// The configurations that have at least one persisted query.
    func configurations() throws -> Set<String> {
        let known = read.withLockedValue { ($0.configurations, $0.saves) }
        if let configurations = known.0 { return configurations }
        let found = try database.read { db in
            Set(try String.fetchAll(db, sql: "SELECT DISTINCT configuration FROM persisted_query"))
        }
        read.withLockedValue { read in
            if read.saves == known.1 { read.configurations = found }
        }
        return found
    }

    private static func query(_ row: Row) -> AEMWorkspace.PersistedQuery {
        AEMWorkspace.PersistedQuery(
            configuration: row["configuration"],
            name: row["name"],
            query: row["query"],
            cacheControl: row["cache_control"],
            surrogateControl: row["surrogate_control"]
        )
    }
}
