import ContentDataConnect
import ContentEmulatorTesting
import ContentJSON
import Foundation
import Testing

/// `@view` types: rows from a SELECT, listed, filtered, ordered and reached from tables, never looked up or changed.
struct DataConnectViewTests {
    static let schema = """
        type Movie @table { title: String!, genre: String }
        type Review @table { movie: Movie!, stars: Int! }
        # Per movie, from its reviews; `missing` is not in the SELECT, so it is null.
        type MovieStats @view(
          sql: \"\"\"
          SELECT movie_id, COUNT(*) AS review_count, AVG(stars) AS average_stars
          FROM review GROUP BY movie_id;
          \"\"\"
          singular: "stat", plural: "stats"
        ) {
          movie: Movie @unique
          reviewCount: Int
          averageStars: Float
          missing: String
        }
        type GenreCount @view(sql: "SELECT genre, COUNT(*) AS movies FROM movie GROUP BY genre") {
          genre: String
          movies: Int
        }
        type Today @view(sql: "SELECT now()::date AS day") { day: Date }
        type Archived @view(name: "archived_movies") { title: String }
        type Two @view(sql: "SELECT 1 AS n; SELECT 2 AS n") { n: Int }
        type Commented @view(sql: "SELECT title FROM movie -- every title") { title: String, note: String }
        """

    static func withViews(
        engine: DataConnectHarness.Engine = .sqlite, _ body: @Sendable (DataConnectHarness.Client) async throws -> Void
    ) async throws {
        let folder = try DataConnectHarness.workspace(
            schema: schema, operations: "query Q @auth(level: PUBLIC) { genreCounts { genre } }")
        defer { try? FileManager.default.removeItem(at: folder) }
        try await DataConnectHarness.run(workspace: folder, engine: engine) { client async throws in
            _ = try await client.data(
                """
                mutation {
                  a: movie_insert(data: {id: "00000000000000000000000000000001", title: "Alpha", genre: "Drama"})
                  b: movie_insert(data: {id: "00000000000000000000000000000002", title: "Beta", genre: "Drama"})
                  c: movie_insert(data: {id: "00000000000000000000000000000003", title: "Gamma", genre: "Comedy"})
                  r1: review_insert(data: {movieId: "00000000000000000000000000000001", stars: 4})
                  r2: review_insert(data: {movieId: "00000000000000000000000000000001", stars: 5})
                  r3: review_insert(data: {movieId: "00000000000000000000000000000002", stars: 2})
                }
                """)
            try await body(client)
        }
    }

    @Test(arguments: DataConnectHarness.Engine.all) func aViewIsListedFilteredOrderedAndPaged(
        engine: DataConnectHarness.Engine
    ) async throws {
        try await Self.withViews(engine: engine) { client async throws in
            let data = try await client.data(
                """
                {
                  all: genreCounts(orderBy: {movies: DESC}) { genre movies }
                  drama: genreCounts(where: {genre: {eq: "Drama"}}) { movies }
                  second: genreCounts(orderBy: {genre: ASC}, limit: 1, offset: 1) { genre }
                  stats(orderBy: {averageStars: DESC}) { reviewCount averageStars missing movie { title } }
                }
                """)
            #expect(data["all"]?.jsonText == #"[{"genre":"Drama","movies":2},{"genre":"Comedy","movies":1}]"#)
            #expect(data["drama"]?.jsonText == #"[{"movies":2}]"#)
            #expect(data["second"]?.jsonText == #"[{"genre":"Drama"}]"#)
            #expect(
                data["stats"]?.jsonText
                    == #"[{"reviewCount":2,"averageStars":4.5,"missing":null,"movie":{"title":"Alpha"}},"#
                    + #"{"reviewCount":1,"averageStars":2.0,"missing":null,"movie":{"title":"Beta"}}]"#,
                "\(data)")
        }
    }

    @Test(arguments: DataConnectHarness.Engine.all) func aFieldTheSelectLacksIsNullAndCanBeFilteredOn(
        engine: DataConnectHarness.Engine
    ) async throws {
        try await Self.withViews(engine: engine) { client async throws in
            let data = try await client.data(
                """
                {
                  all: commenteds(where: {note: {isNull: true}}, orderBy: [{note: ASC}, {title: ASC}]) { title note }
                  none: commenteds(where: {note: {eq: "x"}}) { title }
                }
                """)
            // The SELECT ends in a comment; the view still reads.
            #expect(data["all"]?.strings("title") == ["Alpha", "Beta", "Gamma"])
            #expect(data["all"]?.arrayValue?.allSatisfy { $0["note"] == .null } == true)
            #expect(data["none"]?.arrayValue?.isEmpty == true)
        }
    }

    @Test(arguments: DataConnectHarness.Engine.all) func aTableReachesItsViewRowsAndTheViewSeesNewWrites(
        engine: DataConnectHarness.Engine
    ) async throws {
        try await Self.withViews(engine: engine) { client async throws in
            _ = try await client.data(
                #"mutation { review_insert(data: {movieId: "00000000000000000000000000000003", stars: 3}) }"#)
            let data = try await client.data(
                """
                {
                  movies(orderBy: {title: ASC}) { title stat_on_movie { reviewCount } }
                  reviewed: movies(where: {stat_on_movie: {averageStars: {ge: 3}}}, orderBy: {title: ASC}) { title }
                }
                """)
            let counts = (data["movies"]?.arrayValue ?? []).map { $0["stat_on_movie"]?["reviewCount"]?.jsonText }
            #expect(counts == ["2", "1", "1"], "\(data)")
            #expect(data["reviewed"]?.strings("title") == ["Alpha", "Gamma"])
        }
    }

    @Test func aViewHasNoLookupNoKeyAndNoMutations() throws {
        let folder = try DataConnectHarness.workspace(schema: Self.schema, operations: "")
        defer { try? FileManager.default.removeItem(at: folder) }
        let sdl = DataConnectSDL.make(try DataConnectWorkspace.load(from: folder).schema)
        #expect(sdl.contains("  stats(where: MovieStats_Filter"))
        for absent in ["  stat(", "stat_insert", "stat_update", "stat_delete", "MovieStats_Key", "MovieStats_Data"] {
            #expect(!sdl.contains(absent), "\(absent)")
        }
        // Nested inserts do not reach a view.
        #expect(!sdl.contains("stats_on_movie: [MovieStats_Data!]"))
    }

    @Test(arguments: DataConnectHarness.Engine.all)
    func aSelectSQLiteCannotRunOrAViewItDoesNotHaveIsAnErrorThatSaysWhatToDo(engine: DataConnectHarness.Engine)
        async throws
    {
        try await Self.withViews(engine: engine) { client async throws in
            let today = try await client.graphql("{ todays { day } }")
            if case .postgres = engine {
                // Differs by design: PostgreSQL runs PostgreSQL's SQL as written, as the service does.
                #expect(today.json?["data"]?["todays"]?.arrayValue?.count == 1, "\(today.text)")
            } else {
                #expect(today.text.contains("does not run on the emulator's SQLite"), "\(today.text)")
                #expect(today.text.contains("runs it on PostgreSQL"), "\(today.text)")
            }
            let archived = try await client.graphql("{ archiveds { title } }")
            #expect(archived.text.contains("reads the database view archived_movies"), "\(archived.text)")
            #expect(archived.text.contains("@view(sql:)"), "\(archived.text)")
            #expect(archived.text.contains("no such view: archived_movies"), "\(archived.text)")
            let two = try await client.graphql("{ twos { n } }")
            #expect(two.text.contains("@view(sql:) takes one SELECT"), "\(two.text)")
            // The other views still answer.
            #expect(try await client.data("{ genreCounts { genre } }")["genreCounts"]?.arrayValue?.count == 2)
        }
    }

    @Test func aDataFileOpensAgainWhenAViewChanges() async throws {
        let data = FileManager.default.temporaryDirectory.appendingPathComponent("views-\(UUID().uuidString).db")
        defer { try? FileManager.default.removeItem(at: data) }
        for sql in ["SELECT genre FROM movie", "SELECT upper(genre) AS genre FROM movie"] {
            let folder = try DataConnectHarness.workspace(
                schema: "type Movie @table { genre: String }\ntype Genre @view(sql: \"\(sql)\") { genre: String }",
                operations: "")
            defer { try? FileManager.default.removeItem(at: folder) }
            try await DataConnectHarness.run(workspace: folder, dataFile: data.path) { client async throws in
                _ = try await client.data(#"mutation { movie_insert(data: {genre: "drama"}) }"#)
                let genres = try await client.data("{ genres { genre } }")["genres"]?.strings("genre")
                #expect(Set(genres ?? []) == [sql.contains("upper") ? "DRAMA" : "drama"])
            }
        }
    }

    @Test func viewMistakesAreNamedWhereTheyAre() throws {
        let mistakes = [
            (
                "type Movie @table { title: String }\ntype V @view(sql: \"SELECT 1 AS n\") { n: Int! }",
                "schema.gql:2:38: V.n is non-null, but the fields of a @view must be nullable"
            ),
            (
                "type V @view(sql: \"SELECT 1 AS n\") { n: Int }\ntype T @table { v: V }",
                "T.v refers to V, a @view"
            ),
            (
                "type V @view(sql: \"SELECT 1 AS n\", name: \"v\") { n: Int }",
                "@view on V gives both name and sql"
            ),
            (
                "type Movie @table { title: String }\ntype Movies @view(name: \"movie\") { title: String }",
                "Movies is stored as movie, which Movie already uses"
            ),
        ]
        for (schema, message) in mistakes {
            let folder = try DataConnectHarness.workspace(schema: schema, operations: "")
            defer { try? FileManager.default.removeItem(at: folder) }
            #expect {
                _ = try DataConnectWorkspace.load(from: folder)
            } throws: { error in
                "\(error)".contains(message)
            }
        }
    }
}
