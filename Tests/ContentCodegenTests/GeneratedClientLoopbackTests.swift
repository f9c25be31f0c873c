import ContentKit
import Foundation
import Testing

/// The generated movies client (`Golden/MoviesSample.swift`, compiled into this target) against the Data
/// Connect emulator over loopback HTTP: variables encode as the service reads them and results decode,
/// UUIDs and Int64s included; the connector's cache answers by fetch policy, normalised by entity id.
struct GeneratedClientLoopbackTests {
    private static func withMovies(_ body: @Sendable (MoviesConnector) async throws -> Void) async throws {
        let workspace = GoldenWorkspaces.repository.appendingPathComponent("examples/dataconnect")
        try await LoopbackContentClient.withDataConnect(
            workspace: workspace, connector: MoviesConnector.connectorConfig, project: MoviesConnector.projectID
        ) {
            try await body(MoviesConnector(dataConnect: $0))
        }
    }

    /// An unsigned ID token of a user with a verified email, which the emulator takes as Firebase's does.
    private static let verifiedUser: @Sendable () async throws -> String? = {
        func encode(_ text: String) -> String {
            Data(text.utf8).base64EncodedString().replacingOccurrences(of: "+", with: "-")
                .replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
        }
        return encode(#"{"alg":"none"}"#) + "."
            + encode(#"{"sub":"critic","email_verified":true,"firebase":{"sign_in_provider":"password"}}"#) + "."
    }

    @Test func listMoviesByGenreReturnsOnlyThatGenreBestRatedFirst() async throws {
        try await Self.withMovies { movies in
            let result = try await movies.listMoviesByGenreQuery.execute(genre: "Sci-Fi")
            #expect(result.source == .server)
            #expect(result.data.movies.count == 3)
            #expect(result.data.movies.allSatisfy { $0.genre == "Sci-Fi" })
            let ratings = result.data.movies.compactMap(\.rating)
            #expect(ratings == ratings.sorted(by: >))
            #expect(result.data.movies.first?.title == "Orbit of Glass")
        }
    }

    @Test func aUUIDFromOneCallFindsTheSameMovieByKey() async throws {
        try await Self.withMovies { movies in
            let listed = try #require(
                try await movies.listMoviesByGenreQuery.execute(genre: "Sci-Fi").data.movies.first)
            #expect(listed.id == UUID(uuidString: "0b5c1b1e-3a52-4c7e-9d0b-6f1e8a2c4d01"))
            let found = try #require(try await movies.getMovieByKeyQuery.execute(key: .init(id: listed.id)).data.movie)
            #expect(found.id == listed.id)
            #expect(found.title == listed.title)
            // Int64 travels as a JSON string and decodes to Int64.
            #expect(found.metadata?.budget == 42_000_000)
        }
    }

    @Test func aCreatedMovieAnswersWithAKeyThatFindsIt() async throws {
        try await Self.withMovies { movies in
            let created = try await movies.createMovieMutation.execute(
                title: "Glass Harbor", releaseYear: 2025, genre: "Drama", rating: 7.1, tags: ["sea"])
            // `Movie_KeyOutput!` decodes into the same `Movie_Key` the lookup takes.
            let key = created.data.movie_insert
            let found = try #require(try await movies.getMovieByKeyQuery.execute(key: key).data.movie)
            #expect(found.id == key.id)
            #expect(found.title == "Glass Harbor")
            #expect(found.tags == ["sea"])
        }
    }

    @Test func anUnknownKeyIsNilNotAnError() async throws {
        try await Self.withMovies { movies in
            let missing = try await movies.getMovieByKeyQuery.execute(key: .init(id: UUID())).data.movie
            #expect(missing == nil)
        }
    }

    @Test func cacheOnlyBeforeAnyAnswerIsAClearError() async throws {
        try await Self.withMovies { movies in
            await #expect(throws: ContentClientError.notCached(operation: "listMoviesByGenre")) {
                _ = try await movies.listMoviesByGenreQuery.execute(genre: "Drama", fetchPolicy: .cacheOnly)
            }
        }
    }

    /// `.preferCache` answers from the cache while the entry is younger than `cacheMaxAge`, and asks the service
    /// when the cache may not (the default maximum age, zero).
    @Test func preferCacheAnswersFromTheCacheWithinItsMaximumAge() async throws {
        try await Self.withMovies { movies in
            #expect(try await movies.listGenresQuery.execute().source == .server)
            #expect(try await movies.listGenresQuery.execute().source == .server)
            movies.dataConnect.cacheMaxAge = .seconds(60)
            let cached = try await movies.listGenresQuery.execute()
            #expect(cached.source == .cache)
            #expect(try await movies.listGenresQuery.execute(fetchPolicy: .serverOnly).data == cached.data)
        }
    }

    /// A row the service answered for one query shows its new fields in another query's cached result: the cache
    /// keeps each entity once, by the id the service names in `extensions.dataConnect`.
    @Test func aCachedResultShowsWhatALaterAnswerSaidOfTheSameEntity() async throws {
        try await Self.withMovies { movies in
            movies.dataConnect.settings.idToken = Self.verifiedUser
            let before = try await movies.listMoviesByGenreQuery.execute(genre: "Sci-Fi").data.movies
            let orbit = try #require(before.first { $0.title == "Orbit of Glass" })
            _ = try await movies.updateMovieRatingMutation.execute(id: orbit.id, rating: 1.5)
            let found = try #require(try await movies.getMovieByKeyQuery.execute(key: .init(id: orbit.id)).data.movie)
            #expect(found.rating == 1.5)
            let cached = try await movies.listMoviesByGenreQuery.execute(genre: "Sci-Fi", fetchPolicy: .cacheOnly)
            #expect(cached.source == .cache)
            #expect(cached.data.movies.first { $0.id == orbit.id }?.rating == 1.5)
            // The order is the cached one: only the entity's fields change, not the result the service gave.
            #expect(cached.data.movies.map(\.id) == before.map(\.id))
        }
    }

    /// The cache is kept per caller: what one user was answered is not what another, or nobody, gets from it.
    @Test func anotherCallerDoesNotGetTheFirstCallersCachedAnswers() async throws {
        try await Self.withMovies { movies in
            movies.dataConnect.settings.idToken = Self.verifiedUser
            _ = try await movies.listMoviesByGenreQuery.execute(genre: "Drama")
            #expect(
                try await movies.listMoviesByGenreQuery.execute(genre: "Drama", fetchPolicy: .cacheOnly).source
                    == .cache)
            movies.dataConnect.settings.idToken = nil
            await #expect(throws: ContentClientError.notCached(operation: "listMoviesByGenre")) {
                _ = try await movies.listMoviesByGenreQuery.execute(genre: "Drama", fetchPolicy: .cacheOnly)
            }
        }
    }
}
