import ContentTesting
import Foundation
import Testing

/// `content serve --postgres` through the built binary, with PostgreSQL's own `psql` as the independent reader: the
/// DDL it prints is what PostgreSQL accepts and what the engine makes, rows the CLI writes are in the tables, and a
/// server it cannot use is a clear exit.
///
/// The server is the one `CONTENT_TEST_POSTGRES` names (`.ci/run` starts one); each test makes a database of its own
/// with `psql`. Without it, or without `psql`, those tests skip with a note.
struct PostgresEndToEndTests {
    /// The server's URL and a way to run `psql` on a database of it, or nil with a note.
    private static func server() throws -> String? {
        guard let url = ProcessInfo.processInfo.environment["CONTENT_TEST_POSTGRES"], !url.isEmpty else {
            print("note: skipping the content serve --postgres end-to-end tests: CONTENT_TEST_POSTGRES is not set")
            return nil
        }
        let found = try ContentProcess.run(shell: "command -v psql", in: URL(fileURLWithPath: "/"))
        guard found.status == 0 else {
            print("note: skipping the content serve --postgres end-to-end tests: psql is not on PATH")
            return nil
        }
        return url
    }

    /// The URL of `database` on the server `url` names.
    private static func url(_ url: String, database: String) -> String {
        var components = URLComponents(string: url)
        components?.path = "/\(database)"
        return components?.string ?? url
    }

    /// Runs `psql` with a script on a database, failing on the first error.
    @discardableResult
    private static func psql(_ url: String, _ sql: String) throws -> ContentProcess.Result {
        let quoted = "'" + url.replacingOccurrences(of: "'", with: "'\\''") + "'"
        let script = "'" + sql.replacingOccurrences(of: "'", with: "'\\''") + "'"
        let result = try ContentProcess.run(
            shell: "psql -X -q -A -t -v ON_ERROR_STOP=1 -d \(quoted) -c \(script)", in: URL(fileURLWithPath: "/"))
        #expect(result.status == 0, "psql: \(result.stderr)")
        return result
    }

    /// A fresh database for `body`, dropped after it.
    private static func withDatabase(_ server: String, _ body: (String) throws -> Void) throws {
        let name = "content_e2e_\(UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: ""))"
        try psql(server, "CREATE DATABASE \(name)")
        defer { _ = try? psql(server, "DROP DATABASE \(name) WITH (FORCE)") }
        try body(url(server, database: name))
    }

    /// The public tables' columns as the catalog describes them, one line each.
    ///
    /// Views are left out: the engine's number their rows, and the script shows each SELECT as written.
    private static func catalog(_ url: String) throws -> String {
        try psql(
            url,
            "SELECT c.table_name, c.column_name, c.data_type, c.is_nullable, coalesce(c.column_default, '') "
                + "FROM information_schema.columns c JOIN information_schema.tables t "
                + "ON t.table_schema = c.table_schema AND t.table_name = c.table_name "
                + "WHERE c.table_schema = 'public' AND t.table_type = 'BASE TABLE' ORDER BY 1, 2"
        ).stdout
    }

    @Test func thePrintedSchemaIsWhatPostgreSQLAcceptsAndWhatTheEngineMakes() throws {
        guard let server = try Self.server() else { return }
        let printed = try ContentProcess.run(
            [
                "serve", "--workspace", ContentProcess.repository.appendingPathComponent("examples").path,
                "--print-schema-sql",
            ],
            in: URL(fileURLWithPath: "/"))
        #expect(printed.status == 0, "\(printed.stderr)")
        #expect(printed.stdout.contains(#"CREATE TABLE "public"."movie""#), "\(printed.stdout)")
        #expect(printed.stdout.contains(#"CREATE VIEW "public"."genre_summary" AS"#), "\(printed.stdout)")
        try Self.withDatabase(server) { byHand in
            let scratch = try Scratch()
            let file = try scratch.write(printed.stdout, to: "schema.sql")
            let loaded = try ContentProcess.run(
                shell: "psql -X -q -v ON_ERROR_STOP=1 -d '\(byHand)' -f '\(file.path)'", in: scratch.url)
            #expect(loaded.status == 0, "PostgreSQL refused the printed DDL: \(loaded.stderr)")
            try Self.withDatabase(server) { byEngine in
                try ContentProcess.withServices(["--postgres", byEngine]) { _ in }
                let expected = try Self.catalog(byHand)
                #expect(!expected.isEmpty)
                #expect(try Self.catalog(byEngine) == expected)
            }
        }
    }

    @Test func theCLIQueriesAndWritesRowsThatPostgreSQLHolds() throws {
        guard let server = try Self.server() else { return }
        try Self.withDatabase(server) { url in
            let scratch = try Scratch()
            try ContentProcess.withServices(["--postgres", url]) { services in
                let base = try #require(services["dataconnect"])
                let workspace = ContentProcess.repository.appendingPathComponent("examples/dataconnect").path
                try scratch.write(
                    "backends:\n  movies-app:\n    type: dataconnect\n    workspace: \"\(workspace)\"\n"
                        + "    project: demo\n    emulator: \"\(base.replacingOccurrences(of: "http://", with: ""))\"\n",
                    to: "content.yaml")
                let listed = try ContentProcess.run(
                    ["query", "movies", "listMoviesByGenre", "--genre", "Sci-Fi", "-o", "csv"], in: scratch.url)
                #expect(listed.status == 0, "\(listed.stderr)")
                #expect(
                    listed.stdout == """
                        id,title,releaseYear,genre,rating
                        0b5c1b1e3a524c7e9d0b6f1e8a2c4d01,Orbit of Glass,2019,Sci-Fi,8.4
                        0b5c1b1e3a524c7e9d0b6f1e8a2c4d04,Signal Drift,2023,Sci-Fi,7.6
                        0b5c1b1e3a524c7e9d0b6f1e8a2c4d07,Second Sun,2024,Sci-Fi,6.5

                        """)
                let created = try ContentProcess.run(
                    [
                        "mutate", "movies", "createMovie", "--title", "Dust Lanes", "--release-year", "2025",
                        "--genre", "Sci-Fi", "--tags", "space", "--tags", "desert", "-o", "json",
                    ],
                    in: scratch.url)
                #expect(created.status == 0, "\(created.stderr)")
            }
            // Read back by PostgreSQL itself after the server stopped: committed, with native types.
            let row = try Self.psql(
                url, "SELECT title, release_year, tags, pg_typeof(id) FROM movie WHERE title = 'Dust Lanes'")
            #expect(row.stdout == "Dust Lanes|2025|{space,desert}|uuid\n", "\(row.stdout)")
        }
    }

    @Test func aServerThatCannotBeReachedExitsFourNamingItWithoutThePassword() throws {
        let result = try ContentProcess.run(
            [
                "serve", "--workspace", ContentProcess.repository.appendingPathComponent("examples").path,
                "--aem-port", "0", "--dataconnect-port", "0", "--resource-port", "0",
                "--postgres", "postgresql://app:s3cret@127.0.0.1:1/content?sslmode=disable",
            ],
            in: URL(fileURLWithPath: "/"))
        #expect(result.status == 4, "\(result.stderr)")
        #expect(result.stderr.contains("postgresql://app@127.0.0.1:1/content"), "\(result.stderr)")
        #expect(!result.stderr.contains("s3cret") && !result.stdout.contains("s3cret"))
    }

    @Test(arguments: [
        (["--postgres-pool", "0"], "--postgres-pool takes 1 to 256"),
        (["--reset"], "--reset drops PostgreSQL tables: give --postgres URL"),
        (["--data", "rows.db", "--postgres", "postgresql://app:s3cret@db/x"], "give one"),
        (["--postgres", "mysql://app:s3cret@db/x"], "is not a PostgreSQL URL"),
    ])
    func flagsThatCannotWorkTogetherAreUsageErrors(arguments: [String], message: String) throws {
        let result = try ContentProcess.run(
            ["serve", "--aem-port", "0", "--dataconnect-port", "0", "--resource-port", "0"] + arguments,
            in: URL(fileURLWithPath: "/"), environment: ["FIREBASE_DATACONNECT_POSTGRESQL_STRING": ""])
        #expect(result.status == 2, "\(result.stderr)")
        #expect(result.stderr.contains(message), "\(result.stderr)")
        #expect(!result.stderr.contains("s3cret"), "\(result.stderr)")
    }

    @Test func tablesTheSchemaCannotMigrateExitThreeAndResetRecreatesThem() throws {
        guard let server = try Self.server() else { return }
        try Self.withDatabase(server) { url in
            try Self.psql(url, "CREATE TABLE movie (id uuid PRIMARY KEY, title integer)")
            let refused = try ContentProcess.run(
                [
                    "serve", "--workspace", ContentProcess.repository.appendingPathComponent("examples").path,
                    "--aem-port", "0", "--dataconnect-port", "0", "--resource-port", "0", "--postgres", url,
                ],
                in: URL(fileURLWithPath: "/"))
            #expect(refused.status == 3, "\(refused.stderr)")
            #expect(refused.stderr.contains("movie.title: the column is int4 and the schema makes it text"))
            #expect(refused.stderr.contains("--reset"), "\(refused.stderr)")
            try ContentProcess.withServices(["--postgres", url, "--reset"]) { _, log in
                #expect(log.text.contains("dropping table public.movie and its rows (--reset)"), "\(log.text)")
            }
            #expect(try Self.psql(url, "SELECT count(*) FROM movie").stdout == "9\n")
        }
    }
}
