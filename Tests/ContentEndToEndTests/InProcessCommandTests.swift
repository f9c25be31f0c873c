import ContentTesting
import Foundation
import Testing

@testable import content

/// `content` run in process through `InProcessCommand`: the same exit codes, stdout and stderr as the binary gives,
/// with many command lines side by side in one process.
struct InProcessCommandTests {
    private static func run(_ arguments: [String]) async throws -> InProcessCommand.Result {
        try await InProcessCommand.run { await ContentCommand.run(arguments, interruptible: false) }
    }

    @Test func aSampleQueryWritesItsRowsAndItsNote() async throws {
        let result = try await Self.run(["aem", "adventures", "-o", "csv", "--fields", "title"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.hasPrefix("title\nBali Surf Camp\n"))
        #expect(result.stdout.split(separator: "\n").count == 17)
        #expect(result.stderr.contains("built-in WKND sample"))
    }

    @Test func theSameCommandLinesGiveWhatTheBinaryGives() async throws {
        let lines: [[String]] = [
            ["--version"],
            ["query", "movies", "listMoviesByGenre", "--genre", "Drama", "-o", "json", "--compact"],
            ["query", "movies", "noSuchOperation"],
            ["format", "/nonexistent/file.json"],
            ["backends", "--types", "-o", "tsv"],
            ["query", "movies", "listMoviesByGenre", "--help"],
            ["aem", "--bogus"],
        ]
        for arguments in lines {
            let inProcess = try await Self.run(arguments)
            let binary = try ContentProcess.run(arguments, in: ContentProcess.repository)
            #expect(inProcess.status == binary.status, "\(arguments)")
            #expect(inProcess.stdout == binary.stdout, "\(arguments)")
            #expect(inProcess.stderr == binary.stderr, "\(arguments)")
        }
    }

    @Test func runsSideBySideKeepTheirOutputApart() async throws {
        let genres = ["Sci-Fi", "Drama", "Comedy", "Sci-Fi", "Drama", "Comedy"]
        let results = try await withThrowingTaskGroup(of: (String, InProcessCommand.Result).self) { group in
            for genre in genres {
                group.addTask {
                    let arguments = [
                        "query", "movies", "listMoviesByGenre", "--genre", genre, "-o", "csv", "--fields", "genre",
                    ]
                    return (genre, try await Self.run(arguments))
                }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(results.count == genres.count)
        for (genre, result) in results {
            #expect(result.status == 0, "\(result.stderr)")
            let rows = result.stdout.split(separator: "\n").dropFirst()
            #expect(!rows.isEmpty && rows.allSatisfy { $0 == genre }, "\(genre): \(result.stdout)")
        }
    }
}
