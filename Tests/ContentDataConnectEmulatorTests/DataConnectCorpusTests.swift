import ContentEmulatorTesting
import ContentJSON
import ContentTesting
import Foundation
import Testing

@testable import ContentDataConnectEmulator

/// The real-world Data Connect workspaces of the shared corpus, laid out as their projects lay them out.
///
/// Starting the emulator over one parses and validates every operation of its connectors against the schema the
/// emulator derives; each test then runs a representative set of those operations and checks the results against
/// the seed data. Without the corpus each test passes with the note `TestLocations.corpusFolder` prints.
struct DataConnectCorpusTests {
    // MARK: - Layout

    /// Copies corpus files into a fresh folder: corpus file name → path in the project.
    private static func layOut(_ corpus: URL, _ paths: [String: String]) throws -> URL {
        var files: [String: String] = [:]
        for (name, path) in paths {
            files[path] = try String(contentsOf: corpus.appendingPathComponent(name), encoding: .utf8)
        }
        return try DataConnectHarness.workspace(files)
    }

    // MARK: - Helpers

    /// The 32-hex-digit form the wire uses for a UUID.
    private static func hex(_ uuid: String) -> String {
        uuid.replacingOccurrences(of: "-", with: "").lowercased()
    }

    private static func isHexKey(_ text: String?) -> Bool {
        guard let text else { return false }
        return text.count == 32 && text.allSatisfy { "0123456789abcdef".contains($0) }
    }

    private static func number(_ value: JSONValue?) -> Double? {
        if case .number(let number)? = value { return number.doubleValue }
        return nil
    }

    /// The strings at a path of keys in each element of a list (`"movie", "title"`).
    private static func texts(_ list: JSONValue?, _ path: String...) -> [String] {
        (list?.arrayValue ?? []).compactMap { element in
            path.reduce(Optional(element)) { $0?[$1] }?.stringValue
        }
    }

    /// `YYYY-MM-DD` of an instant in UTC.
    private static func utcDay(_ date: Date) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyy-MM-dd"
        return formatter.string(from: date)
    }

    /// Whether a date is the UTC day of some instant between two others (the request ran in between).
    private static func isDay(_ value: JSONValue?, between start: Date, and end: Date) -> Bool {
        guard let day = value?.stringValue else { return false }
        return [utcDay(start), utcDay(end)].contains(day)
    }

    /// JSON compared by meaning: object members sorted by name, numbers as doubles.
    private static func normalized(_ value: JSONValue) -> JSONValue {
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

    /// The `error.status` of a request error.
    private static func status(_ exchange: EmulatorExchange) -> String? {
        exchange.json?["error"]?["status"]?.stringValue
    }

    /// The operation names the emulator prepared for a connector.
    private static func operationNames(_ emulator: DataConnectEmulator, _ connector: String) -> Set<String> {
        Set(emulator.engine.operations[connector].map { Array($0.keys) } ?? [])
    }

    // MARK: - FriendlyFlix (firebase/data-connect-ios-sdk Examples/FriendlyFlix)

    static let flix = "friendly-flix"
    static let quantumParadox = "550e8400-e29b-41d4-a716-446655440000"
    static let beyondTheHorizon = "550e8400-e29b-41d4-a716-446655440011"
    static let phoenixRising = "550e8400-e29b-41d4-a716-446655440016"
    static let veilOfIllusion = "550e8400-e29b-41d4-a716-446655440019"
    static let oliverBlackwood = "123e4567-e89b-12d3-a456-426614174020"
    static let sherlock = "SnLgOC3lN4hcIl69s53cW0Q8R1T2"

    /// FriendlyFlix as its repository lays it out, and its seed file; nil (with a note) without the corpus.
    private static func friendlyFlix() throws -> (folder: URL, seed: URL)? {
        guard let corpus = TestLocations.corpusFolder("dataconnect/friendlyflix-ios") else { return nil }
        let folder = try layOut(
            corpus,
            [
                "firebase.json": "firebase.json",
                "dataconnect.yaml": "dataconnect/dataconnect.yaml",
                "schema_schema.gql": "dataconnect/schema/schema.gql",
                "movie-connector_connector.yaml": "dataconnect/movie-connector/connector.yaml",
                "movie-connector_queries.gql": "dataconnect/movie-connector/queries.gql",
                "movie-connector_mutations.gql": "dataconnect/movie-connector/mutations.gql",
                "data_seed.gql": "dataconnect/data_seed.gql",
                // Where the Firebase tools keep the generated prelude: outside the schema source, so not read.
                "prelude.gql": "dataconnect/.dataconnect/schema/prelude.gql",
            ])
        return (folder, folder.appendingPathComponent("dataconnect/data_seed.gql"))
    }

    /// Runs `body` against FriendlyFlix seeded from `data_seed.gql`; returns at once without the corpus.
    private static func withFriendlyFlix(
        engine: DataConnectHarness.Engine, _ body: @Sendable (DataConnectHarness.Client) async throws -> Void
    ) async throws {
        guard let workspace = try friendlyFlix() else { return }
        defer { try? FileManager.default.removeItem(at: workspace.folder) }
        try await DataConnectHarness.run(workspace: workspace.folder, seed: workspace.seed, engine: engine, body)
    }

    /// The FlutterFire example: its `movie_insert.gql` holds only comments, and its `connector.yaml` says
    /// `authMode: PUBLIC`, which the service does not apply.
    @Test func flutterFireStartsWithEveryOperationAcceptedAndRunsItsSeedAndQueries() async throws {
        guard let folder = TestLocations.corpusFolder("dataconnect/flutterfire-example") else { return }
        let emulator = try await DataConnectEmulator(workspace: folder)
        defer { Task { await emulator.shutDown() } }
        #expect(
            emulator.workspaceNotes == [
                "connector movies: authMode PUBLIC is not applied; as on Firebase, an operation without @auth is "
                    + "NO_ACCESS"
            ])
        try await DataConnectHarness.run(workspace: folder) { client in
            let seeded = try await client.mutate("seedMovies")
            #expect(seeded.status == 200 && seeded.json?["errors"] == nil, "\(seeded.text)")
            let found = try await client.query("ListMoviesByPartialTitle", variables: #"{"input":"Matrix"}"#)
            #expect(found.json?["data"]?["movies"]?.strings("title") == ["The Matrix"], "\(found.text)")
            // USER operations need a signed-in caller.
            let anonymous = try await client.query("ListMovies")
            #expect(anonymous.status == 401, "\(anonymous.text)")
            let listed = try await client.query("ListMovies", token: DataConnectHarness.userToken("fan"))
            #expect(listed.json?["data"]?["movies"]?.arrayValue?.isEmpty == false, "\(listed.text)")
        }
    }

    @Test func friendlyFlixStartsWithEveryOperationValidated() async throws {
        guard let workspace = try Self.friendlyFlix() else { return }
        defer { try? FileManager.default.removeItem(at: workspace.folder) }
        let emulator = try await DataConnectEmulator(
            workspace: workspace.folder, options: .init(seedFile: workspace.seed))
        defer { Task { await emulator.shutDown() } }
        #expect(emulator.summary == "service dataconnect (us-central1), connectors: friendly-flix")
        #expect(
            emulator.workspaceNotes == [
                "connector friendly-flix: authMode PUBLIC is not applied; as on Firebase, an operation without @auth "
                    + "is NO_ACCESS"
            ])
        #expect(
            Self.operationNames(emulator, Self.flix)
                == [
                    "ListMovies", "GetMovieById", "GetActorById", "GetCurrentUser", "GetIfFavoritedMovie", "SearchAll",
                    "ListMoviesByPartialTitle", "GetUserFavoriteMovies", "UpsertUser", "AddFavoritedMovie",
                    "DeleteFavoritedMovie", "AddReview", "UpdateReview", "DeleteReview",
                ])
    }

    @Test(arguments: DataConnectHarness.Engine.all) func friendlyFlixListMoviesOrdersByRatingThenYearAndLimits(
        engine: DataConnectHarness.Engine
    ) async throws {
        try await Self.withFriendlyFlix(engine: engine) { client async throws in
            let best = try await client.query(
                "ListMovies", variables: #"{"orderByRating":"DESC","limit":3}"#, connector: Self.flix)
            #expect(best.status == 200, "\(best.text)")
            let movies = try #require(best.json?["data"]?["movies"])
            #expect(movies.strings("title") == ["Phoenix Rising", "Beyond the Horizon", "Rise of the Crimson Empire"])
            let phoenix = try #require(movies.arrayValue?.first)
            #expect(phoenix["id"] == .string(Self.hex(Self.phoenixRising)))
            #expect(phoenix["releaseYear"] == .number(JSONNumber(2025)))
            #expect(phoenix["genre"] == .string("action"))
            #expect(Self.number(phoenix["rating"]) == 8.6)
            #expect(phoenix["tags"] == .array([.string("action"), .string("thriller")]))
            #expect(phoenix["description"]?.stringValue?.hasPrefix("A special forces operative") == true)
            let worst = try await client.query(
                "ListMovies", variables: #"{"orderByRating":"ASC","limit":3}"#, connector: Self.flix)
            #expect(
                worst.json?["data"]?["movies"]?.strings("title")
                    == ["Digital Nightmare", "Abyss of the Deep", "The Infinite Knot"])
            // Ties on rating (8.2, 8.1) fall to the release year, newest first.
            let ties = try await client.query(
                "ListMovies", variables: #"{"orderByRating":"DESC","orderByReleaseYear":"DESC","limit":7}"#,
                connector: Self.flix)
            #expect(
                ties.json?["data"]?["movies"]?.strings("title")
                    == [
                        "Phoenix Rising", "Beyond the Horizon", "Rise of the Crimson Empire", "Moonlit Crusade",
                        "Silent Waves", "The Lone Outlaw", "Eclipse of Destiny",
                    ])
            let all = try await client.query("ListMovies", connector: Self.flix)
            #expect(all.json?["data"]?["movies"]?.arrayValue?.count == 20)
        }
    }

    @Test(arguments: DataConnectHarness.Engine.all) func friendlyFlixGetMovieByIdFollowsMetadataCastAndReviews(
        engine: DataConnectHarness.Engine
    ) async throws {
        let start = Date()
        try await Self.withFriendlyFlix(engine: engine) { client async throws in
            let quantum = try await client.query(
                "GetMovieById", variables: #"{"id":"\#(Self.quantumParadox)"}"#, connector: Self.flix)
            #expect(quantum.status == 200, "\(quantum.text)")
            let movie = try #require(quantum.json?["data"]?["movie"])
            #expect(movie["id"] == .string(Self.hex(Self.quantumParadox)))
            #expect(movie["title"] == .string("Quantum Paradox"))
            #expect(movie["releaseYear"] == .number(JSONNumber(2025)))
            #expect(movie["genre"] == .string("sci-fi"))
            #expect(Self.number(movie["rating"]) == 7.9)
            #expect(movie["tags"] == .array([.string("thriller"), .string("adventure")]))
            // Not @unique, so the back-reference is a list.
            #expect(movie["metadata"] == .array([.object(["director": .string("Henry Caldwell")])]))
            #expect(movie["mainActors"]?.strings("name") == ["Oliver Blackwood"])
            #expect(movie["mainActors"]?.arrayValue?.first?["id"] == .string(Self.hex(Self.oliverBlackwood)))
            #expect(movie["supportingActors"]?.strings("name") == ["Emma Westfield"])
            let reviews = movie["reviews"]?.arrayValue ?? []
            #expect(reviews.count == 1)
            let review = try #require(reviews.first)
            #expect(review["id"] == .string("345e4567e89b12d3a456426614174000"))
            #expect(review["reviewText"] == .string("An incredible movie with a mind-blowing plot!"))
            #expect(review["rating"] == .number(JSONNumber(5)))
            #expect(review["user"] == .object(["id": .string(Self.sherlock), "username": .string("sherlock_h")]))
            // The seed dated its reviews `reviewDate_date: { today: true }`.
            #expect(Self.isDay(review["reviewDate"], between: start, and: Date()), "\(review)")

            let veil = try await client.query(
                "GetMovieById", variables: #"{"id":"\#(Self.veilOfIllusion)"}"#, connector: Self.flix)
            let other = try #require(veil.json?["data"]?["movie"])
            #expect(other["metadata"] == .array([.object(["director": .string("Hazel Carter")])]))
            #expect(other["mainActors"]?.strings("name") == ["Lily Moore"])
            #expect(other["supportingActors"]?.strings("name") == ["Oliver Blackwood"])
            #expect(other["reviews"] == .array([]))

            let unknown = try await client.query(
                "GetMovieById", variables: #"{"id":"550e8400-e29b-41d4-a716-446655440099"}"#, connector: Self.flix)
            #expect(unknown.json?["data"]?["movie"] == .null)
        }
    }

    @Test(arguments: DataConnectHarness.Engine.all) func friendlyFlixGetActorByIdListsMoviesByRole(
        engine: DataConnectHarness.Engine
    ) async throws {
        try await Self.withFriendlyFlix(engine: engine) { client async throws in
            let exchange = try await client.query(
                "GetActorById", variables: #"{"id":"\#(Self.oliverBlackwood)"}"#, connector: Self.flix)
            let actor = try #require(exchange.json?["data"]?["actor"], "\(exchange.text)")
            #expect(actor["name"] == .string("Oliver Blackwood"))
            #expect(actor["mainActors"]?.strings("title") == ["Quantum Paradox"])
            #expect(actor["supportingActors"]?.strings("title") == ["Veil of Illusion"])
            let veil = actor["supportingActors"]?.arrayValue?.first
            #expect(veil?["tags"] == .array([.string("mystery"), .string("crime")]))
        }
    }

    @Test(arguments: DataConnectHarness.Engine.all) func friendlyFlixSearchAllMatchesTitlesDescriptionsActorsAndReviews(
        engine: DataConnectHarness.Engine
    ) async throws {
        try await Self.withFriendlyFlix(engine: engine) { client async throws in
            func search(_ variables: String) async throws -> JSONValue {
                let exchange = try await client.query("SearchAll", variables: variables, connector: Self.flix)
                #expect(exchange.status == 200, "\(exchange.text)")
                return exchange.json?["data"] ?? .null
            }
            let everything = #""minYear":1900,"maxYear":2100,"minRating":0,"maxRating":10"#
            let detective = try await search(#"{"input":"detective",\#(everything),"genre":""}"#)
            #expect(detective["moviesMatchingTitle"] == .array([]))
            #expect(
                detective["moviesMatchingDescription"]?.strings("title").sorted()
                    == ["Noir Mystique", "Shadows and Lies", "Veil of Illusion"])
            #expect(detective["actorsMatchingName"] == .array([]))
            #expect(detective["reviewsMatchingText"] == .array([]))
            let mysteries = try await search(#"{"input":"detective",\#(everything),"genre":"myst"}"#)
            #expect(
                mysteries["moviesMatchingDescription"]?.strings("title").sorted()
                    == ["Noir Mystique", "Veil of Illusion"])
            let stones = try await search(#"{"input":"Stone",\#(everything),"genre":""}"#)
            #expect(stones["actorsMatchingName"]?.strings("name").sorted() == ["Amelia Stone", "Jack Stone"])
            let reviews = try await search(#"{"input":"movie",\#(everything),"genre":""}"#)["reviewsMatchingText"]
            #expect(Self.texts(reviews, "movie", "title").sorted() == ["Celestial Harmony", "Quantum Paradox"])
            #expect(Self.texts(reviews, "user", "username").sorted() == ["jane_d", "sherlock_h"])
            // Without input, its conditions drop out and only the ranges apply.
            let ranges = try await search(
                #"{"minYear":2022,"maxYear":2024,"minRating":8.0,"maxRating":8.2,"genre":""}"#)
            #expect(
                ranges["moviesMatchingTitle"]?.strings("title").sorted()
                    == ["Noir Mystique", "Parallel Justice", "Silent Waves", "The Last Symphony", "The Lone Outlaw"])
            #expect(ranges["reviewsMatchingText"]?.arrayValue?.count == 6)
            #expect(ranges["actorsMatchingName"]?.arrayValue?.count == 20)
        }
    }

    @Test(arguments: DataConnectHarness.Engine.all) func friendlyFlixFavoritesFollowTheSignedInUser(
        engine: DataConnectHarness.Engine
    ) async throws {
        try await Self.withFriendlyFlix(engine: engine) { client async throws in
            let token = DataConnectHarness.userToken("flix-fan")
            let movie = #"{"movieId":"\#(Self.beyondTheHorizon)"}"#
            let key: JSONValue = .object([
                "userId": .string("flix-fan"), "movieId": .string(Self.hex(Self.beyondTheHorizon)),
            ])
            let anonymous = try await client.query("GetCurrentUser", connector: Self.flix)
            #expect(anonymous.status == 401)
            #expect(Self.status(anonymous) == "UNAUTHENTICATED")

            let user = try await client.mutate(
                "UpsertUser", variables: #"{"username":"fan"}"#, connector: Self.flix, token: token)
            #expect(user.json?["data"]?["user_upsert"] == .object(["id": .string("flix-fan")]), "\(user.text)")
            let added = try await client.mutate(
                "AddFavoritedMovie", variables: movie, connector: Self.flix, token: token)
            #expect(added.json?["data"]?["favorite_movie_upsert"] == key, "\(added.text)")

            let favorited = try await client.query(
                "GetIfFavoritedMovie", variables: movie, connector: Self.flix, token: token)
            #expect(
                favorited.json?["data"]?["favorite_movie"]
                    == .object(["movieId": .string(Self.hex(Self.beyondTheHorizon))]))
            let favorites = try await client.query("GetUserFavoriteMovies", connector: Self.flix, token: token)
            let films = favorites.json?["data"]?["user"]?["favoriteMovies"]
            #expect(Self.texts(films, "movie", "title") == ["Beyond the Horizon"])
            let film = films?.arrayValue?.first?["movie"]
            #expect(film?["releaseYear"] == .number(JSONNumber(2026)))
            #expect(Self.number(film?["rating"]) == 8.5)
            let me = try await client.query("GetCurrentUser", connector: Self.flix, token: token)
            let current = try #require(me.json?["data"]?["user"], "\(me.text)")
            #expect(current["id"] == .string("flix-fan"))
            #expect(current["username"] == .string("fan"))
            #expect(current["reviews"] == .array([]))
            #expect(
                current["favoriteMovies"]?.arrayValue?.first?["movie"]?["metadata"]
                    == .array([.object(["director": .string("Noah Bennett")])]))

            let removed = try await client.mutate(
                "DeleteFavoritedMovie", variables: movie, connector: Self.flix, token: token)
            #expect(removed.json?["data"]?["favorite_movie_delete"] == key, "\(removed.text)")
            let gone = try await client.query(
                "GetIfFavoritedMovie", variables: movie, connector: Self.flix, token: token)
            #expect(gone.json?["data"]?["favorite_movie"] == .null)
            let none = try await client.query("GetUserFavoriteMovies", connector: Self.flix, token: token)
            #expect(none.json?["data"]?["user"]?["favoriteMovies"] == .array([]))
        }
    }

    @Test(arguments: DataConnectHarness.Engine.all) func friendlyFlixSeededUserSeesTheirReviewsAndFavorites(
        engine: DataConnectHarness.Engine
    ) async throws {
        try await Self.withFriendlyFlix(engine: engine) { client async throws in
            let me = try await client.query(
                "GetCurrentUser", connector: Self.flix, token: DataConnectHarness.userToken(Self.sherlock))
            let user = try #require(me.json?["data"]?["user"], "\(me.text)")
            #expect(user["username"] == .string("sherlock_h"))
            let reviews = (user["reviews"]?.arrayValue ?? []).sorted {
                ($0["movie"]?["title"]?.stringValue ?? "") < ($1["movie"]?["title"]?.stringValue ?? "")
            }
            #expect(Self.texts(.array(reviews), "movie", "title") == ["Noir Mystique", "Quantum Paradox"])
            #expect(reviews.map { Self.number($0["rating"]) } == [4, 5])
            #expect(
                Self.texts(user["favoriteMovies"], "movie", "title").sorted() == ["Noir Mystique", "Quantum Paradox"])
        }
    }

    @Test(arguments: DataConnectHarness.Engine.all) func friendlyFlixReviewsAreAddedUpdatedAndDeletedByTheirAuthor(
        engine: DataConnectHarness.Engine
    ) async throws {
        let start = Date()
        try await Self.withFriendlyFlix(engine: engine) { client async throws in
            let token = DataConnectHarness.userToken("flix-critic")
            let key: JSONValue = .object([
                "movieId": .string(Self.hex(Self.phoenixRising)), "userId": .string("flix-critic"),
            ])
            _ = try await client.mutate(
                "UpsertUser", variables: #"{"username":"critic"}"#, connector: Self.flix, token: token)
            let review = #"{"movieId":"\#(Self.phoenixRising)","rating":4,"reviewText":"Relentless."}"#
            let added = try await client.mutate("AddReview", variables: review, connector: Self.flix, token: token)
            #expect(added.json?["data"]?["review_insert"] == key, "\(added.text)")
            // review_insert, not upsert: a second review of the same movie is refused.
            let twice = try await client.mutate("AddReview", variables: review, connector: Self.flix, token: token)
            #expect(twice.json?["errors"]?.arrayValue?.first?["path"] == .array([.string("review_insert")]))

            let update = #"{"movieId":"\#(Self.phoenixRising)","rating":5,"reviewText":"Better twice."}"#
            let changed = try await client.mutate(
                "UpdateReview", variables: update, connector: Self.flix, token: token)
            #expect(changed.json?["data"]?["review_update"] == key, "\(changed.text)")
            let movie = try await client.query(
                "GetMovieById", variables: #"{"id":"\#(Self.phoenixRising)"}"#, connector: Self.flix)
            let reviews = movie.json?["data"]?["movie"]?["reviews"]?.arrayValue ?? []
            #expect(reviews.count == 1)
            #expect(reviews.first?["reviewText"] == .string("Better twice."))
            #expect(reviews.first?["rating"] == .number(JSONNumber(5)))
            #expect(reviews.first?["user"] == .object(["id": .string("flix-critic"), "username": .string("critic")]))
            #expect(Self.isDay(reviews.first?["reviewDate"], between: start, and: Date()))
            #expect(Self.isHexKey(reviews.first?["id"]?.stringValue))

            let deleted = try await client.mutate(
                "DeleteReview", variables: #"{"movieId":"\#(Self.phoenixRising)"}"#, connector: Self.flix, token: token)
            #expect(deleted.json?["data"]?["review_delete"] == key, "\(deleted.text)")
            let after = try await client.query(
                "GetMovieById", variables: #"{"id":"\#(Self.phoenixRising)"}"#, connector: Self.flix)
            #expect(after.json?["data"]?["movie"]?["reviews"] == .array([]))
        }
    }

    // MARK: - Kitchen sink (firebase/data-connect-ios-sdk integration tests)

    static let sink = "kitchen-sink"

    /// The SDK's integration-test workspace as its repository lays it out; nil (with a note) without the corpus.
    private static func kitchenSink() throws -> URL? {
        guard let corpus = TestLocations.corpusFolder("dataconnect/ios-sdk-kitchensink") else { return nil }
        return try layOut(
            corpus,
            [
                "firebase.json": "firebase.json",
                "dataconnect_dataconnect.yaml": "dataconnect/dataconnect.yaml",
                "dataconnect_schema_schema.gql": "dataconnect/schema/schema.gql",
                "dataconnect_default_connector.yaml": "dataconnect/default/connector.yaml",
                "dataconnect_default_queries.gql": "dataconnect/default/queries.gql",
                "dataconnect_default_mutations.gql": "dataconnect/default/mutations.gql",
            ])
    }

    /// Runs `body` against the kitchen sink; returns at once without the corpus.
    private static func withKitchenSink(
        engine: DataConnectHarness.Engine, _ body: @Sendable (DataConnectHarness.Client) async throws -> Void
    )
        async throws
    {
        guard let folder = try kitchenSink() else { return }
        defer { try? FileManager.default.removeItem(at: folder) }
        try await DataConnectHarness.run(workspace: folder, engine: engine, body)
    }

    @Test func kitchenSinkStartsWithEveryOperationValidated() async throws {
        guard let folder = try Self.kitchenSink() else { return }
        defer { try? FileManager.default.removeItem(at: folder) }
        let emulator = try await DataConnectEmulator(workspace: folder)
        defer { Task { await emulator.shutDown() } }
        #expect(emulator.summary == "service fdc-kitchensink (us-central1), connectors: kitchen-sink")
        #expect(
            Self.operationNames(emulator, Self.sink)
                == [
                    "createTestId", "createTestAutoId", "createStandardScalar", "createScalarBoundary",
                    "createLargeNum", "createLocalDate", "createAnyValueType", "InsertMultiplePeople",
                    "DeleteNonExistentPeople",
                    "GetStandardScalar", "GetScalarBoundary", "GetLargeNum", "GetLocalDateType", "GetAnyValueType",
                ])
    }

    @Test(arguments: DataConnectHarness.Engine.all) func kitchenSinkStandardScalarsRoundTrip(
        engine: DataConnectHarness.Engine
    ) async throws {
        try await Self.withKitchenSink(engine: engine) { client async throws in
            let id = "6F3A9C2E-1B4D-4E8F-9A7C-2D5B8E1F0A31"
            let created = try await client.mutate(
                "createStandardScalar",
                variables: #"{"id":"\#(id)","number":42,"text":"Kitchen sink: ünïcödé ✓","decimal":3.14159}"#,
                connector: Self.sink)
            #expect(created.json?["data"]?["standardScalars_upsert"] == .object(["id": .string(Self.hex(id))]))
            let read = try await client.query("GetStandardScalar", variables: #"{"id":"\#(id)"}"#, connector: Self.sink)
            let row = try #require(read.json?["data"]?["standardScalars"], "\(read.text)")
            #expect(row["id"] == .string(Self.hex(id)))
            #expect(row["number"] == .number(JSONNumber(42)))
            #expect(row["text"] == .string("Kitchen sink: ünïcödé ✓"))
            #expect(Self.number(row["decimal"]) == 3.14159)
            // It is an upsert: the same id again replaces the values.
            _ = try await client.mutate(
                "createStandardScalar", variables: #"{"id":"\#(id)","number":-7,"text":"","decimal":-0.5}"#,
                connector: Self.sink)
            let again = try await client.query(
                "GetStandardScalar", variables: #"{"id":"\#(id)"}"#, connector: Self.sink)
            let updated = try #require(again.json?["data"]?["standardScalars"])
            #expect(updated["number"] == .number(JSONNumber(-7)))
            #expect(updated["text"] == .string(""))
            #expect(Self.number(updated["decimal"]) == -0.5)
        }
    }

    @Test(arguments: DataConnectHarness.Engine.all) func kitchenSinkScalarBoundariesRoundTrip(
        engine: DataConnectHarness.Engine
    ) async throws {
        try await Self.withKitchenSink(engine: engine) { client async throws in
            let id = "0c1d2e3f-4a5b-4c6d-8e7f-901a2b3c4d5e"
            let created = try await client.mutate(
                "createScalarBoundary",
                variables: #"""
                    {"id":"\#(id)","maxNumber":2147483647,"minNumber":-2147483648,
                     "maxDecimal":1.7976931348623157e308,"minDecimal":2.2250738585072014e-308}
                    """#,
                connector: Self.sink)
            #expect(created.json?["data"]?["scalarBoundary_insert"] == .object(["id": .string(Self.hex(id))]))
            let read = try await client.query("GetScalarBoundary", variables: #"{"id":"\#(id)"}"#, connector: Self.sink)
            let row = try #require(read.json?["data"]?["scalarBoundary"], "\(read.text)")
            #expect(row["maxNumber"] == .number(JSONNumber(2_147_483_647)))
            #expect(row["minNumber"] == .number(JSONNumber(-2_147_483_648)))
            #expect(Self.number(row["maxDecimal"]) == Double.greatestFiniteMagnitude)
            #expect(Self.number(row["minDecimal"]) == Double.leastNormalMagnitude)
            // Int is 32-bit.
            let overflow = try await client.mutate(
                "createScalarBoundary",
                variables: #"""
                    {"id":"0c1d2e3f-4a5b-4c6d-8e7f-901a2b3c4d5f","maxNumber":2147483648,"minNumber":0,
                     "maxDecimal":0,"minDecimal":0}
                    """#,
                connector: Self.sink)
            #expect(overflow.status == 400, "\(overflow.text)")
            #expect(Self.status(overflow) == "INVALID_ARGUMENT")
        }
    }

    @Test(arguments: DataConnectHarness.Engine.all) func kitchenSinkInt64TravelsAsDecimalStringsToItsLimits(
        engine: DataConnectHarness.Engine
    ) async throws {
        try await Self.withKitchenSink(engine: engine) { client async throws in
            let id = "9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d"
            let created = try await client.mutate(
                "createLargeNum",
                variables: #"""
                    {"id":"\#(id)","num":"1234567890123","maxNum":"9223372036854775807","minNum":"-9223372036854775808"}
                    """#,
                connector: Self.sink)
            #expect(created.json?["data"]?["largeIntType_insert"] == .object(["id": .string(Self.hex(id))]))
            let read = try await client.query("GetLargeNum", variables: #"{"id":"\#(id)"}"#, connector: Self.sink)
            #expect(
                read.json?["data"]?["largeIntType"]
                    == .object([
                        "num": .string("1234567890123"), "maxNum": .string("9223372036854775807"),
                        "minNum": .string("-9223372036854775808"),
                    ]))
            let overflow = try await client.mutate(
                "createLargeNum",
                variables: #"""
                    {"id":"9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6e","num":"9223372036854775808","maxNum":"0","minNum":"0"}
                    """#,
                connector: Self.sink)
            #expect(overflow.status == 400, "\(overflow.text)")
            #expect(Self.status(overflow) == "INVALID_ARGUMENT")
        }
    }

    @Test(arguments: DataConnectHarness.Engine.all) func kitchenSinkLocalDateRoundTripsAndRefusesImpossibleDays(
        engine: DataConnectHarness.Engine
    ) async throws {
        try await Self.withKitchenSink(engine: engine) { client async throws in
            let leap = "1f2e3d4c-5b6a-4978-8a9b-0c1d2e3f4a5b"
            _ = try await client.mutate(
                "createLocalDate", variables: #"{"id":"\#(leap)","localDate":"2024-02-29"}"#, connector: Self.sink)
            let read = try await client.query(
                "GetLocalDateType", variables: #"{"id":"\#(leap)"}"#, connector: Self.sink)
            #expect(read.json?["data"]?["localDateType"] == .object(["localDate": .string("2024-02-29")]))
            let impossible = try await client.mutate(
                "createLocalDate",
                variables: #"{"id":"1f2e3d4c-5b6a-4978-8a9b-0c1d2e3f4a5c","localDate":"2023-02-29"}"#,
                connector: Self.sink)
            #expect(impossible.status == 400, "\(impossible.text)")
            #expect(Self.status(impossible) == "INVALID_ARGUMENT")
            let missing = try await client.query(
                "GetLocalDateType", variables: #"{"id":"1f2e3d4c-5b6a-4978-8a9b-0c1d2e3f4a5c"}"#, connector: Self.sink)
            #expect(missing.json?["data"]?["localDateType"] == .null)
        }
    }

    @Test(arguments: DataConnectHarness.Engine.all) func kitchenSinkAnyValueRoundTripsNestedJSON(
        engine: DataConnectHarness.Engine
    ) async throws {
        try await Self.withKitchenSink(engine: engine) { client async throws in
            let values = [
                (
                    "2b3c4d5e-6f7a-4b8c-9d0e-1f2a3b4c5d6e",
                    #"{"name":"sink","count":3,"ratio":0.5,"tags":["a","b"],"#
                        + #""nested":{"deep":{"ok":true,"none":null}}}"#
                ),
                ("2b3c4d5e-6f7a-4b8c-9d0e-1f2a3b4c5d6f", #""just text""#),
                ("2b3c4d5e-6f7a-4b8c-9d0e-1f2a3b4c5d70", #"[1,"two",false,{"three":3}]"#),
            ]
            for (id, props) in values {
                let created = try await client.mutate(
                    "createAnyValueType", variables: #"{"id":"\#(id)","props":\#(props)}"#, connector: Self.sink)
                #expect(created.json?["data"]?["anyValueType_insert"] == .object(["id": .string(Self.hex(id))]))
                let read = try await client.query(
                    "GetAnyValueType", variables: #"{"id":"\#(id)"}"#, connector: Self.sink)
                let stored = try #require(read.json?["data"]?["anyValueType"]?["props"], "\(read.text)")
                #expect(Self.normalized(stored) == Self.normalized(try JSONParser().parse(props)), "\(props)")
            }
            let missing = try await client.mutate(
                "createAnyValueType", variables: #"{"id":"2b3c4d5e-6f7a-4b8c-9d0e-1f2a3b4c5d71","props":null}"#,
                connector: Self.sink)
            #expect(missing.status == 400, "\(missing.text)")
        }
    }

    @Test(arguments: DataConnectHarness.Engine.all) func kitchenSinkIdsAreGeneratedOrGivenAndKeptUnique(
        engine: DataConnectHarness.Engine
    ) async throws {
        try await Self.withKitchenSink(engine: engine) { client async throws in
            let first = try await client.mutate("createTestAutoId", connector: Self.sink)
            let second = try await client.mutate("createTestAutoId", connector: Self.sink)
            let one = first.json?["data"]?["testAutoId_insert"]?["id"]?.stringValue
            let two = second.json?["data"]?["testAutoId_insert"]?["id"]?.stringValue
            #expect(Self.isHexKey(one), "\(first.text)")
            #expect(Self.isHexKey(two), "\(second.text)")
            #expect(one != two)
            let id = "3C4D5E6F-7A8B-4C9D-8E0F-1A2B3C4D5E6F"
            let given = try await client.mutate("createTestId", variables: #"{"id":"\#(id)"}"#, connector: Self.sink)
            #expect(given.json?["data"]?["testId_insert"] == .object(["id": .string(Self.hex(id))]))
            let again = try await client.mutate(
                "createTestId", variables: #"{"id":"\#(Self.hex(id))"}"#, connector: Self.sink)
            #expect(again.status == 200)
            let error = again.json?["errors"]?.arrayValue?.first
            #expect(error?["path"] == .array([.string("testId_insert")]), "\(again.text)")
            #expect(error?["message"]?.stringValue?.contains("already exists") == true, "\(again.text)")
        }
    }

    /// The SDK's `testDuplicatePrimaryKeys`: without @transaction each root field stands alone.
    @Test(arguments: DataConnectHarness.Engine.all)
    func kitchenSinkInsertMultiplePeopleKeepsTheFirstAndReportsTheSecond(engine: DataConnectHarness.Engine) async throws
    {
        try await Self.withKitchenSink(engine: engine) { client async throws in
            let id = "4d5e6f7a-8b9c-4d0e-9f1a-2b3c4d5e6f7a"
            let exchange = try await client.mutate(
                "InsertMultiplePeople", variables: #"{"id":"\#(id)","name1":"name1","name2":"name2"}"#,
                connector: Self.sink)
            #expect(exchange.status == 200)
            let errors = exchange.json?["errors"]?.arrayValue ?? []
            #expect(errors.count == 1, "\(exchange.text)")
            #expect(errors.first?["path"] == .array([.string("person2")]), "\(exchange.text)")
            #expect(exchange.json?["data"]?["person1"] == .object(["id": .string(Self.hex(id))]), "\(exchange.text)")
            #expect(exchange.json?["data"]?["person2"] == .null)
            let person = try await client.data(#"query { person(id: "\#(id)") { name } }"#)
            #expect(person["person"]?["name"] == .string("name1"))
        }
    }

    /// The SDK's `testPartiallyDecodedData`: the first alias inserts and deletes, the second finds nothing.
    @Test(arguments: DataConnectHarness.Engine.all)
    func kitchenSinkDeleteNonExistentPeopleDeletesTheFirstAndReturnsNullForTheSecond(engine: DataConnectHarness.Engine)
        async throws
    {
        try await Self.withKitchenSink(engine: engine) { client async throws in
            let id = "5e6f7a8b-9c0d-4e1f-8a2b-3c4d5e6f7a8b"
            let exchange = try await client.mutate(
                "DeleteNonExistentPeople", variables: #"{"id":"\#(id)"}"#, connector: Self.sink)
            #expect(exchange.status == 200)
            let data = try #require(exchange.json?["data"], "\(exchange.text)")
            #expect(data["person1_insert"] == .object(["id": .string(Self.hex(id))]))
            #expect(data["person1"] == .object(["id": .string(Self.hex(id))]))
            #expect(data["person2"] == .null)
            // Whatever the service says about the missing row, it can only be about person2.
            for error in exchange.json?["errors"]?.arrayValue ?? [] {
                #expect(error["path"] == .array([.string("person2")]), "\(exchange.text)")
            }
            let person = try await client.data(#"query { person(id: "\#(id)") { name } }"#)
            #expect(person["person"] == .null)
        }
    }

    // MARK: - firebase init dataconnect (firebase/firebase-tools templates/init/dataconnect)

    static let template = "example"
    static let noirMystique = "550e8400-e29b-41d4-a716-446655440003"
    static let lastSymphony = "550e8400-e29b-41d4-a716-446655440013"
    static let templateTitles = [
        "Quantum Paradox", "The Lone Outlaw", "Celestial Harmony", "Noir Mystique", "The Forgotten Island",
        "Digital Nightmare", "Eclipse of Destiny", "Heart of Steel", "Rise of the Crimson Empire", "Silent Waves",
        "Echoes of the Past", "Beyond the Horizon", "Shadows and Lies", "The Last Symphony", "Moonlit Crusade",
        "Abyss of the Deep", "The Infinite Knot", "Veil of Illusion",
    ]

    /// What `firebase init dataconnect` asks for and writes in place of the template's placeholders.
    private static let placeholders = [
        ("__serviceId__", "content-demo"),
        ("__location__", "us-central1"),
        ("__cloudSqlDatabase__", "fdcdb"),
        ("__cloudSqlInstanceId__", "content-demo-fdc"),
        ("__connectorDirs__", #"["./example"]"#),
        ("__connectorId__", "example"),
        ("__secondarySchemaId__", "hello"),
        ("__secondarySchemaSource__", "./schema_resolver"),
        ("__secondarySchemaUri__", #""https://hello-abc123-uc.a.run.app/graphql""#),
    ]

    private static func filled(_ text: String) -> String {
        placeholders.reduce(text) { $0.replacingOccurrences(of: $1.0, with: $1.1) }
    }

    /// The template as `firebase init dataconnect` writes it, optionally with the custom-resolver schema beside the
    /// Postgres one; nil (with a note) without the corpus.
    private static func initTemplate(withSecondarySchema: Bool = false) throws -> URL? {
        guard let corpus = TestLocations.corpusFolder("dataconnect/firebase-tools-init-template") else { return nil }
        func text(_ name: String) throws -> String {
            try String(contentsOf: corpus.appendingPathComponent(name), encoding: .utf8)
        }
        var manifest = try text(withSecondarySchema ? "dataconnect-fdcwebhooks.yaml" : "dataconnect.yaml")
        if withSecondarySchema {
            // The custom resolver's entry goes where the template marks it, under `schemas:`.
            let secondary = try text("secondary_schema.yaml")
            manifest = manifest.replacingOccurrences(of: "#__secondarySchemaPlaceholder__\n", with: secondary)
        }
        manifest = filled(manifest)
        #expect(!manifest.contains("__"), "\(manifest)")
        var files = try [
            "firebase.json": #"{"dataconnect":{"source":"dataconnect"}}"#,
            "dataconnect/dataconnect.yaml": manifest,
            "dataconnect/schema/schema.gql": text("schema.gql"),
            "dataconnect/example/connector.yaml": filled(text("connector.yaml")),
            "dataconnect/example/queries.gql": text("queries.gql"),
            "dataconnect/example/mutations.gql": text("mutations.gql"),
            "dataconnect/seed_data.gql": text("seed_data.gql"),
        ]
        if withSecondarySchema {
            files["dataconnect/schema_resolver/schema.gql"] = try text("secondary_schema.gql")
        }
        return try DataConnectHarness.workspace(files)
    }

    /// Runs `body` against the init template, seeded from its `seed_data.gql`; returns at once without the corpus.
    private static func withInitTemplate(
        engine: DataConnectHarness.Engine, _ body: @Sendable (DataConnectHarness.Client) async throws -> Void
    )
        async throws
    {
        guard let folder = try initTemplate() else { return }
        defer { try? FileManager.default.removeItem(at: folder) }
        try await DataConnectHarness.run(workspace: folder, engine: engine, body)
    }

    @Test func initTemplateStartsWithEveryOperationValidatedAndSeedsItself() async throws {
        guard let folder = try Self.initTemplate() else { return }
        defer { try? FileManager.default.removeItem(at: folder) }
        let emulator = try await DataConnectEmulator(workspace: folder)
        defer { Task { await emulator.shutDown() } }
        #expect(emulator.summary == "service content-demo (us-central1), connectors: example")
        #expect(emulator.workspaceNotes.isEmpty)
        #expect(
            Self.operationNames(emulator, Self.template)
                == [
                    "ListMovies", "ListUsers", "ListUserReviews", "GetMovieById", "SearchMovie", "CreateMovie",
                    "UpsertUser", "AddReview", "DeleteReview",
                ])
        try await DataConnectHarness.run(workspace: folder) { client async throws in
            let data = try await client.data(
                "query { movies { id } movieMetadatas { rating } users { id } reviews { rating } }")
            #expect(data["movies"]?.arrayValue?.count == 18)
            #expect(data["movieMetadatas"]?.arrayValue?.count == 18)
            #expect(data["users"]?.arrayValue?.count == 3)
            #expect(data["reviews"]?.arrayValue?.count == 6)
        }
    }

    @Test func initTemplateWithACustomResolverSchemaServesThePostgresOneAndSaysSo() async throws {
        guard let folder = try Self.initTemplate(withSecondarySchema: true) else { return }
        defer { try? FileManager.default.removeItem(at: folder) }
        let emulator = try await DataConnectEmulator(workspace: folder)
        defer { Task { await emulator.shutDown() } }
        #expect(emulator.workspaceNotes.count == 1)
        #expect(emulator.workspaceNotes.first?.contains("hello") == true, "\(emulator.workspaceNotes)")
        #expect(emulator.workspaceNotes.first?.contains("HTTP GraphQL") == true, "\(emulator.workspaceNotes)")
        try await DataConnectHarness.run(workspace: folder) { client async throws in
            let movies = try await client.query("ListMovies", connector: Self.template)
            #expect(movies.json?["data"]?["movies"]?.arrayValue?.count == 18, "\(movies.text)")
        }
    }

    @Test(arguments: DataConnectHarness.Engine.all) func initTemplateListsSearchesAndGetsMovies(
        engine: DataConnectHarness.Engine
    ) async throws {
        try await Self.withInitTemplate(engine: engine) { client async throws in
            let list = try await client.query("ListMovies", connector: Self.template)
            #expect(list.status == 200, "\(list.text)")
            let movies = list.json?["data"]?["movies"]
            #expect(movies?.strings("title").sorted() == Self.templateTitles.sorted())
            #expect((movies?.arrayValue ?? []).allSatisfy { Self.isHexKey($0["id"]?.stringValue) })
            #expect(
                (movies?.arrayValue ?? []).allSatisfy {
                    $0["imageUrl"]?.stringValue?.hasPrefix("https://firebasestorage.googleapis.com/") == true
                })

            let noir = try await client.query(
                "GetMovieById", variables: #"{"id":"\#(Self.noirMystique)"}"#, connector: Self.template)
            let movie = try #require(noir.json?["data"]?["movie"], "\(noir.text)")
            #expect(movie["id"] == .string(Self.hex(Self.noirMystique)))
            #expect(movie["title"] == .string("Noir Mystique"))
            #expect(movie["genre"] == .string("mystery"))
            // @unique makes the one-to-one back-reference a single object.
            let metadata = try #require(movie["metadata"]?.objectValue)
            #expect(Self.number(metadata["rating"]) == 8.0)
            #expect(metadata["releaseYear"] == .number(JSONNumber(2022)))
            #expect(metadata["description"]?.stringValue?.hasPrefix("A private detective gets caught up") == true)
            #expect(
                movie["reviews"]
                    == .array([
                        .object([
                            "reviewText": .string("A fantastic superhero film with great performances."),
                            "reviewDate": .string("2025-10-01"), "rating": .number(JSONNumber(4)),
                            "user": .object(["id": .string(Self.sherlock), "username": .string("sherlock_h")]),
                        ])
                    ]))
            let unknown = try await client.query(
                "GetMovieById", variables: #"{"id":"550e8400-e29b-41d4-a716-446655440018"}"#, connector: Self.template)
            #expect(unknown.json?["data"]?["movie"] == .null)

            let sciFi = try await client.query(
                "SearchMovie", variables: #"{"genre":"sci-fi"}"#, connector: Self.template)
            #expect(
                sciFi.json?["data"]?["movies"]?.strings("title").sorted()
                    == ["Beyond the Horizon", "Heart of Steel", "Quantum Paradox"])
            let the = try await client.query(
                "SearchMovie", variables: #"{"titleInput":"The"}"#, connector: Self.template)
            #expect(
                the.json?["data"]?["movies"]?.strings("title").sorted()
                    == ["The Forgotten Island", "The Infinite Knot", "The Last Symphony", "The Lone Outlaw"])
            let everything = try await client.query("SearchMovie", connector: Self.template)
            #expect(everything.json?["data"]?["movies"]?.arrayValue?.count == 18)
        }
    }

    @Test(arguments: DataConnectHarness.Engine.all) func initTemplateCreateMovieNeedsAVerifiedEmail(
        engine: DataConnectHarness.Engine
    ) async throws {
        try await Self.withInitTemplate(engine: engine) { client async throws in
            let variables =
                #"{"title":"Night Train","genre":"thriller","imageUrl":"https://example.com/night-train.jpg"}"#
            let anonymous = try await client.mutate("CreateMovie", variables: variables, connector: Self.template)
            #expect(anonymous.status == 401)
            #expect(Self.status(anonymous) == "UNAUTHENTICATED")
            let unverified = try await client.mutate(
                "CreateMovie", variables: variables, connector: Self.template,
                token: DataConnectHarness.userToken("new-user", verified: false))
            #expect(unverified.status == 401)
            #expect(Self.status(unverified) == "UNAUTHENTICATED")
            let verified = try await client.mutate(
                "CreateMovie", variables: variables, connector: Self.template,
                token: DataConnectHarness.userToken("new-user"))
            #expect(verified.status == 200, "\(verified.text)")
            let id = try #require(verified.json?["data"]?["movie_insert"]?["id"]?.stringValue)
            #expect(Self.isHexKey(id))
            let created = try await client.query(
                "GetMovieById", variables: #"{"id":"\#(id)"}"#, connector: Self.template)
            let movie = try #require(created.json?["data"]?["movie"], "\(created.text)")
            #expect(movie["title"] == .string("Night Train"))
            #expect(movie["genre"] == .string("thriller"))
            #expect(movie["imageUrl"] == .string("https://example.com/night-train.jpg"))
            #expect(movie["metadata"] == .null)
            #expect(movie["reviews"] == .array([]))
            // The refused calls wrote nothing.
            let titles = try await client.data(#"query { movies(where: {title: {eq: "Night Train"}}) { id } }"#)
            #expect(titles["movies"]?.arrayValue?.count == 1)
        }
    }

    @Test(arguments: DataConnectHarness.Engine.all) func initTemplateUsersReviewMoviesAsThemselves(
        engine: DataConnectHarness.Engine
    ) async throws {
        let start = Date()
        try await Self.withInitTemplate(engine: engine) { client async throws in
            let token = DataConnectHarness.userToken("new-user")
            let movie = Self.hex(Self.lastSymphony)
            let key: JSONValue = .object(["movieId": .string(movie), "userId": .string("new-user")])
            let user = try await client.mutate(
                "UpsertUser", variables: #"{"username":"newbie"}"#, connector: Self.template, token: token)
            #expect(user.json?["data"]?["user_upsert"] == .object(["id": .string("new-user")]), "\(user.text)")
            let review = #"{"movieId":"\#(Self.lastSymphony)","rating":4,"reviewText":"Moving."}"#
            let added = try await client.mutate("AddReview", variables: review, connector: Self.template, token: token)
            #expect(added.json?["data"]?["review_upsert"] == key, "\(added.text)")
            // AddReview is an upsert: reviewing again replaces the review.
            let revised = #"{"movieId":"\#(Self.lastSymphony)","rating":2,"reviewText":"Less so the second time."}"#
            _ = try await client.mutate("AddReview", variables: revised, connector: Self.template, token: token)

            let mine = try await client.query("ListUserReviews", connector: Self.template, token: token)
            let listed = try #require(mine.json?["data"]?["user"], "\(mine.text)")
            #expect(listed["id"] == .string("new-user"))
            #expect(listed["username"] == .string("newbie"))
            let reviews = listed["reviews"]?.arrayValue ?? []
            #expect(reviews.count == 1)
            #expect(reviews.first?["rating"] == .number(JSONNumber(2)))
            #expect(reviews.first?["reviewText"] == .string("Less so the second time."))
            #expect(reviews.first?["movie"] == .object(["id": .string(movie), "title": .string("The Last Symphony")]))
            // reviewDate defaults to the request's day.
            #expect(Self.isDay(reviews.first?["reviewDate"], between: start, and: Date()))

            let deleted = try await client.mutate(
                "DeleteReview", variables: #"{"movieId":"\#(Self.lastSymphony)"}"#, connector: Self.template,
                token: token)
            #expect(deleted.json?["data"]?["review_delete"] == key, "\(deleted.text)")
            let after = try await client.query("ListUserReviews", connector: Self.template, token: token)
            #expect(after.json?["data"]?["user"]?["reviews"] == .array([]))

            let sherlock = try await client.query(
                "ListUserReviews", connector: Self.template, token: DataConnectHarness.userToken(Self.sherlock))
            let seeded = sherlock.json?["data"]?["user"]?["reviews"]
            #expect(Self.texts(seeded, "movie", "title").sorted() == ["Noir Mystique", "Quantum Paradox"])
            #expect(Self.texts(seeded, "reviewDate") == ["2025-10-01", "2025-10-01"])
        }
    }

    @Test(arguments: DataConnectHarness.Engine.all) func initTemplateListUsersIsForAdminsOnly(
        engine: DataConnectHarness.Engine
    ) async throws {
        try await Self.withInitTemplate(engine: engine) { client async throws in
            let anonymous = try await client.query("ListUsers", connector: Self.template)
            #expect(anonymous.status == 403)
            #expect(Self.status(anonymous) == "PERMISSION_DENIED")
            let signedIn = try await client.query(
                "ListUsers", connector: Self.template, token: DataConnectHarness.userToken(Self.sherlock))
            #expect(signedIn.status == 403)
            #expect(Self.status(signedIn) == "PERMISSION_DENIED")
            let admin = try await client.data("query { users(orderBy: {username: ASC}) { username } }")
            #expect(admin["users"]?.strings("username") == ["hercule_p", "jane_d", "sherlock_h"])
        }
    }
}
