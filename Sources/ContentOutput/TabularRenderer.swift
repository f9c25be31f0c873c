internal import ContentJSON

/// A format made of rows under a header: table, CSV, TSV, Markdown.
///
/// The pipeline calls ``begin(columns:sample:to:)`` once with the columns and the first rows (so a
/// table can size its columns), then ``write(_:to:)`` for every row, sample included, then ``finish(to:)``.
protocol TabularRenderer {
    /// Whether ``begin(columns:sample:to:)`` looks at the sample; when it does not, rows need not wait for one.
    var usesSample: Bool { get }
    mutating func begin(columns: [String], sample: [[JSONValue?]], to sink: inout some OutputSink) throws
    mutating func write(_ row: [JSONValue?], to sink: inout some OutputSink) throws
    /// Writes the row whose values `projection` found in an item's JSON text.
    mutating func write(
        _ projection: JSONTextProjection, in text: UnsafeRawBufferPointer, to sink: inout some OutputSink)
        throws
    mutating func finish(to sink: inout some OutputSink) throws
}

extension TabularRenderer {
    var usesSample: Bool { true }

    /// Builds the row's values and writes them: what a format that measures its cells needs anyway.
    mutating func write(
        _ projection: JSONTextProjection, in text: UnsafeRawBufferPointer, to sink: inout some OutputSink
    )
        throws
    {
        var row: [JSONValue?] = []
        row.reserveCapacity(projection.slices.count)
        for slice in projection.slices {
            row.append(
                try slice.map { slice throws(JSONParseError) in try JSONTextProjection.value(of: slice, in: text) })
        }
        try write(row, to: &sink)
    }
}

/// CSV (RFC 4180) and TSV.
///
/// CSV quotes a field only when it holds the delimiter, `"`, CR or LF, doubling inner quotes. TSV
/// cannot quote, so it escapes backslash, tab, CR and LF as `\\`, `\t`, `\r`, `\n`.
struct DelimitedRenderer: TabularRenderer {
    enum Dialect {
        case csv
        case tsv
    }

    let dialect: Dialect
    let lineEnd: String
    private var line: [UInt8] = []

    init(dialect: Dialect, crlf: Bool) {
        self.dialect = dialect
        lineEnd = crlf ? "\r\n" : "\n"
    }

    mutating func begin(columns: [String], sample: [[JSONValue?]], to sink: inout some OutputSink) throws {
        try emit(columns, to: &sink)
    }

    var usesSample: Bool { false }

    mutating func write(_ row: [JSONValue?], to sink: inout some OutputSink) throws {
        // Straight into the line buffer: no intermediate strings for numbers, literals and plain text.
        line.removeAll(keepingCapacity: true)
        for (position, value) in row.enumerated() {
            if position > 0 { line.append(dialect == .csv ? UInt8(ascii: ",") : UInt8(ascii: "\t")) }
            appendCell(value)
        }
        line.append(contentsOf: lineEnd.utf8)
        try sink.write(line)
    }

    /// Writes the row straight from the text: plain strings, numbers and literals are copied as they are
    /// written there, and only escaped strings, arrays and objects are built, to be written as values are.
    mutating func write(
        _ projection: JSONTextProjection, in text: UnsafeRawBufferPointer, to sink: inout some OutputSink
    )
        throws
    {
        line.removeAll(keepingCapacity: true)
        for (position, slice) in projection.slices.enumerated() {
            if position > 0 { line.append(dialect == .csv ? UInt8(ascii: ",") : UInt8(ascii: "\t")) }
            guard let slice else { continue }
            switch slice.kind {
            case .null: break
            case .bool(let flag): line.append(contentsOf: (flag ? "true" : "false").utf8)
            case .number:
                appendCell(UnsafeRawBufferPointer(rebasing: text[slice.range]))
            case .string(escaped: false):
                // Between the quotes: the string's UTF-8 exactly, as the parser would have made it.
                let contents = (slice.range.lowerBound + 1)..<(slice.range.upperBound - 1)
                appendCell(UnsafeRawBufferPointer(rebasing: text[contents]))
            case .string(escaped: true), .array, .object:
                appendCell(try JSONTextProjection.value(of: slice, in: text))
            }
        }
        line.append(contentsOf: lineEnd.utf8)
        try sink.write(line)
    }

    private mutating func appendCell(_ value: JSONValue?) {
        switch value {
        case .none, .some(.null): break
        case .some(.bool(let flag)): line.append(contentsOf: (flag ? "true" : "false").utf8)
        case .some(.number(let number)): appendCell(number.text)
        case .some(.string(let string)): appendCell(string)
        case .some(.array), .some(.object): appendCell(CellText.plain(value))
        }
    }

    private mutating func appendCell(_ text: String) {
        var text = text
        text.withUTF8 { appendCell(UnsafeRawBufferPointer($0)) }
    }

    private mutating func appendCell(_ bytes: UnsafeRawBufferPointer) {
        switch dialect {
        case .csv: Self.appendCSV(bytes, to: &line)
        case .tsv: Self.appendTSV(bytes, to: &line)
        }
    }

    mutating func finish(to sink: inout some OutputSink) throws {}

    private mutating func emit(_ cells: [String], to sink: inout some OutputSink) throws {
        line.removeAll(keepingCapacity: true)
        for (position, cell) in cells.enumerated() {
            if position > 0 { line.append(dialect == .csv ? UInt8(ascii: ",") : UInt8(ascii: "\t")) }
            appendCell(cell)
        }
        line.append(contentsOf: lineEnd.utf8)
        try sink.write(line)
    }

    static func appendCSV(_ cell: UnsafeRawBufferPointer, to line: inout [UInt8]) {
        let needsQuotes = cell.contains {
            $0 == UInt8(ascii: ",") || $0 == UInt8(ascii: "\"") || $0 == 0x0A || $0 == 0x0D
        }
        guard needsQuotes else { return line.append(contentsOf: cell) }
        line.append(UInt8(ascii: "\""))
        // Runs up to and including each quote go over whole, each quote then doubled.
        var runStart = 0
        for index in cell.indices where cell[index] == UInt8(ascii: "\"") {
            line.append(contentsOf: UnsafeRawBufferPointer(rebasing: cell[runStart...index]))
            line.append(UInt8(ascii: "\""))
            runStart = index + 1
        }
        line.append(contentsOf: UnsafeRawBufferPointer(rebasing: cell[runStart...]))
        line.append(UInt8(ascii: "\""))
    }

    static func appendTSV(_ cell: UnsafeRawBufferPointer, to line: inout [UInt8]) {
        var runStart = 0
        for index in cell.indices {
            let escape: String
            switch cell[index] {
            case UInt8(ascii: "\\"): escape = #"\\"#
            case 0x09: escape = #"\t"#
            case 0x0A: escape = #"\n"#
            case 0x0D: escape = #"\r"#
            default: continue
            }
            line.append(contentsOf: UnsafeRawBufferPointer(rebasing: cell[runStart..<index]))
            line.append(contentsOf: escape.utf8)
            runStart = index + 1
        }
        line.append(contentsOf: UnsafeRawBufferPointer(rebasing: cell[runStart...]))
    }
}

/// A GitHub-flavoured Markdown table: pipes escaped, line breaks as `<br>`, numeric columns right-aligned.
struct MarkdownRenderer: TabularRenderer {
    mutating func begin(columns: [String], sample: [[JSONValue?]], to sink: inout some OutputSink) throws {
        try sink.write("| " + columns.map(Self.escape).joined(separator: " | ") + " |\n")
        let numeric = numericColumns(count: columns.count, sample: sample)
        try sink.write("|" + numeric.map { $0 ? " ---: |" : " --- |" }.joined() + "\n")
    }

    mutating func write(_ row: [JSONValue?], to sink: inout some OutputSink) throws {
        try sink.write("| " + row.map { Self.escape(CellText.plain($0)) }.joined(separator: " | ") + " |\n")
    }

    mutating func finish(to sink: inout some OutputSink) throws {}

    static func escape(_ text: String) -> String {
        var text = text
        return text.withUTF8 { bytes in
            // Over the UTF-8 bytes, copying the runs between special bytes whole.
            var result: [UInt8] = []
            result.reserveCapacity(bytes.count)
            var runStart = 0
            var index = 0
            func replace(_ length: Int, with replacement: String) {
                result.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart..<index]))
                result.append(contentsOf: replacement.utf8)
                index += length
                runStart = index
            }
            while index < bytes.count {
                switch bytes[index] {
                case UInt8(ascii: "|"): replace(1, with: "\\|")
                case UInt8(ascii: "\\"): replace(1, with: "\\\\")
                case 0x0D: replace(index + 1 < bytes.count && bytes[index + 1] == 0x0A ? 2 : 1, with: "<br>")
                case 0x0A: replace(1, with: "<br>")
                default:
                    guard let (scalar, length) = CellText.controlScalar(in: bytes, at: index) else {
                        index += 1
                        continue
                    }
                    var escaped: [UInt8] = []
                    CellText.appendEscape(ofControl: scalar, to: &escaped)
                    replace(length, with: String(decoding: escaped, as: UTF8.self))
                }
            }
            result.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart...]))
            return String(decoding: result, as: UTF8.self)
        }
    }
}

/// Which columns hold only numbers (and nulls) in the sample, to align them right.
func numericColumns(count: Int, sample: [[JSONValue?]]) -> [Bool] {
    (0..<count).map { column in
        var sawNumber = false
        for row in sample where column < row.count {
            switch row[column] {
            case .none, .some(.null): continue
            case .some(.number): sawNumber = true
            default: return false
            }
        }
        return sawNumber
    }
}
