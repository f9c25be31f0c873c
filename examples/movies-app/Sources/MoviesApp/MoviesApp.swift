import ContentKit
import Foundation

/// The movies sample through the generated `DataConnect.moviesConnector`.
///
/// It makes the calls of Firebase's Data Connect Swift guide:
///
///     content serve --workspace examples &
///     swift run --package-path examples/movies-app MoviesApp -- --emulator 127.0.0.1:9399 Sci-Fi
///     swift run --package-path examples/movies-app MoviesApp -- add "Empire Strikes Back" 1980 Sci-Fi 5
///     swift run --package-path examples/movies-app MoviesApp -- watch Sci-Fi 3
///
/// The first lists the movies of a genre (Sci-Fi unless named), best rated first; `add` creates one and prints
/// its id; `watch` subscribes to a genre over the realtime stream and prints its titles each time they change,
/// stopping after the given number of results (forever without one).
///
/// The connector is configured in code: the emulator's address comes from `--emulator`, else
/// `FIREBASE_DATA_CONNECT_EMULATOR_HOST`, else Data Connect's default 127.0.0.1:9399.
@main
struct MoviesApp {
    @MainActor
    static func main() async {
        var arguments = Array(CommandLine.arguments.dropFirst())
        var emulator = ProcessInfo.processInfo.environment["FIREBASE_DATA_CONNECT_EMULATOR_HOST"] ?? "127.0.0.1:9399"
        if let flag = arguments.firstIndex(of: "--emulator"), flag + 1 < arguments.count {
            emulator = arguments[flag + 1]
            arguments.removeSubrange(flag...(flag + 1))
        }
        guard let colon = emulator.lastIndex(of: ":"), let port = Int(emulator[emulator.index(after: colon)...]) else {
            fail("--emulator takes HOST:PORT, not \(emulator)", status: 2)
        }
        let connector = DataConnect.moviesConnector
        connector.useEmulator(host: String(emulator[..<colon]), port: port)
        do {
            switch arguments.first {
            case "add":
                guard arguments.count == 5, let year = Int(arguments[2]), let rating = Double(arguments[4]) else {
                    fail("add takes TITLE YEAR GENRE RATING", status: 2)
                }
                let result = try await connector.createMovieMutation.execute(
                    title: arguments[1], releaseYear: year, genre: arguments[3], rating: rating)
                print("Movie ID: \(result.data.movie_insert.id)")
            case "watch":
                let genre = arguments.count > 1 ? arguments[1] : "Sci-Fi"
                let limit = arguments.count > 2 ? Int(arguments[2]) : nil
                // A ref publishes each result to whoever observes it (a SwiftUI view, say) and yields it here.
                let queryRef = connector.listMoviesByGenreQuery.ref(genre: genre)
                var received = 0
                for try await result in queryRef.subscribe() {
                    // Written at once, not buffered, so that a pipe sees each result as it comes.
                    let titles = result.data.movies.map(\.title).joined(separator: ", ")
                    FileHandle.standardOutput.write(Data((titles + "\n").utf8))
                    received += 1
                    if let limit, received >= limit { break }
                }
            default:
                let genre = arguments.first ?? "Sci-Fi"
                let movies = try await connector.listMoviesByGenreQuery.execute(genre: genre)
                for movie in movies.data.movies {
                    let rating = movie.rating.map { String($0) } ?? "-"
                    print("\(movie.title)\t\(movie.releaseYear.map(String.init) ?? "-")\t\(rating)")
                }
            }
        } catch {
            fail("\(error)", status: 1)
        }
    }

    static func fail(_ message: String, status: Int32) -> Never {
        FileHandle.standardError.write(Data("movies-app: \(message)\n".utf8))
        exit(status)
    }
}
