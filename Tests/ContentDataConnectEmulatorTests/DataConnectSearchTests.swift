import ContentDataConnect
import ContentEmulatorTesting
import ContentJSON
import Foundation
import Testing

/// `_id`, vector similarity search and full-text search, as the service generates and answers them.
struct DataConnectSearchTests {
    static let schema = """
        type Movie @table {
          title: String! @searchable
          description: String @searchable
          genre: String
          embedding: Vector @col(size: 3)
          frames: [Vector] @col(size: 2)
        }
        type Tag @table(key: ["movie", "name"]) {
          movie: Movie!
          name: String!
        }
        """

    static let operations = """
        query Search($q: String) @auth(level: PUBLIC) { movies_search(query: $q) { title } }
        """

    /// The movies every test here starts with: id, title, genre, description and embedding.
    static let movies: [(id: String, title: String, genre: String, description: String, embedding: String?)] = [
        ("00000000000000000000000000000001", "The Running Man", "Action", "A man runs for his life", "[1, 0, 0]"),
        ("00000000000000000000000000000002", "Run Lola Run", "Thriller", "Lola runs to save Manni", "[0, 1, 0]"),
        ("00000000000000000000000000000003", "A Quiet Place", "Horror", "A family lives in silence", "[0.9, 0.1, 0]"),
        ("00000000000000000000000000000004", "Man on Fire", "Action", "A bodyguard seeks revenge", nil),
    ]

    /// Runs `body` on an emulator holding ``movies`` and two tags.
    ///
    /// On a PostgreSQL server without pgvector (Debian 12's PostgreSQL 15 does not package it) the movies have no
    /// embedding, and a test that needs one (`needsVectors`) skips, saying so.
    static func withMovies(
        engine: DataConnectHarness.Engine = .sqlite, needsVectors: Bool = false,
        _ body: @Sendable (DataConnectHarness.Client) async throws -> Void
    ) async throws {
        var vectors = true
        if case .postgres(let server) = engine, !(try await DataConnectHarness.hasPgvector(server)) {
            if needsVectors {
                // The server named for these tests must have it: a silent skip would pass without testing anything.
                #expect(
                    ProcessInfo.processInfo.environment["CONTENT_TEST_PGVECTOR"] != server,
                    "CONTENT_TEST_PGVECTOR names a server without the pgvector extension")
                print("note: skipping a vector similarity test on PostgreSQL: the server has no pgvector extension")
                return
            }
            vectors = false
        }
        let schema =
            vectors
            ? schema
            : schema.split(separator: "\n", omittingEmptySubsequences: false).filter { !$0.contains("Vector") }
                .joined(separator: "\n")
        let folder = try DataConnectHarness.workspace(schema: schema, operations: operations)
        defer { try? FileManager.default.removeItem(at: folder) }
        let rows = movies.map { movie in
            "{id: \"\(movie.id)\", title: \"\(movie.title)\", genre: \"\(movie.genre)\", "
                + "description: \"\(movie.description)\""
                + ((vectors ? movie.embedding : nil).map { ", embedding: \($0)" } ?? "") + "}"
        }
        try await DataConnectHarness.run(workspace: folder, engine: engine) { client in
            _ = try await client.data(
                """
                mutation {
                  movie_insertMany(data: [\(rows.joined(separator: "\n"))])
                  a: tag_insert(data: {movieId: "00000000000000000000000000000001", name: "classic"})
                  b: tag_insert(data: {movieId: "00000000000000000000000000000002", name: "classic"})
                }
                """)
            try await body(client)
        }
    }

    static func titles(_ value: JSONValue?) -> [String] {
        value?.strings("title") ?? []
    }

    /// The titles a search finds, by title.
    static func search(_ client: DataConnectHarness.Client, _ query: String, _ format: String) async throws
        -> [String]
    {
        let text = JSONValue.string(query).jsonText
        let data = try await client.data(
            "{ movies_search(query: \(text), queryFormat: \(format), orderBy: {title: ASC}) { title } }")
        return titles(data["movies_search"])
    }

    static func number(_ value: JSONValue?) -> Double? {
        guard case .number(let number)? = value else { return nil }
        return number.doubleValue
    }

    // MARK: - _id

    @Test(arguments: DataConnectHarness.Engine.all) func idIsTheSameForTheSameRowAndDiffersBetweenRows(
        engine: DataConnectHarness.Engine
    ) async throws {
        try await Self.withMovies(engine: engine) { client async throws in
            let data = try await client.data(
                """
                {
                  one: movie(id: "00000000000000000000000000000001") { _id }
                  all: movies(orderBy: {title: ASC}) { title _id }
                  tags { name movie { title } _id }
                }
                """)
            let ids = (data["all"]?.arrayValue ?? []).compactMap { $0["_id"]?.stringValue }
            #expect(ids.count == 4)
            #expect(Set(ids).count == 4)
            let running = data["all"]?.arrayValue?.first { $0["title"]?.stringValue == "The Running Man" }
            #expect(data["one"]?["_id"] != nil)
            #expect(data["one"]?["_id"] == running?["_id"])
            // A composite key: the two tags share a name and differ by movie.
            let tagIDs = (data["tags"]?.arrayValue ?? []).compactMap { $0["_id"]?.stringValue }
            #expect(tagIDs.count == 2 && Set(tagIDs).count == 2)
            #expect(Set(tagIDs).isDisjoint(with: ids))
        }
    }

    @Test(arguments: DataConnectHarness.Engine.all) func idBesideAggregatesIsAnErrorThatSaysWhy(
        engine: DataConnectHarness.Engine
    ) async throws {
        try await Self.withMovies(engine: engine) { client async throws in
            let exchange = try await client.graphql("{ movies { genre _count _id } }")
            #expect(exchange.text.contains("_id cannot be selected beside aggregates"), "\(exchange.text)")
        }
    }

    // MARK: - Vector similarity

    @Test(arguments: DataConnectHarness.Engine.withVectors) func similarityOrdersByDistanceClosestFirstForEachMethod(
        engine: DataConnectHarness.Engine
    ) async throws {
        try await Self.withMovies(engine: engine, needsVectors: true) { client async throws in
            let data = try await client.data(
                """
                {
                  inner: movies_embedding_similarity(compare: [1, 0, 0]) { title _metadata { distance } }
                  l2: movies_embedding_similarity(compare: [1, 0, 0], method: L2) { title _metadata { distance } }
                  cosine: movies_embedding_similarity(compare: [1, 0, 0], method: COSINE) {
                    title _metadata { distance }
                  }
                }
                """)
            // A row without a vector has no distance and comes last, as PostgreSQL sorts nulls ascending.
            let order = ["The Running Man", "A Quiet Place", "Run Lola Run", "Man on Fire"]
            for method in ["inner", "l2", "cosine"] {
                #expect(Self.titles(data[method]) == order, "\(method)")
            }
            func distances(_ method: String) -> [Double?] {
                (data[method]?.arrayValue ?? []).map { Self.number($0["_metadata"]?["distance"]) }
            }
            // pgvector's `<#>` is the negated inner product.
            let inner = distances("inner")
            #expect(inner[0] == -1 && inner[2] == 0 && inner[3] == nil)
            #expect(abs((inner[1] ?? 0) + 0.9) < 1e-6)
            let l2 = distances("l2")
            #expect(
                l2[0] == 0 && abs((l2[1] ?? 0) - 0.02.squareRoot()) < 1e-6 && abs((l2[2] ?? 0) - 2.squareRoot()) < 1e-6)
            let cosine = distances("cosine")
            #expect(cosine[0] == 0 && abs((cosine[1] ?? 0) - (1 - 0.9 / 0.82.squareRoot())) < 1e-6 && cosine[2] == 1)
        }
    }

    @Test(arguments: DataConnectHarness.Engine.withVectors)
    func similarityKeepsRowsWithinTheDistanceAndAppliesWhereLimitAndOffset(engine: DataConnectHarness.Engine)
        async throws
    {
        try await Self.withMovies(engine: engine, needsVectors: true) { client async throws in
            let data = try await client.data(
                """
                {
                  near: movies_embedding_similarity(compare: [1, 0, 0], method: L2, within: 0.5) { title }
                  action: movies_embedding_similarity(compare: [0, 1, 0], where: {genre: {eq: "Action"}}) { title }
                  paged: movies_embedding_similarity(compare: [1, 0, 0], limit: 1, offset: 1) { title }
                  plain: movies(orderBy: {title: ASC}, limit: 1) { title _metadata { distance relevance } }
                }
                """)
            #expect(Self.titles(data["near"]) == ["The Running Man", "A Quiet Place"])
            #expect(Self.titles(data["action"]) == ["The Running Man", "Man on Fire"])
            #expect(Self.titles(data["paged"]) == ["A Quiet Place"])
            // Outside a search, both are null.
            let plain = data["plain"]?.arrayValue?.first?["_metadata"]
            #expect(plain?["distance"] == .null && plain?["relevance"] == .null, "\(String(describing: plain))")
        }
    }

    @Test(arguments: DataConnectHarness.Engine.withVectors)
    func similarityRefusesEmbeddingsAVectorOfTheWrongSizeAndANonFiniteOne(engine: DataConnectHarness.Engine)
        async throws
    {
        try await Self.withMovies(engine: engine, needsVectors: true) { client async throws in
            let embed = try await client.graphql(
                #"{ movies_embedding_similarity(compare_embed: {model: "textembedding-gecko@003", text: "run"}) { title } }"#
            )
            #expect(embed.text.contains("compare_embed asks Vertex AI"), "\(embed.text)")
            let size = try await client.graphql("{ movies_embedding_similarity(compare: [1, 0]) { title } }")
            #expect(size.text.contains("expected 3 dimensions, not 2"), "\(size.text)")
            let missing = try await client.graphql("{ movies_embedding_similarity { title } }")
            #expect(missing.text.contains("needs compare"), "\(missing.text)")
            let huge = try await client.graphql("{ movies_embedding_similarity(compare: [1e300, 0, 0]) { title } }")
            #expect(huge.text.contains("finite numbers"), "\(huge.text)")
        }
    }

    /// pgvector keeps single-precision numbers, so a number comes back as the nearest `Float`, on both engines; a
    /// number beyond that range is refused in pgvector's words, and a cosine distance from a vector of zeros (NaN in
    /// pgvector) is null and sorts last.
    @Test(arguments: DataConnectHarness.Engine.withVectors) func vectorsAreKeptInSinglePrecisionAsPgvectorKeepsThem(
        engine: DataConnectHarness.Engine
    ) async throws {
        try await Self.withMovies(engine: engine, needsVectors: true) { client async throws in
            let id = "00000000000000000000000000000009"
            _ = try await client.data(
                """
                mutation {
                  movie_insert(data: {id: "\(id)", title: "Precise", embedding: [0.123456789, 1, -2.5]})
                  zero: movie_insert(data: {title: "Zero", embedding: [0, 0, 0]})
                }
                """)
            let read = try await client.data(#"{ movie(id: "\#(id)") { embedding } }"#)
            #expect(read["movie"]?["embedding"]?.jsonText == "[0.12345679,1,-2.5]", "\(read)")
            let huge = try await client.graphql(
                #"mutation { movie_insert(data: {title: "Huge", embedding: [1e39, 0, 0]}) }"#)
            #expect(huge.text.contains("is out of range for type vector"), "\(huge.text)")
            let cosine = try await client.data(
                """
                {
                  movies_embedding_similarity(compare: [1, 0, 0], method: COSINE) { title _metadata { distance } }
                }
                """)
            let rows = cosine["movies_embedding_similarity"]?.arrayValue ?? []
            #expect(rows.first?["title"]?.stringValue == "The Running Man", "\(cosine)")
            let zero = rows.first { $0["title"]?.stringValue == "Zero" }
            #expect(zero?["_metadata"]?["distance"] == .null, "\(cosine)")
            // Nulls last: the zero vector and the movie without one end the list.
            #expect(
                Set(rows.suffix(2).compactMap { $0["title"]?.stringValue }) == ["Zero", "Man on Fire"], "\(cosine)")
        }
    }

    /// A `[Vector]` column is pgvector's `vector(N)[]` on PostgreSQL: `@col(size:)` is the size of each of its
    /// vectors, each is kept in single precision and read back as its numbers, and `includes` finds a row by one.
    @Test(arguments: DataConnectHarness.Engine.withVectors) func aListOfVectorsIsKeptAndReadBackAsItsVectors(
        engine: DataConnectHarness.Engine
    ) async throws {
        try await Self.withMovies(engine: engine, needsVectors: true) { client async throws in
            let id = "00000000000000000000000000000009"
            let frames = "[[0.123456789, 1], [-2.5, 0]]"
            _ = try await client.data(
                #"mutation { movie_insert(data: {id: "\#(id)", title: "Frames", frames: \#(frames)}) }"#)
            let read = try await client.data(#"{ movie(id: "\#(id)") { frames } }"#)
            #expect(read["movie"]?["frames"]?.jsonText == "[[0.12345679,1],[-2.5,0]]", "\(read)")
            let found = try await client.data(#"{ movies(where: {frames: {includes: [-2.5, 0]}}) { title } }"#)
            #expect(Self.titles(found["movies"]) == ["Frames"], "\(found)")
            let all = try await client.data(
                #"{ movies(where: {frames: {includesAll: [[-2.5, 0], [0.123456789, 1]]}}) { title } }"#)
            #expect(Self.titles(all["movies"]) == ["Frames"], "\(all)")
            let missing = try await client.data(
                #"{ movies(where: {frames: {includesAll: [[-2.5, 0], [9, 9]]}}) { title } }"#)
            #expect(Self.titles(missing["movies"]).isEmpty, "\(missing)")
            let without = try await client.data(
                #"{ movies(where: {frames: {excludes: [-2.5, 0]}, title: {eq: "Frames"}}) { title } }"#)
            #expect(Self.titles(without["movies"]).isEmpty, "\(without)")
            // One vector of the right size is a list of one, not a vector of the wrong size.
            let one = try await client.graphql(#"mutation { movie_insert(data: {title: "One", frames: [[1, 2]]}) }"#)
            #expect(one.json?["errors"] == nil, "\(one.text)")
            let wrong = try await client.graphql(
                #"mutation { movie_insert(data: {title: "Wrong", frames: [[1, 2, 3], [4, 5, 6]]}) }"#)
            #expect(wrong.text.contains("holds Vectors of 2 numbers (@col(size: 2)); this one has 3"), "\(wrong.text)")
        }
    }

    // MARK: - Full-text search

    @Test(arguments: DataConnectHarness.Engine.all) func searchStemsEnglishWordsAndRanksByRelevance(
        engine: DataConnectHarness.Engine
    ) async throws {
        try await Self.withMovies(engine: engine) { client async throws in
            let data = try await client.data(
                """
                {
                  running: movies_search(query: "running") { title _metadata { relevance } }
                  byTitle: movies_search(query: "running", orderBy: {title: DESC}) { title }
                  action: movies_search(query: "run", where: {genre: {eq: "Action"}}) { title }
                  stop: movies_search(query: "the") { title }
                  high: movies_search(query: "running", relevanceThreshold: 1000000) { title }
                }
                """)
            // "running", "runs" and "Run" share the stem "run"; the title that says it twice ranks first.
            #expect(Self.titles(data["running"]) == ["Run Lola Run", "The Running Man"])
            for item in data["running"]?.arrayValue ?? [] {
                #expect((Self.number(item["_metadata"]?["relevance"]) ?? 0) > 0, "\(item)")
            }
            #expect(Self.titles(data["byTitle"]) == ["The Running Man", "Run Lola Run"])
            #expect(Self.titles(data["action"]) == ["The Running Man"])
            // A query of stop words only looks for nothing, as PostgreSQL's `english` configuration drops them.
            #expect(Self.titles(data["stop"]) == [])
            #expect(Self.titles(data["high"]) == [])
        }
    }

    @Test(arguments: DataConnectHarness.Engine.all) func searchReadsEachQueryFormatAsPostgreSQLDoes(
        engine: DataConnectHarness.Engine
    ) async throws {
        try await Self.withMovies(engine: engine) { client async throws in
            // QUERY (websearch_to_tsquery): words are ANDed, `or` gives alternatives, `-` excludes, quotes a phrase.
            #expect(try await Self.search(client, "man life", "QUERY") == ["The Running Man"])
            #expect(try await Self.search(client, "lola or fire", "QUERY") == ["Man on Fire", "Run Lola Run"])
            #expect(try await Self.search(client, "man -fire", "QUERY") == ["The Running Man"])
            #expect(try await Self.search(client, "\"man on fire\"", "QUERY") == ["Man on Fire"])
            #expect(try await Self.search(client, "\"fire on man\"", "QUERY") == [])
            // PLAIN (plainto_tsquery): every word, operators read as text.
            #expect(try await Self.search(client, "man | life", "PLAIN") == ["The Running Man"])
            // PHRASE (phraseto_tsquery): the words in this order.
            #expect(try await Self.search(client, "running man", "PHRASE") == ["The Running Man"])
            #expect(try await Self.search(client, "life man", "PHRASE") == [])
            // "A man runs": the stems of "man running" in this order, next to each other.
            #expect(try await Self.search(client, "man running", "PHRASE") == ["The Running Man"])
            // ADVANCED (to_tsquery): & | ! <-> parentheses and prefixes.
            #expect(try await Self.search(client, "run & !lola", "ADVANCED") == ["The Running Man"])
            #expect(try await Self.search(client, "qui:*", "ADVANCED") == ["A Quiet Place"])
            #expect(try await Self.search(client, "(lola | fire) & man", "ADVANCED") == ["Man on Fire"])
            #expect(try await Self.search(client, "running <-> man", "ADVANCED") == ["The Running Man"])
        }
    }

    @Test(arguments: DataConnectHarness.Engine.all) func anAdvancedQueryThatIsNotATsqueryIsAnErrorThatSaysWhere(
        engine: DataConnectHarness.Engine
    ) async throws {
        try await Self.withMovies(engine: engine) { client async throws in
            let tooMany = (1...300).map { "word\($0)" }.joined(separator: " | ")
            let tooLong = String(repeating: "run ", count: 5000)
            for query in ["run lola", "run &", "(run", String(repeating: "(", count: 500) + "run", tooMany, tooLong] {
                let text = JSONValue.string(query).jsonText
                let exchange = try await client.graphql(
                    "{ movies_search(query: \(text), queryFormat: ADVANCED) { title } }")
                #expect(
                    exchange.text.contains("syntax error in tsquery") || exchange.text.contains("nests more than")
                        || exchange.text.contains("looks for more than 256 words")
                        || exchange.text.contains("is 20000 bytes long; at most 16384"),
                    "\(query): \(exchange.text)")
            }
        }
    }

    @Test func wordsWithCombiningMarksAreWholeWords() async throws {
        let folder = try DataConnectHarness.workspace(
            schema: "type Book @table { title: String! @searchable(language: \"simple\") }", operations: "")
        defer { try? FileManager.default.removeItem(at: folder) }
        try await DataConnectHarness.run(workspace: folder) { client async throws in
            _ = try await client.data(
                #"mutation { a: book_insert(data: {title: "किताब पढ़ना"}) b: book_insert(data: {title: "पढ़ना किताब"}) }"#)
            let data = try await client.data(
                #"{ books_search(query: "किताब पढ़ना", queryFormat: PHRASE) { title } one: books_search(query: "कि") { title } }"#
            )
            #expect(data["books_search"]?.strings("title") == ["किताब पढ़ना"])
            // A part of a word is not a word.
            #expect(data["one"]?.arrayValue?.isEmpty == true)
        }
    }

    @Test(arguments: DataConnectHarness.Engine.all) func aSearchRefusesHaving(engine: DataConnectHarness.Engine)
        async throws
    {
        try await Self.withMovies(engine: engine) { client async throws in
            let exchange = try await client.graphql(
                #"{ movies_search(query: "run", having: {_count: {gt: 1}}) { title } }"#)
            #expect(exchange.text.contains("a search answers rows: filter them with where"), "\(exchange.text)")
        }
    }

    @Test(arguments: DataConnectHarness.Engine.all) func theIndexFollowsInsertsUpdatesAndDeletes(
        engine: DataConnectHarness.Engine
    ) async throws {
        try await Self.withMovies(engine: engine) { client async throws in
            _ = try await client.data(
                """
                mutation {
                  movie_update(id: "00000000000000000000000000000003", data: {title: "A Loud Place"})
                  movie_delete(id: "00000000000000000000000000000004")
                  movie_insert(data: {title: "Quiet Days", genre: "Drama"})
                }
                """)
            let data = try await client.data(
                """
                {
                  quiet: movies_search(query: "quiet", orderBy: {title: ASC}) { title }
                  loud: movies_search(query: "loud") { title }
                  fire: movies_search(query: "fire") { title }
                }
                """)
            #expect(Self.titles(data["quiet"]) == ["Quiet Days"])
            #expect(Self.titles(data["loud"]) == ["A Loud Place"])
            #expect(Self.titles(data["fire"]) == [])
        }
    }

    @Test func searchableIsReadFromTheSchemaAndItsMistakesAreNamed() throws {
        func load(_ schema: String) throws -> DataConnectWorkspace {
            let folder = try DataConnectHarness.workspace(schema: schema, operations: "")
            defer { try? FileManager.default.removeItem(at: folder) }
            return try DataConnectWorkspace.load(from: folder)
        }
        let good = try load("type Post @table { title: String @searchable(language: \"french\"), views: Int }")
        #expect(good.schema.table("Post")?.searchableColumns.map(\.field) == ["title"])
        #expect(DataConnectSDL.make(good.schema).contains("posts_search("))
        #expect(!DataConnectSDL.make(try load("type Post @table { title: String }").schema).contains("_search("))
        let mistakes = [
            ("type Post @table { views: Int @searchable }", "Post.views is a Int; @searchable goes on String"),
            ("type Post @table { tags: [String] @searchable }", "Post.tags is a list; @searchable goes on String"),
            (
                "type Post @table { title: String @searchable(language: \"klingon\") }",
                "@searchable(language: \"klingon\") is not a text-search language"
            ),
            (
                "type Post @table { title: String @searchable, body: String @searchable(language: \"german\") }",
                "Post.body is searched in german but title in english"
            ),
            (
                "type Post @table { title: String }\ntype V @view(sql: \"SELECT title FROM post\") { "
                    + "title: String @searchable }",
                "V.title is a field of a @view, which has no full-text index"
            ),
            (
                "type Post @table { rank: String @searchable }",
                "Post.rank is stored as the column rank, a name the emulator's full-text index"
            ),
        ]
        for (schema, message) in mistakes {
            #expect {
                _ = try load(schema)
            } throws: { error in
                "\(error)".contains(message) && "\(error)".contains("schema.gql:")
            }
        }
    }
}
