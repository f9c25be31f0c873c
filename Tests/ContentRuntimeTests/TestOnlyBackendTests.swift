import ArgumentParser
import ContentCommandLine
import ContentCore
import ContentJSON
import ContentRuntime
import ContentTesting
import Logging
import Testing

/// A backend written here, in a test target, against the public API alone: plugin, configuration and command.
///
/// That it configures, validates, runs and contributes a command beside the built-in backends, with no
/// change anywhere else, is the rule that adding a backend is its own modules plus one line in each registry.
enum EchoPlugin: BackendPlugin {
    struct Configuration: Decodable, Sendable {
        var prefix: String
        var repeatCount: Int?
    }

    struct EchoBackend: ContentBackend {
        let name: String
        let configuration: Configuration

        func execute(_ request: ContentRequest) async throws -> ContentResult {
            let items = (0..<(configuration.repeatCount ?? 1)).map { index in
                JSONValue.object([
                    "index": .number(JSONNumber(index)), "text": .string(configuration.prefix + request.operation),
                ])
            }
            return ContentResult(body: .document(.array(items)))
        }
    }

    static let typeName = "echo"
    static let summary = "Answers every operation with its own name"

    static func makeBackend(name: String, configuration: Configuration, context: BackendContext) throws
        -> any ContentBackend
    {
        EchoBackend(name: name, configuration: configuration)
    }
}

/// `content echo TEXT`: the test backend's command.
struct EchoCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "echo", abstract: "Echo through the echo backend.")

    @Argument var text: String
    @OptionGroup var options: GlobalOptions
    @OptionGroup var output: OutputOptions

    func run() async throws {}
}

/// The echo backend's command set.
enum EchoCommandPlugin: CommandContributing {
    static let commands: [any ParsableCommand.Type] = [EchoCommand.self]
}

/// A root command built the way `content`'s is: its own commands plus each command set's.
struct TestRootCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "content", subcommands: EchoCommandPlugin.commands)
}

struct TestOnlyBackendTests {
    /// The built-in registry with the echo backend appended: one line.
    static let registry = BackendRegistry(BuiltInBackends.registry.entries.map(\.plugin) + [EchoPlugin.self])

    private static func session(_ yaml: String) throws -> (ContentSession, TemporaryDirectory) {
        let directory = try TemporaryDirectory()
        let file = try directory.write(yaml, to: "content.yaml")
        return (try ContentSession.load(configFlag: file, environment: [:], registry: registry), directory)
    }

    @Test func anEchoBackendBesideTheBuiltInOnesValidatesAndRuns() async throws {
        let (session, directory) = try Self.session(
            """
            backends:
              wknd: { type: aem, url: "https://publish.example.com" }
              loud: { type: echo, prefix: "> ", repeatCount: 2 }
            """)
        defer { directory.remove() }
        #expect(session.validate().isEmpty)
        #expect(session.registry.typeNames == ["aem", "dataconnect", "resource", "echo"])
        let backend = try session.selectBackend(named: nil, type: "echo")
        let result = try await session.withBackend(backend, logger: .init(label: "test")) { made in
            try await made.execute(ContentRequest(operation: "hello"))
        }
        guard case .document(let document) = result.body else {
            Issue.record("expected a document")
            return
        }
        #expect(document.arrayValue?.map { $0["text"] } == [.string("> hello"), .string("> hello")])
    }

    @Test func theEchoBackendsMistakesAreReportedWithTheirPlace() throws {
        let (session, directory) = try Self.session(
            """
            backends:
              loud:
                type: echo
                prefix: "> "
                repeatCount: many
            """)
        defer { directory.remove() }
        let problems = session.validate().map { "\($0)" }
        #expect(problems.count == 1)
        #expect(problems.first?.contains("content.yaml:5:") == true, "\(problems)")
        #expect(problems.first?.contains("backends.loud.repeatCount") == true, "\(problems)")
    }

    @Test func theEchoCommandJoinsTheCommandTree() throws {
        let parsed = try TestRootCommand.parseAsRoot(["echo", "hi", "-o", "csv"])
        let echo = try #require(parsed as? EchoCommand)
        #expect(echo.text == "hi")
        #expect(echo.output.format == .csv)
    }
}
