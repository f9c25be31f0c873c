import ArgumentParser
import ContentCommandLine
import ContentConfig
import ContentCore
import ContentJSON
import ContentOutput
import ContentRuntime

/// `content backends`: the configured backends, or with `--types` the backend types this build knows.
struct BackendsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "backends",
        abstract: "List the configured backends, or the built-in backend types.",
        discussion: """
            One row per configured backend: its name, type, where it is defined, and whether this build \
            has a plugin for its type. With --types, one row per built-in backend type instead.
            """
    )

    @Flag(help: "List the backend types built into this build instead.")
    var types = false

    @OptionGroup var options: GlobalOptions
    @OptionGroup var output: OutputOptions

    func run() async throws {
        try await reportFailures {
            let session = try options.session(registry: BuiltInBackends.registry)
            let rows: [JSONValue]
            if types {
                rows = session.registry.entries.map {
                    .object(["type": .string($0.typeName), "summary": .string($0.summary)])
                }
            } else {
                if session.configuration.location == nil {
                    StandardError.write(
                        "content: no configuration file found; `content config --help` shows how to write one")
                }
                rows = session.configuration.backends.map { backend in
                    .object([
                        "name": .string(backend.name),
                        "type": .string(backend.typeName),
                        "definedAt": .string(backend.section.location),
                        "plugin": .bool(session.registry.entry(forType: backend.typeName) != nil),
                    ])
                }
            }
            let settings = try output.settings(
                configuredFormat: session.configuration.output,
                environment: options.environment
            )
            try await printResult(ContentResult(body: .document(.array(rows))), settings: settings)
        }
    }
}
