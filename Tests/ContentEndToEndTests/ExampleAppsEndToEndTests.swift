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
        try build(at: ContentProcess.repository.appendingPathComponent("examples/\(package)"), product: product)
    }

    /// Runs `swift` with the arguments and returns its exit status and its stdout and stderr together.
    private static func swift(_ arguments: [String]) throws -> (status: Int32, output: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["swift"] + arguments
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        try process.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return (process.terminationStatus, text)
    }

    /// Builds a package in the shared scratch folder and returns its executable.
    private static func build(at folder: URL, product: String) throws -> URL {
        let package = folder.lastPathComponent
        // One job, so the tests running beside this build keep a core. The scratch folder is shared by several root
        // packages, which SwiftPM's cached build manifest does not notice: after another package's build it can
        // answer "No target named 'WKNDApp-…' in build description", so the manifest is planned again each time.
        let (status, text) = try swift([
            "build", "--package-path", folder.path, "--scratch-path", scratch.path, "--product", product, "-j", "1",
            "--disable-build-manifest-caching",
        ])
        #expect(status == 0, "swift build of \(package) failed:\n\(text)")
        // The generated client is part of the example's own code: no warnings from it or from the example.
        let warnings = text.split(separator: "\n").filter {
            $0.contains("warning:")
                && ($0.contains("GeneratedContentClient.swift") || $0.contains("/\(package)/"))
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

            // `watch` prints the genre's titles as subscribed, then again when `add` creates a movie of it.
            let watch = Process()
            watch.executableURL = movies
            watch.arguments = ["--emulator", emulator, "watch", "Drama", "2"]
            let watched = Pipe()
            let watchErrors = Pipe()
            watch.standardOutput = watched
            watch.standardError = watchErrors
            try watch.run()
            defer { if watch.isRunning { watch.terminate() } }
            let output = ServeLog(reading: watched.fileHandleForReading)
            let errors = ServeLog(reading: watchErrors.fileHandleForReading)
            #expect(output.wait(timeout: 30) { ServeLog.completeLines(of: $0).count == 1 }, "\(errors.text)")
            let added = try ContentProcess.launch(
                movies, ["--emulator", emulator, "add", "Harbor Lights", "2024", "Drama", "6.5"], in: scratch.url)
            #expect(added.status == 0, "\(added.stderr)")
            #expect(added.stdout.hasPrefix("Movie ID: "))
            watch.waitUntilExit()
            #expect(watch.terminationStatus == 0, "\(errors.text)")
            #expect(output.lines.count == 2)
            #expect(output.lines.first?.contains("Harbor Lights") == false)
            #expect(output.lines.last?.contains("Harbor Lights") == true)

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

    /// Firebase's Data Connect Swift guide, compiled against the package `swift package generate-content-client`
    /// writes where a connector's `generate.swiftSdk` says, and run against `content serve`: the guide's calls, an
    /// observable ref, `.preferCache` answering from the cache, and `subscribe()` receiving a mutation's update.
    @Test func firebasesSwiftGuideRunsAgainstTheGeneratedPackage() throws {
        // The command plugin runs from an example package, whose scratch folder has content-codegen built.
        _ = try Self.build("movies-app", product: "MoviesApp")
        let project = try Scratch()
        defer { project.remove() }
        try FileManager.default.copyItem(
            at: ContentProcess.repository.appendingPathComponent("examples/dataconnect"),
            to: project.url.appendingPathComponent("dataconnect"))
        let manifest = project.url.appendingPathComponent("dataconnect/movies/connector.yaml")
        let connector = try String(contentsOf: manifest, encoding: .utf8)
        try (connector + "generate:\n  swiftSdk:\n    outputDir: ../../MoviesSDK\n    package: MoviesSDK\n").write(
            to: manifest, atomically: true, encoding: .utf8)
        let generated = try Self.swift([
            "package", "--package-path", ContentProcess.repository.appendingPathComponent("examples/movies-app").path,
            "--scratch-path", Self.scratch.path, "--allow-writing-to-package-directory",
            "--allow-writing-to-directory", project.url.path, "generate-content-client",
            "--workspace", project.url.appendingPathComponent("dataconnect").path,
        ])
        #expect(generated.status == 0, "\(generated.output)")
        let sdk = project.url.appendingPathComponent("MoviesSDK")
        #expect(FileManager.default.fileExists(atPath: sdk.appendingPathComponent("Package.swift").path))
        #expect(
            FileManager.default.fileExists(
                atPath: sdk.appendingPathComponent("Sources/MoviesSDK/GeneratedContentClient.swift").path))

        try FileManager.default.copyItem(
            at: ContentProcess.repository.appendingPathComponent("Tests/ContentEndToEndTests/Fixtures/firebase-guide"),
            to: project.url.appendingPathComponent("app"))
        let guide = try Self.build(at: project.url.appendingPathComponent("app"), product: "FirebaseGuide")
        let inputs = try Self.linkInputs(of: "FirebaseGuide")
        for module in Self.forbiddenModules {
            #expect(!inputs.contains { $0.contains("/\(module).build/") }, "FirebaseGuide links \(module)")
        }
        try ContentProcess.withServices { services in
            let base = try #require(services["dataconnect"])
            let port = String(try #require(base.split(separator: ":").last))
            let run = try ContentProcess.launch(guide, [port], in: project.url)
            #expect(run.status == 0, "\(run.stderr)")
            let lines = run.stdout.split(separator: "\n").map(String.init)
            #expect(lines.count == 7, "\(run.stdout)")
            guard lines.count == 7 else { return }
            #expect(lines[0].hasPrefix("Movie ID: "))
            #expect(UUID(uuidString: String(lines[0].dropFirst("Movie ID: ".count))) != nil)
            #expect(lines[1] == "movies: Orbit of Glass, Signal Drift, Second Sun, Empire Strikes Back (server)")
            #expect(lines[2] == "ref: 4 movies (server), observed true")
            #expect(lines[3] == "preferCache: 4 movies (cache)")
            #expect(lines[4] == "subscribe 1: 4 movies")
            #expect(lines[5] == "subscribe 2: 5 movies")
            #expect(lines[6] == "ref after subscribe: 5 movies")
        }
    }
}
