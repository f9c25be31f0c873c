import ContentTesting
import Foundation
import Testing

/// The shared corpus beside the repository, with workspaces copied from public projects.
///
/// Tests that need it skip their checks, with a printed note, when it is not there.
enum Corpus {
    static let root = TestLocations.corpus

    /// A corpus folder, or nil (with a visible note) when the corpus is not beside the repository.
    static func folder(_ relative: String) -> URL? {
        let url = root.appendingPathComponent(relative)
        guard FileManager.default.fileExists(atPath: url.path) else {
            print("note: skipping checks on \(relative): the shared corpus is not beside the repository")
            return nil
        }
        return url
    }
}

/// `content query` and `content mutate` through the built binary, against `content serve` on loopback, the
/// built-in sample, and the Data Connect iOS SDK's kitchen-sink workspace.
struct DataConnectEndToEndTests {
    static let examples = ContentProcess.repository.appendingPathComponent("examples/dataconnect")

    /// The seeded Sci-Fi movies, best rated first: id, title, release year, rating.
    static let sciFi = [
        ["0b5c1b1e3a524c7e9d0b6f1e8a2c4d01", "Orbit of Glass", "2019", "8.4"],
        ["0b5c1b1e3a524c7e9d0b6f1e8a2c4d04", "Signal Drift", "2023", "7.6"],
        ["0b5c1b1e3a524c7e9d0b6f1e8a2c4d07", "Second Sun", "2024", "6.5"],
    ]

    static let sciFiCSV = """
        id,title,releaseYear,genre,rating
        0b5c1b1e3a524c7e9d0b6f1e8a2c4d01,Orbit of Glass,2019,Sci-Fi,8.4
        0b5c1b1e3a524c7e9d0b6f1e8a2c4d04,Signal Drift,2023,Sci-Fi,7.6
        0b5c1b1e3a524c7e9d0b6f1e8a2c4d07,Second Sun,2024,Sci-Fi,6.5

        """

    static let connectorCSV = "connector,queries,mutations,service,location\nmovies,7,6,content-sample,us-central1\n"

    /// Each Sci-Fi movie as the compact JSON object the service answers.
    static var sciFiObjects: [String] {
        sciFi.map { movie in
            #"{"id":"\#(movie[0])","title":"\#(movie[1])","releaseYear":\#(movie[2]),"#
                + #""genre":"Sci-Fi","rating":\#(movie[3])}"#
        }
    }

    /// Writes `content.yaml` with one dataconnect backend, `movies-app`.
    private static func configure(
        _ scratch: Scratch, emulator: String?, workspace: String? = nil, auth: String? = nil
    ) throws {
        var lines = [
            "backends:",
            "  movies-app:",
            "    type: dataconnect",
            "    workspace: \"\(workspace ?? examples.path)\"",
            "    project: demo",
        ]
        if let emulator { lines.append("    emulator: \"\(emulator)\"") }
        if let auth { lines.append("    auth: \(auth)") }
        try scratch.write(lines.joined(separator: "\n") + "\n", to: "content.yaml")
    }

    /// `host:port` of a base URL, as `emulator:` is usually written.
    private static func hostAndPort(_ base: String) -> String {
        base.replacingOccurrences(of: "http://", with: "")
    }

    /// An unsigned JWT for a signed-in, verified user, as the emulator reads `X-Firebase-Auth-Token`.
    static func idToken(uid: String) -> String {
        func encode(_ text: String) -> String {
            Data(text.utf8).base64EncodedString()
                .replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
                .replacingOccurrences(of: "=", with: "")
        }
        let claims = #"{"sub":"\#(uid)","email_verified":true,"firebase":{"sign_in_provider":"password"}}"#
        return encode(#"{"alg":"none","typ":"JWT"}"#) + "." + encode(claims) + "."
    }

    /// How often a text occurs.
    private static func occurrences(of word: String, in text: String) -> Int {
        text.components(separatedBy: word).count - 1
    }

    // MARK: - Queries and mutations

    @Test func listMoviesByGenreReturnsTheThreeSeededSciFiTitlesInEveryFormat() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        try ContentProcess.withServices { services in
            let base = try #require(services["dataconnect"])
            try Self.configure(scratch, emulator: Self.hostAndPort(base))
            func spaces(_ count: Int) -> String { String(repeating: " ", count: count) }
            let ids = Self.sciFi.map { $0[0] }
            let expected = [
                "csv": Self.sciFiCSV,
                "ndjson": Self.sciFiObjects.map { $0 + "\n" }.joined(),
                "json": "[" + Self.sciFiObjects.joined(separator: ",") + "]\n",
                "tsv": Self.sciFiCSV.replacingOccurrences(of: ",", with: "\t"),
                "markdown": """
                | id | title | releaseYear | genre | rating |
                | --- | --- | ---: | --- | ---: |
                | \(ids[0]) | Orbit of Glass | 2019 | Sci-Fi | 8.4 |
                | \(ids[1]) | Signal Drift | 2023 | Sci-Fi | 7.6 |
                | \(ids[2]) | Second Sun | 2024 | Sci-Fi | 6.5 |

                """,
                // Not a terminal: columns as wide as their widest cell, numbers right-aligned.
                "table": """
                id\(spaces(32))title\(spaces(11))releaseYear  genre   rating
                \(ids[0])  Orbit of Glass\(spaces(9))2019  Sci-Fi\(spaces(5))8.4
                \(ids[1])  Signal Drift\(spaces(11))2023  Sci-Fi\(spaces(5))7.6
                \(ids[2])  Second Sun\(spaces(13))2024  Sci-Fi\(spaces(5))6.5

                """,
            ]
            let query = ["query", "movies", "listMoviesByGenre", "--genre", "Sci-Fi"]
            for format in ["json", "ndjson", "csv", "tsv", "table", "markdown"] {
                let result = try ContentProcess.run(query + ["-o", format], in: scratch.url)
                #expect(result.status == 0, "\(format): \(result.stderr)")
                #expect(result.stdout == expected[format], "\(format)")
                #expect(result.stderr.isEmpty, "\(format): \(result.stderr)")
            }
            // JSON is the default when stdout is not a terminal.
            let plain = try ContentProcess.run(query, in: scratch.url)
            #expect(plain.stdout == expected["json"])
            let joined = try ContentProcess.run(
                ["query", "movies", "listMoviesByGenre", "--genre=Sci-Fi", "-o", "csv", "--fields", "title"],
                in: scratch.url)
            #expect(joined.stdout == "title\nOrbit of Glass\nSignal Drift\nSecond Sun\n")
        }
    }

    @Test func queryListsConnectorsThenAConnectorsOperationsWithVariablesAndAuth() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        // Listing reads the workspace only: nothing listens on port 1.
        try Self.configure(scratch, emulator: "127.0.0.1:1")
        let connectors = try ContentProcess.run(["query", "-o", "csv"], in: scratch.url)
        #expect(connectors.status == 0, "\(connectors.stderr)")
        #expect(connectors.stdout == Self.connectorCSV)
        let operations = try ContentProcess.run(["query", "movies", "-o", "csv"], in: scratch.url)
        #expect(operations.status == 0, "\(operations.stderr)")
        #expect(
            operations.stdout == """
                operation,kind,variables,auth
                createMovie,mutation,"title: String!, releaseYear: Int!, genre: String!, \
                rating: Float, tags: [String!]",PUBLIC
                updateMovieRating,mutation,"id: UUID!, rating: Float!",USER_EMAIL_VERIFIED
                deleteMovie,mutation,id: UUID!,USER_EMAIL_VERIFIED
                upsertUser,mutation,username: String!,USER
                addReview,mutation,"movieId: UUID!, rating: Int!, text: String",USER
                deleteReview,mutation,movieId: UUID!,USER
                listMoviesByGenre,query,genre: String!,PUBLIC
                findMovies,query,"query: String!, genre: String",PUBLIC
                listGenres,query,,PUBLIC
                listMovies,query,"orderByRating: OrderDirection, limit: Int = 50, offset: Int",PUBLIC
                getMovieByKey,query,key: Movie_Key!,PUBLIC
                searchMovies,query,"title: String, minRating: Float, tag: String",PUBLIC
                listMyReviews,query,,USER

                """)
    }

    @Test func createdMovieIsSeenByTheNextQueryAndByItsKey() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        try ContentProcess.withServices { services in
            let base = try #require(services["dataconnect"])
            try Self.configure(scratch, emulator: Self.hostAndPort(base))
            let created = try ContentProcess.run(
                [
                    "mutate", "movies", "createMovie", "--title", "Dust Lanes", "--release-year", "2025", "--genre",
                    "Sci-Fi", "--rating", "9.1", "--tags", "space", "--tags", "desert", "-o", "json",
                ],
                in: scratch.url)
            #expect(created.status == 0, "\(created.stderr)")
            let prefix = #"{"id":""#
            let suffix = "\"}\n"
            #expect(created.stdout.hasPrefix(prefix) && created.stdout.hasSuffix(suffix), "\(created.stdout)")
            let id = String(created.stdout.dropFirst(prefix.count).dropLast(suffix.count))
            let digits = "0123456789abcdef"
            let isHex = id.count == 32 && id.allSatisfy { digits.contains($0) }
            #expect(isHex, "\(id)")

            let listed = try ContentProcess.run(
                ["query", "movies", "listMoviesByGenre", "--genre", "Sci-Fi", "-o", "csv", "--fields", "title,rating"],
                in: scratch.url)
            #expect(
                listed.stdout
                    == "title,rating\nDust Lanes,9.1\nOrbit of Glass,8.4\nSignal Drift,7.6\nSecond Sun,6.5\n")

            let fetched = try ContentProcess.run(
                [
                    "query", "movies", "getMovieByKey", "--key", #"{"id":"\#(id)"}"#, "-o", "json", "--fields",
                    "title,releaseYear,tags",
                ],
                in: scratch.url)
            #expect(fetched.status == 0, "\(fetched.stderr)")
            #expect(fetched.stdout == #"{"title":"Dust Lanes","releaseYear":2025,"tags":["space","desert"]}"# + "\n")
        }
    }

    @Test func getMovieByKeyPrintsOneMovieAsKeysAndValues() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        try ContentProcess.withServices { services in
            let base = try #require(services["dataconnect"])
            try Self.configure(scratch, emulator: Self.hostAndPort(base))
            let result = try ContentProcess.run(
                [
                    "query", "movies", "getMovieByKey", "--key", #"{"id":"0b5c1b1e-3a52-4c7e-9d0b-6f1e8a2c4d01"}"#,
                    "-o", "table",
                ],
                in: scratch.url)
            #expect(result.status == 0, "\(result.stderr)")
            // Keys are padded to the longest, `metadata.runtimeMinutes`; lists stay one JSON cell.
            func row(_ key: String, _ value: String) -> String {
                key + String(repeating: " ", count: 23 - key.count) + "  " + value
            }
            let cast = #"[{"name":"Ada Okafor","born":"1984-03-12"},{"name":"Lena Virtanen","born":"1990-11-02"}]"#
            let reviews =
                #"[{"rating":9,"text":"Tense and beautiful.","reviewDate":"2024-07-01","user":{"username":"ana"}},"#
                + #"{"rating":7,"text":"The ending lost me.","reviewDate":"2024-07-03","user":{"username":"ben"}}]"#
            let expected = [
                row("id", "0b5c1b1e3a524c7e9d0b6f1e8a2c4d01"),
                row("title", "Orbit of Glass"),
                row("releaseYear", "2019"),
                row("genre", "Sci-Fi"),
                row("rating", "8.4"),
                row("description", "A salvage crew finds a derelict station that is still broadcasting."),
                row("tags", #"["space","mystery"]"#),
                row("metadata.director", "Ines Calder"),
                row("metadata.runtimeMinutes", "128"),
                row("metadata.budget", "42000000"),
                row("cast", cast),
                row("reviews", reviews),
            ]
            #expect(result.stdout == expected.joined(separator: "\n") + "\n")
        }
    }

    @Test func varsFromAFileOrInlineCombineWithFlagsAndFlagsWin() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        try ContentProcess.withServices { services in
            let base = try #require(services["dataconnect"])
            try Self.configure(scratch, emulator: Self.hostAndPort(base))
            try scratch.write(#"{"genre":"Drama"}"#, to: "drama.json")
            let drama = "title\nThe Long Quiet\nCafé Müller\n"
            let fromFile = try ContentProcess.run(
                ["query", "movies", "listMoviesByGenre", "--vars", "@drama.json", "-o", "csv", "--fields", "title"],
                in: scratch.url)
            #expect(fromFile.stdout == drama, "\(fromFile.stderr)")
            let overridden = try ContentProcess.run(
                [
                    "query", "movies", "listMoviesByGenre", "--vars", #"{"genre":"Comedy"}"#, "--genre", "Drama", "-o",
                    "csv", "--fields", "title",
                ],
                in: scratch.url)
            #expect(overridden.stdout == drama, "\(overridden.stderr)")
            // Without orderByRating the titles sort alone; --vars gives the limit, a flag the offset.
            let page = try ContentProcess.run(
                [
                    "query", "movies", "listMovies", "--vars", #"{"limit":3}"#, "--offset", "1", "-o", "csv",
                    "--fields", "title",
                ],
                in: scratch.url)
            #expect(page.stdout == "title\nCold Harbour\nKettle & Crow\nOrbit of Glass\n", "\(page.stderr)")
            let all = try ContentProcess.run(
                ["query", "movies", "listMovies", "--order-by-rating", "ASC", "-o", "csv", "--fields", "title"],
                in: scratch.url)
            let titles = all.stdout.split(separator: "\n").dropFirst().map(String.init)
            #expect(titles.count == 9, "\(all.stdout)")
            #expect(titles.first == "Second Sun")
            // Unrated sorts last ascending, as in Postgres.
            #expect(titles.last == "Wrong Number")
        }
    }

    @Test func emulatorHostFromTheEnvironmentReplacesProduction() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        try ContentProcess.withServices { services in
            let base = try #require(services["dataconnect"])
            try Self.configure(scratch, emulator: nil)
            let result = try ContentProcess.run(
                ["query", "movies", "listMoviesByGenre", "--genre", "Sci-Fi", "-o", "csv"],
                in: scratch.url,
                environment: ["FIREBASE_DATA_CONNECT_EMULATOR_HOST": Self.hostAndPort(base)])
            #expect(result.status == 0, "\(result.stderr)")
            #expect(result.stdout == Self.sciFiCSV)
        }
    }

    // MARK: - Mistakes

    @Test func badVariablesExitTwoWithTheSignatureAndSendNothing() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        try ContentProcess.withServices(["-v"]) { services, log in
            let base = try #require(services["dataconnect"])
            try Self.configure(scratch, emulator: Self.hostAndPort(base))
            let byGenre = "listMoviesByGenre($genre: String!)"
            let listMovies = "listMovies($orderByRating: OrderDirection, $limit: Int, $offset: Int)"
            let search = "searchMovies($title: String, $minRating: Float, $tag: String)"
            let create =
                "createMovie($title: String!, $releaseYear: Int!, $genre: String!, $rating: Float, $tags: [String!])"
            let cases: [(arguments: [String], message: String, signature: String?)] = [
                (["query", "movies", "listMoviesByGenre"], "missing required --genre (String!)", byGenre),
                (
                    ["query", "movies", "listMoviesByGenre", "--genre"], "--genre needs a value of type String!",
                    byGenre
                ),
                (
                    ["query", "movies", "listMoviesByGenre", "--genra", "Sci-Fi"],
                    "unknown flag --genra (did you mean --genre?)", byGenre
                ),
                (
                    ["query", "movies", "listMoviesByGenre", "--genre", "Sci-Fi", "--genre", "Drama"],
                    "--genre is a single String, but was given 2 times", byGenre
                ),
                (
                    ["query", "movies", "listMoviesByGenre", "Sci-Fi"],
                    "unexpected argument 'Sci-Fi'; variables are given as --name value", byGenre
                ),
                (
                    ["query", "movies", "listMovies", "--limit", "ten"],
                    "--limit takes an Int (a 32-bit integer), got 'ten'", listMovies
                ),
                (
                    ["query", "movies", "listMovies", "--limit", "2147483648"],
                    "--limit takes an Int (a 32-bit integer), got '2147483648'", listMovies
                ),
                (
                    ["query", "movies", "listMovies", "--order-by-rating", "UP"],
                    "--orderByRating takes one of ASC, DESC, got 'UP'", listMovies
                ),
                (
                    ["query", "movies", "searchMovies", "--min-rating", "high"],
                    "--minRating takes a Float, got 'high'", search
                ),
                (
                    ["query", "movies", "getMovieByKey", "--key", "0b5c1b1e3a524c7e9d0b6f1e8a2c4d01"],
                    "--key takes a JSON object for Movie_Key", "getMovieByKey($key: Movie_Key!)"
                ),
                (
                    ["mutate", "movies", "updateMovieRating", "--id", "not-a-uuid", "--rating", "5"],
                    "--id takes a UUID (32 hex digits, dashes allowed), got 'not-a-uuid'",
                    "updateMovieRating($id: UUID!, $rating: Float!)"
                ),
                (
                    [
                        "mutate", "movies", "createMovie", "--title", "X", "--release-year", "2025.5", "--genre",
                        "Drama",
                    ],
                    "--releaseYear takes an Int (a 32-bit integer), got '2025.5'", create
                ),
                (
                    ["query", "movies", "listMoviesByGenre", "--vars", #"{"genre":"Sci-Fi","year":2020}"#],
                    "--vars has year, which listMoviesByGenre does not declare", byGenre
                ),
                (
                    ["query", "movies", "listMoviesByGenre", "--vars", "[1]"],
                    #"--vars takes a JSON object, such as '{"genre":"Sci-Fi"}'"#, byGenre
                ),
                (
                    ["query", "movies", "createMovie", "--title", "X"],
                    "createMovie is a mutation; run it with `content mutate movies createMovie`", nil
                ),
                (
                    ["mutate", "movies", "listMovies"],
                    "listMovies is a query; run it with `content query movies listMovies`", nil
                ),
                (
                    ["query", "movies", "listMovie", "--genre", "Drama"],
                    "connector movies has no operation listMovie (did you mean listMovies?)", nil
                ),
                (["query", "film", "listMovies"], "no connector film in ", nil),
            ]
            for (arguments, message, signature) in cases {
                let result = try ContentProcess.run(arguments, in: scratch.url)
                let shown = arguments.joined(separator: " ")
                #expect(result.status == 2, "\(shown): \(result.stderr)")
                #expect(result.stdout.isEmpty, "\(shown)")
                #expect(result.stderr.hasPrefix("content: error: "), "\(shown): \(result.stderr)")
                #expect(result.stderr.contains(message), "\(shown): \(result.stderr)")
                if let signature {
                    #expect(result.stderr.contains("\n  \(signature)\n"), "\(shown): \(result.stderr)")
                }
            }
            // A good query after them: once its request line is in the log, every earlier one would be too.
            let good = try ContentProcess.run(
                ["query", "movies", "listMoviesByGenre", "--genre", "Drama", "-o", "csv", "--fields", "title"],
                in: scratch.url)
            #expect(good.stdout == "title\nThe Long Quiet\nCafé Müller\n", "\(good.stderr)")
            let logged = log.wait { ServeLog.operationRequests(in: $0).count >= 1 }
            #expect(logged, "\(log.text)")
            let requests = log.operationRequests
            #expect(requests.count == 1, "\(requests)")
            #expect(requests.first?.hasSuffix("/connectors/movies:executeQuery 200") == true, "\(requests)")
        }
    }

    @Test func anOperationTheServiceLacksIsA404ThatSaysTheWorkspaceAndServiceDiffer() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let local = scratch.url.appendingPathComponent("workspace")
        try FileManager.default.copyItem(at: Self.examples, to: local)
        try scratch.write(
            """
            # Only in this copy of the workspace, not in the one content serve runs.
            query listDramas @auth(level: PUBLIC) {
              movies(where: { genre: { eq: "Drama" } }) { title }
            }

            """,
            to: "workspace/movies/extra.gql")
        try ContentProcess.withServices { services in
            let base = try #require(services["dataconnect"])
            try Self.configure(scratch, emulator: Self.hostAndPort(base), workspace: local.path)
            let result = try ContentProcess.run(["query", "movies", "listDramas"], in: scratch.url)
            #expect(result.status == 5)
            #expect(result.stdout.isEmpty)
            let url = "\(base)/v1/projects/demo/locations/us-central1/services/content-sample/connectors/movies"
            #expect(
                result.stderr.contains(
                    "listDramas: HTTP 404 NOT_FOUND from \(url):executeQuery: operation listDramas not found in "
                        + "connector movies"),
                "\(result.stderr)")
            #expect(
                result.stderr.contains(
                    "the service does not have listDramas of connector movies: the local workspace and the "
                        + "deployed service differ"),
                "\(result.stderr)")
            // Help reads the configured workspace, so it knows the local operation.
            let help = try ContentProcess.run(["query", "movies", "listDramas", "--help"], in: scratch.url)
            #expect(help.status == 0)
            #expect(help.stdout.hasPrefix("OVERVIEW: listDramas, a query of connector movies (@auth: PUBLIC)\n"))
            #expect(help.stdout.contains("\nVARIABLES: none\n"))
        }
    }

    // MARK: - Auth and secrets

    @Test func userOperationIs401WithoutATokenAndTheUsersOwnReviewsWithOne() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        try ContentProcess.withServices(["-v"]) { services, log in
            let base = try #require(services["dataconnect"])
            try Self.configure(scratch, emulator: Self.hostAndPort(base))
            let anonymous = try ContentProcess.run(["query", "movies", "listMyReviews"], in: scratch.url)
            #expect(anonymous.status == 5)
            #expect(anonymous.stdout.isEmpty)
            #expect(
                anonymous.stderr.contains("listMyReviews: HTTP 401 UNAUTHENTICATED from \(base)/v1/projects/demo/"),
                "\(anonymous.stderr)")
            #expect(anonymous.stderr.contains("send a Firebase ID token (auth.idToken, or auth.idTokenCommand)"))
            let refused = log.wait { $0.contains("/connectors/movies:executeQuery 401\n") }
            #expect(refused, "\(log.text)")

            try Self.configure(
                scratch, emulator: Self.hostAndPort(base), auth: #"{ idToken: "${FIREBASE_ID_TOKEN}" }"#)
            let ana = try ContentProcess.run(
                ["query", "movies", "listMyReviews", "-o", "json"], in: scratch.url,
                environment: ["FIREBASE_ID_TOKEN": Self.idToken(uid: "user-ana")])
            #expect(ana.status == 0, "\(ana.stderr)")
            // Newest review first.
            #expect(
                ana.stdout
                    == #"{"username":"ana","reviews":[{"rating":8,"text":null,"movie":{"title":"Signal Drift"}},"#
                    + #"{"rating":9,"text":"Tense and beautiful.","movie":{"title":"Orbit of Glass"}}]}"# + "\n")
            let ben = try ContentProcess.run(
                ["query", "movies", "listMyReviews", "-o", "json"], in: scratch.url,
                environment: ["FIREBASE_ID_TOKEN": Self.idToken(uid: "user-ben")])
            #expect(
                ben.stdout
                    == #"{"username":"ben","reviews":[{"rating":7,"text":"The ending lost me.","#
                    + #""movie":{"title":"Orbit of Glass"}}]}"# + "\n")
            // Without the variable the configuration cannot be read at all.
            let unset = try ContentProcess.run(["query", "movies", "listMyReviews"], in: scratch.url)
            #expect(unset.status == 3)
            #expect(unset.stderr.contains("FIREBASE_ID_TOKEN"))
        }
    }

    @Test func dryRunPrintsCurlWithTokenVariablesAndSecretsAppearInNoOutput() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let secrets = [
            "FIREBASE_ID_TOKEN": "sEcReT-id-token-value",
            "APP_CHECK": "sEcReT-app-check-value",
            "FIREBASE_API_KEY": "sEcReT-api-key-value",
        ]
        let jwt = Self.idToken(uid: "user-ana")
        try ContentProcess.withServices(["-v"]) { services, log in
            let base = try #require(services["dataconnect"])
            try Self.configure(
                scratch, emulator: Self.hostAndPort(base),
                auth: #"{ idToken: "${FIREBASE_ID_TOKEN}", appCheckToken: "${APP_CHECK}", "#
                    + #"apiKey: "${FIREBASE_API_KEY}" }"#)
            var outputs: [(String, ContentProcess.Result)] = []

            let dry = try ContentProcess.run(
                ["query", "movies", "listMoviesByGenre", "--genre", "Sci-Fi", "--dry-run"], in: scratch.url,
                environment: secrets)
            outputs.append(("--dry-run", dry))
            #expect(dry.status == 0, "\(dry.stderr)")
            #expect(dry.stdout.split(separator: "\n").count == 1, "\(dry.stdout)")
            #expect(
                dry.stdout.hasPrefix(
                    "curl -sS --compressed -X POST -H 'Content-Type: application/json' "
                        + "-H 'X-Goog-Api-Client: gl-swift/6 fire/"),
                "\(dry.stdout)")
            #expect(dry.stdout.contains(#" -H "X-Firebase-Auth-Token: $FIREBASE_ID_TOKEN" "#), "\(dry.stdout)")
            // The configuration reads the App Check token from $APP_CHECK: the command names that variable.
            #expect(dry.stdout.contains(#" -H "X-Firebase-AppCheck: $APP_CHECK" "#), "\(dry.stdout)")
            let body =
                #"{"name":"projects/demo/locations/us-central1/services/content-sample/connectors/movies","#
                + #""operationName":"listMoviesByGenre","variables":{"genre":"Sci-Fi"}}"#
            #expect(dry.stdout.contains(" --data-binary '\(body)' "), "\(dry.stdout)")
            let url = "\(base)/v1/projects/demo/locations/us-central1/services/content-sample/connectors/movies"
            #expect(dry.stdout.hasSuffix(" '\(url):executeQuery?key='\"$FIREBASE_API_KEY\"\n"), "\(dry.stdout)")

            // The command runs as printed once the variables hold real values, and is the only request sent.
            let curl = try ContentProcess.run(
                shell: "export FIREBASE_ID_TOKEN='\(jwt)' APP_CHECK=app-check "
                    + "FIREBASE_API_KEY=api-key; " + dry.stdout,
                in: scratch.url)
            #expect(curl.stdout.contains(#""title":"Orbit of Glass""#), "\(curl.stdout)\(curl.stderr)")
            let sent = log.wait { ServeLog.operationRequests(in: $0).count >= 1 }
            #expect(sent, "\(log.text)")
            #expect(log.operationRequests.count == 1, "\(log.operationRequests)")

            // Not a JWT: the emulator refuses the token, and neither the log nor the error shows it.
            let verbose = try ContentProcess.run(
                ["query", "movies", "listMoviesByGenre", "--genre", "Sci-Fi", "-v"], in: scratch.url,
                environment: secrets)
            outputs.append(("-v", verbose))
            #expect(verbose.status == 5, "\(verbose.stderr)")
            #expect(verbose.stderr.contains("> X-Firebase-Auth-Token: <redacted>"), "\(verbose.stderr)")
            #expect(verbose.stderr.contains("> X-Firebase-AppCheck: <redacted>"), "\(verbose.stderr)")
            #expect(verbose.stderr.contains(":executeQuery?key=<redacted>"), "\(verbose.stderr)")
            #expect(verbose.stderr.contains("HTTP 401 UNAUTHENTICATED"), "\(verbose.stderr)")

            let usage = try ContentProcess.run(
                ["query", "movies", "listMoviesByGenre", "--genre"], in: scratch.url, environment: secrets)
            outputs.append(("usage", usage))
            #expect(usage.status == 2)

            var signedIn = secrets
            signedIn["FIREBASE_ID_TOKEN"] = jwt
            let reviews = try ContentProcess.run(
                ["query", "movies", "listMyReviews", "-v", "-o", "json"], in: scratch.url, environment: signedIn)
            outputs.append(("signed in", reviews))
            #expect(reviews.status == 0, "\(reviews.stderr)")
            #expect(reviews.stdout.contains(#""username":"ana""#))
            #expect(!reviews.stdout.contains(jwt))
            #expect(!reviews.stderr.contains(jwt))
            #expect(reviews.stderr.contains("> X-Firebase-Auth-Token: <redacted>"), "\(reviews.stderr)")

            for (name, result) in outputs {
                for secret in secrets.values {
                    #expect(!result.stdout.contains(secret), "\(name) printed \(secret)")
                    #expect(!result.stderr.contains(secret), "\(name) printed \(secret)")
                }
            }
        }
    }

    // MARK: - Without configuration

    @Test func withoutConfigurationTheBuiltInSampleAnswersAndSaysSoOnce() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let titles = try ContentProcess.run(
            ["query", "movies", "listMoviesByGenre", "--genre", "Sci-Fi", "-o", "csv", "--fields", "title"],
            in: scratch.url)
        #expect(titles.status == 0, "\(titles.stderr)")
        #expect(titles.stdout == "title\nOrbit of Glass\nSignal Drift\nSecond Sun\n")
        #expect(Self.occurrences(of: "no configuration found", in: titles.stderr) == 1, "\(titles.stderr)")
        #expect(titles.stderr.contains("built-in movies sample"))

        // The sample ignores an emulator host meant for configured backends.
        let environment = ["FIREBASE_DATA_CONNECT_EMULATOR_HOST": "127.0.0.1:1"]
        let connectors = try ContentProcess.run(["query", "-o", "csv"], in: scratch.url, environment: environment)
        #expect(connectors.status == 0, "\(connectors.stderr)")
        #expect(connectors.stdout == Self.connectorCSV)
        #expect(Self.occurrences(of: "no configuration found", in: connectors.stderr) == 1)
        let drama = try ContentProcess.run(
            ["query", "movies", "listMoviesByGenre", "--genre", "Drama", "-o", "csv", "--fields", "title"],
            in: scratch.url, environment: environment)
        #expect(drama.stdout == "title\nThe Long Quiet\nCafé Müller\n", "\(drama.stderr)")
    }

    @Test func operationHelpShowsItsVariablesAndExitsZero() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let help = try ContentProcess.run(["query", "movies", "listMoviesByGenre", "--help"], in: scratch.url)
        #expect(help.status == 0, "\(help.stderr)")
        #expect(
            help.stdout.hasPrefix(
                """
                OVERVIEW: listMoviesByGenre, a query of connector movies (@auth: PUBLIC)

                USAGE: content query movies listMoviesByGenre --genre <String> [output options]

                VARIABLES:
                  --genre <String>  String!; required

                Variables can also be given together as --vars '{…}' or --vars @file.json; flags override them.

                """),
            "\(help.stdout)")
        #expect(help.stdout.contains("/movies/queries.gql:2:1. Output and other options: content query --help.\n"))

        let mutation = try ContentProcess.run(["mutate", "movies", "createMovie", "-h"], in: scratch.url)
        #expect(mutation.status == 0, "\(mutation.stderr)")
        #expect(
            mutation.stdout.contains(
                "USAGE: content mutate movies createMovie --title <String> --releaseYear <Int> --genre <String> "
                    + "[--rating <Float>] [--tags <String>] [output options]\n"),
            "\(mutation.stdout)")
        #expect(mutation.stdout.contains("  --tags <String>      [String!]; repeat the flag for each element\n"))
        #expect(!mutation.stdout.contains("Note:"))
    }

    // MARK: - The kitchen sink: every scalar type

    /// The Data Connect iOS SDK's integration-test workspace, laid out as Firebase keeps it; nil without the corpus.
    private static func kitchenSink(in scratch: Scratch) throws -> URL? {
        guard let corpus = Corpus.folder("dataconnect/ios-sdk-kitchensink") else { return nil }
        let layout = [
            "firebase.json": "firebase.json",
            "dataconnect_dataconnect.yaml": "dataconnect/dataconnect.yaml",
            "dataconnect_schema_schema.gql": "dataconnect/schema/schema.gql",
            "dataconnect_default_connector.yaml": "dataconnect/default/connector.yaml",
            "dataconnect_default_queries.gql": "dataconnect/default/queries.gql",
            "dataconnect_default_mutations.gql": "dataconnect/default/mutations.gql",
        ]
        for (source, destination) in layout {
            let text = try String(contentsOf: corpus.appendingPathComponent(source), encoding: .utf8)
            try scratch.write(text, to: "kitchensink/" + destination)
        }
        return scratch.url.appendingPathComponent("kitchensink")
    }

    /// Writes `content.yaml` with the kitchen sink as `sink`, its workspace relative to the file.
    private static func configureKitchenSink(_ scratch: Scratch, base: String) throws {
        try scratch.write(
            """
            backends:
              sink:
                type: dataconnect
                workspace: kitchensink
                project: demo
                emulator: "\(hostAndPort(base))"

            """,
            to: "content.yaml")
    }

    @Test func kitchenSinkScalarsRoundTripThroughMutateAndQuery() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        guard let workspace = try Self.kitchenSink(in: scratch) else { return }
        try ContentProcess.withServices(["-v"], workspace: workspace, expecting: ["dataconnect"]) { services, log in
            let base = try #require(services["dataconnect"])
            try Self.configureKitchenSink(scratch, base: base)
            func run(_ arguments: [String]) throws -> ContentProcess.Result {
                try ContentProcess.run(arguments + ["-o", "json"], in: scratch.url)
            }

            // Values the types cannot hold stop before anything is sent.
            let rejected = [
                (
                    [
                        "mutate", "kitchen-sink", "createLargeNum", "--id", "9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6e",
                        "--num", "0", "--max-num", "9223372036854775808", "--vars", #"{"minNum":"0"}"#,
                    ],
                    "--maxNum takes an Int64 (a 64-bit integer), got '9223372036854775808'"
                ),
                (
                    [
                        "mutate", "kitchen-sink", "createLocalDate", "--id", "1f2e3d4c-5b6a-4978-8a9b-0c1d2e3f4a5c",
                        "--local-date", "2023-02-29",
                    ],
                    "--localDate takes a Date as YYYY-MM-DD, got '2023-02-29'"
                ),
                (
                    [
                        "mutate", "kitchen-sink", "createScalarBoundary", "--id",
                        "0c1d2e3f-4a5b-4c6d-8e7f-901a2b3c4d5f",
                        "--max-number", "2147483648",
                    ],
                    "--maxNumber takes an Int (a 32-bit integer), got '2147483648'"
                ),
                (
                    [
                        "mutate", "kitchen-sink", "createAnyValueType", "--id", "2b3c4d5e-6f7a-4b8c-9d0e-1f2a3b4c5d6f",
                        "--props", "{not json",
                    ],
                    "--props takes JSON"
                ),
                (["query", "kitchen-sink", "GetStandardScalar", "--id", "nope"], "--id takes a UUID"),
            ]
            for (arguments, message) in rejected {
                let result = try run(arguments)
                #expect(result.status == 2, "\(arguments): \(result.stderr)")
                #expect(result.stderr.contains(message), "\(arguments): \(result.stderr)")
            }

            // Int, String (not ASCII) and Float; the UUID goes in dashed and upper case and comes back as hex.
            let standard = try run([
                "mutate", "kitchen-sink", "createStandardScalar", "--id", "6F3A9C2E-1B4D-4E8F-9A7C-2D5B8E1F0A31",
                "--number", "42", "--text", "Kitchen sink: ünïcödé ✓", "--decimal", "3.14159",
            ])
            #expect(standard.status == 0, "\(standard.stderr)")
            #expect(standard.stdout == #"{"id":"6f3a9c2e1b4d4e8f9a7c2d5b8e1f0a31"}"# + "\n")
            let readStandard = try run([
                "query", "kitchen-sink", "GetStandardScalar", "--id", "6f3a9c2e-1b4d-4e8f-9a7c-2d5b8e1f0a31",
            ])
            #expect(
                readStandard.stdout
                    == #"{"id":"6f3a9c2e1b4d4e8f9a7c2d5b8e1f0a31","number":42,"text":"Kitchen sink: ünïcödé ✓","#
                    + #""decimal":3.14159}"# + "\n",
                "\(readStandard.stderr)")

            // Int at its 32-bit limits (the negative one through --vars) and Floats.
            let boundary = try run([
                "mutate", "kitchen-sink", "createScalarBoundary", "--id", "0c1d2e3f-4a5b-4c6d-8e7f-901a2b3c4d5e",
                "--max-number", "2147483647", "--vars", #"{"minNumber":-2147483648}"#, "--max-decimal", "1.5",
                "--min-decimal", "0.25",
            ])
            #expect(boundary.status == 0, "\(boundary.stderr)")
            let readBoundary = try run([
                "query", "kitchen-sink", "GetScalarBoundary", "--id", "0c1d2e3f4a5b4c6d8e7f901a2b3c4d5e",
            ])
            #expect(
                readBoundary.stdout
                    == #"{"maxNumber":2147483647,"minNumber":-2147483648,"maxDecimal":1.5,"minDecimal":0.25}"# + "\n",
                "\(readBoundary.stderr)")

            // Int64 at both limits, as decimal strings.
            let large = try run([
                "mutate", "kitchen-sink", "createLargeNum", "--id", "9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d", "--num",
                "1234567890123", "--max-num", "9223372036854775807", "--vars", #"{"minNum":"-9223372036854775808"}"#,
            ])
            #expect(large.status == 0, "\(large.stderr)")
            #expect(large.stdout == #"{"id":"9a8b7c6d5e4f4a3b8c2d1e0f9a8b7c6d"}"# + "\n")
            let readLarge = try run([
                "query", "kitchen-sink", "GetLargeNum", "--id", "9a8b7c6d5e4f4a3b8c2d1e0f9a8b7c6d",
            ])
            #expect(
                readLarge.stdout
                    == #"{"num":"1234567890123","maxNum":"9223372036854775807","minNum":"-9223372036854775808"}"#
                    + "\n",
                "\(readLarge.stderr)")

            // Date, on a leap day.
            let date = try run([
                "mutate", "kitchen-sink", "createLocalDate", "--id", "1f2e3d4c-5b6a-4978-8a9b-0c1d2e3f4a5b",
                "--local-date", "2024-02-29",
            ])
            #expect(date.status == 0, "\(date.stderr)")
            let readDate = try run([
                "query", "kitchen-sink", "GetLocalDateType", "--id", "1f2e3d4c-5b6a-4978-8a9b-0c1d2e3f4a5b",
            ])
            #expect(readDate.stdout == #"{"localDate":"2024-02-29"}"# + "\n", "\(readDate.stderr)")

            // Any, a JSON object holding every JSON kind.
            let props = #"{"nested":{"tags":["a",3,0.5,true,null]}}"#
            let anyValue = try run([
                "mutate", "kitchen-sink", "createAnyValueType", "--id", "2b3c4d5e-6f7a-4b8c-9d0e-1f2a3b4c5d6e",
                "--props", props,
            ])
            #expect(anyValue.status == 0, "\(anyValue.stderr)")
            let readAny = try run([
                "query", "kitchen-sink", "GetAnyValueType", "--id", "2b3c4d5e-6f7a-4b8c-9d0e-1f2a3b4c5d6e",
            ])
            #expect(readAny.stdout == #"{"props":\#(props)}"# + "\n", "\(readAny.stderr)")

            // Ten requests reached the server: the round trips, none of the rejected calls.
            let all = log.wait { ServeLog.operationRequests(in: $0).count >= 10 }
            #expect(all, "\(log.text)")
            #expect(log.operationRequests.count == 10, "\(log.operationRequests)")
        }
    }

    @Test func kitchenSinkPartialFailureKeepsTheDataOnStdoutAndExitsSix() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        guard let workspace = try Self.kitchenSink(in: scratch) else { return }
        try ContentProcess.withServices(workspace: workspace, expecting: ["dataconnect"]) { services in
            let base = try #require(services["dataconnect"])
            try Self.configureKitchenSink(scratch, base: base)
            // Both inserts use one id: the first stands, the second fails on its own.
            let result = try ContentProcess.run(
                [
                    "mutate", "kitchen-sink", "InsertMultiplePeople", "--id", "4d5e6f7a-8b9c-4d0e-9f1a-2b3c4d5e6f7a",
                    "--name1", "name1", "--name2", "name2", "-o", "json",
                ],
                in: scratch.url)
            #expect(result.status == 6, "\(result.stderr)")
            #expect(result.stdout == #"{"person1":{"id":"4d5e6f7a8b9c4d0e9f1a2b3c4d5e6f7a"},"person2":null}"# + "\n")
            #expect(result.stderr.contains("content: error: person2: "), "\(result.stderr)")
            #expect(result.stderr.contains("already exists"), "\(result.stderr)")
        }
    }
}
