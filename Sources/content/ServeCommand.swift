import ArgumentParser
import ContentCommandLine
import ContentEmulator
import Foundation
import Logging

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

    @Option(help: ArgumentHelp("The workspace folder holding aem/.", valueName: "dir"))
    var workspace: String = "examples"

    @Option(help: ArgumentHelp("The address to listen on.", valueName: "address"))
    var host: String = "127.0.0.1"

    @Option(name: .customLong("aem-port"), help: ArgumentHelp("The AEM port; 0 picks a free one.", valueName: "port"))
    var aemPort: Int = 4503

    @Option(help: ArgumentHelp("Keep content in this SQLite file instead of memory.", valueName: "file"))
    var data: String?

    @Flag(name: .shortAndLong, help: "Log one line per request on stderr.")
    var verbose = false

    func validate() throws {
        guard (0...65535).contains(aemPort) else { throw ValidationError("--aem-port must be 0 to 65535") }
    }

    func run() async throws {
        try await reportFailures {
            let level: Logger.Level = verbose ? .info : .warning
            let logger = Logger(label: "content.serve") { _ in StderrLogHandler(logLevel: level) }
            let options = EmulatorServer.Options(
                workspace: URL(fileURLWithPath: workspace),
                host: host,
                aemPort: aemPort,
                dataFile: data
            )
            try await EmulatorServer(options: options).run(logger: logger) { service, url in
                StandardError.write("content: \(service) emulator on \(url)")
            }
        }
    }
}
