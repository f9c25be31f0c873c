internal import ContentCore
internal import ContentJSON

/// Writes the CSV or TSV row of each item from the item's JSON text, with no header: the rows `--fields` asks for,
/// byte for byte as ``OutputPipeline`` writes them after its header.
///
/// Rows of these formats stand alone, so a stretch of items can be rendered apart (on another thread, say) and
/// its bytes put after the rows before it.
///
/// ```swift
/// if var rows = DelimitedRowWriter(settings: settings) {
///     try rows.write(itemText: text, to: &sink)
/// }
/// ```
public struct DelimitedRowWriter: Sendable {
    private var renderer: DelimitedRenderer
    private var projection: JSONTextProjection

    /// A writer for `settings`; `nil` unless the format is CSV or TSV and `--fields` names the columns.
    ///
    /// - Parameter settings: How the output is rendered.
    public init?(settings: OutputSettings) {
        let dialect: DelimitedRenderer.Dialect
        switch settings.format {
        case .csv: dialect = .csv
        case .tsv: dialect = .tsv
        default: return nil
        }
        guard let fields = settings.fields, let projection = JSONTextProjection(paths: fields.fields.map(\.path))
        else { return nil }
        renderer = DelimitedRenderer(dialect: dialect, crlf: settings.crlf)
        self.projection = projection
    }

    /// Writes one item's row.
    ///
    /// - Parameters:
    ///   - itemText: The item as JSON text.
    ///   - sink: Where the row goes.
    /// - Throws: ``ContentJSON/JSONParseError`` for text that is not JSON, or what the sink throws.
    public mutating func write(itemText: UnsafeRawBufferPointer, to sink: inout some OutputSink) throws {
        try projection.locate(in: itemText)
        try renderer.write(projection, in: itemText, to: &sink)
    }
}
