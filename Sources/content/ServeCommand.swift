import ArgumentParser
import ContentCommandLine
import ContentEmulator
import Foundation
import Logging

/// `--mode`, spelled as the emulator's tiers.
enum ServeMode: String, CaseIterable, ExpressibleByArgument {
    case publish, author

    var tier: AEMEmulator.Options.Mode { self == .author ? .author : .publish }
}

/// `content serve`: local emulators of the content services over a workspace.
struct ServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Run a local emulator of AEM headless over a workspace, executing real GraphQL over SQLite.",
        discussion: """
            The workspace folder holds aem/ (content fragment models, fragments, persisted queries).
            The emulator answers GET/POST /graphql/execute.json/{config}/{name} and /graphql/list.json
            as AEM publish does. It listens on loopback unless --host says otherwise, prints its URLs on
            stderr, and stops cleanly on Ctrl-C or SIGTERM.

              content serve --workspace examples
              curl -s http://127.0.0.1:4503/graphql/execute.json/wknd-shared/adventures-all
            """
    )

    @Option(
        help: ArgumentHelp(
            "The workspace folder holding aem/; default ./examples, else the sample workspace content was built with.",
            valueName: "dir"
        )
    )
    var workspace: String?

    @Option(help: ArgumentHelp("The address to listen on.", valueName: "address"))
    var host: String = "127.0.0.1"

    @Option(name: .customLong("aem-port"), help: ArgumentHelp("The AEM port; 0 picks a free one.", valueName: "port"))
    var aemPort: Int = 4503

    @Option(help: ArgumentHelp("Keep content in this SQLite file instead of memory.", valueName: "file"))
    var data: String?

    @Option(help: "The AEM tier: publish (anonymous reads) or author (basic auth or a token; persisting allowed).")
    var mode: ServeMode = .publish

    @Option(help: ArgumentHelp("The author-mode user and password.", valueName: "user:password"))
    var credentials: String = "admin:admin"

    @Option(
        help: ArgumentHelp(
            "An author-mode bearer token; default $CONTENT_EMULATOR_TOKEN.",
            valueName: "token"
        )
    )
    var token: String?

    @Option(help: ArgumentHelp("Allow browser calls from this origin (* for any).", valueName: "origin"))
    var cors: String?

    @Flag(help: "Answer failing queries with 400/500 and application/graphql-response+json instead of 200.")
    var graphqlResponseJSON = false

    @Flag(name: .shortAndLong, help: "Log one line per request on stderr.")
    var verbose = false

    func validate() throws {
        guard (0...65535).contains(aemPort) else { throw ValidationError("--aem-port must be 0 to 65535") }
        guard credentials.contains(":") else { throw ValidationError("--credentials takes user:password") }
    }

    func run() async throws {
        try await reportFailures {
            let level: Logger.Level = verbose ? .info : .warning
            let logger = Logger(label: "content.serve") { _ in StderrLogHandler(logLevel: level) }
            let folder: URL
            if let workspace {
                folder = URL(fileURLWithPath: workspace)
            } else if FileManager.default.fileExists(atPath: "examples/aem") {
                folder = URL(fileURLWithPath: "examples")
            } else if let sample = EmulatorServer.sampleWorkspace {
                folder = sample
            } else {
                throw EmulatorError.workspace("no ./examples/aem here and no sample workspace; pass --workspace DIR")
            }
            let options = EmulatorServer.Options(
                workspace: folder,
                host: host,
                aemPort: aemPort,
                dataFile: data,
                aem: AEMEmulator.Options(
                    mode: mode.tier,
                    username: String(credentials.prefix { $0 != ":" }),
                    password: String(credentials.drop { $0 != ":" }.dropFirst()),
                    token: token ?? ProcessInfo.processInfo.environment["CONTENT_EMULATOR_TOKEN"],
                    corsOrigin: cors,
                    graphqlResponseJSON: graphqlResponseJSON
                )
            )
            try await EmulatorServer(options: options).run(logger: logger) { service, url in
                StandardError.write("content: \(service) emulator on \(url)")
            }
        }
    }
}
