public import ArgumentParser
public import ContentCore
internal import ContentJSON
public import ContentOutput
internal import Foundation

extension OutputFormat: ExpressibleByArgument {}
extension OutputSettings.ColorMode: ExpressibleByArgument {}

/// The flags that shape output, shared by every command that prints results.
public struct OutputOptions: ParsableArguments, Sendable {
    /// `-o/--output`.
    @Option(
        name: [.customShort("o"), .customLong("output")],
        help: ArgumentHelp(
            "The output format: table, json, ndjson (or jsonl), csv, tsv, markdown.",
            discussion:
                "Default: `defaults.output` from the configuration, else table on a terminal and json otherwise."
        )
    )
    public var format: OutputFormat?

    /// `--items PATH`.
    @Option(
        help: ArgumentHelp("Where the items are in the response, such as data.adventureList.items.", valueName: "path"))
    public var items: String?

    /// `--fields a,b.c,name=path`.
    @Option(
        help: ArgumentHelp(
            "The columns to show, in order: title,price,primaryImage._dynamicUrl (NAME=PATH renames).",
            valueName: "fields"
        )
    )
    public var fields: String?

    /// `--pretty`.
    @Flag(help: "Indent JSON even when stdout is not a terminal.")
    public var pretty = false

    /// `--compact`.
    @Flag(help: "Print JSON on one line even on a terminal.")
    public var compact = false

    /// `--color`.
    @Option(help: "Colour and bold: auto (a terminal without NO_COLOR), always, never.")
    public var color: OutputSettings.ColorMode = .auto

    /// `--crlf`.
    @Flag(help: "End CSV and TSV lines with CRLF instead of LF.")
    public var crlf = false

    /// `--raw`.
    @Flag(help: "Print the whole response (data, errors, extensions) as JSON, untouched.")
    public var raw = false

    /// Creates the options with their defaults.
    public init() {}

    /// Rejects contradictory flags.
    ///
    /// - Throws: `ValidationError`.
    public func validate() throws {
        if pretty && compact { throw ValidationError("--pretty and --compact contradict each other; pick one") }
    }

    /// The settings these flags give, with the configuration's default format and this terminal.
    ///
    /// - Parameters:
    ///   - configuredFormat: `defaults.output`, if set.
    ///   - environment: The process environment.
    /// - Returns: The settings.
    /// - Throws: `OutputError` for a malformed `--items` or `--fields`.
    public func settings(configuredFormat: OutputFormat?, environment: [String: String]) throws -> OutputSettings {
        let isTerminal = FileDescriptorSink.isTerminal(StandardStreams.output)
        let colored = OutputSettings.colorEnabled(mode: color, isTerminal: isTerminal, environment: environment)
        var itemsPath: JSONPath?
        if let items {
            do {
                itemsPath = try JSONPath(parsing: items)
            } catch {
                throw ValidationError("invalid --items: \(error)")
            }
        }
        return OutputSettings(
            format: format ?? configuredFormat ?? (isTerminal ? .table : .json),
            itemsPath: itemsPath,
            fields: try fields.map { text throws(OutputError) in try FieldSelection(parsing: text) },
            pretty: pretty || (isTerminal && !compact),
            color: colored,
            isTerminal: isTerminal,
            width: OutputSettings.width(
                environment: environment, reported: FileDescriptorSink.terminalWidth(StandardStreams.output)),
            crlf: crlf,
            raw: raw
        )
    }
}
