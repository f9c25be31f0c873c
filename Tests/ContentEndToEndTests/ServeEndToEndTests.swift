import Foundation
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// `content serve` as a user starts it: a real process on a free loopback port.
struct ServeEndToEndTests {
    /// Starts `content serve` and returns the process and the URL it printed on stderr.
    private func startServe(_ arguments: [String]) throws -> (Process, String, Pipe) {
        let process = Process()
        process.executableURL = ContentProcess.binary
        process.arguments = ["serve", "--aem-port", "0"] + arguments
        process.currentDirectoryURL = ContentProcess.productsDirectory
        let stderr = Pipe()
        process.standardError = stderr
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        var collected = ""
        let handle = stderr.fileHandleForReading
        let deadline = Date().addingTimeInterval(30)
        while Date() < deadline {
            let chunk = handle.availableData
            if chunk.isEmpty { break }
            collected += String(decoding: chunk, as: UTF8.self)
            if let range = collected.range(of: #"http://127\.0\.0\.1:\d+"#, options: .regularExpression) {
                return (process, String(collected[range]), stderr)
            }
        }
        process.terminate()
        throw ServeFailed(output: collected)
    }

    struct ServeFailed: Error {
        var output: String
    }

    private func fetch(_ url: String) async throws -> (Int, String) {
        let (data, response) = try await URLSession.shared.data(from: try #require(URL(string: url)))
        return ((response as? HTTPURLResponse)?.statusCode ?? 0, String(decoding: data, as: UTF8.self))
    }

    @Test func serveAnswersPersistedQueriesAndStopsOnSIGTERM() async throws {
        let examples = ContentProcess.repository.appendingPathComponent("examples").path
        let (process, base, _) = try startServe(["--workspace", examples])
        defer { if process.isRunning { process.terminate() } }
        let (status, body) = try await fetch(base + "/graphql/execute.json/wknd-shared/adventures-all")
        #expect(status == 200)
        #expect(body.contains(#""title":"Bali Surf Camp""#))
        process.terminate()
        process.waitUntilExit()
        #expect(process.terminationReason == .exit || process.terminationStatus == 15)
    }

    @Test func missingWorkspaceIsAConfigurationError() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let result = try ContentProcess.run(
            ["serve", "--workspace", scratch.url.path, "--aem-port", "0"], in: scratch.url)
        #expect(result.status == 3)
        #expect(result.stderr.contains("has no aem/ folder"))
    }

    @Test func malformedFragmentIsReportedWithItsPosition() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        try scratch.write("name: thing\nfields:\n  size: { type: integer }\n", to: "aem/models/thing.yaml")
        let fragment = try scratch.write(
            "_path: /content/dam/x/one\n_model: thing\nsize: big\n",
            to: "aem/fragments/one.yaml"
        )
        let result = try ContentProcess.run(
            ["serve", "--workspace", scratch.url.path, "--aem-port", "0"], in: scratch.url)
        #expect(result.status == 3)
        #expect(result.stderr.contains("\(fragment.path):3:7: size: expected an integer, found 'big'"))
    }
}
