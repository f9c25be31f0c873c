internal import ContentCore
public import ContentJSON

/// Writes the CSV or TSV row of each item a reader reads, with no header: the rows `--fields` asks for, byte for byte
/// as ``OutputPipeline`` writes them after its header.
///
/// Rows of these formats stand alone, so a stretch of items can be rendered apart (on another thread, say) and
/// its bytes put after the rows before it. The fields of the items of a streamed array are found where each item
/// lies in the reader's buffer, in the one pass that reads it.
///
/// ```swift
/// if var rows = DelimitedRowWriter(settings: settings) {
///     while try rows.writeRow(ofNextItemIn: &reader, to: &sink) {}
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

    /// Reads the next item of `reader` and writes its row, finding the fields with
    /// ``ContentJSON/JSONItemReader/nextItem(locating:_:)``: where the item lies in the reader's buffer, for the
    /// items of the array being streamed.
    ///
    /// - Parameters:
    ///   - reader: The reader of the items.
    ///   - sink: Where the row goes.
    /// - Returns: Whether there was an item; `false` after the last.
    /// - Throws: ``ContentJSON/JSONItemReaderError`` as the reader's ``ContentJSON/JSONItemReader/next()`` throws
    ///   it, a ``ContentJSON/JSONParseError`` only as a safeguard (a cell's text that does not read back), or what
    ///   the sink throws.
    public mutating func writeRow(ofNextItemIn reader: inout JSONItemReader, to sink: inout some OutputSink) throws
        -> Bool
    {
        try Self.writeRow(of: &reader, locating: &projection, with: &renderer, to: &sink)
    }

    // Static, with the writer's parts passed one by one: a closure using `self` while the projection is lent out
    // would overlap the two accesses.
    private static func writeRow(
        of reader: inout JSONItemReader, locating projection: inout JSONTextProjection,
        with renderer: inout DelimitedRenderer, to sink: inout some OutputSink
    ) throws -> Bool {
        try reader.nextItem(locating: &projection) { text, located in
            try renderer.write(located, in: text, to: &sink)
        }
    }
}
