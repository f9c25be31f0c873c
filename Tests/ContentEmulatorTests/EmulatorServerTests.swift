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
}
