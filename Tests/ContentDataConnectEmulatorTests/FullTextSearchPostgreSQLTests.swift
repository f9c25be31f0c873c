import ContentJSON
import Foundation
import Testing

/// Full-text search held to PostgreSQL, the engine the service runs on: the same rows found, ranked with the same
/// `ts_rank`, for each query format.
///
/// PostgreSQL is reached with `psql` at the URL in `CONTENT_TEST_POSTGRES` (`.ci/run` starts a server and sets it);
/// without it the test says so and checks nothing. The document PostgreSQL ranks is the searchable columns in
/// order, as the emulator numbers their words.
struct FullTextSearchPostgreSQLTests {
    /// The query formats and the PostgreSQL functions the service reads them with.
    static let functions = [
        "QUERY": "websearch_to_tsquery", "PLAIN": "plainto_tsquery", "PHRASE": "phraseto_tsquery",
        "ADVANCED": "to_tsquery",
    ]

    static let searches: [(format: String, query: String)] = [
        ("QUERY", "running"), ("QUERY", "run"), ("QUERY", "man life"), ("QUERY", "lola or fire"),
        ("QUERY", "man -fire"), ("QUERY", "\"man on fire\""), ("QUERY", "\"fire on man\""), ("QUERY", "lola run"),
        ("QUERY", "the"), ("QUERY", "run or life or silence"), ("QUERY", "-lola"), ("PLAIN", "man | life"),
        ("PLAIN", "runs, lola!"), ("PHRASE", "running man"), ("PHRASE", "man running"), ("PHRASE", "life man"),
        ("PHRASE", "save manni"), ("ADVANCED", "run & !lola"), ("ADVANCED", "qui:*"),
        ("ADVANCED", "(lola | fire) & man"), ("ADVANCED", "running <-> man"), ("ADVANCED", "quiet:* | fam:*"),
        ("ADVANCED", "run <2> run"), ("QUERY", "running runs"), ("QUERY", "RUNNING Man"),
        ("PHRASE", "run for his life"), ("PHRASE", "run for life"), ("QUERY", "\"lola runs to save\" -fire"),
        ("ADVANCED", "'man runs' & life"), ("ADVANCED", "!(man | lola)"), ("ADVANCED", "lola <3> save"),
        ("PLAIN", "the a an"), ("QUERY", "family or (silence)"),
    ]

    /// What PostgreSQL finds for each search, by title, with its rank.
    static func postgreSQLResults(_ url: String) throws -> [String: [String: Double]] {
        let rows = DataConnectSearchTests.movies.map { movie in
            "(\(literal(movie.title)), \(literal(movie.description)))"
        }
        let searchRows = searches.enumerated().map { index, search in
            "(\(index), \(literal(search.query)), \(literal(functions[search.format] ?? "")))"
        }
        let sql = """
            WITH movie(title, description) AS (VALUES \(rows.joined(separator: ", "))),
            search(number, query, function) AS (VALUES \(searchRows.joined(separator: ", "))),
            parsed AS (
              SELECT number, CASE function
                WHEN 'websearch_to_tsquery' THEN websearch_to_tsquery('english', query)
                WHEN 'plainto_tsquery' THEN plainto_tsquery('english', query)
                WHEN 'phraseto_tsquery' THEN phraseto_tsquery('english', query)
                ELSE to_tsquery('english', query) END AS tsquery
              FROM search
            ),
            document AS (SELECT title, to_tsvector('english', title || ' ' || description) AS vector FROM movie)
            SELECT number, title, ts_rank(vector, tsquery) FROM parsed JOIN document ON vector @@ tsquery
            """
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["psql", url, "-X", "-q", "-At", "-F", "\t", "-v", "ON_ERROR_STOP=1", "-c", sql]
        let output = Pipe()
        let errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        _ = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, "psql failed on \(url)")
        var results: [String: [String: Double]] = [:]
        for line in text.split(separator: "\n") {
            let fields = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
            guard fields.count == 3, let number = Int(fields[0]), searches.indices.contains(number),
                let rank = Double(fields[2])
            else { continue }
            results[key(searches[number]), default: [:]][fields[1]] = rank
        }
        return results
    }

    static func key(_ search: (format: String, query: String)) -> String {
        "\(search.format) \(search.query)"
    }

    static func literal(_ text: String) -> String {
        "'" + text.replacingOccurrences(of: "'", with: "''") + "'"
    }

    @Test func everyFormatFindsAndRanksAsPostgreSQLDoes() async throws {
        guard let url = ProcessInfo.processInfo.environment["CONTENT_TEST_POSTGRES"], !url.isEmpty else {
            print("note: skipping the PostgreSQL comparison of full-text search: CONTENT_TEST_POSTGRES is not set")
            return
        }
        let expected = try Self.postgreSQLResults(url)
        // At least the searches that find something in PostgreSQL came back, so the comparison compares.
        #expect(expected.count >= 15, "\(expected)")
        try await DataConnectSearchTests.withMovies { client async throws in
            for search in Self.searches {
                let data = try await client.data(
                    """
                    { movies_search(query: \(JSONValue.string(search.query).jsonText), queryFormat: \(search.format)) {
                      title _metadata { relevance } } }
                    """)
                var found: [String: Double] = [:]
                for item in data["movies_search"]?.arrayValue ?? [] {
                    if let title = item["title"]?.stringValue {
                        found[title] = DataConnectSearchTests.number(item["_metadata"]?["relevance"]) ?? .nan
                    }
                }
                let wanted = expected[Self.key(search)] ?? [:]
                #expect(Set(found.keys) == Set(wanted.keys), "\(Self.key(search))")
                for (title, rank) in wanted {
                    let mine = found[title] ?? .nan
                    // PostgreSQL prints a float4; the emulator answers the same float4 as a double.
                    #expect(abs(mine - rank) <= rank * 1e-6, "\(Self.key(search)) \(title): \(mine) ≠ \(rank)")
                }
            }
        }
    }
}
