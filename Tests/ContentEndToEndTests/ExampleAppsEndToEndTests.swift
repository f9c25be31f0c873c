import Foundation
import Testing

/// `examples/movies-app` and `examples/wknd-app` as a user builds them: each package depends on this one by
/// path and gets its client from the ContentClientGenerator build plugin; then each runs against
/// `content serve` over loopback.
///
/// Both build into one scratch folder under `.build/`, so the second reuses the first's dependencies (the
/// first build from nothing takes minutes).
@Suite(.serialized)
struct ExampleAppsEndToEndTests {
    private static let scratch = ContentProcess.repository.appendingPathComponent(".build/examples")

    /// Builds an example package and returns its executable.
    private static func build(_ package: String, product: String) throws -> URL {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [
            "swift", "build", "--package-path",
            ContentProcess.repository.appendingPathComponent("examples/\(package)").path,
            // One job, so the tests running beside this build keep a core.
            "--scratch-path", scratch.path, "--product", product, "-j", "1",
        ]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        try process.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, "swift build of examples/\(package) failed:\n\(text)")
        // The generated client is part of the example's own code: no warnings from it or from the example.
        let warnings = text.split(separator: "\n").filter {
            $0.contains("warning:")
                && ($0.contains("GeneratedContentClient.swift") || $0.contains("examples/\(package)/"))
        }
        #expect(warnings.isEmpty, "\(warnings.joined(separator: "\n"))")
        return scratch.appendingPathComponent("debug/\(product)")
    }

    /// A `content.yaml` naming both emulators of a running `content serve`.
    private static func configuration(_ services: [String: String], in scratch: Scratch) throws -> URL {
        let dataConnect = try #require(services["dataconnect"]).replacingOccurrences(of: "http://", with: "")
        let workspace = ContentProcess.repository.appendingPathComponent("examples/dataconnect").path
        return try scratch.write(
            """
            backends:
              movies:
                type: dataconnect
                workspace: \(workspace)
                project: content-sample
                emulator: \(dataConnect)
              wknd:
                type: aem
                url: \(try #require(services["aem"]))
            """, to: "content.yaml")
    }

    @Test func bothExamplesBuildWithTheirGeneratedClientsAndRunAgainstContentServe() throws {
        let movies = try Self.build("movies-app", product: "MoviesApp")
        let wknd = try Self.build("wknd-app", product: "WKNDApp")
        let scratch = try Scratch()
        defer { scratch.remove() }
        try ContentProcess.withServices { services in
            let config = try Self.configuration(services, in: scratch).path

            let sciFi = try ContentProcess.launch(movies, ["--config", config], in: scratch.url)
            #expect(sciFi.status == 0, "\(sciFi.stderr)")
            let movieTitles = sciFi.stdout.split(separator: "\n").map {
                $0.split(separator: "\t").first.map(String.init)
            }
            #expect(movieTitles == ["Orbit of Glass", "Signal Drift", "Second Sun"])

            let drama = try ContentProcess.launch(movies, ["--config", config, "Drama"], in: scratch.url)
            #expect(drama.stdout.hasPrefix("The Long Quiet\t2021\t7.9\n"))

            let surfing = try ContentProcess.launch(wknd, ["--config", config, "Surfing"], in: scratch.url)
            #expect(surfing.status == 0, "\(surfing.stderr)")
            #expect(surfing.stdout == "Bali Surf Camp\tSurfing\t5000.0\nSurf Camp in Costa Rica\tSurfing\t3400.0\n")

            let all = try ContentProcess.launch(wknd, ["--config", config], in: scratch.url)
            #expect(all.stdout.split(separator: "\n").count == 16)

            // No emulator behind the configured port: a clear error on stderr and exit 1, nothing on stdout.
            let missing = try scratch.write(
                "backends:\n  wknd:\n    type: aem\n    url: http://127.0.0.1:9\n", to: "down.yaml")
            let down = try ContentProcess.launch(wknd, ["--config", missing.path], in: scratch.url)
            #expect(down.status == 1)
            #expect(down.stdout.isEmpty)
            #expect(down.stderr.hasPrefix("wknd-app: "))
        }
    }
}
