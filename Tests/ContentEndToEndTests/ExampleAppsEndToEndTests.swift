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

    /// The modules an app must never link: the command line, the output layer, YAML, GraphQL, the server, the database.
    ///
    /// Each is a folder of object files in the build, so the app's link list names any it pulls in.
    private static let forbiddenModules = [
        "ArgumentParser", "ContentCommandLine", "ContentOutput", "ContentYAML", "ContentConfig", "ContentRuntime",
        "GraphQL", "Hummingbird", "GRDB", "ContentEmulator", "ContentDataConnect", "ContentAEM",
        "ContentBackendAEM", "ContentBackendDataConnect", "ContentBackendResource",
    ]

    /// The object files and libraries the linker was given for `product`, one per line.
    private static func linkInputs(of product: String) throws -> [String] {
        let list = scratch.appendingPathComponent("debug/\(product).product/Objects.LinkFileList")
        return try String(contentsOf: list, encoding: .utf8).split(separator: "\n").map(String.init)
    }

    @Test func bothExamplesBuildWithTheirGeneratedClientsAndRunAgainstContentServe() throws {
        let movies = try Self.build("movies-app", product: "MoviesApp")
        let wknd = try Self.build("wknd-app", product: "WKNDApp")
        let scratch = try Scratch()
        defer { scratch.remove() }
        // What an app links: ContentKit and its transport, nothing of the command line, YAML, GraphQL or the server.
        for product in ["MoviesApp", "WKNDApp"] {
            let inputs = try Self.linkInputs(of: product)
            #expect(inputs.contains { $0.contains("/ContentKit.build/") }, "\(product) does not link ContentKit")
            for module in Self.forbiddenModules {
                let linked = inputs.filter { $0.contains("/\(module).build/") }
                #expect(linked.isEmpty, "\(product) links \(module): \(linked.prefix(3))")
            }
            // libyaml comes in through pkg-config, not as an object file: look for its symbols in the binary.
            let binary = try Data(contentsOf: Self.scratch.appendingPathComponent("debug/\(product)"))
            #expect(binary.range(of: Data("yaml_parser_initialize".utf8)) == nil, "\(product) links libyaml")
        }
        try ContentProcess.withServices { services in
            let emulator = try #require(services["dataconnect"]).replacingOccurrences(of: "http://", with: "")
            let aem = try #require(services["aem"])

            let sciFi = try ContentProcess.launch(movies, ["--emulator", emulator], in: scratch.url)
            #expect(sciFi.status == 0, "\(sciFi.stderr)")
            let movieTitles = sciFi.stdout.split(separator: "\n").map {
                $0.split(separator: "\t").first.map(String.init)
            }
            #expect(movieTitles == ["Orbit of Glass", "Signal Drift", "Second Sun"])

            let drama = try ContentProcess.launch(movies, ["--emulator", emulator, "Drama"], in: scratch.url)
            #expect(drama.stdout.hasPrefix("The Long Quiet\t2021\t7.9\n"))

            let surfing = try ContentProcess.launch(wknd, ["--aem", aem, "Surfing"], in: scratch.url)
            #expect(surfing.status == 0, "\(surfing.stderr)")
            #expect(surfing.stdout == "Bali Surf Camp\tSurfing\t5000.0\nSurf Camp in Costa Rica\tSurfing\t3400.0\n")

            let all = try ContentProcess.launch(wknd, ["--aem", aem], in: scratch.url)
            #expect(all.stdout.split(separator: "\n").count == 16)

            // No emulator behind the configured port: a clear error on stderr and exit 1, nothing on stdout.
            let down = try ContentProcess.launch(wknd, ["--aem", "http://127.0.0.1:9"], in: scratch.url)
            #expect(down.status == 1)
            #expect(down.stdout.isEmpty)
            #expect(down.stderr.hasPrefix("wknd-app: "))
        }
    }
}
