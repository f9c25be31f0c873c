import ContentKit
import Foundation

/// Prints the movies of one genre (Sci-Fi unless named), best rated first, through the generated
/// `MoviesConnector`.
///
///     content serve --workspace examples &
///     swift run --package-path examples/movies-app MoviesApp -- --emulator 127.0.0.1:9399 Sci-Fi
///
/// The client is configured in code: the emulator's address comes from `--emulator`, else
/// `FIREBASE_DATA_CONNECT_EMULATOR_HOST`, else Data Connect's default 127.0.0.1:9399.
@main
struct MoviesApp {
    static func main() async {
        var arguments = Array(CommandLine.arguments.dropFirst())
        var emulator = ProcessInfo.processInfo.environment["FIREBASE_DATA_CONNECT_EMULATOR_HOST"] ?? "127.0.0.1:9399"
        if let flag = arguments.firstIndex(of: "--emulator"), flag + 1 < arguments.count {
            emulator = arguments[flag + 1]
            arguments.removeSubrange(flag...(flag + 1))
        }
        let genre = arguments.first ?? "Sci-Fi"
        guard let colon = emulator.lastIndex(of: ":"), let port = Int(emulator[emulator.index(after: colon)...]) else {
            FileHandle.standardError.write(Data("movies-app: --emulator takes HOST:PORT, not \(emulator)\n".utf8))
            exit(2)
        }
        let settings = DataConnectSettings(
            endpoint: .emulator(host: String(emulator[..<colon]), port: port), project: "content-sample")
        do {
            try await ContentClient.withClient(configuration: ContentClientConfiguration(dataConnect: settings)) {
                client in
                for movie in try await MoviesConnector(client: client).listMoviesByGenre(genre: genre).movies {
                    let rating = movie.rating.map { String($0) } ?? "-"
                    print("\(movie.title)\t\(movie.releaseYear.map(String.init) ?? "-")\t\(rating)")
                }
            }
        } catch {
            FileHandle.standardError.write(Data("movies-app: \(error)\n".utf8))
            exit(1)
        }
    }
}
