import Foundation
import Testing

/// `content format` through the built binary: files, stdin, pipes and bad input.
struct FormatEndToEndTests {
    private static let adventures = """
        {"data":{"adventureList":{"items":[
          {"title":"Bali Surf Camp","price":5000.00,"tripLength":"6 days","primaryImage":{"_path":"/bali.jpg"}},
          {"title":"Climbing New Zealand","price":900,"tripLength":"2 days","primaryImage":{"_path":"/nz.jpg"}}
        ]}}}
        """

    @Test func csvWithItemsAndFieldsFromAFile() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let file = try scratch.write(Self.adventures, to: "response.json")
        let result = try ContentProcess.run(
            [
                "format", file.path, "-o", "csv", "--items", "data.adventureList.items", "--fields",
                "title,price,image=primaryImage._path",
            ],
            in: scratch.url
        )
        #expect(result.status == 0)
        #expect(
            result.stdout == "title,price,image\nBali Surf Camp,5000.00,/bali.jpg\nClimbing New Zealand,900,/nz.jpg\n")
        #expect(result.stderr.isEmpty)
    }

    @Test func jsonIsTheDefaultOffATerminal() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let file = try scratch.write(Self.adventures, to: "response.json")
        let result = try ContentProcess.run(
            ["format", file.path, "--items", "data.adventureList.items"], in: scratch.url)
        #expect(result.status == 0)
        #expect(result.stdout.hasPrefix(#"[{"title":"Bali Surf Camp","price":5000.00,"#))
        #expect(result.stdout.hasSuffix("}]\n"))
    }

    @Test func configuredDefaultFormatApplies() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        try scratch.write("defaults:\n  output: ndjson\n", to: "content.yaml")
        let file = try scratch.write(#"[{"a":1},{"a":2}]"#, to: "in.json")
        let result = try ContentProcess.run(["format", file.path], in: scratch.url)
        #expect(result.stdout == "{\"a\":1}\n{\"a\":2}\n")
    }

    @Test func ndjsonOnStdinBecomesRows() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let input = try scratch.write("{\"a\":1,\"b\":\"x\"}\n{\"a\":2,\"b\":\"y\"}\n", to: "in.ndjson")
        let result = try ContentProcess.run(["format", "-", "-o", "tsv"], in: scratch.url, stdin: input)
        #expect(result.status == 0)
        #expect(result.stdout == "a\tb\n1\tx\n2\ty\n")
    }

    @Test func malformedInputExitsSevenWithItsPosition() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let file = try scratch.write("[\n  {\"a\": 1},\n  {\"a\" 2}\n]\n", to: "bad.json")
        let result = try ContentProcess.run(["format", file.path], in: scratch.url)
        #expect(result.status == 7)
        // The input is read as it comes: the item before the error is already out.
        #expect(result.stdout == #"[{"a":1}"#)
        #expect(result.stderr.contains("\(file.path):3:8: malformed JSON at line 3, column 8 (byte 21)"))
        #expect(result.stderr.contains("expected ':'"))
    }

    @Test func missingFileIsAUsageError() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let result = try ContentProcess.run(["format", "nope.json"], in: scratch.url)
        #expect(result.status == 2)
        #expect(result.stderr.contains("nope.json: the file does not exist"))
    }

    @Test func wrongItemsPathIsAUsageErrorNamingTheKeys() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let file = try scratch.write(Self.adventures, to: "response.json")
        let result = try ContentProcess.run(["format", file.path, "--items", "data.adventures"], in: scratch.url)
        #expect(result.status == 2)
        #expect(result.stderr.contains("top-level keys there: adventureList"))
    }

    @Test func emptyResultSaysNoItemsOnStderr() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let file = try scratch.write(#"{"data":{"list":{"items":[]}}}"#, to: "empty.json")
        let result = try ContentProcess.run(
            ["format", file.path, "--items", "data.list.items", "-o", "table"], in: scratch.url)
        #expect(result.status == 0)
        #expect(result.stdout.isEmpty)
        #expect(result.stderr.contains("no items"))
    }

    @Test func closedPipeEndsQuietlyWithExitZero() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        var lines: [String] = []
        for index in 0..<200_000 { lines.append(#"{"n":\#(index),"text":"some padding to make the output large"}"#) }
        let file = try scratch.write(lines.joined(separator: "\n"), to: "big.ndjson")
        for format in ["ndjson", "csv", "table", "json"] {
            let script =
                "'\(ContentProcess.binary.path)' format '\(file.path)' -o \(format) | head -1; echo \"status=${PIPESTATUS[0]}\" >&2"
            let result = try ContentProcess.run(shell: script, in: scratch.url)
            #expect(result.stderr == "status=0\n", "\(format)")
            #expect(result.stdout.split(separator: "\n").count == 1, "\(format)")
        }
    }

    // MARK: - Large inputs, read as they arrive

    /// Twenty thousand adventures, shared by the tests that read a large response.
    private static let largeResponse = GeneratedAdventures(count: 20_000)

    /// `--items` and `--fields` for the generated response.
    private static let projection = [
        "--items", GeneratedAdventures.itemsPath, "--fields", GeneratedAdventures.fields.joined(separator: ","),
    ]

    @Test func largeResponseToCSVFromAFileAndFromAPipe() throws {
        let response = Self.largeResponse
        let scratch = try Scratch()
        defer { scratch.remove() }
        let file = try scratch.write(response.text, to: "adventures.json")
        let expected = response.csv()

        let fromFile = try ContentProcess.run(["format", file.path, "-o", "csv"] + Self.projection, in: scratch.url)
        #expect(fromFile.status == 0)
        #expect(fromFile.stderr.isEmpty, "\(fromFile.stderr)")
        let fileMatches = fromFile.stdout.utf8.elementsEqual(expected.utf8)
        #expect(fileMatches, "\(firstDifference(fromFile.stdout, expected))")

        // A pipe hands the bytes over in small pieces and cannot be read again.
        let fromPipe = try Self.piped(file, ["-o", "csv"] + Self.projection, in: scratch)
        #expect(fromPipe.status == 0)
        #expect(fromPipe.stderr.isEmpty, "\(fromPipe.stderr)")
        let pipeMatches = fromPipe.stdout.utf8.elementsEqual(fromFile.stdout.utf8)
        #expect(pipeMatches, "\(firstDifference(fromPipe.stdout, fromFile.stdout))")
    }

    /// Runs `cat FILE | content format - ARGUMENTS`; the status is `content`'s.
    static func piped(_ file: URL, _ arguments: [String], in scratch: Scratch) throws -> ContentProcess.Result {
        let command = ([ContentProcess.binary.path, "format", "-"] + arguments).map { "'\($0)'" }
        return try ContentProcess.run(
            shell: "cat '\(file.path)' | \(command.joined(separator: " "))", in: scratch.url)
    }

    @Test func largeResponseToNDJSONHoldsEachItemsProjection() throws {
        let response = Self.largeResponse
        // The generated text is valid JSON whose items hold what the test expects, read by Foundation.
        let parsed = try JSONSerialization.jsonObject(with: Data(response.text.utf8))
        let data = (parsed as? [String: Any])?["data"] as? [String: Any]
        let list = data?["adventureList"] as? [String: Any]
        let items = try #require(list?["items"] as? [Any])
        #expect(items.count == response.rows.count)
        var inputProblems: [String] = []
        for (index, item) in items.enumerated() where index < response.rows.count {
            let object = item as? [String: Any]
            let image = object?["primaryImage"] as? [String: Any]
            let values: [Any?] = [object?["title"], object?["price"], image?["_dynamicUrl"]]
            for (value, cell) in zip(values, response.rows[index].cells) where !GeneratedAdventures.holds(value, cell) {
                inputProblems.append("item \(index): \(String(describing: value)) is not \(cell)")
            }
        }
        #expect(inputProblems.isEmpty, "\(inputProblems.prefix(5))")

        let scratch = try Scratch()
        defer { scratch.remove() }
        let file = try scratch.write(response.text, to: "adventures.json")
        let result = try ContentProcess.run(["format", file.path, "-o", "ndjson"] + Self.projection, in: scratch.url)
        #expect(result.status == 0)
        #expect(result.stderr.isEmpty, "\(result.stderr)")
        let lines = result.stdout.split(separator: "\n", omittingEmptySubsequences: false)
        // One line an item, each ended by a line feed.
        #expect(lines.count == response.rows.count + 1)
        #expect(lines.last == "")
        var problems: [String] = []
        for (index, row) in response.rows.enumerated() where index < lines.count {
            if let problem = GeneratedAdventures.problem(inNDJSONLine: String(lines[index]), expecting: row) {
                problems.append("line \(index + 1): \(problem)")
            }
        }
        #expect(problems.isEmpty, "\(problems.prefix(5))")
    }

    /// The large response with a comma missing in item `broken`, on line `line`: the error's column and
    /// byte offset, computed from where the comma was left out.
    private static func brokenResponse(
        item broken: Int
    ) -> (text: String, line: Int, column: Int, offset: Int) {
        var lines = largeResponse.lines
        let lineIndex = GeneratedAdventures.firstItemLine - 1 + broken
        let (text, column) = largeResponse.lineMissingAComma(item: broken)
        lines[lineIndex] = text
        let offset = lines[..<lineIndex].reduce(0) { $0 + $1.utf8.count + 1 } + column - 1
        return (lines.joined(separator: "\n") + "\n", lineIndex + 1, column, offset)
    }

    @Test func malformedInputFarIntoALargeFileKeepsTheRowsBeforeIt() throws {
        let broken = 4_998
        let (text, line, column, offset) = Self.brokenResponse(item: broken)
        // Far enough in that the reader has moved past its first megabyte before it gets there.
        #expect(offset > 1 << 20)
        let scratch = try Scratch()
        defer { scratch.remove() }
        let file = try scratch.write(text, to: "broken.json")
        // Rows are written as they are read, so every item before the broken one is in the output.
        let expected = Self.largeResponse.csv(rows: broken)
        let arguments = ["-o", "csv"] + Self.projection
        // From the file (read again to place the error), and from stdin twice: a file, then a pipe.
        let results = try [
            (file.path, ContentProcess.run(["format", file.path] + arguments, in: scratch.url)),
            ("<stdin>", ContentProcess.run(["format", "-"] + arguments, in: scratch.url, stdin: file)),
            ("<stdin>", Self.piped(file, arguments, in: scratch)),
        ]
        for (name, result) in results {
            #expect(result.status == 7, "\(name)")
            let place = "\(name):\(line):\(column): malformed JSON at line \(line), column \(column) (byte \(offset))"
            #expect(result.stderr.contains(place + ": expected ',' or '}'"), "\(result.stderr)")
            let kept = result.stdout.utf8.elementsEqual(expected.utf8)
            #expect(kept, "\(name): \(firstDifference(result.stdout, expected))")
        }
    }

    @Test func malformedInputFromAPipeNamedLikeAFileIsPlacedWhereItIs() throws {
        // `<(cat FILE)` names a pipe by a path: opening that path again does not read the bytes again.
        let (text, line, column, offset) = Self.brokenResponse(item: 4_998)
        let scratch = try Scratch()
        defer { scratch.remove() }
        let file = try scratch.write(text, to: "broken.json")
        let options = (["-o", "csv"] + Self.projection).map { "'\($0)'" }.joined(separator: " ")
        let script = "'\(ContentProcess.binary.path)' format <(cat '\(file.path)') \(options)"
        let result = try ContentProcess.run(shell: script, in: scratch.url)
        #expect(result.status == 7)
        let place = ":\(line):\(column): malformed JSON at line \(line), column \(column) (byte \(offset))"
        #expect(result.stderr.contains(place), "\(result.stderr)")
        #expect(result.stdout.utf8.elementsEqual(Self.largeResponse.csv(rows: 4_998).utf8))
    }

    @Test func closedPipeAfterTheHeaderIsQuiet() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let file = try scratch.write(Self.largeResponse.text, to: "adventures.json")
        let arguments = (["format", file.path, "-o", "csv"] + Self.projection).map { "'\($0)'" }
        let script = "set -o pipefail; '\(ContentProcess.binary.path)' \(arguments.joined(separator: " ")) | head -1"
        let result = try ContentProcess.run(shell: script, in: scratch.url)
        #expect(result.status == 0)
        #expect(result.stderr.isEmpty, "\(result.stderr)")
        #expect(result.stdout == GeneratedAdventures.fields.joined(separator: ",") + "\n")
    }

    // MARK: - NDJSON of whole responses, and single objects

    @Test func itemsPathAppliesToEveryResponseOfAnNDJSONStream() throws {
        // Each page is a whole response; its items are at data.list (an object there is one item).
        let pages: [(items: [(id: Int, name: String?)], asObject: Bool)] = [
            ([(1, "a, b"), (2, "Zoë \"Z\"")], false),
            ([], false),
            ([(3, "solo")], true),
            ([(4, "line\nbreak"), (5, nil)], false),
        ]
        var lines: [String] = []
        for (number, page) in pages.enumerated() {
            let items = page.items.map { item in
                let name = item.name.map { #","name":"# + GeneratedAdventures.quoted($0, ascii: number % 2 == 1) } ?? ""
                return #"{"id":\#(item.id)\#(name),"list":[{"id":-1}]}"#
            }
            let list = page.asObject ? items.joined(separator: ",") : "[" + items.joined(separator: ",") + "]"
            lines.append(
                #"{"meta":{"page":\#(number),"list":[{"id":-1}]},"#
                    + #""data":{"before":{"list":[{"id":-2}]},"list":\#(list),"after":{"list":[{"id":-3}]}},"#
                    + #""errors":[]}"#)
        }
        var expected = "id,name\n"
        for item in pages.flatMap({ $0.items }) {
            let name = item.name.map { GeneratedAdventures.Cell.string($0) } ?? .missing
            expected += "\(item.id)," + GeneratedAdventures.csvField(name) + "\n"
        }
        let scratch = try Scratch()
        defer { scratch.remove() }
        let file = try scratch.write(lines.joined(separator: "\n") + "\n", to: "pages.ndjson")
        let arguments = ["-o", "csv", "--items", "data.list", "--fields", "id,name"]
        let fromFile = try ContentProcess.run(["format", file.path] + arguments, in: scratch.url)
        #expect(fromFile.status == 0)
        #expect(fromFile.stderr.isEmpty, "\(fromFile.stderr)")
        #expect(fromFile.stdout.utf8.elementsEqual(expected.utf8), "\(fromFile.stdout)")
        let fromStdin = try ContentProcess.run(["format", "-"] + arguments, in: scratch.url, stdin: file)
        #expect(fromStdin.status == 0)
        #expect(fromStdin.stdout.utf8.elementsEqual(expected.utf8), "\(fromStdin.stdout)")
    }

    @Test func aResponseWithoutTheItemsPathStopsTheStreamAsAUsageError() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let text = #"{"data":{"list":[{"id":1},{"id":2}]}}"# + "\n" + #"{"data":{"other":[],"more":1}}"# + "\n"
        let file = try scratch.write(text, to: "pages.ndjson")
        let result = try ContentProcess.run(
            ["format", file.path, "-o", "ndjson", "--items", "data.list"], in: scratch.url)
        #expect(result.status == 2)
        #expect(result.stderr.contains("'data.list'"), "\(result.stderr)")
        #expect(result.stderr.contains("top-level keys there: other, more"), "\(result.stderr)")
        // The first response's items were written before the second one was read.
        #expect(result.stdout == "{\"id\":1}\n{\"id\":2}\n")
    }

    @Test func aSingleObjectAtTheItemsPathIsOneRecord() throws {
        let title = "Yosemite, \"Valley\""
        let object =
            #"{"title":"# + GeneratedAdventures.quoted(title, ascii: false)
            + #","price":3500.50,"image":{"_path":"/y.jpg","width":800}}"#
        let document = #"{"meta":{"x":[1,2]},"data":{"adventure":\#(object),"after":{"adventure":null}},"errors":[]}"#
        let scratch = try Scratch()
        defer { scratch.remove() }
        let file = try scratch.write(document, to: "one.json")
        func run(_ arguments: [String]) throws -> ContentProcess.Result {
            try ContentProcess.run(["format", file.path, "--items", "data.adventure"] + arguments, in: scratch.url)
        }

        // JSON prints the object itself, members and number text as written, not an array of one.
        let json = try run(["-o", "json"])
        #expect(json.status == 0)
        #expect(json.stdout == object + "\n")

        let titleCell = GeneratedAdventures.csvField(.string(title))
        let csv = try run(["-o", "csv"])
        #expect(csv.status == 0)
        #expect(csv.stdout == "title,price,image._path,image.width\n\(titleCell),3500.50,/y.jpg,800\n")

        let fields = try run(["-o", "csv", "--fields", "title,path=image._path,missing"])
        #expect(fields.stdout == "title,path,missing\n\(titleCell),/y.jpg,\n")

        // A table shows one record as key and value lines.
        let table = try run(["-o", "table"])
        let rows = table.stdout.split(separator: "\n").map(String.init)
        let pairs = [("title", title), ("price", "3500.50"), ("image._path", "/y.jpg"), ("image.width", "800")]
        #expect(rows.count == pairs.count, "\(table.stdout)")
        for (row, pair) in zip(rows, pairs) {
            #expect(row.hasPrefix(pair.0 + " ") && row.hasSuffix(" " + pair.1), "\(row)")
        }
    }
}

/// The first line where two texts differ, for a readable failure.
func firstDifference(_ actual: String, _ expected: String) -> String {
    let got = actual.split(separator: "\n", omittingEmptySubsequences: false)
    let wanted = expected.split(separator: "\n", omittingEmptySubsequences: false)
    for index in 0..<max(got.count, wanted.count) {
        let left = index < got.count ? String(got[index]) : nil
        let right = index < wanted.count ? String(wanted[index]) : nil
        if left.map({ Array($0.utf8) }) != right.map({ Array($0.utf8) }) {
            return "line \(index + 1) is \(left.debugDescription), expected \(right.debugDescription) "
                + "(\(got.count) lines, expected \(wanted.count))"
        }
    }
    return "no line differs"
}

/// An AEM-style GraphQL response generated for the tests, one item a line, with what each item's
/// `title`, `price` and `primaryImage._dynamicUrl` hold.
///
/// Items spell strings both raw and with `\u` escapes, and hold quotes, commas, line breaks, tabs,
/// accents (precomposed and combining) and emoji; some lack a field, or have it `null`, or have a
/// `primaryImage` that is not an object. Every level has members before and after the one the path
/// follows, some with the same names as the fields, to be passed over.
struct GeneratedAdventures: Sendable {
    /// What a field holds in one item.
    enum Cell: Sendable, Equatable {
        case string(String)
        /// A number, as written in the JSON text.
        case number(String)
        case null
        case missing
    }

    /// One item's selected fields, in `fields` order.
    struct Row: Sendable {
        var title: Cell
        var price: Cell
        var image: Cell

        var cells: [Cell] { [title, price, image] }
    }

    static let itemsPath = "data.adventureList.items"
    static let fields = ["title", "price", "primaryImage._dynamicUrl"]
    /// The line of the first item, from 1.
    static let firstItemLine = 2

    let rows: [Row]
    /// The document's lines, without line feeds.
    let lines: [String]

    init(count: Int) {
        var rows: [Row] = []
        var lines = [Self.head]
        rows.reserveCapacity(count)
        lines.reserveCapacity(count + 2)
        for index in 0..<count {
            let item = Self.item(index)
            rows.append(item.row)
            lines.append("  {" + item.members.joined(separator: ",") + "}" + (index + 1 < count ? "," : ""))
        }
        lines.append(Self.tail)
        self.rows = rows
        self.lines = lines
    }

    /// The whole document.
    var text: String { lines.joined(separator: "\n") + "\n" }

    /// The CSV of the first `rows` items (all by default): a header, then one record an item.
    func csv(rows count: Int? = nil) -> String {
        var text = Self.fields.map { Self.csvField(.string($0)) }.joined(separator: ",") + "\n"
        for row in rows.prefix(count ?? rows.count) {
            text += row.cells.map(Self.csvField).joined(separator: ",") + "\n"
        }
        return text
    }

    /// The line of an item with the comma after its description left out, and a column.
    ///
    /// The column (in bytes, from 1) is that of the member name a reader meets instead.
    func lineMissingAComma(item index: Int) -> (text: String, column: Int) {
        let item = Self.item(index)
        let head = "  {" + item.members[...item.description].joined(separator: ",") + " "
        let rest = item.members[(item.description + 1)...].joined(separator: ",")
        return (head + rest + "}" + (index + 1 < rows.count ? "," : ""), head.utf8.count + 1)
    }

    // MARK: Expectations

    /// A cell as RFC 4180 writes it: quoted when it holds `,` `"` CR or LF, with inner quotes doubled;
    /// numbers as written; nothing for null or missing.
    static func csvField(_ cell: Cell) -> String {
        switch cell {
        case .missing, .null: return ""
        case .number(let text): return text
        case .string(let text):
            let special: Set<Unicode.Scalar> = [",", "\"", "\r", "\n"]
            guard text.unicodeScalars.contains(where: special.contains) else { return text }
            var quoted = "\""
            for scalar in text.unicodeScalars {
                if scalar == "\"" { quoted.unicodeScalars.append(scalar) }
                quoted.unicodeScalars.append(scalar)
            }
            return quoted + "\""
        }
    }

    /// Whether a value Foundation read is the cell: strings scalar for scalar, numbers by value, `null`
    /// for null, nothing at all for missing.
    static func holds(_ value: Any?, _ cell: Cell) -> Bool {
        switch cell {
        case .missing:
            return value == nil
        case .null:
            return value is NSNull
        case .string(let text):
            guard let string = value as? String else { return false }
            return string.unicodeScalars.elementsEqual(text.unicodeScalars)
        case .number(let text):
            guard !(value is String), let number = value as? NSNumber, let expected = Double(text) else { return false }
            return number.doubleValue == expected
        }
    }

    /// What is wrong with one NDJSON output line, or `nil`: it must be an object of exactly the fields,
    /// in order, holding the item's values (`null` for missing ones).
    static func problem(inNDJSONLine line: String, expecting row: Row) -> String? {
        guard line.hasPrefix(#"{"title":"#) else { return "does not start with the first field: \(line)" }
        let parsed: Any
        do {
            parsed = try JSONSerialization.jsonObject(with: Data(line.utf8))
        } catch {
            return "\(error): \(line)"
        }
        guard let object = parsed as? [String: Any] else { return "not an object: \(line)" }
        guard Set(object.keys) == Set(fields) else { return "members \(object.keys.sorted()): \(line)" }
        // A projection writes `null` for a missing value.
        for (name, cell) in zip(fields, row.cells) where !holds(object[name], cell == .missing ? .null : cell) {
            return "\(name) is \(String(describing: object[name])), not \(cell): \(line)"
        }
        return nil
    }

    // MARK: Generating

    /// `text` as a JSON string; with `ascii`, everything past ASCII as `\u` escapes (surrogate pairs past
    /// the BMP) and `/` as `\/`, so both spellings are read.
    static func quoted(_ text: String, ascii: Bool) -> String {
        var json = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": json += "\\\""
            case "\\": json += "\\\\"
            case "\n": json += "\\n"
            case "\r": json += "\\r"
            case "\t": json += "\\t"
            case "/" where ascii: json += "\\/"
            default:
                guard scalar.value < 0x20 || (ascii && scalar.value > 0x7E) else {
                    json.unicodeScalars.append(scalar)
                    continue
                }
                let value = scalar.value
                let beyond = value &- 0x10000
                let units = value > 0xFFFF ? [0xD800 + (beyond >> 10), 0xDC00 + (beyond & 0x3FF)] : [value]
                for unit in units {
                    let hex = String(unit, radix: 16, uppercase: unit % 2 == 0)
                    json += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                }
            }
        }
        return json + "\""
    }

    private static func json(_ cell: Cell, ascii: Bool) -> String? {
        switch cell {
        case .missing: return nil
        case .null: return "null"
        case .number(let text): return text
        case .string(let text): return quoted(text, ascii: ascii)
        }
    }

    private static let head =
        #"{"extensions":{"data":{"adventureList":{"items":[{"title":"decoy"}]}},"cost":12.5},"#
        + #""data":{"meta":{"adventureList":{"items":[{"title":"decoy"}]}},"#
        + #""adventureList":{"_references":[{"title":"ref","price":1}],"total":20000,"items":["#

    private static let tail =
        #"],"pageInfo":{"hasNext":false,"endCursor":"]}\"{[","items":[{"title":"decoy"}]}},"#
        + #""after":{"adventureList":{"items":[{"title":"decoy"}]}}},"#
        + #""errors":[],"trailer":"{\"items\":[]}"}"#

    private static let titles = [
        "Bali Surf Camp",
        "Café \"Crème\", Paris",
        "Line one\nline two",
        "Windows\r\nline end",
        "e\u{301}galite\u{301}",
        " spaced out ",
        "東京 ツアー 🏄‍♀️",
        "tab\there; semi;colon",
        "back\\slash/solidus 'single'",
        "\"all quoted\"",
        "comma, only",
        "carriage\rreturn",
    ]

    private static let prices = ["5000.00", "152.59", "-0.5", "1e3", "1E+2", "0", "0.10", "12", "2.5e-3"]

    /// Short descriptions, each spelled raw and escaped.
    private static let blurbs: [String] = [
        "Surf at dawn.\nRest at \"the best\" café.",
        "Climb\tthe ridge; naïve résumé, 東京 🏄‍♀️",
        "A back\\slash, a solidus / and <b>markup</b>",
    ].flatMap { text in
        [false, true].map { ascii in #"{"plaintext":"# + Self.quoted(text, ascii: ascii) + "}" }
    }

    /// A long rich-text description: plain text, HTML and the structured form.
    private static let richDescription: String = {
        let paragraph = "Experience Bali\u{2019}s \"Uluwatu\" break,\nthen crème brûlée at sunset \u{1F305}. "
        let text = String(repeating: paragraph, count: 6)
        let html = "<p>" + text.replacingOccurrences(of: "\n", with: "<br/>") + "</p>"
        return #"{"plaintext":"# + Self.quoted(text, ascii: false) + #","html":"# + Self.quoted(html, ascii: true)
            + #","json":[{"nodeType":"paragraph","content":[{"nodeType":"text","value":"#
            + Self.quoted(text, ascii: true) + #"},{"nodeType":"text","value":"","format":{"variants":["bold"]}}]}]}"#
    }()

    /// Item `index`: its selected fields, its members' JSON, and which member is the description.
    private static func item(_ index: Int) -> (row: Row, members: [String], description: Int) {
        let ascii = index % 2 == 1
        var members = [#""_path":"/a/\#(index)""#]
        let title: Cell
        if index % 97 == 5 {
            title = .missing
        } else if index % 89 == 6 {
            title = .null
        } else if index % 101 == 7 {
            title = .number("-\(index).50")
        } else {
            title = .string("\(titles[index % titles.count]) #\(index)")
        }
        if let encoded = json(title, ascii: ascii) { members.append(#""title":"# + encoded) }
        members.append(#""description":"# + (index % 32 == 0 ? richDescription : blurbs[index % blurbs.count]))
        let description = members.count - 1
        let price: Cell
        if index % 13 == 3 {
            price = .missing
        } else if index % 17 == 4 {
            price = .null
        } else if index % 19 == 5 {
            price = .string("TBD, \"soon\"")
        } else {
            price = .number(prices[index % prices.count])
        }
        if let encoded = json(price, ascii: ascii) { members.append(#""price":"# + encoded) }
        let (image, imageJSON) = primaryImage(index, ascii: ascii)
        if let imageJSON { members.append(#""primaryImage":"# + imageJSON) }
        members.append(#""tags":["surf"],"more":{"title":"x","price":-1}"#)
        return (Row(title: title, price: price, image: image), members, description)
    }

    /// Item `index`'s `primaryImage._dynamicUrl` and the `primaryImage` JSON (`nil` to leave it out).
    private static func primaryImage(_ index: Int, ascii: Bool) -> (Cell, String?) {
        let start =
            #"{"_path":"/i/\#(index).jpg","# + (index % 3 == 0 ? #""rendition":{"_dynamicUrl":"/decoy"},"# : "")
        if index % 23 == 6 { return (.missing, "null") }
        if index % 29 == 7 { return (.missing, nil) }
        if index % 31 == 8 { return (.missing, quoted("/plain-\(index).jpg", ascii: ascii)) }
        if index % 37 == 9 { return (.missing, start + #""width":1200}"#) }
        if index % 43 == 10 { return (.null, start + #""_dynamicUrl":null,"width":1200}"#) }
        let url = index % 41 == 11 ? "/dm/\(index)/a.jpg?crop=0,0,50,50&w=1200" : "/dm/\(index)/a.jpg?q=80"
        return (.string(url), start + #""_dynamicUrl":"# + quoted(url, ascii: ascii) + #","width":1200}"#)
    }
}
