// The guide's calls keep its own layout, verbatim.
// swift-format-ignore-file

import Foundation
import MoviesSDK
import Observation

/// Firebase's Data Connect Swift guide, run against `content serve` through the generated package.
///
/// The guide's calls are verbatim but for the emulator's port, which the test passes (the guide's own
/// `useEmulator(port:)` form), and `@StateObject`, which is SwiftUI's: a plain `let` holds the ref here.
@main
struct FirebaseGuide {
    @MainActor
    static func main() async throws {
        let port = CommandLine.arguments.dropFirst().first.flatMap { Int($0) } ?? 9399

        let connector = DataConnect.moviesConnector
        connector.useEmulator(port: port)
        let result = try await connector.createMovieMutation.execute(
          title: "Empire Strikes Back", releaseYear: 1980, genre: "Sci-Fi", rating: 5)
        print("Movie ID: \(result.data.movie_insert.id)")
        let movies = try await DataConnect.moviesConnector.listMoviesByGenreQuery.execute(genre: "Sci-Fi")
        let queryRef = connector.listMoviesByGenreQuery.ref(genre: "Sci-Fi")

        print("movies: \(movies.data.movies.map(\.title).joined(separator: ", ")) (\(movies.source))")

        // An observable ref: Observation sees `execute()` change `data`.
        let observed = Flag()
        withObservationTracking { _ = queryRef.data } onChange: { observed.raise() }
        try await queryRef.execute()
        print("ref: \(queryRef.data?.movies.count ?? 0) movies (\(queryRef.source.map { "\($0)" } ?? "none")), observed \(observed.isRaised)")

        // `.preferCache` answers from the cache while it is younger than the connector's maximum age.
        connector.dataConnect.cacheMaxAge = .seconds(300)
        let cached = try await connector.listMoviesByGenreQuery.execute(genre: "Sci-Fi", fetchPolicy: .preferCache)
        print("preferCache: \(cached.data.movies.count) movies (\(cached.source))")

        // `subscribe()`: the result as subscribed, then the one the service sends after a mutation adds a movie.
        var updates = 0
        for try await update in queryRef.subscribe() {
            updates += 1
            print("subscribe \(updates): \(update.data.movies.count) movies")
            if updates == 2 { break }
            _ = try await connector.createMovieMutation.execute(
                title: "Return of the Jedi", releaseYear: 1983, genre: "Sci-Fi", rating: 4)
        }
        print("ref after subscribe: \(queryRef.data?.movies.count ?? 0) movies")
    }
}

/// Set once from Observation's change handler, which may run on any thread.
final class Flag: @unchecked Sendable {
    private let lock = NSLock()
    private var raised = false

    func raise() { lock.withLock { raised = true } }
    var isRaised: Bool { lock.withLock { raised } }
}
