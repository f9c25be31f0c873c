import ContentTesting
import Foundation
import Testing

/// The built-in samples travel inside the binary: a copy of `content` in a folder of its own, run from an empty
/// folder with no configuration and no `examples/` anywhere it looks, still answers the quick start's commands.
struct EmbeddedSamplesEndToEndTests {
    @Test func aCopiedBinaryAnswersTheSampleCommandsFromAnEmptyFolder() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let bin = scratch.url.appendingPathComponent("bin")
        try FileManager.default.createDirectory(at: bin, withIntermediateDirectories: true)
        let copy = bin.appendingPathComponent("content")
        try FileManager.default.copyItem(at: ContentProcess.binary, to: copy)
        let empty = scratch.url.appendingPathComponent("empty")
        try FileManager.default.createDirectory(at: empty, withIntermediateDirectories: true)
        let environment = ["TMPDIR": scratch.url.appendingPathComponent("tmp").path]
        try FileManager.default.createDirectory(
            at: scratch.url.appendingPathComponent("tmp"), withIntermediateDirectories: true)

        let adventures = try ContentProcess.launch(
            copy, ["aem", "adventures", "-o", "csv", "--fields", "title"], in: empty, environment: environment)
        #expect(adventures.status == 0, "\(adventures.stderr)")
        #expect(adventures.stdout.hasPrefix("title\nBali Surf Camp\n"), "\(adventures.stdout)")
        #expect(adventures.stdout.split(separator: "\n").count == 17)
        #expect(adventures.stderr.contains("built-in WKND sample"))

        let movies = try ContentProcess.launch(
            copy, ["query", "movies", "listMoviesByGenre", "--genre", "Sci-Fi", "-o", "csv", "--fields", "title"],
            in: empty, environment: environment)
        #expect(movies.status == 0, "\(movies.stderr)")
        #expect(movies.stdout == "title\nOrbit of Glass\nSignal Drift\nSecond Sun\n")

        let help = try ContentProcess.launch(
            copy, ["query", "movies", "listMoviesByGenre", "--help"], in: empty, environment: environment)
        #expect(help.status == 0, "\(help.stderr)")
        #expect(help.stdout.contains("--genre <String>"), "\(help.stdout)")

        let users = try ContentProcess.launch(
            copy, ["request", "/adapters/JavaAdapter/users", "-o", "csv", "--fields", "name"], in: empty,
            environment: environment)
        #expect(users.status == 0, "\(users.stderr)")
        #expect(users.stdout.hasPrefix("name\nAda Lovelace\n"), "\(users.stdout)")

        // Each run writes the sample out for itself and takes it away again.
        let left = try FileManager.default.contentsOfDirectory(atPath: environment["TMPDIR"] ?? "")
        #expect(left.isEmpty, "\(left)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: empty.path).filter { $0 != "xdg" }.isEmpty)
    }
}
