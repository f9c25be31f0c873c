import ContentEmulatorTesting
import ContentJSON
import Foundation
import Testing

@testable import ContentDataConnectEmulator

/// The generated GraphQL surface of the Data Connect emulator over the example workspace.
///
/// Expectations come from `examples/dataconnect/seed_data.gql`.
struct DataConnectQueryLanguageTests {
    // The seeded rows, as the wire shows their keys.
    static let orbitOfGlass = "0b5c1b1e3a524c7e9d0b6f1e8a2c4d01"
    static let theLongQuiet = "0b5c1b1e3a524c7e9d0b6f1e8a2c4d02"
    static let paperMoons = "0b5c1b1e3a524c7e9d0b6f1e8a2c4d03"
    static let signalDrift = "0b5c1b1e3a524c7e9d0b6f1e8a2c4d04"
    static let kettleAndCrow = "0b5c1b1e3a524c7e9d0b6f1e8a2c4d05"
    static let coldHarbour = "0b5c1b1e3a524c7e9d0b6f1e8a2c4d06"
    static let secondSun = "0b5c1b1e3a524c7e9d0b6f1e8a2c4d07"
    static let wrongNumber = "0b5c1b1e3a524c7e9d0b6f1e8a2c4d09"
    static let adaOkafor = "5e0a4c2d8b7f4a61b3c92d4e6f8a0b01"
    static let tomasReyes = "5e0a4c2d8b7f4a61b3c92d4e6f8a0b03"
    static let meiTanaka = "5e0a4c2d8b7f4a61b3c92d4e6f8a0b04"
    /// Every seeded title, in title order.
    static let allTitles = [
        "Café Müller", "Cold Harbour", "Kettle & Crow", "Orbit of Glass", "Paper Moons", "Second Sun", "Signal Drift",
        "The Long Quiet", "Wrong Number",
    ]

    // MARK: - Helpers

    /// Titles of the movies a `Movie_Filter` picks, in title order.
    private static func titles(_ client: DataConnectHarness.Client, _ filter: String) async throws -> [String] {
        let data = try await client.data(#"query { movies(where: \#(filter), orderBy: {title: ASC}) { title } }"#)
        return data["movies"]?.strings("title") ?? []
    }

    /// The strings at a path of keys in each element of a list (`"movie", "title"`).
    private static func texts(_ list: JSONValue?, _ path: String...) -> [String] {
        (list?.arrayValue ?? []).compactMap { element in
            path.reduce(Optional(element)) { $0?[$1] }?.stringValue
        }
    }

    private static func number(_ value: JSONValue?) -> Double? {
        if case .number(let number)? = value { return number.doubleValue }
        return nil
    }

    /// The numbers at a key in each element of a list.
    private static func numbers(_ list: JSONValue?, _ key: String) -> [Double] {
        (list?.arrayValue ?? []).compactMap { number($0[key]) }
    }

    /// The messages of a GraphQL response's `errors`.
    private static func errors(_ exchange: EmulatorExchange) -> [String] {
        (exchange.json?["errors"]?.arrayValue ?? []).compactMap { $0["message"]?.stringValue }
    }

    /// The error messages of a GraphQL call that must fail (HTTP 200, `errors`, no data but nulls).
    private static func failure(_ client: DataConnectHarness.Client, _ query: String) async throws -> [String] {
        let exchange = try await client.graphql(query)
        #expect(exchange.status == 200, "\(exchange.text)")
        let data = exchange.json?["data"]
        #expect(data?.objectValue?.members.allSatisfy { $0.value == .null } ?? true, "\(exchange.text)")
        let messages = errors(exchange)
        #expect(!messages.isEmpty, "\(query) should fail: \(exchange.text)")
        return messages
    }

    private static func utc(_ format: String) -> DateFormatter {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = format
        return formatter
    }

    /// `YYYY-MM-DD` of an instant in UTC.
    static func utcDay(_ date: Date) -> String {
        utc("yyyy-MM-dd").string(from: date)
    }

    /// The instant of a wire timestamp: UTC, `Z`, and a fraction of 3 or 6 digits only when it is not zero.
    static func instant(_ text: String) -> Date? {
        guard text.count >= 20, text.hasSuffix("Z"),
            let whole = utc("yyyy-MM-dd'T'HH:mm:ss").date(from: String(text.prefix(19)))
        else { return nil }
        let fraction = String(text.dropFirst(19).dropLast())
        guard [0, 4, 7].contains(fraction.count) else { return nil }
        guard !fraction.isEmpty else { return whole }
        guard fraction.first == ".", fraction != ".000", fraction != ".000000", let seconds = Double("0" + fraction)
        else { return nil }
        return whole.addingTimeInterval(seconds)
    }

    static func isHexKey(_ text: String?) -> Bool {
        guard let text else { return false }
        return text.count == 32 && text.allSatisfy { "0123456789abcdef".contains($0) }
    }

    /// JSON compared by meaning: object members sorted by name, numbers as doubles.
    static func normalized(_ value: JSONValue) -> JSONValue {
        switch value {
        case .object(let object):
            return .object(
                JSONObject(object.members.sorted { $0.key < $1.key }.map { JSONMember($0.key, normalized($0.value)) }))
        case .array(let elements):
            return .array(elements.map(normalized))
        case .number(let number):
            return .number(JSONNumber(text: "\(number.doubleValue ?? 0)"))
        default:
            return value
        }
    }

    // MARK: - Filters

    @Test(arguments: DataConnectHarness.Engine.all) func eqAndNeFilterByGenre(engine: DataConnectHarness.Engine)
        async throws
    {
        try await DataConnectHarness.run(engine: engine) { client async throws in
            #expect(
                try await Self.titles(client, #"{genre: {eq: "Sci-Fi"}}"#)
                    == ["Orbit of Glass", "Second Sun", "Signal Drift"])
            #expect(
                try await Self.titles(client, #"{genre: {ne: "Sci-Fi"}}"#)
                    == Self.allTitles.filter { !["Orbit of Glass", "Second Sun", "Signal Drift"].contains($0) })
            // Strings compare exactly.
            #expect(try await Self.titles(client, #"{genre: {eq: "sci-fi"}}"#) == [])
            #expect(try await Self.titles(client, #"{rating: {eq: 8.4}}"#) == ["Orbit of Glass"])
            // A null rating is neither equal nor unequal to a value, as in SQL.
            #expect(
                try await Self.titles(client, #"{rating: {ne: 8.4}}"#)
                    == [
                        "Café Müller", "Cold Harbour", "Kettle & Crow", "Paper Moons", "Second Sun", "Signal Drift",
                        "The Long Quiet",
                    ])
        }
    }

    @Test(arguments: DataConnectHarness.Engine.all) func gtGeLtLeCompareNumbersStringsAndDates(
        engine: DataConnectHarness.Engine
    ) async throws {
        try await DataConnectHarness.run(engine: engine) { client async throws in
            #expect(
                try await Self.titles(client, "{releaseYear: {gt: 2020}}")
                    == ["Second Sun", "Signal Drift", "The Long Quiet", "Wrong Number"])
            #expect(
                try await Self.titles(client, "{releaseYear: {ge: 2020}}")
                    == ["Kettle & Crow", "Second Sun", "Signal Drift", "The Long Quiet", "Wrong Number"])
            #expect(try await Self.titles(client, "{releaseYear: {lt: 2018}}") == ["Café Müller", "Paper Moons"])
            #expect(
                try await Self.titles(client, "{releaseYear: {le: 2018}}")
                    == ["Café Müller", "Cold Harbour", "Paper Moons"])
            // Two operators on one field both apply.
            #expect(
                try await Self.titles(client, "{rating: {ge: 7.9, lt: 8.4}}") == ["Kettle & Crow", "The Long Quiet"])
            #expect(
                try await Self.titles(client, #"{title: {gt: "S"}}"#)
                    == ["Second Sun", "Signal Drift", "The Long Quiet", "Wrong Number"])
            let data = try await client.data(
                #"""
                query {
                  actors(where: {born: {lt: "1985-01-01"}}, orderBy: {name: ASC}) { name }
                  reviews(where: {reviewDate: {ge: "2024-07-02"}}, orderBy: {reviewDate: ASC}) { rating }
                }
                """#)
            #expect(data["actors"]?.strings("name") == ["Ada Okafor", "Tomás Reyes"])
            #expect(Self.numbers(data["reviews"], "rating") == [7, 8])
        }
    }

    @Test(arguments: DataConnectHarness.Engine.all) func inAndNinMatchListsOfValues(engine: DataConnectHarness.Engine)
        async throws
    {
        try await DataConnectHarness.run(engine: engine) { client async throws in
            #expect(
                try await Self.titles(client, #"{genre: {in: ["Drama", "Comedy"]}}"#)
                    == ["Café Müller", "Paper Moons", "The Long Quiet", "Wrong Number"])
            #expect(
                try await Self.titles(client, #"{genre: {nin: ["Sci-Fi", "Drama", "Comedy"]}}"#)
                    == ["Cold Harbour", "Kettle & Crow"])
            #expect(
                try await Self.titles(client, "{releaseYear: {in: [2016, 2024, 1999]}}")
                    == ["Café Müller", "Second Sun"])
            // UUIDs in any accepted spelling.
            #expect(
                try await Self.titles(
                    client,
                    #"{id: {in: ["0b5c1b1e-3a52-4c7e-9d0b-6f1e8a2c4d01", "0B5C1B1E3A524C7E9D0B6F1E8A2C4D05"]}}"#)
                    == ["Kettle & Crow", "Orbit of Glass"])
            #expect(try await Self.titles(client, "{genre: {in: []}}") == [])
            #expect(try await Self.titles(client, "{genre: {nin: []}}") == Self.allTitles)
        }
    }

    @Test(arguments: DataConnectHarness.Engine.all) func isNullMatchesMissingValues(engine: DataConnectHarness.Engine)
        async throws
    {
        try await DataConnectHarness.run(engine: engine) { client async throws in
            #expect(try await Self.titles(client, "{rating: {isNull: true}}") == ["Wrong Number"])
            #expect(
                try await Self.titles(client, "{rating: {isNull: false}}")
                    == Self.allTitles.filter { $0 != "Wrong Number" })
            let data = try await client.data(
                #"""
                query {
                  actors(where: {born: {isNull: true}}) { name }
                  reviews(where: {text: {isNull: true}}) { movie { title } }
                  movieMetadatas(where: {budget: {isNull: true}}) { director }
                }
                """#)
            #expect(data["actors"]?.strings("name") == ["Mei Tanaka"])
            #expect(Self.texts(data["reviews"], "movie", "title") == ["Signal Drift"])
            #expect(data["movieMetadatas"]?.strings("director") == ["Kaito Mori"])
        }
    }

    @Test(arguments: DataConnectHarness.Engine.all) func containsStartsWithAndEndsWithMatchCaseSensitively(
        engine: DataConnectHarness.Engine
    ) async throws {
        try await DataConnectHarness.run(engine: engine) { client async throws in
            #expect(
                try await Self.titles(client, #"{title: {contains: "on"}}"#)
                    == ["Paper Moons", "Second Sun", "The Long Quiet", "Wrong Number"])
            #expect(try await Self.titles(client, #"{title: {contains: "ON"}}"#) == [])
            #expect(try await Self.titles(client, #"{title: {contains: "ü"}}"#) == ["Café Müller"])
            #expect(try await Self.titles(client, #"{description: {contains: "space"}}"#) == ["Paper Moons"])
            #expect(try await Self.titles(client, #"{title: {startsWith: "S"}}"#) == ["Second Sun", "Signal Drift"])
            #expect(try await Self.titles(client, #"{title: {startsWith: "s"}}"#) == [])
            #expect(try await Self.titles(client, #"{title: {startsWith: "Caf"}}"#) == ["Café Müller"])
            #expect(try await Self.titles(client, #"{title: {endsWith: "er"}}"#) == ["Café Müller", "Wrong Number"])
            #expect(try await Self.titles(client, #"{title: {endsWith: "ller"}}"#) == ["Café Müller"])
        }
    }

    @Test(arguments: DataConnectHarness.Engine.all) func patternLikeMatchesWildcardsCaseSensitively(
        engine: DataConnectHarness.Engine
    ) async throws {
        try await DataConnectHarness.run(engine: engine) { client async throws in
            #expect(try await Self.titles(client, #"{title: {pattern: {like: "%Moon%"}}}"#) == ["Paper Moons"])
            #expect(try await Self.titles(client, #"{title: {pattern: {like: "%moon%"}}}"#) == [])
            #expect(
                try await Self.titles(client, #"{title: {pattern: {like: "S%"}}}"#) == ["Second Sun", "Signal Drift"])
            #expect(try await Self.titles(client, #"{title: {pattern: {like: "S_c%"}}}"#) == ["Second Sun"])
        }
    }

    @Test(arguments: DataConnectHarness.Engine.all) func patternRegexMatchesAnywhereUnlessAnchored(
        engine: DataConnectHarness.Engine
    ) async throws {
        try await DataConnectHarness.run(engine: engine) { client async throws in
            #expect(
                try await Self.titles(client, #"{title: {pattern: {regex: "^(The|Wrong) "}}}"#)
                    == ["The Long Quiet", "Wrong Number"])
            #expect(try await Self.titles(client, #"{title: {pattern: {regex: "^S.*n$"}}}"#) == ["Second Sun"])
            #expect(try await Self.titles(client, #"{title: {pattern: {regex: "[0-9]"}}}"#) == [])
        }
    }

    @Test(arguments: DataConnectHarness.Engine.all) func patternIgnoreCaseAppliesToLikeAndRegex(
        engine: DataConnectHarness.Engine
    ) async throws {
        try await DataConnectHarness.run(engine: engine) { client async throws in
            #expect(
                try await Self.titles(client, #"{title: {pattern: {like: "%moon%", ignoreCase: true}}}"#)
                    == ["Paper Moons"])
            #expect(try await Self.titles(client, #"{title: {pattern: {regex: "QUIET"}}}"#) == [])
            #expect(
                try await Self.titles(client, #"{title: {pattern: {regex: "QUIET", ignoreCase: true}}}"#)
                    == ["The Long Quiet"])
        }
    }

    /// The service's `String_Pattern` is `like`, `regex` and `ignoreCase`; `_not` is how a pattern is negated.
    @Test(arguments: DataConnectHarness.Engine.all) func aPatternIsNegatedWithNotAndHasNoInvertField(
        engine: DataConnectHarness.Engine
    ) async throws {
        try await DataConnectHarness.run(engine: engine) { client async throws in
            #expect(
                try await Self.titles(client, #"{_not: {title: {pattern: {like: "S%"}}}}"#)
                    == [
                        "Café Müller", "Cold Harbour", "Kettle & Crow", "Orbit of Glass", "Paper Moons",
                        "The Long Quiet", "Wrong Number",
                    ])
            let refused = try await client.graphql(
                #"query { movies(where: {title: {pattern: {like: "S%", invert: true}}}) { title } }"#)
            #expect(
                refused.text.contains(#"Field \"invert\" is not defined by type \"String_Pattern\""#), "\(refused.text)"
            )
        }
    }

    @Test(arguments: DataConnectHarness.Engine.all) func andOrNotCombineFilters(engine: DataConnectHarness.Engine)
        async throws
    {
        try await DataConnectHarness.run(engine: engine) { client async throws in
            #expect(
                try await Self.titles(client, #"{_and: [{genre: {eq: "Sci-Fi"}}, {rating: {gt: 7}}]}"#)
                    == ["Orbit of Glass", "Signal Drift"])
            #expect(
                try await Self.titles(client, #"{_or: [{genre: {eq: "Comedy"}}, {releaseYear: {lt: 2017}}]}"#)
                    == ["Café Müller", "Paper Moons", "Wrong Number"])
            #expect(
                try await Self.titles(client, #"{_not: {genre: {eq: "Sci-Fi"}}}"#)
                    == [
                        "Café Müller", "Cold Harbour", "Kettle & Crow", "Paper Moons", "The Long Quiet",
                        "Wrong Number",
                    ])
            // Fields side by side in one filter all apply.
            #expect(
                try await Self.titles(client, #"{genre: {eq: "Drama"}, releaseYear: {lt: 2020}}"#) == ["Café Müller"])
            let nested = #"""
                {_or: [
                  {_and: [{genre: {eq: "Drama"}}, {rating: {ge: 7.5}}]},
                  {_not: {releaseYear: {le: 2022}}}
                ]}
                """#
            #expect(try await Self.titles(client, nested) == ["Second Sun", "Signal Drift", "The Long Quiet"])
        }
    }

    @Test(arguments: DataConnectHarness.Engine.all) func conditionsWhoseValueIsNullAreDropped(
        engine: DataConnectHarness.Engine
    ) async throws {
        try await DataConnectHarness.run(engine: engine) { client async throws in
            let query = #"""
                query($genre: String, $min: Float) {
                  movies(where: {genre: {eq: $genre}, rating: {ge: $min}}, orderBy: {title: ASC}) { title }
                }
                """#
            #expect(try await client.data(query)["movies"]?.strings("title") == Self.allTitles)
            #expect(
                try await client.data(query, variables: #"{"genre":null,"min":8}"#)["movies"]?.strings("title")
                    == ["Kettle & Crow", "Orbit of Glass"])
            #expect(
                try await client.data(query, variables: #"{"genre":"Drama"}"#)["movies"]?.strings("title")
                    == ["Café Müller", "The Long Quiet"])
            #expect(try await Self.titles(client, "{genre: {eq: null}}") == Self.allTitles)
            #expect(
                try await Self.titles(client, #"{_and: [{genre: {eq: null}}, {title: {startsWith: "S"}}]}"#)
                    == ["Second Sun", "Signal Drift"])
        }
    }

    @Test(arguments: DataConnectHarness.Engine.all) func listFiltersMatchElementsOfListColumns(
        engine: DataConnectHarness.Engine
    ) async throws {
        try await DataConnectHarness.run(engine: engine) { client async throws in
            #expect(
                try await Self.titles(client, #"{tags: {includes: "space"}}"#)
                    == ["Orbit of Glass", "Paper Moons", "Second Sun", "Signal Drift"])
            #expect(try await Self.titles(client, #"{tags: {includes: "Space"}}"#) == [])
            #expect(
                try await Self.titles(client, #"{tags: {excludes: "space"}}"#)
                    == ["Café Müller", "Cold Harbour", "Kettle & Crow", "The Long Quiet", "Wrong Number"])
            #expect(try await Self.titles(client, #"{tags: {includesAll: ["space", "time"]}}"#) == ["Signal Drift"])
            #expect(
                try await Self.titles(client, #"{tags: {excludesAll: ["space", "crime"]}}"#)
                    == ["Café Müller", "Kettle & Crow", "The Long Quiet", "Wrong Number"])
        }
    }

    @Test(arguments: DataConnectHarness.Engine.all) func referenceFiltersFollowManyToOneFields(
        engine: DataConnectHarness.Engine
    ) async throws {
        try await DataConnectHarness.run(engine: engine) { client async throws in
            let data = try await client.data(
                #"""
                query {
                  sciFi: reviews(where: {movie: {genre: {eq: "Sci-Fi"}}}, orderBy: {rating: ASC}) { rating }
                  drama: reviews(where: {movie: {genre: {eq: "Drama"}}}) { rating }
                  byAna: reviews(where: {user: {username: {eq: "ana"}}}, orderBy: {reviewDate: ASC}) {
                    movie { title }
                  }
                  twoHops: reviews(
                    where: {movie: {movieMetadata_on_movie: {runtimeMinutes: {gt: 120}}}}, orderBy: {rating: ASC}
                  ) { rating }
                  lena: movieActors(where: {actor: {name: {eq: "Lena Virtanen"}}}, orderBy: {movie: {title: ASC}}) {
                    role
                  }
                }
                """#)
            #expect(Self.numbers(data["sciFi"], "rating") == [7, 8, 9])
            #expect(data["drama"] == .array([]))
            #expect(Self.texts(data["byAna"], "movie", "title") == ["Orbit of Glass", "Signal Drift"])
            #expect(Self.numbers(data["twoHops"], "rating") == [7, 9])
            #expect(data["lena"]?.strings("role") == ["supporting", "main"])
        }
    }

    @Test(arguments: DataConnectHarness.Engine.all) func backReferenceFiltersTestExistenceAndCount(
        engine: DataConnectHarness.Engine
    ) async throws {
        try await DataConnectHarness.run(engine: engine) { client async throws in
            #expect(
                try await Self.titles(client, "{reviews_on_movie: {exist: {rating: {ge: 9}}}}") == ["Orbit of Glass"])
            #expect(
                try await Self.titles(client, #"{reviews_on_movie: {exist: {user: {username: {eq: "ana"}}}}}"#)
                    == ["Orbit of Glass", "Signal Drift"])
            #expect(try await Self.titles(client, "{reviews_on_movie: {count: {ge: 2}}}") == ["Orbit of Glass"])
            #expect(try await Self.titles(client, "{reviews_on_movie: {count: {eq: 1}}}") == ["Signal Drift"])
            #expect(
                try await Self.titles(client, "{reviews_on_movie: {count: {eq: 0}}}")
                    == [
                        "Café Müller", "Cold Harbour", "Kettle & Crow", "Paper Moons", "Second Sun", "The Long Quiet",
                        "Wrong Number",
                    ])
            // A one-to-one back-reference filters with the other table's filter directly.
            #expect(
                try await Self.titles(client, #"{movieMetadata_on_movie: {director: {eq: "Ines Calder"}}}"#)
                    == ["Orbit of Glass", "Signal Drift"])
            #expect(
                try await Self.titles(client, "{_not: {movieMetadata_on_movie: {director: {isNull: false}}}}")
                    == ["Café Müller", "Cold Harbour", "Paper Moons", "Second Sun", "Wrong Number"])
            let users = try await client.data(
                #"query { users(where: {reviews_on_user: {count: {eq: 2}}}) { username } }"#)
            #expect(users["users"]?.strings("username") == ["ana"])
        }
    }

    @Test(arguments: DataConnectHarness.Engine.all) func manyToManyFilterMatchesRowsAcrossTheJoinTable(
        engine: DataConnectHarness.Engine
    ) async throws {
        try await DataConnectHarness.run(engine: engine) { client async throws in
            #expect(
                try await Self.titles(client, #"{actors_via_MovieActor: {exist: {name: {eq: "Ada Okafor"}}}}"#)
                    == ["Orbit of Glass", "Second Sun"])
            #expect(
                try await Self.titles(client, "{actors_via_MovieActor: {count: {ge: 2}}}")
                    == ["Orbit of Glass", "Signal Drift"])
            #expect(
                try await Self.titles(client, "{actors_via_MovieActor: {count: {eq: 0}}}")
                    == ["Café Müller", "Cold Harbour", "Kettle & Crow", "Paper Moons", "Wrong Number"])
            #expect(
                try await Self.titles(client, #"{movieActors_on_movie: {exist: {role: {eq: "main"}}}}"#)
                    == ["Orbit of Glass", "Signal Drift", "The Long Quiet"])
            let data = try await client.data(
                #"""
                query {
                  sciFi: actors(
                    where: {movies_via_MovieActor: {exist: {genre: {eq: "Sci-Fi"}}}}, orderBy: {name: ASC}
                  ) { name }
                  idle: actors(where: {movies_via_MovieActor: {count: {eq: 0}}}) { name }
                }
                """#)
            #expect(data["sciFi"]?.strings("name") == ["Ada Okafor", "Lena Virtanen", "Tomás Reyes"])
            #expect(data["idle"]?.strings("name") == ["Mei Tanaka"])
        }
    }

    @Test(arguments: DataConnectHarness.Engine.all) func manyToManyFieldListsTheRowsAtTheFarSide(
        engine: DataConnectHarness.Engine
    ) async throws {
        try await DataConnectHarness.run(engine: engine) { client async throws in
            let data = try await client.data(
                #"""
                query {
                  movie(id: "\#(Self.orbitOfGlass)") { actors_via_MovieActor { name } }
                  actor(id: "\#(Self.adaOkafor)") { movies_via_MovieActor { title } }
                  mei: actor(id: "\#(Self.meiTanaka)") { movies_via_MovieActor { title } }
                }
                """#)
            let cast = data["movie"]?["actors_via_MovieActor"]?.strings("name").sorted()
            #expect(cast == ["Ada Okafor", "Lena Virtanen"])
            let films = data["actor"]?["movies_via_MovieActor"]?.strings("title").sorted()
            #expect(films == ["Orbit of Glass", "Second Sun"])
            #expect(data["mei"]?["movies_via_MovieActor"] == .array([]))
        }
    }

    /// As the service generates it, a `_via_` field's `where` and `orderBy` are the join table's
    /// (`actors_via_MovieActor(where: MovieActor_Filter, orderBy: [MovieActor_Order!])`), so a join row's own fields
    /// (`role`) pick the far rows.
    @Test(arguments: DataConnectHarness.Engine.all) func manyToManyFieldArgumentsFilterAndOrderTheJoinRows(
        engine: DataConnectHarness.Engine
    ) async throws {
        try await DataConnectHarness.run(engine: engine) { client async throws in
            let data = try await client.data(
                #"""
                query {
                  movie(id: "\#(Self.orbitOfGlass)") {
                    main: actors_via_MovieActor(where: {role: {eq: "main"}}) { name }
                    supporting: actors_via_MovieActor(where: {role: {eq: "supporting"}}) { name }
                    byName: actors_via_MovieActor(orderBy: {actor: {name: DESC}}) { name }
                  }
                }
                """#)
            #expect(data["movie"]?["main"]?.strings("name") == ["Ada Okafor"])
            #expect(data["movie"]?["supporting"]?.strings("name") == ["Lena Virtanen"])
            #expect(data["movie"]?["byName"]?.strings("name") == ["Lena Virtanen", "Ada Okafor"])
        }
    }

    // MARK: - Order, paging, distinct

    @Test(arguments: DataConnectHarness.Engine.all) func orderByPutsNullsLastAscendingAndFirstDescending(
        engine: DataConnectHarness.Engine
    ) async throws {
        try await DataConnectHarness.run(engine: engine) { client async throws in
            let data = try await client.data(
                #"""
                query {
                  ascending: movies(orderBy: {rating: ASC}) { title }
                  descending: movies(orderBy: {rating: DESC}) { title }
                  byGenreThenNewest: movies(orderBy: [{genre: ASC}, {releaseYear: DESC}]) { title }
                  youngest: actors(orderBy: {born: DESC}) { name }
                  oldest: actors(orderBy: {born: ASC}) { name }
                }
                """#)
            #expect(
                data["ascending"]?.strings("title")
                    == [
                        "Second Sun", "Paper Moons", "Cold Harbour", "Café Müller", "Signal Drift", "The Long Quiet",
                        "Kettle & Crow", "Orbit of Glass", "Wrong Number",
                    ])
            #expect(
                data["descending"]?.strings("title")
                    == [
                        "Wrong Number", "Orbit of Glass", "Kettle & Crow", "The Long Quiet", "Signal Drift",
                        "Café Müller", "Cold Harbour", "Paper Moons", "Second Sun",
                    ])
            #expect(
                data["byGenreThenNewest"]?.strings("title")
                    == [
                        "Kettle & Crow", "Wrong Number", "Paper Moons", "The Long Quiet", "Café Müller", "Second Sun",
                        "Signal Drift", "Orbit of Glass", "Cold Harbour",
                    ])
            #expect(data["youngest"]?.strings("name") == ["Mei Tanaka", "Lena Virtanen", "Ada Okafor", "Tomás Reyes"])
            #expect(data["oldest"]?.strings("name") == ["Tomás Reyes", "Ada Okafor", "Lena Virtanen", "Mei Tanaka"])
            // The same through a connector operation whose direction is a variable.
            let listed = try await client.query("listMovies", variables: #"{"orderByRating":"DESC","limit":3}"#)
            #expect(
                listed.json?["data"]?["movies"]?.strings("title")
                    == ["Wrong Number", "Orbit of Glass", "Kettle & Crow"])
        }
    }

    @Test(arguments: DataConnectHarness.Engine.all) func orderByFollowsReferencesToOtherTables(
        engine: DataConnectHarness.Engine
    ) async throws {
        try await DataConnectHarness.run(engine: engine) { client async throws in
            let data = try await client.data(
                #"""
                query {
                  byTitle: reviews(orderBy: [{movie: {title: ASC}}, {rating: ASC}]) { rating }
                  byTitleAndUser: reviews(orderBy: [{movie: {title: DESC}}, {user: {username: DESC}}]) { rating }
                  byRelease: movieMetadatas(orderBy: {movie: {releaseYear: DESC}}) { runtimeMinutes }
                  cast: movieActors(orderBy: [{actor: {name: ASC}}, {movie: {title: ASC}}]) { movie { title } }
                }
                """#)
            #expect(Self.numbers(data["byTitle"], "rating") == [7, 9, 8])
            #expect(Self.numbers(data["byTitleAndUser"], "rating") == [8, 7, 9])
            #expect(Self.numbers(data["byRelease"], "runtimeMinutes") == [117, 101, 88, 128])
            #expect(
                Self.texts(data["cast"], "movie", "title")
                    == [
                        "Orbit of Glass", "Second Sun", "Orbit of Glass", "Signal Drift", "Signal Drift",
                        "The Long Quiet",
                    ])
        }
    }

    @Test(arguments: DataConnectHarness.Engine.all) func limitAndOffsetPageThroughResults(
        engine: DataConnectHarness.Engine
    ) async throws {
        try await DataConnectHarness.run(engine: engine) { client async throws in
            let data = try await client.data(
                #"""
                query {
                  first: movies(orderBy: {title: ASC}, limit: 3) { title }
                  second: movies(orderBy: {title: ASC}, limit: 3, offset: 3) { title }
                  rest: movies(orderBy: {title: ASC}, offset: 7) { title }
                  past: movies(orderBy: {title: ASC}, offset: 9, limit: 5) { title }
                  none: movies(limit: 0) { title }
                  orbit: movie(id: "\#(Self.orbitOfGlass)") {
                    best: reviews_on_movie(orderBy: {rating: DESC}, limit: 1) { rating }
                    next: reviews_on_movie(orderBy: {rating: DESC}, offset: 1) { rating }
                  }
                }
                """#)
            #expect(data["first"]?.strings("title") == ["Café Müller", "Cold Harbour", "Kettle & Crow"])
            #expect(data["second"]?.strings("title") == ["Orbit of Glass", "Paper Moons", "Second Sun"])
            #expect(data["rest"]?.strings("title") == ["The Long Quiet", "Wrong Number"])
            #expect(data["past"] == .array([]))
            #expect(data["none"] == .array([]))
            #expect(Self.numbers(data["orbit"]?["best"], "rating") == [9])
            #expect(Self.numbers(data["orbit"]?["next"], "rating") == [7])
            let negative = try await Self.failure(client, "query { movies(limit: -1) { title } }")
            #expect(negative.first?.contains("limit must not be negative") == true, "\(negative)")
        }
    }

    @Test(arguments: DataConnectHarness.Engine.all) func distinctDropsRowsWithTheSameSelectedValues(
        engine: DataConnectHarness.Engine
    ) async throws {
        try await DataConnectHarness.run(engine: engine) { client async throws in
            let data = try await client.data(
                #"""
                query {
                  genres: movies(distinct: true, orderBy: {genre: ASC}) { genre }
                  every: movies(orderBy: {genre: ASC}) { genre }
                  directors: movieMetadatas(distinct: true, orderBy: {director: ASC}) { director }
                  firstThree: movies(distinct: true, orderBy: {genre: ASC}, limit: 3) { genre }
                }
                """#)
            #expect(data["genres"]?.strings("genre") == ["Animation", "Comedy", "Drama", "Sci-Fi", "Thriller"])
            #expect(data["every"]?.arrayValue?.count == 9)
            #expect(data["directors"]?.strings("director") == ["Ines Calder", "Jonas Berg", "Kaito Mori"])
            // The limit counts distinct rows, as SELECT DISTINCT … LIMIT does.
            #expect(data["firstThree"]?.strings("genre") == ["Animation", "Comedy", "Drama"])
        }
    }

    // MARK: - Single rows

    @Test(arguments: DataConnectHarness.Engine.all) func singleRowFieldsPickByIdKeyOrFirst(
        engine: DataConnectHarness.Engine
    ) async throws {
        try await DataConnectHarness.run(engine: engine) { client async throws in
            let data = try await client.data(
                #"""
                query {
                  byId: movie(id: "0b5c1b1e-3a52-4c7e-9d0b-6f1e8a2c4d05") { title }
                  byKey: movie(key: {id: "\#(Self.theLongQuiet)"}) { title }
                  missing: movie(id: "0b5c1b1e3a524c7e9d0b6f1e8a2c4d99") { title }
                  newestSciFi: movie(first: {where: {genre: {eq: "Sci-Fi"}}, orderBy: {releaseYear: DESC}}) { title }
                  topRated: movie(first: {orderBy: {rating: DESC}}) { title }
                  noWestern: movie(first: {where: {genre: {eq: "Western"}}}) { title }
                  review(key: {movieId: "\#(Self.orbitOfGlass)", userId: "user-ben"}) { rating text }
                  movieActor(key: {movieId: "\#(Self.signalDrift)", actorId: "\#(Self.tomasReyes)"}) { role }
                  movieMetadata(first: {where: {movie: {title: {eq: "Signal Drift"}}}}) { runtimeMinutes budget }
                  user(id: "user-ben") { username }
                }
                """#)
            #expect(data["byId"]?["title"] == .string("Kettle & Crow"))
            #expect(data["byKey"]?["title"] == .string("The Long Quiet"))
            #expect(data["missing"] == .null)
            #expect(data["newestSciFi"]?["title"] == .string("Second Sun"))
            // Descending puts the movie without a rating first.
            #expect(data["topRated"]?["title"] == .string("Wrong Number"))
            #expect(data["noWestern"] == .null)
            #expect(
                data["review"]
                    == .object(["rating": .number(JSONNumber(7)), "text": .string("The ending lost me.")]))
            #expect(data["movieActor"]?["role"] == .string("supporting"))
            #expect(
                data["movieMetadata"]
                    == .object(["runtimeMinutes": .number(JSONNumber(117)), "budget": .string("27000000")]))
            #expect(data["user"]?["username"] == .string("ben"))
        }
    }

    @Test(arguments: DataConnectHarness.Engine.all) func singleRowFieldsExplainWhatTheyNeed(
        engine: DataConnectHarness.Engine
    ) async throws {
        try await DataConnectHarness.run(engine: engine) { client async throws in
            let bare = try await client.graphql("query { movie { title } }")
            #expect(bare.json?["data"]?["movie"] == .null)
            #expect(Self.errors(bare).first?.contains("pass id, key or first") == true, "\(bare.text)")
            let partial = try await client.graphql(
                #"query { review(key: {movieId: "\#(Self.orbitOfGlass)"}) { rating } }"#)
            #expect(Self.errors(partial).first?.contains("Review_Key needs userId") == true, "\(partial.text)")
        }
    }

    @Test func idExprAuthUidPicksTheCallersRowInAConnectorQuery() async throws {
        let folder = try DataConnectHarness.exampleWorkspace()
        defer { try? FileManager.default.removeItem(at: folder) }
        let operation = #"""
            query me @auth(level: USER) {
              user(id_expr: "auth.uid") { id username }
            }
            """#
        try Data(operation.utf8).write(to: folder.appendingPathComponent("dataconnect/movies/me.gql"))
        try await DataConnectHarness.run(workspace: folder) { client async throws in
            let ben = try await client.query("me", token: DataConnectHarness.userToken("user-ben"))
            #expect(ben.status == 200, "\(ben.text)")
            #expect(ben.json?["data"]?["user"] == .object(["id": .string("user-ben"), "username": .string("ben")]))
            let stranger = try await client.query("me", token: DataConnectHarness.userToken("user-zed"))
            #expect(stranger.json?["data"]?["user"] == .null)
            #expect(stranger.json?["errors"] == nil)
            #expect(try await client.query("me").status == 401)
            // Admin access has no caller, so auth.uid has no value.
            let admin = try await client.graphql(#"query { user(id_expr: "auth.uid") { username } }"#)
            #expect(admin.json?["data"]?["user"] == .null)
            #expect(Self.errors(admin).first?.contains("auth.uid") == true, "\(admin.text)")
        }
    }

    // MARK: - Mutations

    @Test(arguments: DataConnectHarness.Engine.all) func insertReturnsTheKeyAndFillsDefaults(
        engine: DataConnectHarness.Engine
    ) async throws {
        try await DataConnectHarness.run(engine: engine) { client async throws in
            let before = Date()
            let inserted = try await client.data(
                #"""
                mutation {
                  movie_insert(data: {title: "Dust Lanes", releaseYear: 2025, genre: "Sci-Fi"})
                  movieActor_insert(data: {movieId: "\#(Self.kettleAndCrow)", actorId: "\#(Self.meiTanaka)"})
                  review_insert(data: {movie: {id: "\#(Self.theLongQuiet)"}, user: {id: "user-ana"}, rating: 6})
                }
                """#)
            let after = Date()
            let id = try #require(inserted["movie_insert"]?["id"]?.stringValue)
            #expect(Self.isHexKey(id), "\(id)")
            #expect(
                inserted["movieActor_insert"]
                    == .object(["movieId": .string(Self.kettleAndCrow), "actorId": .string(Self.meiTanaka)]))
            #expect(
                inserted["review_insert"]
                    == .object(["movieId": .string(Self.theLongQuiet), "userId": .string("user-ana")]))
            let data = try await client.data(
                #"""
                query {
                  movie(id: "\#(id)") { title rating tags addedAt }
                  movieActor(key: {movieId: "\#(Self.kettleAndCrow)", actorId: "\#(Self.meiTanaka)"}) { role }
                  review(key: {movieId: "\#(Self.theLongQuiet)", userId: "user-ana"}) { rating text reviewDate }
                }
                """#)
            #expect(data["movie"]?["title"] == .string("Dust Lanes"))
            #expect(data["movie"]?["rating"] == .null)
            #expect(data["movie"]?["tags"] == .null)
            // @default(expr: "request.time") on a Timestamp, and on a Date.
            let addedAt = try #require(data["movie"]?["addedAt"]?.stringValue)
            let instant = try #require(Self.instant(addedAt), "\(addedAt)")
            #expect(instant >= before.addingTimeInterval(-2) && instant <= after.addingTimeInterval(2), "\(addedAt)")
            // @default(value:)
            #expect(data["movieActor"]?["role"] == .string("supporting"))
            #expect(data["review"]?["text"] == .null)
            let day = try #require(data["review"]?["reviewDate"]?.stringValue)
            #expect([Self.utcDay(before), Self.utcDay(after)].contains(day), "\(day)")
        }
    }

    @Test(arguments: DataConnectHarness.Engine.all) func insertManyInsertsEveryRowInOrderOrNone(
        engine: DataConnectHarness.Engine
    ) async throws {
        try await DataConnectHarness.run(engine: engine) { client async throws in
            let inserted = try await client.data(
                #"""
                mutation {
                  actor_insertMany(data: [
                    {id: "5e0a4c2d-8b7f-4a61-b3c9-2d4e6f8a0b05", name: "Noor Haddad", born: "1995-05-05"}
                    {id: "5e0a4c2d-8b7f-4a61-b3c9-2d4e6f8a0b06", name: "Ilse Brandt"}
                  ])
                  movie_insertMany(data: [{title: "Batch One", genre: "Batch"}, {title: "Batch Two", genre: "Batch"}])
                }
                """#)
            #expect(
                inserted["actor_insertMany"]
                    == .array([
                        .object(["id": .string("5e0a4c2d8b7f4a61b3c92d4e6f8a0b05")]),
                        .object(["id": .string("5e0a4c2d8b7f4a61b3c92d4e6f8a0b06")]),
                    ]))
            let ids = (inserted["movie_insertMany"]?.arrayValue ?? []).compactMap { $0["id"]?.stringValue }
            #expect(ids.count == 2 && Set(ids).count == 2 && ids.allSatisfy { Self.isHexKey($0) }, "\(ids)")
            #expect(try await Self.titles(client, #"{genre: {eq: "Batch"}}"#) == ["Batch One", "Batch Two"])
            // One bad row fails the whole field: the good row before it is not kept.
            let failed = try await Self.failure(
                client,
                #"""
                mutation {
                  actor_insertMany(data: [
                    {id: "5e0a4c2d-8b7f-4a61-b3c9-2d4e6f8a0b07", name: "Kept?"}
                    {id: "\#(Self.adaOkafor)", name: "Duplicate"}
                  ])
                }
                """#)
            #expect(failed.first?.contains("already exists") == true, "\(failed)")
            let actors = try await client.data(#"query { actors(orderBy: {name: ASC}) { name } }"#)
            #expect(
                actors["actors"]?.strings("name")
                    == ["Ada Okafor", "Ilse Brandt", "Lena Virtanen", "Mei Tanaka", "Noor Haddad", "Tomás Reyes"])
        }
    }

    @Test(arguments: DataConnectHarness.Engine.all) func upsertInsertsThenUpdatesOnlyTheGivenFields(
        engine: DataConnectHarness.Engine
    ) async throws {
        try await DataConnectHarness.run(engine: engine) { client async throws in
            let first = try await client.data(#"mutation { user_upsert(data: {id: "user-cleo", username: "cleo"}) }"#)
            #expect(first["user_upsert"] == .object(["id": .string("user-cleo")]))
            let second = try await client.data(#"mutation { user_upsert(data: {id: "user-cleo", username: "cleo2"}) }"#)
            #expect(second["user_upsert"] == .object(["id": .string("user-cleo")]))
            let users = try await client.data(#"query { users(orderBy: {username: ASC}) { username } }"#)
            #expect(users["users"]?.strings("username") == ["ana", "ben", "cleo2"])
            let many = try await client.data(
                #"""
                mutation {
                  user_upsertMany(data: [{id: "user-ana", username: "ana2"}, {id: "user-dee", username: "dee"}])
                }
                """#)
            #expect(
                many["user_upsertMany"]
                    == .array([.object(["id": .string("user-ana")]), .object(["id": .string("user-dee")])]))
            let renamed = try await client.data(#"query { users(orderBy: {username: ASC}) { id username } }"#)
            #expect(renamed["users"]?.strings("username") == ["ana2", "ben", "cleo2", "dee"])
            #expect(renamed["users"]?.strings("id") == ["user-ana", "user-ben", "user-cleo", "user-dee"])
            // An existing movie keeps the fields the upsert does not name, defaults included.
            let movie = try await client.data(
                #"""
                mutation {
                  movie_upsert(
                    data: {id: "0b5c1b1e-3a52-4c7e-9d0b-6f1e8a2c4d01", title: "Orbit of Glass (Director's Cut)"}
                  )
                }
                """#)
            #expect(movie["movie_upsert"] == .object(["id": .string(Self.orbitOfGlass)]))
            _ = try await client.data(
                #"""
                mutation {
                  review_upsert(data: {movieId: "\#(Self.signalDrift)", userId: "user-ben", rating: 6})
                }
                """#)
            _ = try await client.data(
                #"""
                mutation {
                  review_upsert(data: {movieId: "\#(Self.signalDrift)", userId: "user-ben", rating: 5})
                }
                """#)
            let data = try await client.data(
                #"""
                query {
                  movie(id: "\#(Self.orbitOfGlass)") { title releaseYear rating addedAt }
                  reviews(where: {movieId: {eq: "\#(Self.signalDrift)"}}, orderBy: {user: {username: ASC}}) { rating }
                }
                """#)
            #expect(data["movie"]?["title"] == .string("Orbit of Glass (Director's Cut)"))
            #expect(data["movie"]?["releaseYear"] == .number(JSONNumber(2019)))
            #expect(Self.number(data["movie"]?["rating"]) == 8.4)
            #expect(data["movie"]?["addedAt"] == .string("2024-06-01T09:00:00Z"))
            #expect(Self.numbers(data["reviews"], "rating") == [8, 5])
        }
    }

    /// `_date` and `_time` inputs name their column too, so an upsert that meets an existing row sets them.
    @Test(arguments: DataConnectHarness.Engine.all) func upsertOnAnExistingRowAppliesRelativeDatesAndTimes(
        engine: DataConnectHarness.Engine
    ) async throws {
        try await DataConnectHarness.run(engine: engine) { client async throws in
            _ = try await client.data(
                #"""
                mutation {
                  review_upsert(
                    data: {
                      movieId: "\#(Self.orbitOfGlass)", userId: "user-ana", rating: 10
                      reviewDate_date: {on: "2024-12-24"}
                    }
                  )
                  movie_upsert(
                    data: {
                      id: "\#(Self.orbitOfGlass)", title: "Orbit of Glass"
                      addedAt_time: {at: "2025-01-01T00:00:00Z"}
                    }
                  )
                }
                """#)
            let data = try await client.data(
                #"""
                query {
                  review(key: {movieId: "\#(Self.orbitOfGlass)", userId: "user-ana"}) { rating reviewDate }
                  movie(id: "\#(Self.orbitOfGlass)") { addedAt }
                }
                """#)
            #expect(
                data["review"] == .object(["rating": .number(JSONNumber(10)), "reviewDate": .string("2024-12-24")]))
            #expect(data["movie"]?["addedAt"] == .string("2025-01-01T00:00:00Z"))
        }
    }

    @Test(arguments: DataConnectHarness.Engine.all) func updatePicksOneRowByIdKeyOrFirstAndReturnsNullWhenNoneMatches(
        engine: DataConnectHarness.Engine
    ) async throws {
        try await DataConnectHarness.run(engine: engine) { client async throws in
            let updated = try await client.data(
                #"""
                mutation {
                  byId: movie_update(id: "0b5c1b1e-3a52-4c7e-9d0b-6f1e8a2c4d09", data: {rating: 6.1})
                  missing: movie_update(id: "0b5c1b1e3a524c7e9d0b6f1e8a2c4d99", data: {rating: 1})
                  byKey: review_update(
                    key: {movieId: "\#(Self.orbitOfGlass)", userId: "user-ana"}, data: {text: "Still tense."}
                  )
                  byFirst: movie_update(first: {where: {genre: {eq: "Thriller"}}}, data: {genre: "Noir"})
                  none: movie_update(first: {where: {genre: {eq: "Western"}}}, data: {genre: "Noir"})
                }
                """#)
            #expect(updated["byId"] == .object(["id": .string(Self.wrongNumber)]))
            #expect(updated["missing"] == .null)
            #expect(
                updated["byKey"] == .object(["movieId": .string(Self.orbitOfGlass), "userId": .string("user-ana")]))
            #expect(updated["byFirst"] == .object(["id": .string(Self.coldHarbour)]))
            #expect(updated["none"] == .null)
            let data = try await client.data(
                #"""
                query {
                  movie(id: "\#(Self.wrongNumber)") { rating }
                  review(key: {movieId: "\#(Self.orbitOfGlass)", userId: "user-ana"}) { text rating }
                }
                """#)
            #expect(Self.number(data["movie"]?["rating"]) == 6.1)
            #expect(data["review"] == .object(["text": .string("Still tense."), "rating": .number(JSONNumber(9))]))
            #expect(try await Self.titles(client, #"{genre: {eq: "Noir"}}"#) == ["Cold Harbour"])
        }
    }

    @Test(arguments: DataConnectHarness.Engine.all) func updateManyChangesEveryMatchAndNeedsWhereOrAll(
        engine: DataConnectHarness.Engine
    ) async throws {
        try await DataConnectHarness.run(engine: engine) { client async throws in
            let sciFi = try await client.data(
                #"mutation { movie_updateMany(where: {genre: {eq: "Sci-Fi"}}, data: {genre: "Science Fiction"}) }"#)
            #expect(sciFi["movie_updateMany"] == .number(JSONNumber(3)))
            #expect(
                try await Self.titles(client, #"{genre: {eq: "Science Fiction"}}"#)
                    == ["Orbit of Glass", "Second Sun", "Signal Drift"])
            let none = try await client.data(
                #"mutation { movie_updateMany(where: {genre: {eq: "Western"}}, data: {rating: 1}) }"#)
            #expect(none["movie_updateMany"] == .number(JSONNumber(0)))
            let unbounded = try await client.graphql("mutation { movie_updateMany(data: {rating: 1}) }")
            #expect(unbounded.status == 200)
            #expect(
                Self.errors(unbounded).first?.contains("movie_updateMany needs where, or all: true") == true,
                "\(unbounded.text)")
            #expect(
                unbounded.json?["errors"]?.arrayValue?.first?["path"] == .array([.string("movie_updateMany")]))
            #expect(try await Self.titles(client, "{rating: {eq: 1}}") == [])
            let all = try await client.data("mutation { movie_updateMany(all: true, data: {description: null}) }")
            #expect(all["movie_updateMany"] == .number(JSONNumber(9)))
            #expect(try await Self.titles(client, "{description: {isNull: true}}") == Self.allTitles)
        }
    }

    @Test(arguments: DataConnectHarness.Engine.all) func deleteRemovesOneRowAndDeleteManyEveryMatch(
        engine: DataConnectHarness.Engine
    ) async throws {
        try await DataConnectHarness.run(engine: engine) { client async throws in
            let deleted = try await client.data(#"mutation { movie_delete(id: "\#(Self.wrongNumber)") }"#)
            #expect(deleted["movie_delete"] == .object(["id": .string(Self.wrongNumber)]))
            let again = try await client.data(#"mutation { movie_delete(id: "\#(Self.wrongNumber)") }"#)
            #expect(again["movie_delete"] == .null)
            let comedies = try await client.data(#"mutation { movie_deleteMany(where: {genre: {eq: "Comedy"}}) }"#)
            #expect(comedies["movie_deleteMany"] == .number(JSONNumber(1)))
            let unbounded = try await client.graphql("mutation { review_deleteMany }")
            #expect(
                Self.errors(unbounded).first?.contains("review_deleteMany needs where, or all: true") == true,
                "\(unbounded.text)")
            let reviews = try await client.data("mutation { review_deleteMany(all: true) }")
            #expect(reviews["review_deleteMany"] == .number(JSONNumber(3)))
            let data = try await client.data("query { reviews { rating } movies(orderBy: {title: ASC}) { title } }")
            #expect(data["reviews"] == .array([]))
            #expect(
                data["movies"]?.strings("title")
                    == Self.allTitles.filter { $0 != "Wrong Number" && $0 != "Paper Moons" })
        }
    }

    @Test(arguments: DataConnectHarness.Engine.all) func deletingAMovieCascadesToItsReviewsCastAndMetadata(
        engine: DataConnectHarness.Engine
    ) async throws {
        try await DataConnectHarness.run(engine: engine) { client async throws in
            _ = try await client.data(#"mutation { movie_delete(id: "\#(Self.orbitOfGlass)") }"#)
            let data = try await client.data(
                #"""
                query {
                  reviews { rating }
                  movieActors(orderBy: [{movie: {title: ASC}}, {actor: {name: ASC}}]) { movie { title } }
                  movieMetadatas(orderBy: {runtimeMinutes: ASC}) { director }
                  actors { name }
                  users { username }
                }
                """#)
            #expect(Self.numbers(data["reviews"], "rating") == [8])
            #expect(
                Self.texts(data["movieActors"], "movie", "title")
                    == ["Second Sun", "Signal Drift", "Signal Drift", "The Long Quiet"])
            #expect(data["movieMetadatas"]?.strings("director") == ["Kaito Mori", "Jonas Berg", "Ines Calder"])
            #expect(data["actors"]?.arrayValue?.count == 4)
            #expect(data["users"]?.arrayValue?.count == 2)
            // The other side of a required reference cascades too.
            _ = try await client.data(#"mutation { user_delete(id: "user-ana") }"#)
            let actors = try await client.data("mutation { actor_deleteMany(all: true) }")
            #expect(actors["actor_deleteMany"] == .number(JSONNumber(4)))
            let after = try await client.data("query { reviews { rating } movieActors { role } movies { title } }")
            #expect(after["reviews"] == .array([]))
            #expect(after["movieActors"] == .array([]))
            #expect(after["movies"]?.arrayValue?.count == 8)
        }
    }

    @Test(arguments: DataConnectHarness.Engine.all) func serverValuesFillRequestTimeTodayAndRelativeTimes(
        engine: DataConnectHarness.Engine
    ) async throws {
        try await DataConnectHarness.run(engine: engine) { client async throws in
            let before = Date()
            _ = try await client.data(
                #"""
                mutation {
                  now: movie_insert(data: {title: "Now", addedAt_expr: "request.time"})
                  later: movie_insert(data: {title: "Later", addedAt_time: {now: true, add: {hours: 1}}})
                  dated: review_insert(
                    data: {
                      movieId: "\#(Self.theLongQuiet)", userId: "user-ben", rating: 6, reviewDate_date: {today: true}
                    }
                  )
                  leap: review_update(
                    key: {movieId: "\#(Self.orbitOfGlass)", userId: "user-ana"}
                    data: {reviewDate_date: {on: "2024-01-31", add: {months: 1}}}
                  )
                  monthStart: review_update(
                    key: {movieId: "\#(Self.orbitOfGlass)", userId: "user-ben"}
                    data: {reviewDate_date: {on: "2024-05-15", truncateTo: MONTH}}
                  )
                  fixed: movie_update(
                    id: "\#(Self.theLongQuiet)"
                    data: {addedAt_time: {at: "2024-01-01T00:00:00Z", add: {days: 1, minutes: 30}}}
                  )
                }
                """#)
            let after = Date()
            let data = try await client.data(
                #"""
                query {
                  now: movies(where: {title: {eq: "Now"}}) { addedAt }
                  later: movies(where: {title: {eq: "Later"}}) { addedAt }
                  reviews(orderBy: [{movie: {title: ASC}}, {user: {username: ASC}}]) { reviewDate }
                  fixed: movie(id: "\#(Self.theLongQuiet)") { addedAt }
                }
                """#)
            let now = try #require(Self.texts(data["now"], "addedAt").first.flatMap(Self.instant))
            let later = try #require(Self.texts(data["later"], "addedAt").first.flatMap(Self.instant))
            #expect(now >= before.addingTimeInterval(-2) && now <= after.addingTimeInterval(2))
            // One request has one request.time.
            #expect(abs(later.timeIntervalSince(now) - 3600) < 0.001)
            let dates = Self.texts(data["reviews"], "reviewDate")
            #expect(dates.count == 4)
            #expect(Array(dates.prefix(3)) == ["2024-02-29", "2024-05-01", "2024-08-15"])
            #expect([Self.utcDay(before), Self.utcDay(after)].contains(dates.last ?? ""), "\(dates)")
            #expect(data["fixed"]?["addedAt"] == .string("2024-01-02T00:30:00Z"))
        }
    }

    /// `@check` as the service's prelude documents it, in the shape its guides use: a read under `query @redact`
    /// guards the writes after it.
    @Test(arguments: DataConnectHarness.Engine.all) func aFailedCheckStopsTheMutationAndTheFieldsAfterItAreAborted(
        engine: DataConnectHarness.Engine
    ) async throws {
        try await DataConnectHarness.run(engine: engine) { client async throws in
            let guarded = #"""
                mutation rename($id: UUID!, $title: String!) {
                  query @redact {
                    movie(id: $id) @check(expr: "this != null", message: "no such movie") { title }
                  }
                  movie_update(id: $id, data: {title: $title})
                  log: movie_insert(data: {title: "Renamed", genre: "Log"})
                }
                """#
            let missing = try await client.graphql(
                guarded, variables: #"{"id":"0b5c1b1e3a524c7e9d0b6f1e8a2c4d99","title":"X"}"#)
            #expect(missing.status == 200)
            #expect(missing.json?["data"] == .object(["query": .null, "movie_update": .null, "log": .null]))
            let errors = missing.json?["errors"]?.arrayValue ?? []
            #expect(errors.map { $0["path"] } == ["query", "movie_update", "log"].map { .array([.string($0)]) })
            #expect(errors.first?["message"] == .string("no such movie"))
            #expect(errors.dropFirst().allSatisfy { $0["message"]?.stringValue?.hasPrefix("(aborted)") == true })
            #expect(try await Self.titles(client, #"{genre: {eq: "Log"}}"#) == [])
            // When the check holds the writes run, and the redacted read is left out of the response.
            let found = try await client.graphql(
                guarded, variables: #"{"id":"\#(Self.orbitOfGlass)","title":"Orbit of Ice"}"#)
            #expect(found.json?["errors"] == nil, "\(found.text)")
            #expect(found.json?["data"]?["query"] == nil, "\(found.text)")
            #expect(found.json?["data"]?["movie_update"] != nil && found.json?["data"]?["log"] != nil)
            #expect(try await Self.titles(client, #"{id: {eq: "\#(Self.orbitOfGlass)"}}"#) == ["Orbit of Ice"])
        }
    }

    /// Checks inside root fragments run as checks on root fields do, and a fragment's own `@check` sees each object.
    @Test(arguments: DataConnectHarness.Engine.all) func checksInFragmentsAndOnFragmentsAreEvaluated(
        engine: DataConnectHarness.Engine
    ) async throws {
        try await DataConnectHarness.run(engine: engine) { client async throws in
            let rooted = try await client.graphql(
                #"""
                mutation { ...Guarded }
                fragment Guarded on Mutation {
                  query { movie(id: "0b5c1b1e3a524c7e9d0b6f1e8a2c4d99") @check(expr: "this != null", message: "gone") { id } }
                  movie_insert(data: {title: "Unguarded", genre: "Fragment"})
                }
                """#)
            #expect(rooted.json?["errors"]?.arrayValue?.first?["message"] == .string("gone"), "\(rooted.text)")
            #expect(try await Self.titles(client, #"{genre: {eq: "Fragment"}}"#) == [])
            let inline = try await client.graphql(
                #"""
                query {
                  movies(where: {genre: {eq: "Sci-Fi"}}) {
                    ... on Movie @check(expr: "this.rating > 7.0", message: "a low one") { rating }
                  }
                }
                """#)
            #expect(inline.json?["errors"]?.arrayValue?.first?["message"] == .string("a low one"), "\(inline.text)")
            let spread = try await client.graphql(
                #"""
                query { movies(where: {genre: {eq: "Sci-Fi"}}) { ...Rated @check(expr: "this.rating > 1.0") } }
                fragment Rated on Movie { rating }
                """#)
            #expect(spread.json?["errors"] == nil, "\(spread.text)")
        }
    }

    @Test(arguments: DataConnectHarness.Engine.all) func checksSeeEveryOccurrenceAndAnOptionalOneMayBeAbsent(
        engine: DataConnectHarness.Engine
    ) async throws {
        try await DataConnectHarness.run(engine: engine) { client async throws in
            // Every Sci-Fi movie must be rated above 6; one is not.
            let strict = try await client.graphql(
                #"""
                query { movies(where: {genre: {eq: "Sci-Fi"}}) { title rating @check(expr: "this > 6.6", message: "low") } }
                """#)
            #expect(strict.json?["data"] == .object(["movies": .null]), "\(strict.text)")
            #expect(strict.json?["errors"]?.arrayValue?.first?["message"] == .string("low"))
            // Nothing matches: the checked field occurs nowhere, which fails unless optional.
            let absent = #"query { movies(where: {genre: {eq: "None"}}) { rating @check(expr: "this > 0"OPTIONAL) } }"#
            let required = try await client.graphql(absent.replacingOccurrences(of: "OPTIONAL", with: ""))
            #expect(required.json?["errors"]?.arrayValue?.first?["message"] == .string("permission denied"))
            let optional = try await client.graphql(
                absent.replacingOccurrences(of: "OPTIONAL", with: ", optional: true"))
            #expect(optional.json?["errors"] == nil, "\(optional.text)")
            #expect(optional.json?["data"] == .object(["movies": .array([])]))
        }
    }

    /// `<field>_update` operations, applied to each row's current value in order.
    @Test(arguments: DataConnectHarness.Engine.all) func updateOperatorsChangeNumbersDatesTimestampsAndLists(
        engine: DataConnectHarness.Engine
    ) async throws {
        try await DataConnectHarness.run(engine: engine) { client async throws in
            let key = #"{id: "\#(Self.orbitOfGlass)"}"#
            _ = try await client.data(
                #"mutation { movie_update(key: \#(key), data: {tags: ["a", "b"], addedAt: "2024-01-31T10:00:00Z"}) }"#)
            _ = try await client.data(
                #"""
                mutation {
                  movie_update(key: \#(key), data: {
                    releaseYear_update: [{inc: 3}, {dec: 1}]
                    rating_update: {dec: 0.4}
                    addedAt_update: {inc: {months: 1, hours: 2}}
                    tags_update: [{prepend: ["z"]}, {add: ["a", "c"]}, {append: ["a"]}, {remove: ["b"]}]
                  })
                }
                """#)
            let movie = try await client.data(
                #"query { movie(key: \#(key)) { releaseYear rating addedAt tags } }"#)["movie"]
            #expect(movie?["releaseYear"] == .number(JSONNumber(2021)), "\(String(describing: movie))")
            #expect(movie?["rating"] == .number(JSONNumber(text: "8.0")), "\(String(describing: movie))")
            // January 31 plus a month is the last day of February, as PostgreSQL counts.
            #expect(movie?["addedAt"] == .string("2024-02-29T12:00:00Z"), "\(String(describing: movie))")
            #expect(movie?["tags"] == .array(["z", "a", "c", "a"].map { .string($0) }), "\(String(describing: movie))")
            // updateMany applies them to every row it matches.
            let many = try await client.data(
                #"mutation { movie_updateMany(where: {genre: {eq: "Sci-Fi"}}, data: {releaseYear_update: {inc: 100}}) }"#
            )
            #expect(many["movie_updateMany"] == .number(JSONNumber(3)))
            let years = try await client.data(#"query { movies(where: {genre: {eq: "Sci-Fi"}}) { releaseYear } }"#)
            let numbers = years["movies"]?.arrayValue?.compactMap { value -> Double? in
                guard case .number(let number)? = value["releaseYear"] else { return nil }
                return number.doubleValue
            }
            #expect(numbers?.count == 3 && numbers?.allSatisfy { $0 > 2100 } == true, "\(years)")
            // Past Int's range is an error, and nothing changes.
            let overflow = try await client.graphql(
                #"mutation { movie_update(key: \#(key), data: {releaseYear_update: {inc: 2147483647}}) }"#)
            #expect(overflow.text.contains("out of range for Int"), "\(overflow.text)")
            // An insert has no current value to change.
            let insert = try await client.graphql(
                #"mutation { movie_insert(data: {title: "T", releaseYear_update: {inc: 1}}) }"#)
            #expect(insert.text.contains("an insert gives releaseYear its value instead"), "\(insert.text)")
        }
    }

    /// Aggregates per group, held to the same figures computed here from the plain rows.
    @Test(arguments: DataConnectHarness.Engine.all) func aggregatesGroupByTheSelectedColumnsAndAgreeWithTheRows(
        engine: DataConnectHarness.Engine
    ) async throws {
        try await DataConnectHarness.run(engine: engine) { client async throws in
            let rows =
                try await client.data("query { movies { genre rating releaseYear } }")["movies"]?.arrayValue ?? []
            // Rows per genre, and the ratings that are not null (aggregates skip nulls, as SQL's do).
            var byGenre: [String: (rows: Int, ratings: [Double])] = [:]
            for row in rows {
                guard let genre = row["genre"]?.stringValue else { continue }
                byGenre[genre, default: (0, [])].rows += 1
                if case .number(let rating)? = row["rating"], let value = rating.doubleValue {
                    byGenre[genre, default: (0, [])].ratings.append(value)
                }
            }
            let total = try await client.data("query { movies { _count genre_count(distinct: true) } }")
            #expect(
                total["movies"]
                    == .array([
                        .object([
                            "_count": .number(JSONNumber(rows.count)),
                            "genre_count": .number(JSONNumber(byGenre.count)),
                        ])
                    ]))
            let groups =
                try await client.data(
                    #"""
                    query {
                      movies(having: {_count: {gt: 1}}, orderBy: [{_count: DESC}, {genre: ASC}]) {
                        genre
                        n: _count
                        best: rating_max
                        mean: rating_avg
                      }
                    }
                    """#)["movies"]?.arrayValue ?? []
            let expected = byGenre.filter { $0.value.rows > 1 }.sorted {
                $0.value.rows != $1.value.rows ? $0.value.rows > $1.value.rows : $0.key < $1.key
            }
            #expect(groups.map { $0["genre"]?.stringValue ?? "" } == expected.map(\.key), "\(groups)")
            for (group, (_, figures)) in zip(groups, expected) {
                let ratings = figures.ratings
                #expect(group["n"] == .number(JSONNumber(figures.rows)))
                guard case .number(let best)? = group["best"], case .number(let mean)? = group["mean"] else {
                    Issue.record("no figures in \(group)")
                    continue
                }
                #expect(best.doubleValue == ratings.max())
                #expect(abs((mean.doubleValue ?? 0) - ratings.reduce(0, +) / Double(ratings.count)) < 1e-9)
            }
            // A relation list aggregates the rows related to each parent.
            let reviewed = try await client.data(
                #"query { movie(id: "\#(Self.orbitOfGlass)") { reviews_on_movie { _count } } }"#)
            let plain = try await client.data(
                #"query { movie(id: "\#(Self.orbitOfGlass)") { reviews_on_movie { rating } } }"#)
            let count = plain["movie"]?["reviews_on_movie"]?.arrayValue?.count ?? -1
            #expect(reviewed["movie"]?["reviews_on_movie"] == .array([.object(["_count": .number(JSONNumber(count))])]))
        }
    }

    @Test(arguments: DataConnectHarness.Engine.all) func aManyToManyListAggregatesTheRowsItLinksTo(
        engine: DataConnectHarness.Engine
    ) async throws {
        try await DataConnectHarness.run(engine: engine) { client async throws in
            let data = try await client.data(
                """
                query {
                  one: movie(id: "0b5c1b1e3a524c7e9d0b6f1e8a2c4d01") {
                    all: actors_via_MovieActor { _count }
                    main: actors_via_MovieActor(where: {role: {eq: "main"}}) { _count }
                    byName: actors_via_MovieActor { name _count }
                  }
                  four: movie(id: "0b5c1b1e3a524c7e9d0b6f1e8a2c4d04") {
                    actors_via_MovieActor { born_min born_max born_count }
                  }
                }
                """)
            // Orbit of Glass links Ada Okafor (main) and Lena Virtanen (supporting).
            #expect(data["one"]?["all"]?.jsonText == #"[{"_count":2}]"#)
            #expect(data["one"]?["main"]?.jsonText == #"[{"_count":1}]"#)
            #expect(
                data["one"]?["byName"]?.jsonText
                    == #"[{"name":"Ada Okafor","_count":1},{"name":"Lena Virtanen","_count":1}]"#)
            #expect(
                data["four"]?["actors_via_MovieActor"]?.jsonText
                    == #"[{"born_min":"1977-07-29","born_max":"1990-11-02","born_count":2}]"#)
            let ordered = try await client.graphql(
                #"query { movie(id: "0b5c1b1e3a524c7e9d0b6f1e8a2c4d01") { actors_via_MovieActor(orderBy: {role: ASC}) { _count } } }"#
            )
            #expect(ordered.text.contains("with aggregates selected, orderBy has no MovieActor row"), "\(ordered.text)")
        }
    }

    @Test(arguments: DataConnectHarness.Engine.all) func aggregatesOutsideAListOrBesideARelationAreRefusedWithTheReason(
        engine: DataConnectHarness.Engine
    ) async throws {
        try await DataConnectHarness.run(engine: engine) { client async throws in
            let single = try await client.graphql(#"query { movie(id: "\#(Self.orbitOfGlass)") { _count } }"#)
            #expect(single.text.contains("_count is computed over a list of Movie"), "\(single.text)")
            let beside = try await client.graphql("query { movies { _count reviews_on_movie { rating } } }")
            #expect(beside.text.contains("reviews_on_movie cannot be selected beside aggregates"), "\(beside.text)")
            let ordered = try await client.graphql("query { movies(orderBy: {_count: DESC}) { title } }")
            #expect(ordered.text.contains("orderBy _count orders groups"), "\(ordered.text)")
        }
    }

    /// Native SQL as the service's prelude describes it, run by SQLite.
    @Test(arguments: DataConnectHarness.Engine.all) func nativeSQLSelectsAndChangesWithPositionalParameters(
        engine: DataConnectHarness.Engine
    ) async throws {
        try await DataConnectHarness.run(engine: engine) { client async throws in
            let selected = try await client.data(
                #"""
                query {
                  all: _select(sql: "SELECT title FROM movie WHERE genre = $1 ORDER BY title", params: ["Sci-Fi"])
                  one: _selectFirst(sql: "SELECT count(*) AS n FROM movie WHERE release_year > $1", params: [2020])
                  none: _selectFirst(sql: "SELECT title FROM movie WHERE title = 'it''s not there'")
                }
                """#)
            #expect(
                selected["all"]
                    == .array(["Orbit of Glass", "Second Sun", "Signal Drift"].map { .object(["title": .string($0)]) }))
            #expect(selected["one"]?["n"] != nil)
            #expect(selected["none"] == .null)
            let changed = try await client.data(
                #"""
                mutation {
                  changed: _execute(sql: "UPDATE movie SET genre = $1 WHERE genre = $2", params: ["Space", "Sci-Fi"])
                  back: _executeReturning(sql: "UPDATE movie SET genre = 'Sci-Fi' WHERE genre = $1 RETURNING title",
                    params: ["Space"])
                }
                """#)
            #expect(changed["changed"] == .number(JSONNumber(3)))
            // A read run through _execute changed nothing, whatever the connection changed before.
            let read = try await client.data(
                #"mutation { _execute(sql: "WITH t AS (SELECT 1 AS x) SELECT x FROM t") }"#)
            #expect(read["_execute"] == .number(JSONNumber(0)))
            #expect(changed["back"]?.arrayValue?.count == 3)
            // A parameter may be a server value.
            let mine = try await client.data(
                #"query { _selectFirst(sql: "SELECT $1 AS at", params: [{_expr: "request.time"}]) }"#)
            #expect(mine["_selectFirst"]?["at"]?.stringValue?.hasPrefix("20") == true, "\(mine)")
        }
    }

    /// `_select` runs read-only even when its statement starts as a query, in a query and inside a mutation, where the
    /// fields after it still write (Firebase's emulator 3.4.17: "Fixed unenforced read-only isolation for Native SQL
    /// queries").
    @Test(arguments: DataConnectHarness.Engine.all) func nativeSQLSelectsRunReadOnlyEvenWhenTheyStartAsAQuery(
        engine: DataConnectHarness.Engine
    ) async throws {
        try await DataConnectHarness.run(engine: engine) { client async throws in
            let writing = "WITH x AS (SELECT 1) DELETE FROM movie WHERE genre = 'Sci-Fi' RETURNING title"
            let inQuery = try await client.graphql(#"query { _select(sql: "\#(writing)") }"#)
            #expect(inQuery.text.contains("_select runs read-only"), "\(inQuery.text)")
            #expect(inQuery.text.contains("_execute"), "\(inQuery.text)")
            let inMutation = try await client.graphql(
                #"""
                mutation {
                  query {
                    first: _selectFirst(sql: "\#(writing)")
                    second: _selectFirst(sql: "\#(writing)")
                    count: _selectFirst(sql: "SELECT count(*) AS n FROM movie")
                  }
                  moved: _execute(sql: "UPDATE movie SET genre = 'Space' WHERE genre = 'Sci-Fi'")
                }
                """#)
            // Sibling fields run side by side; each is refused, and the read beside them still reads.
            #expect(
                inMutation.text.components(separatedBy: "_selectFirst runs read-only").count == 3, "\(inMutation.text)")
            #expect(inMutation.json?["data"]?["query"]?["count"]?["n"] != nil, "\(inMutation.text)")
            #expect(inMutation.json?["data"]?["moved"] == .number(JSONNumber(3)), "\(inMutation.text)")
            let count = try await client.data(#"query { movies(where: { genre: { eq: "Space" } }) { _count } }"#)
            #expect(count["movies"]?.arrayValue?.first?["_count"] == .number(JSONNumber(3)), "\(count)")
            let all = try await client.data(#"query { movies { _count } }"#)
            #expect(all["movies"]?.arrayValue?.first?["_count"] == .number(JSONNumber(9)), "\(all)")
        }
    }

    @Test(arguments: DataConnectHarness.Engine.all)
    func nativeSQLRefusesVariablesOtherStatementKindsAndWhatSQLiteCannotRun(engine: DataConnectHarness.Engine)
        async throws
    {
        try await DataConnectHarness.run(engine: engine) { client async throws in
            let variable = try await client.graphql(
                #"query($q: SQL_Query!) { _select(sql: $q) }"#, variables: #"{"q":"SELECT 1"}"#)
            #expect(variable.text.contains("string literal written in the operation"), "\(variable.text)")
            let write = try await client.graphql(#"query { _select(sql: "DELETE FROM movie") }"#)
            #expect(write.text.contains("not DELETE"), "\(write.text)")
            let twice = try await client.graphql(#"query { _select(sql: "SELECT 1; DROP TABLE movie") }"#)
            #expect(twice.text.contains("one statement at a time"), "\(twice.text)")
            let postgres = try await client.graphql(#"query { _select(sql: "SELECT now()::date AS today") }"#)
            if case .postgres = engine {
                // Differs by design: the PostgreSQL engine runs PostgreSQL's SQL as written, as the service does.
                #expect(postgres.json?["data"]?["_select"]?.arrayValue?.count == 1, "\(postgres.text)")
            } else {
                #expect(postgres.text.contains("SQLite cannot run SELECT now()::date"), "\(postgres.text)")
            }
            let count = try await client.data(#"query { movies { _count } }"#)
            #expect(count["movies"]?.arrayValue?.first?["_count"] == .number(JSONNumber(9)))
        }
    }

    /// Nested inserts: rows that point at a new row, inserted with it and pointed at it.
    @Test(arguments: DataConnectHarness.Engine.all) func aNestedInsertCreatesTheRowsThatPointAtTheNewOne(
        engine: DataConnectHarness.Engine
    ) async throws {
        try await DataConnectHarness.run(engine: engine) { client async throws in
            let actors = try await client.data("query { actors(orderBy: {name: ASC}, limit: 2) { id name } }")
            let ids = actors["actors"]?.arrayValue?.compactMap { $0["id"]?.stringValue } ?? []
            #expect(ids.count == 2)
            let created = try await client.data(
                #"""
                mutation($a: UUID!, $b: UUID!) {
                  movie_insert(data: {
                    title: "Harbour Lights", genre: "Drama"
                    movieActors_on_movie: [{actor: {id: $a}, role: "lead"}, {actorId: $b, role: "cameo"}]
                  })
                }
                """#, variables: #"{"a":"\#(ids[0])","b":"\#(ids[1])"}"#)
            let id = created["movie_insert"]?["id"]?.stringValue ?? ""
            let cast = try await client.data(
                #"query { movie(id: "\#(id)") { movieActors_on_movie(orderBy: {role: DESC}) { role actor { id } } } }"#)
            #expect(
                cast["movie"]?["movieActors_on_movie"]
                    == .array([
                        .object(["role": .string("lead"), "actor": .object(["id": .string(ids[0])])]),
                        .object(["role": .string("cameo"), "actor": .object(["id": .string(ids[1])])]),
                    ]), "\(cast)")
            let update = try await client.graphql(
                #"mutation { movie_update(id: "\#(id)", data: {movieActors_on_movie: [{actorId: "\#(ids[0])"}]}) }"#)
            #expect(update.text.contains("an update cannot nest them"), "\(update.text)")
        }
    }

    @Test(arguments: DataConnectHarness.Engine.all)
    func aMutationRunFieldByFieldRunsAMergedFieldOnceAndLeavesSkippedOnesOut(engine: DataConnectHarness.Engine)
        async throws
    {
        try await DataConnectHarness.run(engine: engine) { client async throws in
            let merged = try await client.data(
                #"""
                mutation @transaction {
                  a: movie_insert(data: {title: "Once", genre: "Merged"})
                  a: movie_insert(data: {title: "Once", genre: "Merged"})
                  skipped: movie_insert(data: {title: "Never", genre: "Merged"}) @skip(if: true)
                }
                """#)
            #expect(merged.objectValue?.members.map(\.key) == ["a"], "\(merged)")
            #expect(try await Self.titles(client, #"{genre: {eq: "Merged"}}"#) == ["Once"])
            // An aggregate's group ignores a column left out by @include.
            let grouped = try await client.data("query { movies { title @include(if: false) _count } }")
            #expect(grouped["movies"] == .array([.object(["_count": .number(JSONNumber(10))])]), "\(grouped)")
        }
    }

    @Test(arguments: DataConnectHarness.Engine.all) func transactionRollsBackEveryFieldWhenOneFails(
        engine: DataConnectHarness.Engine
    ) async throws {
        try await DataConnectHarness.run(engine: engine) { client async throws in
            let failed = try await client.graphql(
                #"""
                mutation @transaction {
                  first: movie_insert(data: {title: "Ghost", genre: "Tx"})
                  second: movie_insert(data: {id: "0b5c1b1e-3a52-4c7e-9d0b-6f1e8a2c4d01", title: "Duplicate"})
                }
                """#)
            #expect(failed.status == 200)
            // Each field null with its error: the one before rolled back, the failing one with its reason.
            #expect(failed.json?["data"] == .object(["first": .null, "second": .null]))
            let errors = failed.json?["errors"]?.arrayValue ?? []
            #expect(errors.count == 2)
            #expect(errors.first?["path"] == .array([.string("first")]))
            #expect(errors.first?["message"]?.stringValue?.hasPrefix("(rolled back)") == true)
            #expect(errors.last?["path"] == .array([.string("second")]))
            #expect(errors.last?["message"]?.stringValue?.contains("a Movie with the same id already exists") == true)
            #expect(try await Self.titles(client, #"{genre: {eq: "Tx"}}"#) == [])
            #expect(try await Self.titles(client, #"{id: {eq: "\#(Self.orbitOfGlass)"}}"#) == ["Orbit of Glass"])
            // The same shape commits both fields when both succeed.
            let committed = try await client.data(
                #"""
                mutation @transaction {
                  first: movie_insert(data: {title: "Tx One", genre: "Tx"})
                  second: movie_insert(data: {title: "Tx Two", genre: "Tx"})
                }
                """#)
            #expect(Self.isHexKey(committed["first"]?["id"]?.stringValue))
            #expect(Self.isHexKey(committed["second"]?["id"]?.stringValue))
            #expect(try await Self.titles(client, #"{genre: {eq: "Tx"}}"#) == ["Tx One", "Tx Two"])
        }
    }

    @Test(arguments: DataConnectHarness.Engine.all) func withoutTransactionEachRootFieldCommitsOnItsOwn(
        engine: DataConnectHarness.Engine
    ) async throws {
        try await DataConnectHarness.run(engine: engine) { client async throws in
            let partial = try await client.graphql(
                #"""
                mutation {
                  first: movie_insert(data: {title: "Kept", genre: "Solo"})
                  second: movie_insert(data: {id: "0b5c1b1e-3a52-4c7e-9d0b-6f1e8a2c4d01", title: "Duplicate"})
                }
                """#)
            #expect(partial.status == 200)
            #expect(Self.isHexKey(partial.json?["data"]?["first"]?["id"]?.stringValue), "\(partial.text)")
            #expect(partial.json?["data"]?["second"] == .null)
            #expect(partial.json?["errors"]?.arrayValue?.first?["path"] == .array([.string("second")]))
            #expect(try await Self.titles(client, #"{genre: {eq: "Solo"}}"#) == ["Kept"])
        }
    }

    @Test(arguments: DataConnectHarness.Engine.all) func requiredFieldsAndUniqueKeysAreReportedBySchemaName(
        engine: DataConnectHarness.Engine
    ) async throws {
        try await DataConnectHarness.run(engine: engine) { client async throws in
            let missing = try await Self.failure(client, #"mutation { movie_insert(data: {genre: "Drama"}) }"#)
            #expect(missing.first?.contains("Movie_Data needs title") == true, "\(missing)")
            let nulled = try await Self.failure(
                client, #"mutation { movie_update(id: "\#(Self.orbitOfGlass)", data: {title: null}) }"#)
            #expect(nulled.first?.contains("Movie.title is required") == true, "\(nulled)")
            let key = try await Self.failure(
                client, #"mutation { movie_insert(data: {id: "\#(Self.orbitOfGlass)", title: "Again"}) }"#)
            #expect(key.first?.contains("a Movie with the same id already exists") == true, "\(key)")
            let unique = try await Self.failure(
                client,
                #"mutation { movieMetadata_insert(data: {movieId: "\#(Self.orbitOfGlass)", director: "Someone"}) }"#)
            #expect(unique.first?.contains("a MovieMetadata with the same movieId already exists") == true, "\(unique)")
            let composite = try await Self.failure(
                client,
                #"mutation { review_insert(data: {movieId: "\#(Self.orbitOfGlass)", userId: "user-ana", rating: 1}) }"#)
            #expect(
                composite.first?.contains("a Review with the same movieId, userId already exists") == true,
                "\(composite)")
            let dangling = try await Self.failure(
                client,
                #"""
                mutation {
                  review_insert(data: {movieId: "0b5c1b1e3a524c7e9d0b6f1e8a2c4d99", userId: "user-ana", rating: 1})
                }
                """#)
            #expect(dangling.first?.contains("refers to a row that does not exist") == true, "\(dangling)")
            // None of them changed anything.
            let data = try await client.data(
                #"""
                query { reviews { rating } movie(id: "\#(Self.orbitOfGlass)") { title } movieMetadatas { director } }
                """#)
            #expect(data["reviews"]?.arrayValue?.count == 3)
            #expect(data["movie"]?["title"] == .string("Orbit of Glass"))
            #expect(data["movieMetadatas"]?.arrayValue?.count == 4)
        }
    }

    // MARK: - Scalars

    @Test(arguments: DataConnectHarness.Engine.all) func uuidInputAcceptsDashesAndUppercaseAndComesBackAsLowercaseHex(
        engine: DataConnectHarness.Engine
    ) async throws {
        try await DataConnectHarness.run(engine: engine) { client async throws in
            let data = try await client.data(
                #"""
                query {
                  upper: movie(id: "0B5C1B1E-3A52-4C7E-9D0B-6F1E8A2C4D04") { id title }
                  plain: movie(key: {id: "0b5c1b1e3a524c7e9d0b6f1e8a2c4d04"}) { id }
                  reviews(where: {movieId: {eq: "0B5C1B1E3A524C7E9D0B6F1E8A2C4D04"}}) { movieId userId }
                }
                """#)
            #expect(data["upper"] == .object(["id": .string(Self.signalDrift), "title": .string("Signal Drift")]))
            #expect(data["plain"]?["id"] == .string(Self.signalDrift))
            #expect(
                data["reviews"]
                    == .array([.object(["movieId": .string(Self.signalDrift), "userId": .string("user-ana")])]))
            _ = try await Self.failure(client, #"query { movie(id: "0b5c1b1e-3a52-4c7e") { id } }"#)
            // The admin API answers a variable that does not fit as a compile error: OK, with errors.
            let variable = try await client.graphql(
                "query($id: UUID!) { movie(id: $id) { id } }", variables: #"{"id":"not-a-uuid"}"#)
            #expect(variable.status == 200, "\(variable.text)")
            #expect(variable.json?["data"] == nil, "\(variable.text)")
            #expect(
                variable.json?["errors"]?.arrayValue?.first?["message"]?.stringValue?.contains("$id") == true,
                "\(variable.text)")
        }
    }

    @Test(arguments: DataConnectHarness.Engine.all) func int64TravelsAsADecimalStringAndComparesAsANumber(
        engine: DataConnectHarness.Engine
    ) async throws {
        try await DataConnectHarness.run(engine: engine) { client async throws in
            _ = try await client.data(
                #"""
                mutation {
                  max: movieMetadata_insert(data: {movieId: "\#(Self.paperMoons)", budget: "9223372036854775807"})
                  min: movieMetadata_insert(data: {movieId: "\#(Self.secondSun)", budget: "-9223372036854775808"})
                }
                """#)
            // Past 2^53 a JSON number would lose digits; as an integer literal in the variables it is kept exactly.
            _ = try await client.data(
                #"mutation($b: Int64) { movieMetadata_insert(data: {movieId: "\#(Self.coldHarbour)", budget: $b}) }"#,
                variables: #"{"b":9007199254740993}"#)
            let data = try await client.data(
                #"""
                query {
                  orbit: movieMetadata(first: {where: {movieId: {eq: "\#(Self.orbitOfGlass)"}}}) { budget }
                  cold: movieMetadata(first: {where: {movieId: {eq: "\#(Self.coldHarbour)"}}}) { budget }
                  largest: movieMetadatas(orderBy: {budget: DESC}, where: {budget: {isNull: false}}, limit: 1) {
                    budget
                  }
                  smallest: movieMetadatas(orderBy: {budget: ASC}, limit: 1) { budget }
                  over30M: movieMetadatas(
                    where: {budget: {gt: "30000000", lt: "1000000000"}}, orderBy: {runtimeMinutes: ASC}
                  ) { runtimeMinutes }
                  chosen: movieMetadatas(where: {budget: {in: ["3500000", "27000000"]}}, orderBy: {budget: ASC}) {
                    budget
                  }
                  seeded: movieMetadatas(where: {runtimeMinutes: {isNull: false}}, orderBy: {budget: DESC}) {
                    runtimeMinutes
                  }
                }
                """#)
            #expect(data["orbit"]?["budget"] == .string("42000000"))
            #expect(data["cold"]?["budget"] == .string("9007199254740993"))
            #expect(data["largest"]?.strings("budget") == ["9223372036854775807"])
            #expect(data["smallest"]?.strings("budget") == ["-9223372036854775808"])
            #expect(Self.numbers(data["over30M"], "runtimeMinutes") == [128])
            #expect(data["chosen"]?.strings("budget") == ["3500000", "27000000"])
            // Descending puts the seeded row without a budget first.
            #expect(Self.numbers(data["seeded"], "runtimeMinutes") == [88, 128, 117, 101])
            _ = try await Self.failure(
                client, #"mutation { movieMetadata_insert(data: {movieId: "\#(Self.wrongNumber)", budget: "12x"}) }"#)
        }
    }

    @Test(arguments: DataConnectHarness.Engine.all) func dateRejectsImpossibleDaysAndAcceptsLeapDays(
        engine: DataConnectHarness.Engine
    ) async throws {
        try await DataConnectHarness.run(engine: engine) { client async throws in
            let mei = Self.meiTanaka
            func born() async throws -> JSONValue? {
                try await client.data(#"query { actor(id: "\#(mei)") { born } }"#)["actor"]?["born"]
            }
            _ = try await client.data(#"mutation { actor_update(id: "\#(mei)", data: {born: "2024-02-29"}) }"#)
            #expect(try await born() == .string("2024-02-29"))
            let variable = try await client.graphql(
                #"mutation($born: Date) { actor_update(id: "\#(mei)", data: {born: $born}) }"#,
                variables: #"{"born":"2024-02-30"}"#)
            #expect(variable.status == 200, "\(variable.text)")
            #expect(
                variable.json?["errors"]?.arrayValue?.first?["message"]?.stringValue?.contains("$born") == true,
                "\(variable.text)")
            for impossible in ["2024-02-30", "2023-02-29", "2024-13-01", "2024-04-31", "24-01-01"] {
                _ = try await Self.failure(
                    client, #"mutation { actor_update(id: "\#(mei)", data: {born: "\#(impossible)"}) }"#)
            }
            #expect(try await born() == .string("2024-02-29"))
            // A timestamp given for a Date keeps its day.
            _ = try await client.data(
                #"mutation { actor_update(id: "\#(mei)", data: {born: "2024-03-01T10:00:00Z"}) }"#)
            #expect(try await born() == .string("2024-03-01"))
        }
    }

    @Test(arguments: DataConnectHarness.Engine.all) func timestampsAreStoredInUTCAndPrintedWithTheirFraction(
        engine: DataConnectHarness.Engine
    ) async throws {
        try await DataConnectHarness.run(engine: engine) { client async throws in
            _ = try await client.data(
                #"""
                mutation {
                  a: movie_update(id: "\#(Self.theLongQuiet)", data: {addedAt: "2024-01-01T10:00:00+02:00"})
                  b: movie_update(id: "\#(Self.paperMoons)", data: {addedAt: "2024-01-01T10:00:00.5Z"})
                  c: movie_update(id: "\#(Self.signalDrift)", data: {addedAt: "2024-01-01T10:00:00.123456-05:30"})
                }
                """#)
            let data = try await client.data(
                #"""
                query {
                  a: movie(id: "\#(Self.theLongQuiet)") { addedAt }
                  b: movie(id: "\#(Self.paperMoons)") { addedAt }
                  c: movie(id: "\#(Self.signalDrift)") { addedAt }
                  seeded: movie(id: "\#(Self.orbitOfGlass)") { addedAt }
                  sameInstant: movies(where: {addedAt: {eq: "2024-06-01T11:00:00+02:00"}}, orderBy: {title: ASC}) {
                    title
                  }
                  earliest: movies(orderBy: {addedAt: ASC}, limit: 3) { title }
                }
                """#)
            #expect(data["a"]?["addedAt"] == .string("2024-01-01T08:00:00Z"))
            #expect(data["b"]?["addedAt"] == .string("2024-01-01T10:00:00.500Z"))
            #expect(data["c"]?["addedAt"] == .string("2024-01-01T15:30:00.123456Z"))
            #expect(data["seeded"]?["addedAt"] == .string("2024-06-01T09:00:00Z"))
            #expect(
                data["sameInstant"]?.strings("title")
                    == ["Café Müller", "Cold Harbour", "Kettle & Crow", "Orbit of Glass", "Second Sun", "Wrong Number"])
            #expect(data["earliest"]?.strings("title") == ["The Long Quiet", "Paper Moons", "Signal Drift"])
            _ = try await Self.failure(
                client, #"mutation { movie_update(id: "\#(Self.orbitOfGlass)", data: {addedAt: "2024-01-01 10:00"}) }"#)
        }
    }

    /// The example has no `Any` column, so this one lays out a one-table workspace.
    @Test func anyColumnsRoundTripJSONValues() async throws {
        let folder = try DataConnectHarness.workspace([
            "dataconnect.yaml": #"""
            specVersion: "v1"
            serviceId: "settings"
            location: "us-central1"
            schema:
              source: "./schema"
            """#,
            "schema/schema.gql": #"""
            type Setting @table(key: "name") {
              name: String!
              value: Any
            }
            """#,
        ])
        defer { try? FileManager.default.removeItem(at: folder) }
        try await DataConnectHarness.run(workspace: folder) { client async throws in
            let nested = #"{"theme":{"mode":"dark","accent":[255,128,0]},"ratio":0.25,"beta":true,"note":null}"#
            let inserted = try await client.data(
                #"mutation($v: Any) { setting_insert(data: {name: "ui", value: $v}) }"#,
                variables: #"{"v":\#(nested)}"#)
            #expect(inserted["setting_insert"] == .object(["name": .string("ui")]))
            _ = try await client.data(
                #"""
                mutation {
                  text: setting_insert(data: {name: "motd", value: "hello"})
                  number: setting_insert(data: {name: "limit", value: 42})
                  list: setting_insert(data: {name: "tags", value: ["a", 1, false]})
                  literal: setting_insert(data: {name: "literal", value: {size: 2.5, labels: ["x"]}})
                  empty: setting_insert(data: {name: "unset"})
                }
                """#)
            let data = try await client.data("query { settings(orderBy: {name: ASC}) { name value } }")
            let settings = data["settings"]?.arrayValue ?? []
            let names = settings.compactMap { $0["name"]?.stringValue }
            #expect(names == ["limit", "literal", "motd", "tags", "ui", "unset"])
            let expected = [
                "42", #"{"size":2.5,"labels":["x"]}"#, #""hello""#, #"["a",1,false]"#, nested, "null",
            ]
            for (setting, text) in zip(settings, expected) {
                let want = try JSONParser().parse(text)
                #expect(Self.normalized(setting["value"] ?? .null) == Self.normalized(want), "\(setting)")
            }
        }
    }
}
