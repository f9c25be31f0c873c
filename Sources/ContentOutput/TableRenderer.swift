internal import ContentJSON

/// Aligned columns for people: widths in display cells, numbers right-aligned, control characters
/// escaped, a bold header on a colour terminal.
///
/// Only on a terminal are columns fitted to the width and long cells cut with `…`; piped output keeps
/// every character.
struct TableRenderer: TabularRenderer {
    let settings: OutputSettings
    private var widths: [Int] = []
    private var numeric: [Bool] = []
    /// The widest value in each column, below which a numeric column never shrinks.
    private var valueWidths: [Int] = []

    init(settings: OutputSettings) {
        self.settings = settings
    }

    static let gap = 2
    static let minimumWidth = 4

    mutating func begin(columns: [String], sample: [[JSONValue?]], to sink: inout some OutputSink) throws {
        numeric = numericColumns(count: columns.count, sample: sample)
        valueWidths = Array(repeating: 0, count: columns.count)
        for row in sample {
            for (column, value) in row.enumerated() where column < valueWidths.count {
                valueWidths[column] = max(valueWidths[column], DisplayWidth.of(cellText(value)))
            }
        }
        widths = zip(columns, valueWidths).map { max(DisplayWidth.of(CellText.escapingControls($0)), $1) }
        if settings.isTerminal { fit() }
        let header = columns.enumerated().map { column, name in
            pad(CellText.escapingControls(name), column: column, last: column == columns.count - 1, isHeader: true)
        }
        try sink.write(ANSIStyle.bold.apply(Self.trimmed(header.joined(separator: "  ")), when: settings.color) + "\n")
    }

    mutating func write(_ row: [JSONValue?], to sink: inout some OutputSink) throws {
        let cells = row.enumerated().map { column, value in
            pad(cellText(value), column: column, last: column == row.count - 1)
        }
        try sink.write(Self.trimmed(cells.joined(separator: "  ")) + "\n")
    }

    /// The line without trailing spaces, which empty last cells would leave.
    static func trimmed(_ line: String) -> String {
        guard line.last == " " else { return line }
        return String(line[..<(line.lastIndex { $0 != " " }.map(line.index(after:)) ?? line.startIndex)])
    }

    mutating func finish(to sink: inout some OutputSink) throws {}

    private func cellText(_ value: JSONValue?) -> String {
        CellText.escapingControls(CellText.plain(value))
    }

    /// Narrows the widest columns until the table fits the terminal: text columns down to a few
    /// cells, numeric columns only down to their widest value (their header may be cut).
    ///
    /// Numbers are never cut: a truncated price reads as a different price.
    private mutating func fit() {
        let available = settings.width - Self.gap * max(0, widths.count - 1)
        func floor(_ column: Int) -> Int {
            numeric[column] ? max(valueWidths[column], 1) : Self.minimumWidth
        }
        while widths.reduce(0, +) > available {
            let shrinkable = widths.indices.filter { widths[$0] > floor($0) }
            guard let widest = shrinkable.max(by: { widths[$0] < widths[$1] }) else { return }
            widths[widest] -= 1
        }
    }

    private func pad(_ text: String, column: Int, last: Bool, isHeader: Bool = false) -> String {
        let width = widths[column]
        let cuttable = settings.isTerminal && (isHeader || !numeric[column])
        let shown = cuttable ? DisplayWidth.truncate(text, toWidth: width) : text
        let padding = String(repeating: " ", count: max(0, width - DisplayWidth.of(shown)))
        if numeric[column] { return padding + shown }
        return last ? shown : shown + padding
    }
}

/// One object as two columns, key and value: for results such as one adventure or one movie.
struct KeyValueRenderer {
    let settings: OutputSettings

    func render(_ cells: [JSONMember], to sink: inout some OutputSink) throws {
        let keys = cells.map { CellText.escapingControls($0.key) }
        var keyWidth = keys.map(DisplayWidth.of).max() ?? 0
        if settings.isTerminal { keyWidth = min(keyWidth, max(TableRenderer.minimumWidth, settings.width / 3)) }
        let valueWidth = max(TableRenderer.minimumWidth, settings.width - keyWidth - TableRenderer.gap)
        for (key, cell) in zip(keys, cells) {
            let shownKey = settings.isTerminal ? DisplayWidth.truncate(key, toWidth: keyWidth) : key
            let padding = String(repeating: " ", count: max(0, keyWidth - DisplayWidth.of(shownKey)))
            var value = CellText.escapingControls(CellText.plain(cell.value))
            if settings.isTerminal { value = DisplayWidth.truncate(value, toWidth: valueWidth) }
            try sink.write(ANSIStyle.bold.apply(shownKey, when: settings.color) + padding + "  " + value + "\n")
        }
    }
}
