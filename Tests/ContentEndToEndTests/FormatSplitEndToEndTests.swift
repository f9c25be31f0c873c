import Foundation
import Testing

/// `content format` of files large enough (16 MiB and up) that CSV and TSV with `--fields` are read by two threads,
/// one from the start and one from an item near the middle: the output, errors and their places must be what one
/// thread gives, whatever is near the middle.
struct FormatSplitEndToEndTests {
    /// The size from which the file is split.
    private static let splitSize = 16 << 20
    /// Fifty thousand generated adventures: a little over the split size.
    private static let response = GeneratedAdventures(count: 50_000)
    private static let projection = [
        "--items", GeneratedAdventures.itemsPath, "--fields", GeneratedAdventures.fields.joined(separator: ","),
    ]

    @Test func aSplitFileGivesTheRowsOfEveryItemInOrder() throws {
        let text = Self.response.text
        #expect(text.utf8.count > Self.splitSize, "the response is only \(text.utf8.count) bytes")
        // The second thread's rows are used: the guess is where an item starts, one a line.
        let firstItem = Self.response.lines[0].utf8.count + 1 + 2
        let guess = try #require(Self.likelyItemStart(in: text, beginningLike: firstItem))
        #expect(Array(text.utf8).prefix(guess).suffix(5) == ArraySlice("},\n  ".utf8))
        let scratch = try Scratch()
        defer { scratch.remove() }
        let file = try scratch.write(text, to: "adventures.json")

        let csv = try ContentProcess.run(["format", file.path, "-o", "csv"] + Self.projection, in: scratch.url)
        #expect(csv.status == 0)
        #expect(csv.stderr.isEmpty, "\(csv.stderr)")
        let expected = Self.response.csv()
        #expect(csv.stdout.utf8.elementsEqual(expected.utf8), "\(firstDifference(csv.stdout, expected))")

        // TSV from the file against TSV from a pipe, which is never split.
        let tsv = try ContentProcess.run(["format", file.path, "-o", "tsv"] + Self.projection, in: scratch.url)
        let piped = try FormatEndToEndTests.piped(file, ["-o", "tsv"] + Self.projection, in: scratch)
        #expect(tsv.status == 0 && piped.status == 0)
        #expect(tsv.stdout.utf8.elementsEqual(piped.stdout.utf8), "\(firstDifference(tsv.stdout, piped.stdout))")
        #expect(tsv.stdout.hasPrefix("title\tprice\tprimaryImage._dynamicUrl\n"))
    }

    @Test func malformedInputPastTheMiddleIsReportedWhereOneThreadReportsIt() throws {
        let broken = 40_000
        var lines = Self.response.lines
        let lineIndex = GeneratedAdventures.firstItemLine - 1 + broken
        let (brokenLine, column) = Self.response.lineMissingAComma(item: broken)
        lines[lineIndex] = brokenLine
        let offset = lines[..<lineIndex].reduce(0) { $0 + $1.utf8.count + 1 } + column - 1
        let text = lines.joined(separator: "\n") + "\n"
        #expect(offset > text.utf8.count / 2 + (1 << 20), "the error must be well past the middle")
        let scratch = try Scratch()
        defer { scratch.remove() }
        let file = try scratch.write(text, to: "broken.json")

        let result = try ContentProcess.run(["format", file.path, "-o", "csv"] + Self.projection, in: scratch.url)
        #expect(result.status == 7)
        let line = lineIndex + 1
        let place = "\(file.path):\(line):\(column): malformed JSON at line \(line), column \(column) (byte \(offset))"
        #expect(result.stderr.contains(place + ": expected ',' or '}'"), "\(result.stderr)")
        // Every row before the broken item is out, in order, and nothing after it.
        let expected = Self.response.csv(rows: broken)
        #expect(result.stdout.utf8.elementsEqual(expected.utf8), "\(firstDifference(result.stdout, expected))")
    }

    @Test func textAfterTheDocumentIsReportedWhereOneThreadReportsIt() throws {
        let text = Self.response.text + "] trailing"
        let scratch = try Scratch()
        defer { scratch.remove() }
        let file = try scratch.write(text, to: "trailing.json")
        let arguments = ["-o", "csv"] + Self.projection
        let fromFile = try ContentProcess.run(["format", file.path] + arguments, in: scratch.url)
        let fromPipe = try FormatEndToEndTests.piped(file, arguments, in: scratch)
        #expect(fromFile.status == 7)
        #expect(fromPipe.status == 7)
        #expect(!fromPipe.stderr.isEmpty)
        #expect(
            fromFile.stderr == fromPipe.stderr.replacingOccurrences(of: "<stdin>", with: file.path),
            "\(fromFile.stderr) against \(fromPipe.stderr)")
        #expect(fromFile.stdout.utf8.elementsEqual(Self.response.csv().utf8))
    }

    @Test func twoResponsesInOneFileKeepTheirOrder() throws {
        // NDJSON of two responses, each under the split size: the middle falls in the second one.
        let one = GeneratedAdventures(count: 25_000)
        let text = one.text + one.text
        #expect(text.utf8.count > Self.splitSize, "the responses are only \(text.utf8.count) bytes")
        let scratch = try Scratch()
        defer { scratch.remove() }
        let file = try scratch.write(text, to: "pages.ndjson")
        let result = try ContentProcess.run(["format", file.path, "-o", "csv"] + Self.projection, in: scratch.url)
        #expect(result.status == 0)
        let rows = one.csv().split(separator: "\n", maxSplits: 1)[1]
        let expected = one.csv() + rows
        #expect(result.stdout.utf8.elementsEqual(expected.utf8), "\(firstDifference(result.stdout, expected))")
    }

    @Test func anObjectStartInsideAStringNearTheMiddleIsNotTakenForAnItem() throws {
        // Every item's note ends in `}, {`, after a long run of text: the middle of the file falls in one. Only
        // a `{` followed by what the first item begins with is taken for an item, and that is never in a string.
        let note = String(repeating: "surf ", count: 80) + "}, {" + "done"
        let document = Self.document(count: 50_000) { index in
            #"{"title":"t\#(index)","note":"\#(note)","n":\#(index)}"#
        }
        #expect(document.text.utf8.count > Self.splitSize)
        let plain = try #require(Self.likelyItemStart(in: document.text, beginningLike: nil))
        #expect(!document.itemStarts.contains(plain), "the first `}, {` should be inside a note")
        let guess = try #require(Self.likelyItemStart(in: document.text, beginningLike: document.firstItem))
        #expect(document.itemStarts.contains(guess))

        let expected = "title,note\n" + (0..<50_000).map { "t\($0),\"\(note)\"\n" }.joined()
        try Self.expectRows(of: document.text, fields: "title,note", expected: expected)
    }

    @Test func anObjectInANestedArrayThatBeginsLikeAnItemIsPassedOver() throws {
        // Each item holds a long array of objects that begin as items do: the guess falls in one of those, and
        // reading from the start passes it without an item starting there.
        let parts = (0..<60).map { #"{"id":\#($0)}"# }.joined(separator: ", ")
        let document = Self.document(count: 30_000) { index in
            #"{"id":\#(index),"parts":[\#(parts)],"last":"p\#(index)"}"#
        }
        #expect(document.text.utf8.count > Self.splitSize)
        let guess = try #require(Self.likelyItemStart(in: document.text, beginningLike: document.firstItem))
        #expect(!document.itemStarts.contains(guess), "the guess should fall inside an item's parts")

        let expected = "id,parts.59.id,last\n" + (0..<30_000).map { "\($0),59,p\($0)\n" }.joined()
        try Self.expectRows(of: document.text, fields: "id,parts.59.id,last", expected: expected)
    }

    // MARK: - Helpers

    /// `{"items":[…]}` with one item a line, where each item starts (its `{`), and the first.
    private static func document(
        count: Int, item: (Int) -> String
    ) -> (text: String, itemStarts: Set<Int>, firstItem: Int) {
        var text = "{\"items\":[\n"
        let firstItem = text.utf8.count
        var starts = Set<Int>()
        var length = firstItem
        for index in 0..<count {
            let line = item(index) + (index + 1 < count ? ",\n" : "\n")
            starts.insert(length)
            length += line.utf8.count
            text += line
        }
        return (text + "]}\n", starts, firstItem)
    }

    /// Where `content` guesses an item starts: from the middle on, the first `{` after `}` and `,` that begins like
    /// the item at `first` up to its first colon (any such `{` when `first` is `nil`).
    private static func likelyItemStart(in text: String, beginningLike first: Int?) -> Int? {
        let bytes = Array(text.utf8)
        let signature = first.map { start in Array(bytes[start...].prefix { $0 != UInt8(ascii: ":") }) + [0x3A] } ?? []
        var index = bytes.count / 2
        while index < bytes.count {
            defer { index += 1 }
            guard bytes[index] == UInt8(ascii: "}") else { continue }
            var next = index + 1
            while next < bytes.count, bytes[next] == 0x20 || bytes[next] == 0x0A { next += 1 }
            guard next < bytes.count, bytes[next] == UInt8(ascii: ",") else { continue }
            next += 1
            while next < bytes.count, bytes[next] == 0x20 || bytes[next] == 0x0A { next += 1 }
            if next < bytes.count, bytes[next] == UInt8(ascii: "{"), bytes[next...].starts(with: signature) {
                return next
            }
        }
        return nil
    }

    /// Runs `content format FILE -o csv --items items --fields FIELDS` on `text` and compares with `expected`.
    private static func expectRows(
        of text: String, fields: String, expected: String, sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let file = try scratch.write(text, to: "items.json")
        let result = try ContentProcess.run(
            ["format", file.path, "-o", "csv", "--items", "items", "--fields", fields], in: scratch.url)
        #expect(result.status == 0, sourceLocation: sourceLocation)
        #expect(result.stderr.isEmpty, "\(result.stderr)", sourceLocation: sourceLocation)
        #expect(
            result.stdout.utf8.elementsEqual(expected.utf8), "\(firstDifference(result.stdout, expected))",
            sourceLocation: sourceLocation)
    }
}
