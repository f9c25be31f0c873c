import ContentCore
import ContentJSON
import Foundation
import Testing

@testable import ContentOutput

struct OutputPipelineTests {
    private func hostile(_ settings: OutputSettings) async throws -> String {
        try await Fixtures.render(try Fixtures.result(try Fixtures.hostileItems), settings)
    }

    // MARK: - Golden files

    @Test(arguments: [OutputFormat.json, .ndjson, .csv, .tsv, .markdown, .table])
    func hostileRowsMatchTheirGoldenFile(format: OutputFormat) async throws {
        let text = try await hostile(OutputSettings(format: format))
        let ext = ["json": "json", "ndjson": "ndjson", "csv": "csv", "tsv": "tsv", "markdown": "md", "table": "txt"]
        try Fixtures.expectSnapshot(text, named: "hostile.\(ext[format.rawValue] ?? "txt")")
    }

    @Test func tableOnANarrowTerminalTruncatesWithAnEllipsis() async throws {
        let text = try await hostile(OutputSettings(format: .table, isTerminal: true, width: 72))
        try Fixtures.expectSnapshot(text, named: "hostile-terminal-72.txt")
        for line in text.split(separator: "\n") {
            #expect(DisplayWidth.of(String(line)) <= 72, "\(line)")
        }
        #expect(text.contains("…"))
        // Numbers are never cut, however narrow the terminal.
        #expect(text.contains("9223372036854775807"))
        #expect(text.contains("5000.00"))
    }

    @Test func tableOffATerminalNeverTruncates() async throws {
        let text = try await hostile(OutputSettings(format: .table, isTerminal: false, width: 20))
        #expect(!text.contains("…"))
        #expect(text.contains("/content/dam/bali.jpg"))
        #expect(text.contains("9223372036854775807"))
    }

    @Test func tableEscapesControlCharactersAndANSI() async throws {
        let text = try await hostile(OutputSettings(format: .table))
        #expect(!text.contains("\u{1B}"))
        #expect(text.contains(#"\u001B[31mred\u001B[0m"#))
        #expect(text.contains(#"line one\nline two\r\nline three"#))
        #expect(text.split(separator: "\n").count == 6)
    }

    @Test func prettyJSONIsIndentedAndColourIsOptIn() async throws {
        let pretty = try await hostile(OutputSettings(format: .json, pretty: true))
        #expect(pretty.hasPrefix("[\n  {\n    \"id\": 1,"))
        #expect(!pretty.contains("\u{1B}["))
        let colored = try await hostile(OutputSettings(format: .json, pretty: true, color: true))
        #expect(colored.contains("\u{1B}[34;1m\"id\"\u{1B}[0m"))
        let table = try await hostile(OutputSettings(format: .table, color: true))
        #expect(table.hasPrefix("\u{1B}[1m"))
    }

    // MARK: - Independent readers

    @Test func csvReadsBackWithPythonsCSVModule() async throws {
        let items = try Fixtures.hostileItems
        let csv = try await Fixtures.render(try Fixtures.result(items), OutputSettings(format: .csv))
        let script = "import csv, json, sys; print(json.dumps(list(csv.reader(sys.stdin))))"
        guard let decoded = try Fixtures.run("python3", ["-c", script], input: csv) else {
            Issue.record("python3 is needed to check CSV independently")
            return
        }
        let rows = try JSONParser().parse(decoded).arrayValue ?? []
        let header = rows.first?.arrayValue?.compactMap(\.stringValue) ?? []
        // Row 2's `"image": null` is not an object, so it is a column of its own.
        let expected = ["id", "title", "price", "note", "image._path", "image.width", "image", "tags"]
        #expect(header == expected + ["image.deep.er.est", "extra"])
        #expect(rows.count == 6)
        // Every cell Python reads equals the value's plain text, so quoting and escaping lost nothing.
        for (index, item) in (items.arrayValue ?? []).enumerated() {
            let cells = rows[index + 1].arrayValue?.compactMap(\.stringValue) ?? []
            let flattened = RowFlattener().flatten(item)
            for cell in flattened {
                guard let column = header.firstIndex(of: cell.key) else { continue }
                #expect(cells[column] == CellText.plain(cell.value), "row \(index + 1) column \(cell.key)")
            }
        }
    }

    @Test func crlfOptionEndsEveryRecordWithCRLF() async throws {
        let items: JSONValue = .array([.object(["a": .string("x\ny")]), .object(["a": .string("z")])])
        let csv = try await Fixtures.render(try Fixtures.result(items), OutputSettings(format: .csv, crlf: true))
        #expect(csv == "a\r\n\"x\ny\"\r\nz\r\n")
    }

    @Test func jsonOutputGivesJqTheSameValuesBack() async throws {
        for format in [OutputFormat.json, .ndjson] {
            let text = try await hostile(OutputSettings(format: format))
            let slurp = format == .json ? ["-c", "."] : ["-c", "-s", "."]
            guard let fromJq = try Fixtures.run("jq", slurp, input: text) else {
                Issue.record("jq is needed to check JSON independently")
                return
            }
            let original = try Fixtures.hostileItems
            let reparsed = try JSONParser().parse(fromJq)
            // jq rewrites numbers (1e400, 5000.00), so compare everything but number text.
            #expect(Self.withoutNumbers(reparsed) == Self.withoutNumbers(original), "\(format)")
            #expect(
                try JSONParser().parse(
                    format == .json ? text : "[" + text.split(separator: "\n").joined(separator: ",") + "]") == original
            )
        }
    }

    @Test func prettyJSONIsLaidOutAsJqLaysItOutAtEveryDepth() async throws {
        // Items nested several levels deep, empty containers among them; integers only, since jq rewrites
        // other number text.
        let items = try JSONParser().parse(
            #"[{"a":1,"b":[1,[2,{}],[]],"c":{"d":{"e":"x y"}}},[],{},"s",[[[{"f":[null,true]}]]],-3]"#)
        let ours = try await Fixtures.render(try Fixtures.result(items), OutputSettings(format: .json, pretty: true))
        guard let fromJq = try Fixtures.run("jq", ["."], input: ours) else {
            Issue.record("jq is needed to check JSON independently")
            return
        }
        #expect(ours == fromJq)
        // Colour changes nothing but the escapes around each token.
        let colored = try await Fixtures.render(
            try Fixtures.result(items), OutputSettings(format: .json, pretty: true, color: true))
        #expect(colored.contains("\u{1B}["))
        #expect(colored.replacing(#/\x{1B}\[[0-9;]*m/#, with: "") == ours)
    }

    private static func withoutNumbers(_ value: JSONValue) -> JSONValue {
        switch value {
        case .number: return .number(JSONNumber(text: "0"))
        case .array(let elements): return .array(elements.map(withoutNumbers))
        case .object(let object):
            return .object(JSONObject(object.members.map { JSONMember($0.key, withoutNumbers($0.value)) }))
        default: return value
        }
    }

    // MARK: - Rows and columns

    @Test func numberTextSurvivesEveryFormat() async throws {
        for format in OutputFormat.allCases {
            let text = try await hostile(OutputSettings(format: format))
            for number in ["5000.00", "152.59", "9223372036854775807", "1e400", "-0.5"] {
                #expect(text.contains(number), "\(format) lost \(number)")
            }
        }
    }

    @Test func fieldsSelectOrderAndRenameInEveryFormat() async throws {
        let fields = try FieldSelection(parsing: "price,name=title,image._path")
        let csv = try await hostile(OutputSettings(format: .csv, fields: fields))
        #expect(csv.hasPrefix("price,name,image._path\n5000.00,Bali Surf Camp,/content/dam/bali.jpg\n"))
        let ndjson = try await hostile(OutputSettings(format: .ndjson, fields: fields))
        #expect(
            ndjson.split(separator: "\n").first
                == #"{"price":5000.00,"name":"Bali Surf Camp","image._path":"/content/dam/bali.jpg"}"#)
        #expect(
            ndjson.split(separator: "\n")[1] == #"{"price":152.59,"name":"Café \"Crème\", Paris","image._path":null}"#)
    }

    @Test func backendDefaultColumnsApplyWhenNoFieldsAreGiven() async throws {
        var result = try Fixtures.result(try Fixtures.hostileItems)
        result.metadata.columns = ["title", "price"]
        let csv = try await Fixtures.render(result, OutputSettings(format: .csv))
        #expect(csv.hasPrefix("title,price\nBali Surf Camp,5000.00\n"))
        let explicit = try await Fixtures.render(
            result, OutputSettings(format: .csv, fields: try FieldSelection(parsing: "id")))
        #expect(explicit.hasPrefix("id\n1\n2\n"))
    }

    @Test func itemsPathFindsTheItemsAndOverridesTheBackend() async throws {
        let document = try JSONParser().parse(#"{"data":{"list":{"items":[{"a":1},{"a":2}]},"other":[{"b":3}]}}"#)
        let byBackend = try await Fixtures.render(
            try Fixtures.result(document, itemsPath: "data.list.items"), OutputSettings(format: .ndjson))
        #expect(byBackend == "{\"a\":1}\n{\"a\":2}\n")
        let overridden = try await Fixtures.render(
            try Fixtures.result(document, itemsPath: "data.list.items"),
            OutputSettings(format: .ndjson, itemsPath: try JSONPath(parsing: "data.other"))
        )
        #expect(overridden == "{\"b\":3}\n")
    }

    @Test func missingItemsPathNamesTheKeysThatExist() async throws {
        let document = try JSONParser().parse(#"{"data":{"adventureList":{"items":[]}}}"#)
        let error = await #expect(throws: OutputError.self) {
            try await Fixtures.render(
                try Fixtures.result(document, itemsPath: "data.adventures.items"), OutputSettings())
        }
        // The backend's own items path: the server answered without what the operation returns.
        #expect(error == .itemsNotFound(path: "data.adventures.items", available: ["adventureList"], given: false))
        #expect(error?.category == .operationFailed)
        let given = await #expect(throws: OutputError.self) {
            try await Fixtures.render(
                try Fixtures.result(document, itemsPath: nil),
                OutputSettings(itemsPath: try JSONPath(parsing: "data.adventures.items")))
        }
        #expect(given?.category == .usage)
    }

    @Test func singleObjectRendersAsKeyValueTable() async throws {
        let document = try JSONParser().parse(#"{"title":"Yosemite","price":3500,"image":{"_path":"/y.jpg"}}"#)
        let table = try await Fixtures.render(try Fixtures.result(document), OutputSettings(format: .table))
        #expect(table == "title        Yosemite\nprice        3500\nimage._path  /y.jpg\n")
        let json = try await Fixtures.render(try Fixtures.result(document), OutputSettings(format: .json))
        #expect(json == #"{"title":"Yosemite","price":3500,"image":{"_path":"/y.jpg"}}"# + "\n")
    }

    @Test func emptyResultWritesNoRowsAndCountsZero() async throws {
        var sink = MemorySink()
        let summary = try await OutputPipeline(settings: OutputSettings(format: .table))
            .render(try Fixtures.result(.array([])), to: &sink)
        #expect(summary.itemCount == 0)
        #expect(sink.text.isEmpty)
        let json = try await Fixtures.render(try Fixtures.result(.array([])), OutputSettings(format: .json))
        #expect(json == "[]\n")
    }

    @Test func rawPrintsTheWholeDocumentUntouched() async throws {
        let text = #"{"data":{"x":[1.50,2]},"errors":[{"message":"boom"}],"extensions":{"cost":1e2}}"#
        let output = try await Fixtures.render(
            try Fixtures.result(try JSONParser().parse(text), itemsPath: "data.x"),
            OutputSettings(format: .csv, raw: true)
        )
        #expect(output == text + "\n")
    }

    @Test func streamedItemsAreRenderedAsTheyArrive() async throws {
        let (stream, continuation) = AsyncThrowingStream.makeStream(of: JSONValue.self)
        for index in 1...3 { continuation.yield(.object(["n": .number(JSONNumber(index))])) }
        continuation.yield(.object(["n": .number(JSONNumber(4)), "late": .bool(true)]))
        continuation.finish()
        var sink = MemorySink()
        let summary = try await OutputPipeline(settings: OutputSettings(format: .csv), window: 2)
            .render(ContentResult(body: .items(stream)), to: &sink)
        #expect(sink.text == "n\n1\n2\n3\n4\n")
        #expect(summary.itemCount == 4)
        #expect(summary.diagnostics.first?.message.contains("late") == true)
    }

    @Test func aFailingStreamKeepsWhatWasRendered() async throws {
        struct Boom: Error {}
        let (stream, continuation) = AsyncThrowingStream.makeStream(of: JSONValue.self)
        continuation.yield(.object(["n": .number(JSONNumber(1))]))
        continuation.finish(throwing: Boom())
        var sink = MemorySink()
        await #expect(throws: Boom.self) {
            _ = try await OutputPipeline(settings: OutputSettings(format: .ndjson)).render(
                ContentResult(body: .items(stream)), to: &sink)
        }
        #expect(sink.text == "{\"n\":1}\n")
    }

    // MARK: - Items from a reader

    /// Settings with nothing set, and with every option that changes the bytes.
    private static func plainAndDressed(_ format: OutputFormat, _ fields: FieldSelection?) -> [OutputSettings] {
        [
            OutputSettings(format: format, fields: fields),
            OutputSettings(
                format: format, fields: fields, pretty: true, color: true, isTerminal: true, width: 40, crlf: true),
        ]
    }

    /// The bytes an entry point writes, and what it reports.
    private static func output(
        _ settings: OutputSettings,
        window: Int = 1000,
        _ render: (OutputPipeline, inout MemorySink) async throws -> OutputPipeline.Summary
    ) async throws -> (bytes: [UInt8], summary: OutputPipeline.Summary) {
        var sink = MemorySink()
        let summary = try await render(OutputPipeline(settings: settings, window: window), &sink)
        return (sink.bytes, summary)
    }

    @Test(arguments: [OutputFormat.json, .ndjson, .csv, .tsv, .markdown, .table], readerFieldSelections)
    func readerItemsRenderLikeTheSameItemsInADocument(format: OutputFormat, fields: String?) async throws {
        let hostileItems = try Fixtures.hostileItems
        let hostile = try #require(hostileItems.arrayValue)
        // Two more items with a column of their own, so a small window sees it late.
        let items =
            hostile + [.object(["id": .number(JSONNumber(6)), "late": .string("x,y")]), .object(["id": .null])]
        let selection = try fields.map { try FieldSelection(parsing: $0) }
        for settings in Self.plainAndDressed(format, selection) {
            for window in [1000, 2] {
                let whole = try await Self.output(settings, window: window) { pipeline, sink in
                    try await pipeline.render(ContentResult(body: .document(.array(items))), to: &sink)
                }
                let read = try await Self.output(settings, window: window) { pipeline, sink in
                    try await pipeline.render(items: ListReader(items), to: &sink)
                }
                let context = "\(format) fields \(fields ?? "none") window \(window) pretty \(settings.pretty)"
                #expect(read.bytes == whole.bytes, "\(context): \(String(decoding: read.bytes, as: UTF8.self))")
                #expect(read.summary == whole.summary, "\(context)")
                #expect(read.summary.itemCount == items.count, "\(context)")
            }
        }
    }

    @Test(arguments: [OutputFormat.json, .ndjson, .csv, .tsv, .markdown, .table])
    func anEmptyReaderRendersLikeAnEmptyDocument(format: OutputFormat) async throws {
        for fields in [nil, "a,b.c"] as [String?] {
            let settings = OutputSettings(format: format, fields: try fields.map { try FieldSelection(parsing: $0) })
            let whole = try await Self.output(settings) { pipeline, sink in
                try await pipeline.render(ContentResult(body: .document(.array([]))), to: &sink)
            }
            let read = try await Self.output(settings) { pipeline, sink in
                try await pipeline.render(items: ListReader([]), to: &sink)
            }
            #expect(read.bytes == whole.bytes, "\(format) \(fields ?? "none")")
            #expect(read.summary.itemCount == 0)
        }
    }

    @Test(arguments: readerFieldSelections)
    func aJSONItemReaderWithFieldsRendersLikeTheWholeDocument(fields: String?) async throws {
        // Only what the fields read is built from the text; the output must not show the difference.
        let selection = try fields.map { try FieldSelection(parsing: $0) }
        let bytes = Array(Fixtures.hostileJSON.utf8)
        for format in [OutputFormat.ndjson, .csv, .table] {
            let settings = OutputSettings(format: format, fields: selection)
            var reader = JSONItemReader(
                input: JSONMemoryInput(bytes, chunkSize: 7), itemsPath: nil, keeping: selection?.fields.map(\.path),
                bufferSize: 16)
            let start = try reader.start()
            #expect(start == .items)
            let started = reader
            let read = try await Self.output(settings) { pipeline, sink in
                try await pipeline.render(items: started, to: &sink)
            }
            let whole = try await Self.output(settings) { pipeline, sink in
                try await pipeline.render(try Fixtures.result(try Fixtures.hostileItems), to: &sink)
            }
            #expect(read.bytes == whole.bytes, "\(format): \(String(decoding: read.bytes, as: UTF8.self))")
        }
    }

    @Test(arguments: [OutputFormat.ndjson, .json])
    func aFailingReaderPropagatesAfterTheItemsBeforeIt(format: OutputFormat) async throws {
        let items = (1...5).map { JSONValue.object(["n": .number(JSONNumber($0)), "s": .string("row \($0)")]) }
        var sink = MemorySink()
        await #expect(throws: ListReader.Failure.self) {
            _ = try await OutputPipeline(settings: OutputSettings(format: format))
                .render(items: ListReader(items, failingAt: 3), to: &sink)
        }
        let text = sink.text
        switch format {
        case .json:
            // The array is left open: what came before the failure, each item whole.
            #expect(text.hasPrefix("["))
            #expect(!text.hasSuffix("]\n"))
            let written = try JSONParser().parse(text + "]")
            #expect(written == .array(Array(items.prefix(3))))
        default:
            let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
            #expect(lines.count == 4)
            #expect(lines.last == "")
            let written = try lines.dropLast().map { try JSONParser().parse(String($0)) }
            #expect(written == Array(items.prefix(3)))
        }
    }

    @Test func aReaderFailingAfterTheWindowKeepsTheRowsBeforeIt() async throws {
        let items = (1...5).map { JSONValue.object(["n": .number(JSONNumber($0)), "s": .string("row, \($0)")]) }
        var sink = MemorySink()
        await #expect(throws: ListReader.Failure.self) {
            _ = try await OutputPipeline(settings: OutputSettings(format: .csv), window: 2)
                .render(items: ListReader(items, failingAt: 4), to: &sink)
        }
        #expect(sink.text == "n,s\n1,\"row, 1\"\n2,\"row, 2\"\n3,\"row, 3\"\n4,\"row, 4\"\n")
    }

    @Test func aReaderFailingInsideTheFirstWindowStillKeepsTheRowsBeforeIt() async throws {
        // `content format` promises the rows before malformed input are written, however few there are.
        let items = (1...5).map { JSONValue.object(["n": .number(JSONNumber($0))]) }
        var sink = MemorySink()
        await #expect(throws: ListReader.Failure.self) {
            _ = try await OutputPipeline(settings: OutputSettings(format: .csv))
                .render(items: ListReader(items, failingAt: 3), to: &sink)
        }
        #expect(sink.text == "n\n1\n2\n3\n")
    }

    // MARK: - Items as text

    /// The hand-written texts, then the hostile fixture as `JSONValue.write(to:)` writes it: text no serializer
    /// would produce beside text it does.
    private static func itemTexts() throws -> [[UInt8]] {
        let hostile = try Fixtures.hostileItems
        let fixture = try #require(hostile.arrayValue)
        return handWrittenItemTexts.map { Array($0.utf8) }
            + fixture.map { item -> [UInt8] in
                var text: [UInt8] = []
                item.write(to: &text)
                return text
            }
    }

    @Test(arguments: [OutputFormat.csv, .tsv, .markdown, .table], textFieldSelections)
    func itemTextRendersLikeTheParsedItems(format: OutputFormat, fields: String?) async throws {
        // Rows found in the text must be byte for byte the rows built from parsed values.
        let texts = try Self.itemTexts()
        let items = try texts.map { try JSONParser().parse($0) }
        let selection = try fields.map { try FieldSelection(parsing: $0) }
        for settings in Self.plainAndDressed(format, selection) {
            for window in [1000, 2] {
                let whole = try await Self.output(settings, window: window) { pipeline, sink in
                    try await pipeline.render(ContentResult(body: .document(.array(items))), to: &sink)
                }
                let listed = try await Self.output(settings, window: window) { pipeline, sink in
                    try await pipeline.render(items: ListReader(items), to: &sink)
                }
                let log = ReadingLog()
                let texted = try await Self.output(settings, window: window) { pipeline, sink in
                    try await pipeline.render(items: TextListReader(texts, log: log), to: &sink)
                }
                let context = "\(format) fields \(fields ?? "none") window \(window) pretty \(settings.pretty)"
                #expect(texted.bytes == whole.bytes, "\(context): \(String(decoding: texted.bytes, as: UTF8.self))")
                #expect(texted.bytes == listed.bytes, "\(context)")
                #expect(texted.summary == whole.summary, "\(context)")
                #expect(texted.summary == listed.summary, "\(context)")
                #expect(texted.summary.itemCount == texts.count, "\(context)")
                // The comparison proves something only if rows really came from the text.
                if selection == nil {
                    #expect(log.textReads == 0, "\(context): without fields every item is built")
                } else if format == .csv || format == .tsv {
                    #expect(log.textReads == texts.count, "\(context): no sample window, every row from the text")
                } else if window < texts.count {
                    #expect(log.textReads > 0, "\(context): the rows after the window come from the text")
                }
            }
        }
    }

    @Test func itemTextFailingMidwayWritesTheRowsBeforeItAsTheyAreRead() async throws {
        let texts = (1...5).map { Array(#"{ "s" : "row, \#($0)" , "n" : \#($0) }"#.utf8) }
        let settings = OutputSettings(format: .csv, fields: try FieldSelection(parsing: "n,s"))
        let log = ReadingLog()
        var sink = LoggingSink(log: log)
        await #expect(throws: TextListReader.Failure.self) {
            _ = try await OutputPipeline(settings: settings)
                .render(items: TextListReader(texts, failingAt: 3, log: log), to: &sink)
        }
        let header = "n,s\n"
        let rows = ["1,\"row, 1\"\n", "2,\"row, 2\"\n", "3,\"row, 3\"\n"]
        #expect(log.written == Array((header + rows.joined()).utf8))
        // The same rows as the first three items in a document give.
        let before = try texts.prefix(3).map { try JSONParser().parse($0) }
        let whole = try await Self.output(settings) { pipeline, sink in
            try await pipeline.render(ContentResult(body: .document(.array(before))), to: &sink)
        }
        #expect(log.written == whole.bytes)
        // No sample window: each row is out before the next item is asked for, the failing one included.
        #expect(log.writtenBeforeEachCall == (0...3).map { Array((header + rows.prefix($0).joined()).utf8) })
        #expect(log.textReads == 3)
    }

    @Test(arguments: [OutputFormat.csv, .tsv, .markdown, .table])
    func aFieldMappedOverAnArrayFallsBackToBuiltItems(format: OutputFormat) async throws {
        let selection = try FieldSelection(parsing: "title,xs=tags[].x,tags[],n=image[].deep[1],price")
        // A precondition, not the point: `[]` is what the projection cannot find in text.
        let projectable = JSONTextProjection(paths: selection.fields.map(\.path)) != nil
        #expect(!projectable)
        let mapped = [
            #" { "tags" : [ {"x":1} , {"y":2} , {"x":"a,\"b\"\n"} , 3 ] , "title" : "mapped" } "#,
            #"{"image":[{"deep":[0,"one, \u0031"]},{"deep":[]},{"deep":[0,{"k":null}]}],"price":-0.0}"#,
        ]
        let texts = try Self.itemTexts() + mapped.map { Array($0.utf8) }
        let items = try texts.map { try JSONParser().parse($0) }
        for window in [1000, 2] {
            let settings = OutputSettings(format: format, fields: selection)
            let whole = try await Self.output(settings, window: window) { pipeline, sink in
                try await pipeline.render(ContentResult(body: .document(.array(items))), to: &sink)
            }
            let log = ReadingLog()
            let texted = try await Self.output(settings, window: window) { pipeline, sink in
                try await pipeline.render(items: TextListReader(texts, log: log), to: &sink)
            }
            let context = "\(format) window \(window)"
            #expect(texted.bytes == whole.bytes, "\(context): \(String(decoding: texted.bytes, as: UTF8.self))")
            #expect(texted.summary == whole.summary, "\(context)")
            #expect(texted.summary.itemCount == texts.count, "\(context)")
            #expect(log.textReads == 0, "\(context): every item built, none read as text")
        }
    }
}

/// Field selections for the reader tests: none, nested paths with missing values, a whole object
/// beside one of its members.
private let readerFieldSelections: [String?] = [
    nil, "price,name=title,image._path,image.deep.er.est,tags[1],missing.value", "image,image._path,note",
]

/// Hands out a list of items one at a time; with `failingAt`, throws instead of handing out that one.
private struct ListReader: ItemReader {
    struct Failure: Error {}

    let items: [JSONValue]
    let failingAt: Int?
    private var position = 0

    init(_ items: [JSONValue], failingAt: Int? = nil) {
        self.items = items
        self.failingAt = failingAt
    }

    mutating func next() throws -> JSONValue? {
        if position == failingAt { throw Failure() }
        guard position < items.count else { return nil }
        defer { position += 1 }
        return items[position]
    }
}

/// Field selections for the text reader tests: none; the usual paths with escaped, duplicate and missing members;
/// names equal only canonically, `0` and `[0]` on a bare array, `.1` and `[1]` side by side, a dotted name; one
/// path twice under two names beside its parent.
private let textFieldSelections: [String?] = [
    nil,
    "title,price,tags[1],tags.0,image._path,image,missing.deep,dup.inner",
    #"caf\#u{E9},dup,tags,at0=[0],zero=0,odd=["odd.name"],image.width,tags.1,tags[1]"#,
    "p=image._path,image._path,image,i=image,dup.inner,dup,missing",
]

/// Items as a person or another tool writes them, never as `JSONValue.write(to:)` does.
///
/// Whitespace between tokens, escaped and duplicate member names (the last wins), escapes in values, numbers as
/// written, items that are not objects: a projection must read from them exactly what the parser builds.
private let handWrittenItemTexts: [String] = [
    // Whitespace of every kind around and between tokens; the escaped duplicate of `title` comes last and wins.
    #"\#r\#n {\#t"title" : "loses" ,\#n "\u0074itle"\#t:\#t"Surf, \"Sun\"\\shade\/roof" ,\#r\#n "price" :-0.0 ,"#
        + #" "tags" : [ "a" , "b,c" , "d" ] , "image" : { "_path" : "/a.jpg" , "width" : 1200 } }\#n\#t "#,
    // An escaped name a later plain one replaces; escapes of every kind; a later `dup` without `inner`.
    #"{"\u0074itle":"loses","title":"Caf\u00e9 \ud83c\udfc4\ttab\r\nCRLF\nLF","price":1E+2,"tags":["x","y\nz",7],"#
        + #""image":null,"dup":{"inner":"early"},"dup":{"other":1}}"#,
    // Plain text with a comma, a pipe and emoji, copied as written; `tags` an object whose names are numbers.
    #"{"price":12345678901234567890,"title":"東京, 🏄‍♀️ | plain","tags":{"1":"one","0":"zero"},"image":true,"#
        + #""dup":{"inner":"early"},"dup":{"inner":"late","inner":"later"},"missing":{"deep":false}}"#,
    #"  "just a string, not an object"  "#,
    #"[ "zero" , { "title" : "inside an array" } , [ 1 , 2 ] ]"#,
    "null",
    " true ",
    "-12.5e3",
    "{ }",
    // Objects and arrays as values, numbers inside arrays, a name holding a dot, a number replaced by an object.
    #"{"title":"","price":false,"tags":[0,-0.0,1E-7,null],"image":{"_path":{"deep":[1,{"x":"y"}]},"width":-1.5e-3},"#
        + #""missing":{"deep":null},"odd.name":"dotted","dup":5,"dup":{"inner":"from the later object"}}"#,
    // Later duplicates that drop what the earlier ones had.
    #"{"tags":["a","b"],"tags":["only"],"image":{"_path":"/first.jpg"},"image":{"width":5},"dup":{"inner":"x"},"#
        + #""dup":null,"price":true}"#,
    // Names equal only as Swift compares strings (precomposed, decomposed escaped or raw), either way round.
    #"{"caf\#u{E9}":"precomposed","cafe\u0301":"decomposed, escaped","title":"back\\slash \"quoted\" \/ \u00e9"}"#,
    #"{"cafe\#u{301}":"decomposed","caf\#u{E9}":"precomposed, raw","price":-0}"#,
    // Control characters, a name that only looks like `title`, a `tags` that is neither an array nor an object.
    #"{"ti\"tle":"not the title","title":"\u001b[31mred\u001b[0m\u0000nul","price":0.5e+10,"tags":"no"}"#,
]

/// Hands out items kept as JSON text, as a file reader does: `next()` parses one, `nextText(_:)` hands its bytes
/// over unparsed; with `failingAt`, throws instead of handing out that one.
private struct TextListReader: ItemTextReader {
    struct Failure: Error {}

    let texts: [[UInt8]]
    let failingAt: Int?
    let log: ReadingLog
    private var position = 0

    init(_ texts: [[UInt8]], failingAt: Int? = nil, log: ReadingLog = ReadingLog()) {
        self.texts = texts
        self.failingAt = failingAt
        self.log = log
    }

    mutating func next() throws -> JSONValue? {
        guard let text = try advance(.value) else { return nil }
        return try JSONParser().parse(text)
    }

    mutating func nextText(_ body: (UnsafeRawBufferPointer) throws -> Void) throws -> Bool {
        guard let text = try advance(.text) else { return false }
        try text.withUnsafeBytes { try body($0) }
        return true
    }

    /// The next item's text, noting the call and how the item was asked for.
    private mutating func advance(_ read: ReadingLog.Read) throws -> [UInt8]? {
        log.noteCall()
        if position == failingAt { throw Failure() }
        guard position < texts.count else { return nil }
        log.noteHandedOut(read)
        position += 1
        return texts[position - 1]
    }
}

/// What a reader was asked for and what a sink received, in order: shared by both, so a test sees when rows go
/// out relative to the reads, and whether the rows came from text at all.
private final class ReadingLog {
    /// How an item was handed out.
    enum Read: Equatable {
        case value
        case text
    }

    /// How each item handed out was asked for.
    private(set) var reads: [Read] = []
    /// Everything the sink received.
    private(set) var written: [UInt8] = []
    /// What the sink had received at each call to the reader, the end or a failure included.
    private(set) var writtenBeforeEachCall: [[UInt8]] = []

    /// How many items were handed out as text.
    var textReads: Int { reads.count(where: { $0 == .text }) }

    func noteCall() { writtenBeforeEachCall.append(written) }
    func noteHandedOut(_ read: Read) { reads.append(read) }
    func noteWrite(_ bytes: some Collection<UInt8>) { written.append(contentsOf: bytes) }
}

/// A sink that records into a ``ReadingLog``, interleaved with the reads.
private struct LoggingSink: OutputSink {
    let log: ReadingLog

    mutating func write(_ bytes: some Collection<UInt8>) { log.noteWrite(bytes) }
    mutating func flush() {}
}
