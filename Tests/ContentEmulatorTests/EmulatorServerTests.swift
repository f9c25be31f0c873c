import AsyncHTTPClient
import ContentCore
import ContentEmulator
import ContentEmulatorTesting
import ContentTesting
import Foundation
import Hummingbird
import Logging
import NIOCore
import NIOHTTP1
import Testing

/// A service that exists only in this test target, written against the public API alone: the server, the in-process
/// runner and the testing harness take it as they take the built-in ones, which is what "a new service is one module
/// and one line" needs.
struct GreetingEmulator: EmulatedService {
    struct Options: EmulatorOptions {
        var greeting = "hello"
    }

    static let name = "greeting"
    static let defaultPort = 4999
    static let workspaceDescription = "greeting/"

    let greeting: String
    let who: String

    static func isPresent(in workspace: URL) -> Bool {
        FileManager.default.fileExists(atPath: workspace.appendingPathComponent("greeting/who.txt").path)
    }

    static func load(workspace: URL, context: EmulatorContext<Options>) async throws -> GreetingEmulator {
        let who = try String(contentsOf: workspace.appendingPathComponent("greeting/who.txt"), encoding: .utf8)
        return GreetingEmulator(greeting: context.options.greeting, who: who.trimmingCharacters(in: .newlines))
    }

    var notes: [String] { ["greets \(who)"] }

    func addRoutes(to router: Router<BasicRequestContext>) {
        router.get("/greet") { _, _ in "\(greeting), \(who)" }
        // Waits `seconds`, then says how the wait ended, for the tests of a client that leaves.
        router.get("/wait") { request, _ in
            let id = request.uri.queryParameters["id"].map(String.init) ?? ""
            let seconds = request.uri.queryParameters["seconds"].flatMap { Double(String($0)) } ?? 0
            do {
                try await Task.sleep(for: .seconds(seconds))
                await WaitOutcomes.shared.set(id, "finished")
                return "waited"
            } catch {
                await WaitOutcomes.shared.set(id, "cancelled")
                throw error
            }
        }
    }
}

/// How each `/wait` request ended, by its `id`.
actor WaitOutcomes {
    static let shared = WaitOutcomes()
    private var outcomes: [String: String] = [:]
    func set(_ id: String, _ outcome: String) { outcomes[id] = outcome }

    /// The outcome of `id` once there is one, or `nil` after `seconds`.
    func outcome(of id: String, within seconds: Double) async -> String? {
        let deadline = ContinuousClock.now + .seconds(seconds)
        while ContinuousClock.now < deadline {
            if let outcome = outcomes[id] { return outcome }
            try? await Task.sleep(for: .milliseconds(20))
        }
        return outcomes[id]
    }
}

/// Collects what `content serve` would print as each service comes up.
actor Announcements {
    private(set) var lines: [String] = []
    func add(_ line: String) { lines.append(line) }
}

struct EmulatorServerTests {
    private static func workspace(who: String) throws -> TemporaryDirectory {
        let directory = try TemporaryDirectory()
        try directory.write(who + "\n", to: "greeting/who.txt")
        return directory
    }

    @Test(arguments: [EmulatorTestingMode.inProcess, .live])
    func aServiceFromOutsideRunsUnderTheHarnessInEitherMode(mode: EmulatorTestingMode) async throws {
        let directory = try Self.workspace(who: "Ada")
        defer { directory.remove() }
        var options = GreetingEmulator.Options()
        options.greeting = "hi"
        let exchange = try await EmulatorTesting.run(
            GreetingEmulator.self, workspace: URL(fileURLWithPath: directory.root), options: options, mode: mode
        ) { service, client in
            #expect(service.notes == ["greets Ada"])
            #expect((client.baseURL != nil) == (mode == .live))
            return try await client.get("/greet")
        }
        #expect(exchange.status == 200)
        #expect(exchange.text == "hi, Ada")
    }

    @Test func theServerRunsWhatTheWorkspaceHoldsOnTheGivenPortAndStopsWhenCancelled() async throws {
        let directory = try Self.workspace(who: "Grace")
        defer { directory.remove() }
        let announcements = Announcements()
        let server = EmulatorServer(
            options: EmulatorServer.Options(
                workspace: URL(fileURLWithPath: directory.root), services: [GreetingEmulator.self],
                ports: [GreetingEmulator.name: 0]))
        let (urls, continuation) = AsyncStream.makeStream(of: String.self)
        let running = Task {
            try await server.run(logger: Logger(label: "test") { _ in SwiftLogNoOpLogHandler() }) { name, url, notes in
                await announcements.add("\(name) \(notes.joined(separator: "; "))")
                continuation.yield(url)
            }
        }
        var iterator = urls.makeAsyncIterator()
        let url = try #require(await iterator.next())
        #expect(url.hasPrefix("http://127.0.0.1:") && !url.hasSuffix(":0"))
        let response = try await HTTPClient.shared.execute(
            HTTPClientRequest(url: url + "/greet"), timeout: .seconds(30))
        #expect(response.status == .ok)
        #expect(String(buffer: try await response.body.collect(upTo: 1 << 16)) == "hello, Grace")
        #expect(await announcements.lines == ["greeting greets Grace"])
        running.cancel()
        try await running.value
    }

    @Test func aWorkspaceWithNothingToServeSaysWhatEachServiceLooksFor() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let server = EmulatorServer(
            options: EmulatorServer.Options(
                workspace: URL(fileURLWithPath: directory.root), services: [GreetingEmulator.self]))
        do {
            try await server.run(logger: Logger(label: "test") { _ in SwiftLogNoOpLogHandler() }) { _, _, _ in }
            Issue.record("an empty workspace started")
        } catch let error as EmulatorError {
            #expect("\(error)".contains("has no greeting/; point --workspace at a folder holding one"), "\(error)")
            #expect(error.category == .configuration, "\(error)")
        }
    }

    @Test(arguments: [ServerKind.embedded, .serve])
    func workForAClientThatHasGoneIsCancelled(kind: ServerKind) async throws {
        let directory = try Self.workspace(who: "Ada")
        defer { directory.remove() }
        let id = "gone-\(kind)"
        let outcome = try await Self.withBaseURL(directory, kind: kind) { baseURL in
            // The client gives up after a quarter of a second and closes the connection; the route would wait a
            // minute for nobody. The outcome is read while the server still runs: stopping it cancels everything.
            let request = HTTPClientRequest(url: baseURL + "/wait?id=\(id)&seconds=60")
            await #expect(throws: (any Error).self) {
                _ = try await HTTPClient.shared.execute(request, timeout: .milliseconds(250))
            }
            return await WaitOutcomes.shared.outcome(of: id, within: 20)
        }
        #expect(outcome == "cancelled")
    }

    @Test(arguments: [ServerKind.embedded, .serve])
    func aClientThatWaitsGetsItsAnswer(kind: ServerKind) async throws {
        let directory = try Self.workspace(who: "Ada")
        defer { directory.remove() }
        let id = "stays-\(kind)"
        let text = try await Self.withBaseURL(directory, kind: kind) { baseURL in
            let response = try await HTTPClient.shared.execute(
                HTTPClientRequest(url: baseURL + "/wait?id=\(id)&seconds=0.5"), timeout: .seconds(30))
            return String(buffer: try await response.body.collect(upTo: 1 << 16))
        }
        #expect(text == "waited")
        #expect(await WaitOutcomes.shared.outcome(of: id, within: 0) == "finished")
    }

    /// The two servers every emulated service runs under.
    enum ServerKind: Sendable, CustomStringConvertible {
        /// ``EmulatorServer/withInProcess(_:workspace:options:_:)``: a command's built-in sample.
        case embedded
        /// ``EmulatorServer/run(logger:onRunning:)``: `content serve`.
        case serve
        var description: String { self == .embedded ? "embedded" : "serve" }
    }

    /// Runs the greeting service in process or as `content serve` does, for the duration of `body`.
    private static func withBaseURL<Result: Sendable>(
        _ directory: TemporaryDirectory, kind: ServerKind,
        _ body: @Sendable (_ baseURL: String) async throws -> Result
    ) async throws -> Result {
        let workspace = URL(fileURLWithPath: directory.root)
        if kind == .embedded {
            return try await EmulatorServer.withInProcess(GreetingEmulator.self, workspace: workspace, body)
        }
        let server = EmulatorServer(
            options: EmulatorServer.Options(
                workspace: workspace, services: [GreetingEmulator.self], ports: [GreetingEmulator.name: 0]))
        let (urls, continuation) = AsyncStream.makeStream(of: String.self)
        let running = Task {
            try await server.run(logger: Logger(label: "test") { _ in SwiftLogNoOpLogHandler() }) { _, url, _ in
                continuation.yield(url)
            }
        }
        defer { running.cancel() }
        var iterator = urls.makeAsyncIterator()
        let url = try #require(await iterator.next())
        return try await body(url)
    }
}
