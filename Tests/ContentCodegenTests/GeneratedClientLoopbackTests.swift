import ContentKit
import Foundation
import Testing

/// The generated movies client (`Golden/MoviesSample.swift`, compiled into this target) against the Data
/// Connect emulator over loopback HTTP: variables encode as the service reads them and results decode,
/// UUIDs and Int64s included.
struct GeneratedClientLoopbackTests {
    private static func withMovies(_ body: @Sendable (MoviesConnector) async throws -> Void) async throws {
        let workspace = GoldenWorkspaces.repository.appendingPathComponent("examples/dataconnect")
        try await LoopbackContentClient.withDataConnect(workspace: workspace, project: "content-sample") {
            try await body(MoviesConnector(client: $0))
        }
    }

    @Test func listMoviesByGenreReturnsOnlyThatGenreBestRatedFirst() async throws {
        try await Self.withMovies { movies in
            let result = try await movies.listMoviesByGenre(genre: "Sci-Fi")
            #expect(result.movies.count == 3)
            #expect(result.movies.allSatisfy { $0.genre == "Sci-Fi" })
            let ratings = result.movies.compactMap(\.rating)
            #expect(ratings == ratings.sorted(by: >))
            #expect(result.movies.first?.title == "Orbit of Glass")
        }
    }

    @Test func aUUIDFromOneCallFindsTheSameMovieByKey() async throws {
        try await Self.withMovies { movies in
            let listed = try #require(try await movies.listMoviesByGenre(genre: "Sci-Fi").movies.first)
            #expect(listed.id == UUID(uuidString: "0b5c1b1e-3a52-4c7e-9d0b-6f1e8a2c4d01"))
            let found = try #require(try await movies.getMovieByKey(key: .init(id: listed.id)).movie)
            #expect(found.id == listed.id)
            #expect(found.title == listed.title)
            // Int64 travels as a JSON string and decodes to Int64.
            #expect(found.metadata?.budget == 42_000_000)
        }
    }

    @Test func aCreatedMovieAnswersWithAKeyThatFindsIt() async throws {
        try await Self.withMovies { movies in
            let created = try await movies.createMovie(
                title: "Glass Harbor", releaseYear: 2025, genre: "Drama", rating: 7.1, tags: ["sea"])
            // `Movie_KeyOutput!` decodes into the same `Movie_Key` the lookup takes.
            let key = created.movie_insert
            let found = try #require(try await movies.getMovieByKey(key: key).movie)
            #expect(found.id == key.id)
            #expect(found.title == "Glass Harbor")
            #expect(found.tags == ["sea"])
        }
    }

    @Test func anUnknownKeyIsNilNotAnError() async throws {
        try await Self.withMovies { movies in
            let missing = try await movies.getMovieByKey(key: .init(id: UUID())).movie
            #expect(missing == nil)
        }
    }

    @Test func aClientWithoutDataConnectSettingsIsAClearError() async throws {
        try await ContentClient.withClient(configuration: ContentClientConfiguration()) { client in
            let expected = ContentClientError.notConfigured(service: "Data Connect", operation: "listMoviesByGenre")
            await #expect(throws: expected) {
                _ = try await MoviesConnector(client: client).listMoviesByGenre(genre: "Drama")
            }
        }
    }
}
