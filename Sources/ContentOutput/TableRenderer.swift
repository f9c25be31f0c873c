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
        let header = line(columns.map(CellText.escapingControls), isHeader: true)
        try sink.write(ANSIStyle.bold.apply(String(decoding: header, as: UTF8.self), when: settings.color) + "\n")
    }

    mutating func write(_ row: [JSONValue?], to sink: inout some OutputSink) throws {
        var bytes = line(row.map(cellText))
        bytes.append(UInt8(ascii: "\n"))
        try sink.write(bytes)
    }

    /// One row's cells, padded to their columns and two spaces apart, without trailing spaces.
    ///
    /// Built as bytes: with a long column, most of a line is padding.
    private func line(_ cells: [String], isHeader: Bool = false) -> [UInt8] {
        var line: [UInt8] = []
        line.reserveCapacity(widths.reduce(Self.gap * widths.count, +))
        for (column, text) in cells.enumerated() where column < widths.count {
            if column > 0 { line.append(contentsOf: repeatElement(UInt8(ascii: " "), count: Self.gap)) }
            let width = widths[column]
            let cuttable = settings.isTerminal && (isHeader || !numeric[column])
            let shown = cuttable ? DisplayWidth.truncate(text, toWidth: width) : text
            let padding = repeatElement(UInt8(ascii: " "), count: max(0, width - DisplayWidth.of(shown)))
            if numeric[column] { line.append(contentsOf: padding) }
            line.append(contentsOf: shown.utf8)
            if !numeric[column], column < cells.count - 1 { line.append(contentsOf: padding) }
        }
        while line.last == UInt8(ascii: " ") { line.removeLast() }
        return line
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
