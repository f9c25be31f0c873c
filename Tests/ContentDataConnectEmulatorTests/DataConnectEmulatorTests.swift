import AsyncHTTPClient
import ContentDataConnect
import ContentEmulator
import ContentEmulatorTesting
import ContentGraphQL
import ContentJSON
import Foundation
import NIOCore
import NIOHTTP1
import Testing

@testable import ContentDataConnectEmulator

/// The REST surface of the Data Connect emulator over the example workspace: connector operations by name,
/// the production error shapes, auth levels, durability and concurrency.
struct DataConnectEmulatorTests {
    static let orbitOfGlass = "0b5c1b1e3a524c7e9d0b6f1e8a2c4d01"
    static let theLongQuiet = "0b5c1b1e-3a52-4c7e-9d0b-6f1e8a2c4d02"

    @Test func listMoviesByGenreReturnsExactlyTheSeededSciFiMoviesBestRatedFirst() async throws {
        try await DataConnectHarness.run { client in
            let exchange = try await client.query("listMoviesByGenre", variables: #"{"genre":"Sci-Fi"}"#)
            #expect(exchange.status == 200)
            #expect(exchange.header("Content-Type") == "application/json")
            let movies = try #require(exchange.json?["data"]?["movies"])
            #expect(movies.strings("title") == ["Orbit of Glass", "Signal Drift", "Second Sun"])
            #expect(movies.arrayValue?.first?["id"] == .string(Self.orbitOfGlass))
            #expect(movies.arrayValue?.first?["rating"] == .number(JSONNumber(text: "8.4")))
            #expect(exchange.json?["errors"] == nil)
        }
    }

    @Test func v1betaPathsServeTheSameOperations() async throws {
        try await DataConnectHarness.run { client in
            let path = client.service.replacingOccurrences(of: "/v1/", with: "/v1beta/")
            let exchange = try await client.http.post(
                "\(path)/connectors/movies:executeQuery",
                json: #"{"operationName":"listMoviesByGenre","variables":{"genre":"Drama"}}"#)
            #expect(exchange.json?["data"]?["movies"]?.strings("title") == ["The Long Quiet", "Café Müller"])
        }
    }

    @Test func getMovieByKeyFollowsEveryRelationKind() async throws {
        try await DataConnectHarness.run { client in
            let exchange = try await client.query(
                "getMovieByKey", variables: #"{"key":{"id":"0B5C1B1E-3A52-4C7E-9D0B-6F1E8A2C4D01"}}"#)
            let movie = try #require(exchange.json?["data"]?["movie"])
            #expect(movie["title"] == .string("Orbit of Glass"))
            #expect(movie["tags"] == .array([.string("space"), .string("mystery")]))
            // One-to-one through @unique: a single object, with Int64 as a string.
            #expect(movie["metadata"]?["director"] == .string("Ines Calder"))
            #expect(movie["metadata"]?["budget"] == .string("42000000"))
            // Many-to-many through the join table, ordered by name.
            #expect(movie["cast"]?.strings("name") == ["Ada Okafor", "Lena Virtanen"])
            #expect(movie["cast"]?.arrayValue?.first?["born"] == .string("1984-03-12"))
            // One-to-many back-reference, then many-to-one to the user.
            #expect(
                movie["reviews"]?.arrayValue?.compactMap { $0["user"]?["username"]?.stringValue } == ["ana", "ben"])
            #expect(movie["reviews"]?.strings("reviewDate") == ["2024-07-01", "2024-07-03"])
        }
    }

    @Test func createdMovieIsReturnedByItsKeyAndSeenByTheNextQuery() async throws {
        try await DataConnectHarness.run { client in
            let created = try await client.mutate(
                "createMovie",
                variables: #"{"title":"Dust Lanes","releaseYear":2025,"genre":"Sci-Fi","rating":9.1,"tags":["space"]}"#)
            #expect(created.status == 200, "\(created.text)")
            let id = try #require(created.json?["data"]?["movie_insert"]?["id"]?.stringValue)
            #expect(id.count == 32 && id.allSatisfy { $0.isHexDigit && !$0.isUppercase })
            let listed = try await client.query("listMoviesByGenre", variables: #"{"genre":"Sci-Fi"}"#)
            #expect(
                listed.json?["data"]?["movies"]?.strings("title")
                    == ["Dust Lanes", "Orbit of Glass", "Signal Drift", "Second Sun"])
            let fetched = try await client.query("getMovieByKey", variables: #"{"key":{"id":"\#(id)"}}"#)
            #expect(fetched.json?["data"]?["movie"]?["title"] == .string("Dust Lanes"))
        }
    }

    @Test func unknownServiceConnectorAndOperationAreNotFound() async throws {
        try await DataConnectHarness.run { client in
            let operation = try await client.query("listEverything")
            #expect(operation.status == 404)
            #expect(operation.json?["error"]?["status"] == .string("NOT_FOUND"))
            #expect(operation.json?["error"]?["code"] == .number(JSONNumber(404)))
            #expect(operation.json?["error"]?["message"]?.stringValue?.contains("listMoviesByGenre") == true)
            let connector = try await client.query("listMovies", connector: "films")
            #expect(connector.status == 404)
            #expect(connector.json?["error"]?["message"]?.stringValue?.contains("connector films") == true)
            let wrongService = try await client.http.post(
                "/v1/projects/demo/locations/us-central1/services/films/connectors/movies:executeQuery",
                json: #"{"operationName":"listMovies"}"#)
            #expect(wrongService.status == 404)
            #expect(wrongService.json?["error"]?["message"]?.stringValue?.contains("serves content-sample") == true)
            // Firebase's emulator ignores the location: `firebase dataconnect:execute --service` sends
            // locations/unused. The body's name, when given, must still be the URL's.
            let otherLocation = "projects/demo/locations/unused/services/content-sample/connectors/movies"
            let anyLocation = try await client.http.post(
                "/v1/\(otherLocation):executeQuery",
                json: #"{"name":"\#(otherLocation)","operationName":"listGenres"}"#)
            #expect(anyLocation.status == 200)
            #expect(anyLocation.json?["data"]?["genreSummaries"]?.arrayValue?.isEmpty == false)
            let central = otherLocation.replacingOccurrences(of: "unused", with: "us-central1")
            let mismatchedName = try await client.http.post(
                "/v1/\(otherLocation):executeQuery", json: #"{"name":"\#(central)","operationName":"listGenres"}"#)
            #expect(mismatchedName.status == 400)
            let wrongVerb = try await client.http.post(
                "\(client.service)/connectors/movies:executeSomething", json: #"{"operationName":"listMovies"}"#)
            #expect(wrongVerb.status == 404)
        }
    }

    @Test func aMutationThroughExecuteQueryIsRefusedNamingTheRightMethod() async throws {
        try await DataConnectHarness.run { client in
            let wrong = try await client.query(
                "createMovie", variables: #"{"title":"X","releaseYear":2000,"genre":"Drama"}"#)
            #expect(wrong.status == 400)
            #expect(wrong.json?["error"]?["status"] == .string("INVALID_ARGUMENT"))
            #expect(wrong.json?["error"]?["message"]?.stringValue?.contains(":executeMutation") == true)
            let reverse = try await client.mutate("listMovies")
            #expect(reverse.status == 400)
            #expect(reverse.json?["error"]?["message"]?.stringValue?.contains(":executeQuery") == true)
            // Nothing was written by the refused call.
            let drama = try await client.query("listMoviesByGenre", variables: #"{"genre":"Drama"}"#)
            #expect(drama.json?["data"]?["movies"]?.arrayValue?.count == 2)
        }
    }

    @Test func badVariablesAreInvalidArgumentsNamingTheVariable() async throws {
        try await DataConnectHarness.run { client in
            let cases: [(String, String, String)] = [
                ("listMoviesByGenre", "{}", "$genre: String!"),
                ("listMoviesByGenre", #"{"genre":null}"#, "$genre"),
                ("listMoviesByGenre", #"{"genre":42}"#, "$genre"),
                ("getMovieByKey", #"{"key":{"id":"not-a-uuid"}}"#, "UUID"),
                ("getMovieByKey", #"{"key":{"title":"x"}}"#, "title"),
                ("listMovies", #"{"limit":"ten"}"#, "$limit"),
                ("listMovies", #"{"orderByRating":"SIDEWAYS"}"#, "$orderByRating"),
            ]
            for (operation, variables, mention) in cases {
                let exchange = try await client.query(operation, variables: variables)
                #expect(exchange.status == 400, "\(operation) \(variables): \(exchange.text)")
                #expect(exchange.json?["error"]?["status"] == .string("INVALID_ARGUMENT"))
                let message = exchange.json?["error"]?["message"]?.stringValue ?? ""
                #expect(message.contains(mention), "\(message)")
            }
            let missing = try await client.mutate("createMovie", variables: #"{"title":"X"}"#)
            #expect(
                missing.json?["error"]?["message"]?.stringValue?.contains(
                    "createMovie($title: String!, $releaseYear: Int!, $genre: String!") == true)
        }
    }

    @Test func malformedBodiesAreInvalidArguments() async throws {
        try await DataConnectHarness.run { client in
            let path = "\(client.service)/connectors/movies:executeQuery"
            for body in ["not json", "[1,2]", #"{"variables":{}}"#, #"{"operationName":"listMovies","variables":[1]}"#]
            {
                let exchange = try await client.http.post(path, json: body)
                #expect(exchange.status == 400, "\(body)")
                #expect(exchange.json?["error"]?["status"] == .string("INVALID_ARGUMENT"))
            }
            let mismatchedName = try await client.http.post(
                path,
                json:
                    #"{"name":"projects/demo/locations/us-central1/services/other/connectors/movies","operationName":"listMovies"}"#
            )
            #expect(mismatchedName.status == 400)
        }
    }

    @Test func authLevelsAreEnforcedFromTheTokenClaims() async throws {
        try await DataConnectHarness.run { client in
            // USER without a token: unauthenticated.
            let anonymous = try await client.query("listMyReviews")
            #expect(anonymous.status == 401)
            #expect(anonymous.json?["error"]?["status"] == .string("UNAUTHENTICATED"))
            // USER with an anonymous sign-in: not enough, and unauthenticated as the service answers it
            // (firebase-admin-node's integration test of @auth(level: USER) with anonymous claims).
            let guest = try await client.query(
                "listMyReviews", token: DataConnectHarness.userToken("user-ana", provider: "anonymous"))
            #expect(guest.status == 401)
            #expect(guest.json?["error"]?["status"] == .string("UNAUTHENTICATED"))
            #expect(guest.text.contains("not anonymous"), "\(guest.text)")
            // USER: auth.uid picks the caller's own row.
            let ana = try await client.query("listMyReviews", token: DataConnectHarness.userToken("user-ana"))
            #expect(ana.json?["data"]?["user"]?["username"] == .string("ana"))
            #expect(
                ana.json?["data"]?["user"]?["reviews"]?.arrayValue?.compactMap { $0["movie"]?["title"]?.stringValue }
                    == ["Signal Drift", "Orbit of Glass"])
            // USER_EMAIL_VERIFIED: an unverified email is refused, a verified one passes.
            let variables = #"{"id":"\#(Self.orbitOfGlass)","rating":5.5}"#
            let unverified = try await client.mutate(
                "updateMovieRating", variables: variables,
                token: DataConnectHarness.userToken("user-ben", verified: false))
            #expect(unverified.status == 401)
            #expect(unverified.text.contains(#"\"email_verified\": true"#), "\(unverified.text)")
            let verified = try await client.mutate(
                "updateMovieRating", variables: variables, token: DataConnectHarness.userToken("user-ben"))
            #expect(verified.json?["data"]?["movie_update"]?["id"] == .string(Self.orbitOfGlass))
            // A header that is not a JWT is refused outright.
            let garbage = try await client.query("listMovies", token: "not a token")
            #expect(garbage.status == 401)
            // Claims Firebase refuses: an empty, missing or over-long subject, and an expiry in the past.
            let now = Date().timeIntervalSince1970
            let refused: [(JSONObject, String)] = [
                (["sub": .string("")], "an empty \\\"sub\\\""),
                (["email": .string("a@b.c")], "no \\\"sub\\\""),
                (["sub": .string(String(repeating: "u", count: 129))], "longer than 128"),
                (["sub": .string("user-ben"), "exp": .number(JSONNumber(Int(now) - 60))], "has expired"),
            ]
            for (claims, message) in refused {
                let answer = try await client.query("listMovies", token: DataConnectHarness.token(claims))
                #expect(answer.status == 401, "\(claims)")
                #expect(answer.text.contains(message), "\(answer.text)")
            }
            let fresh = try await client.query(
                "listMovies",
                token: DataConnectHarness.token([
                    "sub": .string("user-ben"), "exp": .number(JSONNumber(Int(now) + 600)),
                ]))
            #expect(fresh.status == 200, "\(fresh.text)")
        }
    }

    /// The admin API as firebase-admin-node calls it (`src/data-connect/data-connect-api-client-internal.ts`, and its
    /// integration test `test/integration/data-connect.spec.ts`, which runs against the service): connector
    /// operations through `:impersonateQuery` and `:impersonateMutation`, and any GraphQL through `:executeGraphql`,
    /// run as the caller of `extensions.impersonate` with `@auth` checked, or bypass `@auth` without it.
    @Test func theAdminAPIRunsAsTheImpersonatedCallerOrBypassesAuth() async throws {
        try await DataConnectHarness.run(
            workspace: nil, options: .init(adminToken: "admin-secret"), dataFile: nil, project: "demo",
            mode: .inProcess
        ) { client in
            @Sendable func admin(_ method: String, _ body: JSONObject, token: String? = "admin-secret") async throws
                -> EmulatorExchange
            {
                try await client.http.post(
                    "\(client.service)\(method)", json: JSONValue.object(body).jsonText,
                    headers: token.map { [("Authorization", "Bearer \($0)")] } ?? [])
            }
            func impersonate(_ claims: JSONObject) -> JSONValue {
                .object(["impersonate": .object(["authClaims": .object(claims)])])
            }
            let unauthenticated = JSONValue.object(["impersonate": .object(["unauthenticated": .bool(true)])])
            let mine: JSONObject = ["operationName": .string("listMyReviews")]

            // A signed-in caller: auth.uid is theirs.
            var asAna = mine
            asAna["extensions"] = impersonate(["sub": .string("user-ana")])
            let ana = try await admin("/connectors/movies:impersonateQuery", asAna)
            #expect(ana.json?["data"]?["user"]?["username"] == .string("ana"), "\(ana.text)")
            // Below the level: unauthenticated, also for an anonymous sign-in calling a USER operation.
            var asNobody = mine
            asNobody["extensions"] = unauthenticated
            let nobody = try await admin("/connectors/movies:impersonateQuery", asNobody)
            #expect(nobody.status == 401, "\(nobody.text)")
            #expect(nobody.json?["error"]?["status"] == .string("UNAUTHENTICATED"))
            var asGuest = mine
            asGuest["extensions"] = impersonate([
                "sub": .string("user-ana"), "firebase": .object(["sign_in_provider": .string("anonymous")]),
            ])
            #expect(try await admin("/connectors/movies:impersonateQuery", asGuest).status == 401)
            // No impersonation bypasses @auth: the operation runs, and auth.uid is null, an error in the answer.
            let bypassed = try await admin("/connectors/movies:impersonateQuery", mine)
            #expect(bypassed.status == 200, "\(bypassed.text)")
            #expect(bypassed.json?["errors"]?.arrayValue?.isEmpty == false, "\(bypassed.text)")
            let rated = try await admin(
                "/connectors/movies:impersonateMutation",
                [
                    "operationName": .string("updateMovieRating"),
                    "variables": .object(["id": .string(Self.orbitOfGlass), "rating": .number(JSONNumber(text: "2.5"))]
                    ),
                ])
            #expect(rated.json?["data"]?["movie_update"]?["id"] == .string(Self.orbitOfGlass), "\(rated.text)")
            // Both kinds of caller at once, no admin token, or a client token instead: refused.
            var both = mine
            both["extensions"] = .object([
                "impersonate": .object(["authClaims": .object(["sub": .string("u")]), "unauthenticated": .bool(true)])
            ])
            let mixed = try await admin("/connectors/movies:impersonateQuery", both)
            #expect(mixed.status == 400, "\(mixed.text)")
            #expect(mixed.text.contains("not both"), "\(mixed.text)")
            // Malformed impersonation: each named.
            let malformed: [(JSONValue, String)] = [
                (.string("x"), "extensions must be a JSON object"),
                (.object(["impersonate": .object([:])]), "needs authClaims"),
                (.object(["impersonate": .object(["authClaims": .string("u")])]), "authClaims must be a JSON object"),
            ]
            for (extensions, message) in malformed {
                var body = mine
                body["extensions"] = extensions
                let answer = try await admin("/connectors/movies:impersonateQuery", body)
                #expect(answer.status == 400 && answer.text.contains(message), "\(answer.text)")
            }
            let outsider = try await admin("/connectors/movies:impersonateQuery", asAna, token: nil)
            #expect(outsider.status == 401, "\(outsider.text)")
            #expect(outsider.text.contains("admin API"), "\(outsider.text)")
            let wrongMethod = try await admin("/connectors/movies:impersonateQueries", asAna)
            #expect(wrongMethod.status == 404, "\(wrongMethod.text)")

            // :executeGraphql checks the @auth of its own text when it impersonates.
            let own = #"query mine @auth(level: USER) { user(key: { id_expr: "auth.uid" }) { username } }"#
            let ownAsAna = try await admin(
                ":executeGraphql", ["query": .string(own), "extensions": impersonate(["sub": .string("user-ana")])])
            #expect(ownAsAna.json?["data"]?["user"]?["username"] == .string("ana"), "\(ownAsAna.text)")
            let ownAsNobody = try await admin(
                ":executeGraphql", ["query": .string(own), "extensions": unauthenticated])
            #expect(ownAsNobody.status == 401, "\(ownAsNobody.text)")
            let undeclared = try await admin(
                ":executeGraphql",
                ["query": .string("query { movies { title } }"), "extensions": impersonate(["sub": .string("u")])])
            #expect(undeclared.status == 403, "\(undeclared.text)")
            #expect(undeclared.json?["error"]?["status"] == .string("PERMISSION_DENIED"))
            let closed = try await admin(
                ":executeGraphql", ["query": .string("query @auth(level: NO_ACCESS) { movies { title } }")])
            #expect(closed.json?["data"]?["movies"]?.arrayValue?.count == 9, "\(closed.text)")

            // Several operations and no operationName: the request is refused as a whole, in the words
            // firebase-tools' dataconnect:execute looks for; naming one runs it.
            let two = "query a @auth(level: PUBLIC) { movies { title } } query b @auth(level: PUBLIC) { users { id } }"
            let unnamed = try await admin(":executeGraphql", ["query": .string(two)])
            #expect(unnamed.status == 400, "\(unnamed.text)")
            #expect(unnamed.json?["error"]?["status"] == .string("INVALID_ARGUMENT"))
            #expect(unnamed.text.contains("operationName is required"), "\(unnamed.text)")
            #expect(unnamed.text.contains("(a, b)"), "\(unnamed.text)")
            let named = try await admin(":executeGraphql", ["query": .string(two), "operationName": .string("a")])
            #expect(named.json?["data"]?["movies"]?.arrayValue?.count == 9, "\(named.text)")

            // :executeGraphqlRead refuses a mutation, and nothing is written.
            let write = #"mutation { movie_update(id: "\#(Self.orbitOfGlass)", data: { rating: 9.5 }) }"#
            let readOnly = try await admin(":executeGraphqlRead", ["query": .string(write)])
            #expect(readOnly.status == 403, "\(readOnly.text)")
            // Exactly one method after the service: a stray segment is no method at all.
            let stray = try await admin(":x:executeGraphqlRead", ["query": .string(write)])
            #expect(stray.status == 404, "\(stray.text)")
            #expect(readOnly.json?["error"]?["status"] == .string("PERMISSION_DENIED"))
            let rating = try await admin(
                ":executeGraphqlRead",
                ["query": .string(#"query { movie(id: "\#(Self.orbitOfGlass)") { rating } }"#)])
            #expect(rating.json?["data"]?["movie"]?["rating"] == .number(JSONNumber(text: "2.5")), "\(rating.text)")

            // A document that does not parse, or a required variable left out: OK, with errors, as the service
            // answers a compile error of the admin API (graphql_error.proto).
            for (query, word) in [
                ("query { movies { title ", "Syntax Error"), (own.replacing("mine", with: "mine($n: Int!)"), "$n"),
            ] {
                let answer = try await admin(":executeGraphql", ["query": .string(query)])
                #expect(answer.status == 200, "\(answer.text)")
                let message = answer.json?["errors"]?.arrayValue?.first?["message"]?.stringValue ?? ""
                #expect(message.contains(word), "\(answer.text)")
            }
        }
    }

    /// An error of a connector operation gives its path but not its place in the connector's source, which the
    /// caller does not have: "Omitted in `ExecuteMutation` and `ExecuteQuery`" (`graphql_error.proto`).
    @Test func aConnectorOperationsErrorHasAPathButNoLocations() async throws {
        try await DataConnectHarness.run { client in
            let answer = try await client.mutate(
                "addReview", variables: #"{"movieId":"00000000000000000000000000000000","rating":3}"#,
                token: DataConnectHarness.userToken("user-ana"))
            let error = try #require(answer.json?["errors"]?.arrayValue?.first, "\(answer.text)")
            #expect(error["path"] == .array([.string("review_upsert")]), "\(answer.text)")
            #expect(error["locations"] == nil, "\(answer.text)")
            // The admin API keeps them: its caller sent the text they point into.
            let admin = try await client.graphql(
                #"mutation { review_upsert(data: { userId: "user-ana", movieId: "00000000000000000000000000000000", rating: 3 }) }"#
            )
            #expect(admin.json?["errors"]?.arrayValue?.first?["locations"] != nil, "\(admin.text)")
        }
    }

    @Test func authExpressionsAreEnforcedAndAuthModeDoesNotOpenOperationsWithoutAuth() async throws {
        let folder = try DataConnectHarness.exampleWorkspace()
        // The current service ignores authMode: an operation without @auth stays NO_ACCESS.
        let manifest = folder.appendingPathComponent("dataconnect/movies/connector.yaml")
        let yaml = try String(contentsOf: manifest, encoding: .utf8)
        try Data((yaml + "\nauthMode: PUBLIC\n").utf8).write(to: manifest)
        let extra = #"""
            query adminsOnly @auth(expr: "auth.token.admin == true") { movies { title } }
            query undeclared { movies { title } }
            query closed @auth(level: NO_ACCESS) { movies { title } }
            """#
        try Data(extra.utf8).write(to: folder.appendingPathComponent("dataconnect/movies/extra.gql"))
        try await DataConnectHarness.run(workspace: folder) { client in
            let noToken = try await client.query("adminsOnly")
            #expect(noToken.status == 401)
            let notAdmin = try await client.query("adminsOnly", token: DataConnectHarness.userToken("u"))
            #expect(notAdmin.status == 403)
            let admin = DataConnectHarness.token(["sub": .string("u"), "admin": .bool(true)])
            let allowed = try await client.query("adminsOnly", token: admin)
            #expect(allowed.json?["data"]?["movies"]?.arrayValue?.count == 9)
            // No @auth means NO_ACCESS, as the service defaults, in the service's words.
            let undeclared = try await client.query("undeclared", token: admin)
            #expect(undeclared.status == 403)
            let message = undeclared.json?["error"]?["message"]?.stringValue ?? ""
            #expect(message.hasPrefix("unauthorized: you are not authorized to perform this operation"), "\(message)")
            let closed = try await client.query("closed", token: admin)
            #expect(closed.status == 403)
        }
        try? FileManager.default.removeItem(at: folder)
    }

    @Test func transactionalMutationLeavesNothingBehindWhenItFails() async throws {
        try await DataConnectHarness.run { client in
            let token = DataConnectHarness.userToken("newcomer")
            // addReview is @transaction; the movie does not exist, so the foreign key fails.
            let failed = try await client.mutate(
                "addReview", variables: #"{"movieId":"0b5c1b1e3a524c7e9d0b6f1e8a2c4d99","rating":3}"#, token: token)
            #expect(failed.status == 200)
            // Every field of a failed transaction is null, each with an error (the service's prelude).
            #expect(failed.json?["data"] == .object(["review_upsert": .null]))
            #expect(failed.json?["errors"]?.arrayValue?.first?["path"] == .array([.string("review_upsert")]))
            let reviews = try await client.data(#"query { reviews { rating } }"#)
            #expect(reviews["reviews"]?.arrayValue?.count == 3)
        }
    }

    @Test func upsertInsertsThenUpdatesTheCallersOwnRow() async throws {
        try await DataConnectHarness.run { client in
            let token = DataConnectHarness.userToken("user-cleo")
            let first = try await client.mutate("upsertUser", variables: #"{"username":"cleo"}"#, token: token)
            #expect(first.json?["data"]?["user_upsert"] == .object(["id": .string("user-cleo")]))
            _ = try await client.mutate("upsertUser", variables: #"{"username":"cleo2"}"#, token: token)
            let users = try await client.data(#"query { users(orderBy: {username: ASC}) { id username } }"#)
            #expect(users["users"]?.strings("username") == ["ana", "ben", "cleo2"])
            let review = try await client.mutate(
                "addReview", variables: #"{"movieId":"\#(Self.theLongQuiet)","rating":4,"text":"Slow."}"#, token: token)
            #expect(
                review.json?["data"]?["review_upsert"]
                    == .object(["movieId": .string("0b5c1b1e3a524c7e9d0b6f1e8a2c4d02"), "userId": .string("user-cleo")])
            )
            let mine = try await client.query("listMyReviews", token: token)
            #expect(mine.json?["data"]?["user"]?["reviews"]?.arrayValue?.first?["text"] == .string("Slow."))
            let deleted = try await client.mutate(
                "deleteReview", variables: #"{"movieId":"\#(Self.theLongQuiet)"}"#, token: token)
            #expect(deleted.json?["data"]?["review_delete"]?["userId"] == .string("user-cleo"))
            let again = try await client.mutate(
                "deleteReview", variables: #"{"movieId":"\#(Self.theLongQuiet)"}"#, token: token)
            #expect(again.json?["data"]?["review_delete"] == .null)
        }
    }

    @Test func rowsWrittenWithADataFileSurviveARestartWithoutReseeding() async throws {
        let folder = try DataConnectHarness.exampleWorkspace()
        let file = folder.appendingPathComponent("movies.sqlite").path
        try await DataConnectHarness.run(workspace: folder, dataFile: file) { client in
            let created = try await client.mutate(
                "createMovie", variables: #"{"title":"Kept","releaseYear":2001,"genre":"Drama"}"#)
            #expect(created.status == 200)
        }
        try await DataConnectHarness.run(workspace: folder, dataFile: file) { client in
            let drama = try await client.query("listMoviesByGenre", variables: #"{"genre":"Drama"}"#)
            // Ordered by rating descending: the unrated movie comes first, as nulls do in Postgres.
            #expect(drama.json?["data"]?["movies"]?.strings("title") == ["Kept", "The Long Quiet", "Café Müller"])
            let all = try await client.data(#"query { movies { id } }"#)
            #expect(all["movies"]?.arrayValue?.count == 10)
        }
        try? FileManager.default.removeItem(at: folder)
    }

    @Test func aDataFileMadeForAnotherSchemaIsRefused() async throws {
        let folder = try DataConnectHarness.exampleWorkspace()
        let file = folder.appendingPathComponent("movies.sqlite").path
        try await DataConnectHarness.run(workspace: folder, dataFile: file) { _ in }
        let schema = folder.appendingPathComponent("dataconnect/schema/schema.gql")
        let text = try String(contentsOf: schema, encoding: .utf8) + "\ntype Extra @table { name: String }\n"
        try Data(text.utf8).write(to: schema)
        await #expect(throws: EmulatorError.self) {
            try await DataConnectEmulator(workspace: folder, dataFile: file)
        }
        try? FileManager.default.removeItem(at: folder)
    }

    @Test func twoHundredConcurrentMutationsAllLandExactlyOnce() async throws {
        try await DataConnectHarness.run { client in
            let statuses = try await withThrowingTaskGroup(of: Int.self) { group in
                for index in 0..<200 {
                    group.addTask {
                        try await client.mutate(
                            "createMovie", variables: #"{"title":"Bulk \#(index)","releaseYear":2000,"genre":"Bulk"}"#
                        ).status
                    }
                }
                var statuses: [Int] = []
                for try await status in group { statuses.append(status) }
                return statuses
            }
            #expect(statuses.count == 200 && statuses.allSatisfy { $0 == 200 })
            let bulk = try await client.data(#"query { movies(where: {genre: {eq: "Bulk"}}, limit: 1000) { title } }"#)
            let titles = bulk["movies"]?.strings("title") ?? []
            #expect(titles.count == 200)
            #expect(Set(titles) == Set((0..<200).map { "Bulk \($0)" }))
        }
    }

    @Test func anOperationThatDoesNotFitTheSchemaIsReportedAndAnsweredWithAnErrorWhileTheOthersRun() async throws {
        let folder = try DataConnectHarness.exampleWorkspace()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("dataconnect/movies/broken.gql")
        try Data("query broken @auth(level: PUBLIC) {\n  movies {\n    runtime\n  }\n}\n".utf8).write(to: file)
        let emulator = try await DataConnectEmulator(workspace: folder)
        let note = try #require(emulator.workspaceNotes.first { $0.contains("broken.gql") })
        #expect(note.contains("broken.gql:3:5"), "\(note)")
        #expect(note.contains("runtime") && note.contains("--strict"), "\(note)")
        await emulator.shutDown()
        try await DataConnectHarness.run(workspace: folder) { client in
            let broken = try await client.query("broken")
            #expect(broken.status == 400, "\(broken.text)")
            #expect(broken.json?["error"]?["status"]?.stringValue == "FAILED_PRECONDITION", "\(broken.text)")
            #expect(broken.text.contains("broken.gql:3:5"), "\(broken.text)")
            let fine = try await client.query("listMoviesByGenre", variables: #"{"genre":"Sci-Fi"}"#)
            #expect(fine.status == 200, "\(fine.text)")
        }
    }

    /// `_Data` variables: `@allow` is required, its fields must be the input's, and a value may set only those fields
    /// and hold at most `maxCount` entities (the service's prelude; Firebase's emulator 3.4.7).
    @Test func aDataVariableNeedsAllowAndMaySetOnlyItsFieldsUpToItsMaxCount() async throws {
        let folder = try DataConnectHarness.exampleWorkspace()
        defer { try? FileManager.default.removeItem(at: folder) }
        try Data(
            #"""
            mutation addMovies($data: [Movie_Data!]! @allow(fields: "title genre releaseYear", maxCount: 3))
              @auth(level: PUBLIC) {
              movie_insertMany(data: $data)
            }
            mutation addMovie($data: Movie_Data! @allow(fields: "title genre releaseYear")) @auth(level: PUBLIC) {
              movie_insert(data: $data)
            }
            mutation unguarded($data: Movie_Data!) @auth(level: PUBLIC) {
              movie_insert(data: $data)
            }
            mutation misnamed($data: Movie_Data! @allow(fields: "title runtime")) @auth(level: PUBLIC) {
              movie_insert(data: $data)
            }
            mutation chosenByClient($data: Movie_Data! @allow(fields: $f), $f: String!) @auth(level: PUBLIC) {
              movie_insert(data: $data)
            }
            mutation noneAllowed($data: Movie_Data! @allow(fields: "title", maxCount: 0)) @auth(level: PUBLIC) {
              movie_insert(data: $data)
            }

            """#.utf8
        ).write(to: folder.appendingPathComponent("dataconnect/movies/bulk.gql"))
        let emulator = try await DataConnectEmulator(workspace: folder)
        let notes = emulator.workspaceNotes.joined(separator: "\n")
        #expect(notes.contains("bulk.gql:8:20"), "\(notes)")
        #expect(notes.contains("$data of type Movie_Data needs @allow(fields:"), "\(notes)")
        #expect(notes.contains("Movie_Data has no field runtime"), "\(notes)")
        #expect(notes.contains("@allow of $data takes literal values"), "\(notes)")
        #expect(notes.contains("maxCount 0: it must be at least 1"), "\(notes)")
        await emulator.shutDown()
        try await DataConnectHarness.run(workspace: folder) { client in
            let movie = #"{"title":"T","genre":"Bulk","releaseYear":2001}"#
            let three = try await client.mutate("addMovies", variables: #"{"data":[\#(movie),\#(movie),\#(movie)]}"#)
            #expect(three.json?["data"]?["movie_insertMany"]?.arrayValue?.count == 3, "\(three.text)")
            let four = try await client.mutate(
                "addMovies", variables: #"{"data":[\#(movie),\#(movie),\#(movie),\#(movie)]}"#)
            #expect(four.status == 400, "\(four.text)")
            #expect(four.json?["error"]?["status"] == .string("INVALID_ARGUMENT"))
            #expect(four.text.contains("more than 3 entities"), "\(four.text)")
            let rated = try await client.mutate(
                "addMovie", variables: #"{"data":{"title":"T","genre":"Bulk","releaseYear":2001,"rating":9.9}}"#)
            #expect(rated.status == 400, "\(rated.text)")
            #expect(rated.text.contains("$data.rating is not among the fields"), "\(rated.text)")
            let unguarded = try await client.mutate("unguarded", variables: #"{"data":{"title":"T"}}"#)
            #expect(unguarded.json?["error"]?["status"] == .string("FAILED_PRECONDITION"), "\(unguarded.text)")
            // Nothing refused was written: three rows from the one call that fit.
            let bulk = try await client.data(#"query { movies(where: {genre: {eq: "Bulk"}}) { _count } }"#)
            #expect(bulk["movies"]?.arrayValue?.first?["_count"] == .number(JSONNumber(3)), "\(bulk)")
        }
    }

    @Test func strictRefusesAWorkspaceWhoseOperationDoesNotFitTheSchemaWithItsPosition() async throws {
        let folder = try DataConnectHarness.exampleWorkspace()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("dataconnect/movies/broken.gql")
        try Data("query broken @auth(level: PUBLIC) {\n  movies {\n    runtime\n  }\n}\n".utf8).write(to: file)
        var options = DataConnectEmulator.Options()
        options.strict = true
        do {
            _ = try await DataConnectEmulator(workspace: folder, options: options)
            Issue.record("expected the workspace to be refused")
        } catch {
            #expect("\(error)".contains("broken.gql:3:5"), "\(error)")
            #expect("\(error)".contains("runtime"), "\(error)")
        }
    }

    @Test func fragmentsAreSharedByEveryFileOfAConnectorAndFilesOfCommentsAreValid() async throws {
        let folder = try DataConnectHarness.exampleWorkspace()
        defer { try? FileManager.default.removeItem(at: folder) }
        let movies = folder.appendingPathComponent("dataconnect/movies")
        // A fragment in one file, used by an operation in another, through a fragment in a third.
        try Data("# Fragments.\n\nfragment Titled on Movie {\n  title\n  ...Dated\n}\n".utf8)
            .write(to: movies.appendingPathComponent("a_fragments.gql"))
        try Data("fragment Dated on Movie { releaseYear }\n".utf8)
            .write(to: movies.appendingPathComponent("b_more.gql"))
        try Data(
            "query titledSciFi @auth(level: PUBLIC) {\n  movies(where: {genre: {eq: \"Sci-Fi\"}}) { ...Titled }\n}\n"
                .utf8
        )
        .write(to: movies.appendingPathComponent("c_uses.gql"))
        try Data("# Nothing here yet.\n# mutation later { movie_insert(data: {title: \"x\"}) }\n".utf8)
            .write(to: movies.appendingPathComponent("d_comments.gql"))
        // An operation that spreads a fragment no file defines is named at its own position.
        try Data("\n\nquery ghost @auth(level: PUBLIC) {\n  movies { ...Missing }\n}\n".utf8)
            .write(to: movies.appendingPathComponent("e_ghost.gql"))
        let emulator = try await DataConnectEmulator(workspace: folder)
        let ghost = try #require(emulator.workspaceNotes.first { $0.contains("e_ghost.gql") })
        #expect(ghost.contains("e_ghost.gql:4:15") && ghost.contains("Missing"), "\(ghost)")
        await emulator.shutDown()
        try await DataConnectHarness.run(workspace: folder) { client in
            let titled = try await client.query("titledSciFi")
            #expect(titled.status == 200, "\(titled.text)")
            let rows = titled.json?["data"]?["movies"]?.arrayValue ?? []
            #expect(rows.count == 3)
            #expect(rows.allSatisfy { $0["title"]?.stringValue != nil && $0["releaseYear"] != nil }, "\(titled.text)")
        }
    }

    /// A join table whose two references point at one table gives two lists, each named by its far field.
    @Test func aSelfJoinListsEachSideUnderItsOwnName() async throws {
        let folder = try DataConnectHarness.workspace(
            schema: """
                type Member @table { name: String! }
                type Follow @table(key: ["follower", "followee"]) { follower: Member!, followee: Member! }
                """,
            operations: """
                query circle($name: String!) @auth(level: PUBLIC) {
                  members(where: {name: {eq: $name}}) {
                    follows: members_via_Follow_on_followee { name }
                    followers: members_via_Follow_on_follower { name }
                  }
                }
                """)
        defer { try? FileManager.default.removeItem(at: folder) }
        try await DataConnectHarness.run(workspace: folder) { client in
            var ids: [String: String] = [:]
            for name in ["ada", "ben", "cy"] {
                let inserted = try await client.data(#"mutation { member_insert(data: {name: "\#(name)"}) }"#)
                ids[name] = inserted["member_insert"]?["id"]?.stringValue
            }
            for (follower, followee) in [("ada", "ben"), ("ada", "cy"), ("cy", "ada")] {
                let key = "followerId: \"\(ids[follower] ?? "")\", followeeId: \"\(ids[followee] ?? "")\""
                _ = try await client.data("mutation { follow_insert(data: {\(key)}) }")
            }
            let ada = try await client.query("circle", variables: #"{"name":"ada"}"#, connector: "app")
            #expect(ada.status == 200, "\(ada.text)")
            let member = ada.json?["data"]?["members"]?.arrayValue?.first
            #expect(Set(member?["follows"]?.strings("name") ?? []) == ["ben", "cy"], "\(ada.text)")
            #expect(member?["followers"]?.strings("name") == ["cy"], "\(ada.text)")
        }
    }

    @Test func anUnknownVariableIsNamedAndAnExplicitNullForARequiredOneIsRefused() async throws {
        try await DataConnectHarness.run { client in
            let unknown = try await client.query("listMoviesByGenre", variables: #"{"genre":"Sci-Fi","genr":"x"}"#)
            #expect(unknown.status == 400, "\(unknown.text)")
            #expect(unknown.text.contains("unknown variable $genr"), "\(unknown.text)")
            let null = try await client.query("listMoviesByGenre", variables: #"{"genre":null}"#)
            #expect(null.status == 400, "\(null.text)")
            #expect(null.text.contains("$genre of non-null type String! must not be null"), "\(null.text)")
            let missing = try await client.query("listMoviesByGenre")
            #expect(missing.text.contains("missing required variable $genre"), "\(missing.text)")
        }
    }

    @Test func sqlDefaultsAreEvaluatedWhereSQLiteCanAndNamedWhereItCannot() async throws {
        let folder = try DataConnectHarness.workspace(
            schema: """
                type Stamp @table {
                  label: String!
                  epoch: Timestamp! @default(sql: "'epoch'::timestamptz")
                  epochDay: Date! @default(sql: "'epoch'::date")
                  created: Timestamp! @default(sql: "now()")
                  kind: String! @default(sql: "'it''s'::text")
                  count: Int! @default(sql: "7")
                  big: Int64! @default(sql: "9007199254740993")
                  bigText: Int64! @default(sql: "(('9007199254740993'::int8))")
                  flag: Boolean! @default(sql: "true")
                  token: UUID! @default(sql: "gen_random_uuid()")
                }
                type Odd @table {
                  label: String!
                  hashed: String! @default(sql: "md5(random()::text)")
                }
                """,
            operations:
                "query stamps @auth(level: PUBLIC) { stamps { epoch epochDay created kind count big bigText flag token } }\n"
        )
        defer { try? FileManager.default.removeItem(at: folder) }
        try await DataConnectHarness.run(workspace: folder) { client in
            _ = try await client.data(#"mutation { stamp_insert(data: {label: "a"}) }"#)
            let stamps = try await client.query("stamps", connector: "app")
            let row = stamps.json?["data"]?["stamps"]?.arrayValue?.first
            #expect(row?["epoch"]?.stringValue == "1970-01-01T00:00:00Z", "\(stamps.text)")
            #expect(row?["epochDay"]?.stringValue == "1970-01-01", "\(stamps.text)")
            #expect(row?["created"]?.stringValue?.hasPrefix("20") == true, "\(stamps.text)")
            #expect(row?["kind"]?.stringValue == "it's", "\(stamps.text)")
            #expect(row?["count"] == .number(JSONNumber(7)), "\(stamps.text)")
            #expect(row?["big"]?.stringValue == "9007199254740993", "\(stamps.text)")
            #expect(row?["bigText"]?.stringValue == "9007199254740993", "\(stamps.text)")
            #expect(row?["flag"] == .bool(true), "\(stamps.text)")
            #expect(row?["token"]?.stringValue?.count == 32, "\(stamps.text)")
            let odd = try await client.graphql(#"mutation { odd_insert(data: {label: "b"}) }"#)
            #expect(odd.text.contains("md5(random()::text)"), "\(odd.text)")
            #expect(odd.text.contains("give the field a value"), "\(odd.text)")
        }
    }

    @Test func theBuiltInFieldsOfTheServiceAnswer() async throws {
        try await DataConnectHarness.run { client in
            let service = try await client.data("query { _service { sdl schema schemas { id } docs { page } } }")
            #expect(service["_service"]?["sdl"]?.stringValue?.contains("movie_insert(data: Movie_Data!)") == true)
            #expect(service["_service"]?["schema"]?.stringValue?.contains("type Movie @table") == true)
            #expect(service["_service"]?["schemas"] == .array([.object(["id": .string("main")])]))
            #expect(service["_service"]?["docs"] == .array([]))
            // Search metadata is null outside search queries.
            let metadata = try await client.data(
                #"query { movies(where: {title: {eq: "Signal Drift"}}) { _metadata { distance relevance } } }"#)
            #expect(
                metadata["movies"]
                    == .array([.object(["_metadata": .object(["distance": .null, "relevance": .null])])]))
            // A read inside a mutation sees the mutation's writes so far.
            let mutation = try await client.data(
                #"""
                mutation {
                  movie_insert(data: {title: "Night Ferry", releaseYear: 2026, genre: "Drama"})
                  query { movies(where: {releaseYear: {ge_expr: "2026"}}) { title } }
                }
                """#)
            #expect(mutation["query"]?["movies"] == .array([.object(["title": .string("Night Ferry")])]), "\(mutation)")
        }
    }

    @Test func aVectorHoldsNumbersAndAsManyAsItsColumnSays() async throws {
        let folder = try DataConnectHarness.workspace(
            schema: "type Doc @table { text: String!, embedding: Vector @col(size: 3) }\n",
            operations: "query docs @auth(level: PUBLIC) { docs { embedding } }\n")
        defer { try? FileManager.default.removeItem(at: folder) }
        try await DataConnectHarness.run(workspace: folder) { client in
            let fits = try await client.graphql(
                #"mutation { doc_insert(data: {text: "a", embedding: [0.1, 0.2, 0.3]}) }"#)
            #expect(fits.json?["errors"] == nil, "\(fits.text)")
            let short = try await client.graphql(#"mutation { doc_insert(data: {text: "b", embedding: [0.1]}) }"#)
            #expect(short.text.contains("Doc.embedding holds a Vector of 3 numbers (@col(size: 3)); this one has 1"))
            let words = try await client.graphql(
                #"mutation { doc_insert(data: {text: "c", embedding: ["x", "y", "z"]}) }"#)
            #expect(words.text.contains(#"Expected value of type \"Vector\""#), "\(words.text)")
            let variable = try await client.graphql(
                #"mutation($e: Vector) { doc_insert(data: {text: "d", embedding: $e}) }"#, variables: #"{"e":["x"]}"#)
            #expect(variable.text.contains(#"Expected type \"Vector\""#), "\(variable.text)")
        }
    }

    /// JSON keeps every digit of an integer, and so does the service's `Any` (PostgreSQL's jsonb).
    @Test func aLongIntegerInAnyKeepsEveryDigit() async throws {
        let folder = try DataConnectHarness.workspace(
            schema: "type Blob @table { tag: String!, value: Any }\n",
            operations: """
                mutation put($tag: String!, $value: Any) @auth(level: PUBLIC) { blob_insert(data: {tag: $tag, value: $value}) }
                query get($tag: String!) @auth(level: PUBLIC) { blobs(where: {tag: {eq: $tag}}) { value } }
                """)
        defer { try? FileManager.default.removeItem(at: folder) }
        try await DataConnectHarness.run(workspace: folder) { client in
            _ = try await client.mutate(
                "put", variables: #"{"tag":"v","value":{"big":12345678901234567890,"small":-98765432109876543210}}"#,
                connector: "app")
            let read = try await client.query("get", variables: #"{"tag":"v"}"#, connector: "app")
            #expect(read.text.contains(#""big":12345678901234567890"#), "\(read.text)")
            #expect(read.text.contains(#""small":-98765432109876543210"#), "\(read.text)")
            _ = try await client.data(#"mutation { blob_insert(data: {tag: "l", value: [12345678901234567890]}) }"#)
            let literal = try await client.query("get", variables: #"{"tag":"l"}"#, connector: "app")
            #expect(literal.text.contains("[12345678901234567890]"), "\(literal.text)")
        }
    }

    /// A data file belongs to its tables: a change to the GraphQL around them (here an enum no column uses, as a
    /// new version of the emulator adds generated fields) keeps it, a changed table refuses it.
    @Test func aDataFileIsKeptAcrossGraphQLChangesAndRefusedForChangedTables() async throws {
        let folder = try DataConnectHarness.workspace(
            schema: "type Note @table { text: String! }\n",
            operations: "query notes @auth(level: PUBLIC) { notes { text } }\n")
        defer { try? FileManager.default.removeItem(at: folder) }
        let data = folder.appendingPathComponent("notes.sqlite").path
        _ = try await DataConnectEmulator(workspace: folder, dataFile: data)
        try Data("type Note @table { text: String! }\nenum Mood { HAPPY SAD }\n".utf8)
            .write(to: folder.appendingPathComponent("schema/schema.gql"))
        _ = try await DataConnectEmulator(workspace: folder, dataFile: data)
        try Data("type Note @table { text: String!, pinned: Boolean }\n".utf8)
            .write(to: folder.appendingPathComponent("schema/schema.gql"))
        do {
            _ = try await DataConnectEmulator(workspace: folder, dataFile: data)
            Issue.record("a data file of other tables was opened")
        } catch {
            #expect("\(error)".contains("holds Data Connect tables of a different schema"), "\(error)")
        }
    }

    /// The service refuses `auth.uid` where a UUID goes, when it loads the connector.
    @Test func aUUIDExpressionTakesUUIDV4Only() async throws {
        let folder = try DataConnectHarness.workspace(
            schema: "type Order @table { owner: UUID!, note: String }\n",
            operations: """
                mutation mine @auth(level: USER) { order_insert(data: {owner_expr: "auth.uid", note: "x"}) }
                mutation fresh @auth(level: USER) { order_insert(data: {owner_expr: "uuidV4()", note: "y"}) }
                """)
        defer { try? FileManager.default.removeItem(at: folder) }
        let emulator = try await DataConnectEmulator(workspace: folder)
        let note = try #require(emulator.workspaceNotes.first { $0.contains("ops.gql") }, "\(emulator.workspaceNotes)")
        #expect(
            note.contains(#"ops.gql:1:68: unsupported expression "auth.uid" (currently only "uuidV4()" is supported)"#),
            "\(note)")
        await emulator.shutDown()
        try await DataConnectHarness.run(workspace: folder) { client in
            let token = DataConnectHarness.userToken("u1")
            #expect(try await client.mutate("mine", connector: "app", token: token).status == 400)
            #expect(try await client.mutate("fresh", connector: "app", token: token).status == 200)
            let admin = try await client.graphql(#"mutation { order_insert(data: {owner_expr: "auth.uid"}) }"#)
            #expect(admin.text.contains("unsupported expression"), "\(admin.text)")
        }
    }

    /// A client that leaves cancels its request; the request's transaction is still closed, so the next one runs.
    @Test func aRequestWhoseClientLeftDoesNotLeaveItsTransactionOpen() async throws {
        try await DataConnectHarness.run(mode: .live) { client in
            let baseURL = try #require(client.http.baseURL)
            // Counting to a hundred million takes SQLite seconds; the client gives up after a quarter of one.
            let slow =
                #"WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < 100000000) "#
                + #"SELECT count(*) AS n FROM c"#
            var request = HTTPClientRequest(url: baseURL + client.service + ":executeGraphql")
            request.method = .POST
            request.headers.add(name: "Content-Type", value: "application/json")
            let body = JSONValue.object(["query": .string("mutation { _executeReturning(sql: \"\(slow)\") }")])
            request.body = .bytes(ByteBuffer(string: body.jsonText))
            await #expect(throws: (any Error).self) {
                _ = try await HTTPClient.shared.execute(request, timeout: .milliseconds(250))
            }
            // Every later request finds no transaction left open by the one that was cancelled.
            for _ in 0..<3 {
                let next = try await client.graphql(
                    "mutation { movie_insert(data: {title: \"After\", genre: \"Later\"}) }")
                #expect(next.status == 200 && next.json?["errors"] == nil, "\(next.text)")
                try await Task.sleep(for: .milliseconds(300))
            }
        }
    }

    @Test func twoFragmentsOfOneNameInAConnectorAreRefusedWithBothPositions() async throws {
        let folder = try DataConnectHarness.exampleWorkspace()
        defer { try? FileManager.default.removeItem(at: folder) }
        let movies = folder.appendingPathComponent("dataconnect/movies")
        try Data("fragment Same on Movie { title }\n".utf8).write(to: movies.appendingPathComponent("x1.gql"))
        try Data("\nfragment Same on Movie { genre }\n".utf8).write(to: movies.appendingPathComponent("x2.gql"))
        do {
            _ = try await DataConnectEmulator(workspace: folder)
            Issue.record("expected the workspace to be refused")
        } catch {
            #expect("\(error)".contains("x2.gql:2:1: a second fragment is named Same"), "\(error)")
            #expect("\(error)".contains("x1.gql:1:1"), "\(error)")
        }
    }

    @Test func aSeedThatFailsStopsTheStartWithTheReason() async throws {
        let folder = try DataConnectHarness.exampleWorkspace()
        let seed = folder.appendingPathComponent("bad-seed.gql")
        try Data(#"mutation { movie_insert(data: { releaseYear: 1 }) }"#.utf8).write(to: seed)
        do {
            _ = try await DataConnectEmulator(workspace: folder, options: .init(seedFile: seed))
            Issue.record("expected the seed to fail")
        } catch {
            #expect("\(error)".contains("title"), "\(error)")
        }
        try? FileManager.default.removeItem(at: folder)
    }

    /// The request time limit guards the server against its clients; a seed file is the operator's own work, and a
    /// large one on a busy machine outlasted the default 30 s.
    // If SQLite were no longer interrupted at the limit, the request below would count for hours.
    @Test(.timeLimit(.minutes(1))) func aSeedIsNotCutOffByTheRequestTimeLimitThatRequestsGet() async throws {
        let folder = try DataConnectHarness.exampleWorkspace()
        defer { try? FileManager.default.removeItem(at: folder) }
        // Counting to sixteen million takes SQLite 2 to 8 seconds, past the limit below on a fast machine too (four
        // million took half a second on one).
        func counting(to bound: Int) -> String {
            let slow =
                #"WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < \#(bound)) "#
                + #"SELECT count(*) AS n FROM c"#
            return #"counted: _executeReturning(sql: "\#(slow)")"#
        }
        let seed = folder.appendingPathComponent("slow-seed.gql")
        let insert = #"movie_insert(data: {title: "Seeded", genre: "Drama"})"#
        try Data("mutation { \(counting(to: 16_000_000)) \(insert) }".utf8).write(to: seed)
        var limits = GraphQLLimits()
        try limits.set("seconds=1")
        let started = ContinuousClock.now
        let emulator = try await DataConnectEmulator(workspace: folder, options: .init(seedFile: seed), limits: limits)
        // A machine that seeds faster than the limit tests nothing here: count further.
        #expect(ContinuousClock.now - started > .seconds(1), "the seed finished within the limit; count further")
        defer { Task { await emulator.shutDown() } }
        // Read back untimed too: under a one-second limit a busy machine can cut off even this query.
        let check = try DataConnectGraphQL.parseAndValidate(
            #"query { movies(where: {title: {eq: "Seeded"}}) { title } }"#, path: "check",
            schema: emulator.engine.schema)
        let seeded = await emulator.engine.run(
            document: check, operationName: nil, variables: [:], auth: .anonymous, isAdmin: true, timed: false)
        guard case .response(let body) = seeded else {
            Issue.record("expected the seeded movie, got \(seeded)")
            return
        }
        #expect(body["data"]?["movies"]?.strings("title") == ["Seeded"], "\(body)")
        // Work of the kind sent as a request is cut off at the limit, however fast the machine.
        let request = await emulator.engine.executeAdmin(
            query: "mutation { \(counting(to: 1_000_000_000_000)) }", operationName: nil, variables: [:])
        guard case .failure(let failure) = request else {
            Issue.record("expected DEADLINE_EXCEEDED, got \(request)")
            return
        }
        #expect(failure.status == "DEADLINE_EXCEEDED" && failure.message.contains("longer than 1 s"), "\(failure)")
    }

    @Test func hostileRequestsGetClearErrorsNeverACrash() async throws {
        try await DataConnectHarness.run { client in
            // Nesting deep enough to exhaust a recursive parser's stack is refused before parsing.
            let deep = String(repeating: "{", count: 20_000) + String(repeating: "}", count: 20_000)
            let nested = try await client.graphql("query \(deep)")
            #expect(nested.status == 400)
            #expect(nested.json?["error"]?["message"]?.stringValue?.contains("nests more than 64 levels deep") == true)
            // Odd operation names are simply unknown.
            for name in ["\u{0}", String(repeating: "x", count: 100_000), "listMovies\"}", "../../etc/passwd"] {
                let body = JSONValue.object(["operationName": .string(name)]).jsonText
                let exchange = try await client.http.post(
                    "\(client.service)/connectors/movies:executeQuery", json: body)
                #expect(exchange.status == 404)
                #expect(exchange.json?["error"]?["status"] == .string("NOT_FOUND"))
            }
            // Variables nested past the JSON parser's limit are malformed JSON, not a crash.
            let deepVariables = String(repeating: "[", count: 2_000) + String(repeating: "]", count: 2_000)
            let malformed = try await client.query("listMovies", variables: deepVariables)
            #expect(malformed.status == 400)
            // A body past 16 MiB is refused as too large.
            let huge =
                #"{"operationName":"listMovies","variables":{"pad":""# + String(repeating: "a", count: 17 << 20)
                + #""}}"#
            let tooLarge = try await client.http.post("\(client.service)/connectors/movies:executeQuery", json: huge)
            #expect(tooLarge.status == 413)
        }
    }

    @Test func outOfRangeValuesAreFieldErrorsNeverACrash() async throws {
        let folder = try DataConnectHarness.exampleWorkspace()
        let extra = #"""
            type Counter @table { value: Int @default(value: 1e300), label: String }
            """#
        try Data(extra.utf8).write(to: folder.appendingPathComponent("dataconnect/schema/counter.gql"))
        let auth = #"""
            query bigClaim @auth(expr: "auth.token.n == 100000000000000000000000") { movies { title } }
            """#
        try Data(auth.utf8).write(to: folder.appendingPathComponent("dataconnect/movies/big.gql"))
        try await DataConnectHarness.run(workspace: folder) { client in
            // A default beyond Int's range is refused when it is used.
            let counter = try await client.graphql(#"mutation { counter_insert(data: {label: "x"}) }"#)
            #expect(counter.json?["data"]?["counter_insert"] == .null)
            #expect(counter.json?["errors"]?.arrayValue?.first?["message"]?.stringValue?.contains("Int") == true)
            // Durations past any calendar are refused, for timestamps and dates alike.
            for input in [
                #"addedAt_time: {now: true, add: {days: 2000000000}}"#,
                #"addedAt_time: {now: true, sub: {years: 2000000000}}"#,
            ] {
                let movie = try await client.graphql(#"mutation { movie_insert(data: {title: "T", \#(input)}) }"#)
                #expect(movie.status == 200)
                let message = movie.json?["errors"]?.arrayValue?.first?["message"]?.stringValue ?? ""
                #expect(message.contains("out of range"), "\(movie.text)")
            }
            let review = try await client.graphql(
                #"""
                mutation {
                  review_insert(data: {movieId: "0b5c1b1e3a524c7e9d0b6f1e8a2c4d02", userId: "user-ana", rating: 1,
                                       reviewDate_date: {today: true, add: {years: 2000000000}}})
                }
                """#)
            #expect(
                review.json?["errors"]?.arrayValue?.first?["message"]?.stringValue?.contains("out of range") == true)
            // A number literal past Int64 in an auth expression compares, and is false for this caller.
            let claim = try await client.query("bigClaim", token: DataConnectHarness.userToken("u"))
            #expect(claim.status == 403)
        }
        try? FileManager.default.removeItem(at: folder)
    }
}
