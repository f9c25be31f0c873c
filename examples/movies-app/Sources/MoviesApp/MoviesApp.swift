import ContentKit
import Foundation

/// Prints the movies of one genre (Sci-Fi unless named), best rated first, through the generated
/// `MoviesConnector`.
///
///     content serve --workspace examples &
///     swift run --package-path examples/movies-app MoviesApp -- --config examples/content.yaml Sci-Fi
@main
struct MoviesApp {
    static func main() async {
        var arguments = Array(CommandLine.arguments.dropFirst())
        var configFile: String?
        if let flag = arguments.firstIndex(of: "--config"), flag + 1 < arguments.count {
            configFile = arguments[flag + 1]
            arguments.removeSubrange(flag...(flag + 1))
        }
        let genre = arguments.first ?? "Sci-Fi"
        do {
            let movies = MoviesConnector(client: try ContentClient(configFile: configFile))
            for movie in try await movies.listMoviesByGenre(genre: genre).movies {
                let rating = movie.rating.map { String($0) } ?? "-"
                print("\(movie.title)\t\(movie.releaseYear.map(String.init) ?? "-")\t\(rating)")
            }
        } catch {
            FileHandle.standardError.write(Data("movies-app: \(error)\n".utf8))
            exit(1)
        }
    }
}
