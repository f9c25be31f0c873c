import ArgumentParser
import ContentCommandLine
import ContentConfig
import ContentKit
import ContentRuntime

/// `content format [FILE|-]`: renders saved JSON or NDJSON with the same options as every query.
struct FormatCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "format",
        abstract: "Render a JSON document or NDJSON stream from a file or stdin.",
        discussion: """
            Reshapes saved responses with the options every query has:

              content format response.json --items data.adventureList.items -o csv --fields title,price
              curl -s https://example.com/api | content format - -o table

            A document whose items are not at the top needs --items. Several JSON values one after another
            (NDJSON) are taken as the items. Malformed input exits 7 with its line, column and byte offset.
            """
    )

    @Argument(help: ArgumentHelp("The file to read; - or nothing for stdin.", valueName: "file"))
    var file: String?

    @OptionGroup var output: OutputOptions

    @OptionGroup var options: GlobalOptions

    func run() async throws {
        try await reportFailures {
            let configuredFormat = try options.session(registry: BuiltInBackends.registry).configuration.output
            let settings = try output.settings(configuredFormat: configuredFormat, environment: options.environment)
            try await printResult(try JSONInput.read(file), settings: settings)
        }
    }
}
