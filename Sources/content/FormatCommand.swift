import ArgumentParser
import ContentCommandLine
import ContentConfig
import ContentOutput
import ContentRuntime

/// `content format [FILE|-]`: renders saved JSON or NDJSON with the same options as every query.
struct FormatCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "format",
        abstract: "Render a JSON document or NDJSON stream from a file or stdin.",
        discussion: """
            Reshapes saved responses with the options every query has:

              content format examples/responses/adventures.json \\
                --items data.adventureList.items \\
                -o csv --fields title,price
              curl -s https://example.com/api | content format - -o table

            The input is read as it arrives, one item at a time whatever the number of items, and only the \
            members --fields names are decoded (CSV and TSV rows are then cut straight from each item's \
            text); a file is parsed on a second thread while rows are written, and from a pipe each item is \
            shown as soon as it is read. A document whose items are not at the top needs --items. Several \
            JSON values one after another (NDJSON) are read in turn: in each, the array at --items (or the \
            value itself) gives the items; a single value that is not a list is shown as one record, and is \
            held in memory whole. Malformed input exits 7 with its line, column and byte offset; the rows \
            before it are written.
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
            if settings.raw {
                try await printResult(try JSONInput.read(file), settings: settings)
            } else {
                try await JSONInput.render(file, settings: settings)
            }
        }
    }
}
