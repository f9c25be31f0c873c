import ContentJSON
import Testing

@testable import ContentOutput

struct CellTextTests {
    @Test func displayWidthCountsWideAndCombiningCharacters() {
        #expect(DisplayWidth.of("abc") == 3)
        #expect(DisplayWidth.of("東京") == 4)
        #expect(DisplayWidth.of("ｶﾀｶﾅ") == 4)  // half-width katakana are narrow
        #expect(DisplayWidth.of("e\u{301}galite\u{301}") == 7)
        #expect(DisplayWidth.of("🏄‍♀️") == 2)
        #expect(DisplayWidth.of("👍🏽") == 2)
        #expect(DisplayWidth.of("한국어") == 6)
        #expect(DisplayWidth.of("\u{200B}") == 0)
    }

    @Test func displayWidthOfMixedTextIsTheSumOverItsGraphemeClusters() {
        // Only the stretches around non-ASCII bytes are walked cluster by cluster; the sum over every cluster of
        // the whole text is the reference. Keycaps, Prepend characters, ZWJ sequences, flags and Hangul jamo
        // join the ASCII characters next to them into clusters.
        let texts = [
            "a1\u{FE0F}\u{20E3}b", "x\u{600}yz", "ab👩‍👩‍👧cd", "🇫🇷x🇩🇪", "e\u{301}galite\u{301} 東京 ok",
            "\u{1100}\u{1161}\u{11A8}a", "#\u{FE0F}\u{20E3}", "é", "aé", "éa", "a\u{200D}b", "x\u{AD}y", "日本語 text",
        ]
        for text in texts {
            #expect(
                DisplayWidth.of(text) == text.reduce(0) { $0 + DisplayWidth.of($1) },
                "\(text.unicodeScalars.map(\.value))")
        }
    }

    @Test func truncationRespectsDisplayWidth() {
        #expect(DisplayWidth.truncate("abcdef", toWidth: 4) == "abc…")
        #expect(DisplayWidth.truncate("東京東京", toWidth: 5) == "東京…")
        #expect(DisplayWidth.truncate("abc", toWidth: 3) == "abc")
        #expect(DisplayWidth.of(DisplayWidth.truncate("東京東京", toWidth: 4)) <= 4)
    }

    @Test func controlCharactersAreEscaped() {
        #expect(CellText.escapingControls("a\tb\nc\r") == #"a\tb\nc\r"#)
        #expect(CellText.escapingControls("\u{1B}[2J") == #"\u001B[2J"#)
        #expect(CellText.escapingControls("\u{7F}\u{85}") == #"\u007F\u0085"#)
        #expect(CellText.escapingControls("plain é 東") == "plain é 東")
        // Bidirectional overrides and isolates reorder what a terminal shows.
        #expect(CellText.escapingControls("a\u{202E}b\u{2066}c\u{2069}") == #"a\u202Eb\u2066c\u2069"#)
        #expect(CellText.escapingControls("é\u{2028}東\u{2029}\u{9F}x\u{A0}") == #"é\u2028東\u2029\u009Fx"# + "\u{A0}")
    }

    @Test func everyASCIIByteIsEscapedOrKeptAndMeasuredOneCellEach() {
        for byte in UInt8(0)...0x7F {
            let text = "ab" + String(UnicodeScalar(byte)) + "cd"
            let shown = CellText.escapingControls(text)
            let printable = (0x20..<0x7F).contains(byte)
            #expect((shown == text) == printable, "byte 0x\(String(byte, radix: 16))")
            #expect(shown.hasPrefix(printable ? text : "ab\\"))
            #expect(DisplayWidth.of(shown) == shown.utf8.count)
        }
    }

    @Test func plainTextOfEveryKind() {
        #expect(CellText.plain(nil) == "")
        #expect(CellText.plain(.null) == "")
        #expect(CellText.plain(.string("")) == "")
        #expect(CellText.plain(.bool(false)) == "false")
        #expect(CellText.plain(.number(JSONNumber(text: "1e400"))) == "1e400")
        #expect(CellText.plain(.array([.string("a"), .null])) == #"["a",null]"#)
    }

    @Test func csvQuotesOnlyWhenNeeded() {
        func csv(_ text: String) -> String {
            var line: [UInt8] = []
            Array(text.utf8).withUnsafeBytes { DelimitedRenderer.appendCSV($0, to: &line) }
            return String(decoding: line, as: UTF8.self)
        }
        #expect(csv("plain text") == "plain text")
        #expect(csv("a,b") == "\"a,b\"")
        #expect(csv("say \"hi\"") == "\"say \"\"hi\"\"\"")
        #expect(csv("two\nlines") == "\"two\nlines\"")
        #expect(csv("cr\r") == "\"cr\r\"")
        #expect(csv("tab\there") == "tab\there")
    }

    @Test func tsvEscapesWhatItCannotQuote() {
        var line: [UInt8] = []
        Array("a\tb\nc\\d\re".utf8).withUnsafeBytes { DelimitedRenderer.appendTSV($0, to: &line) }
        #expect(String(decoding: line, as: UTF8.self) == #"a\tb\nc\\d\re"#)
    }

    @Test func markdownEscapesPipesAndBreaksLines() {
        #expect(MarkdownRenderer.escape("a|b") == #"a\|b"#)
        #expect(MarkdownRenderer.escape("one\ntwo\r\nthree") == "one<br>two<br>three")
        #expect(MarkdownRenderer.escape("back\\slash") == #"back\\slash"#)
        #expect(MarkdownRenderer.escape("\u{1B}[1m") == #"\u001B[1m"#)
        #expect(MarkdownRenderer.escape("é\rb\u{85}c\u{2028}d\te|") == #"é<br>b\u0085c\u2028d\te\|"#)
        // A pipe that begins a cluster with a combining mark still ends a cell: it is escaped all the same.
        #expect(MarkdownRenderer.escape("|\u{301}") == #"\|"# + "\u{301}")
    }

    @Test func colourFollowsNoColorAndClicolor() {
        func enabled(_ mode: OutputSettings.ColorMode, tty: Bool, _ environment: [String: String]) -> Bool {
            OutputSettings.colorEnabled(mode: mode, isTerminal: tty, environment: environment)
        }
        #expect(enabled(.auto, tty: true, [:]))
        #expect(!enabled(.auto, tty: false, [:]))
        #expect(!enabled(.auto, tty: true, ["NO_COLOR": "1"]))
        #expect(!enabled(.auto, tty: true, ["CLICOLOR": "0"]))
        #expect(enabled(.auto, tty: false, ["CLICOLOR_FORCE": "1"]))
        #expect(!enabled(.auto, tty: true, ["TERM": "dumb"]))
        #expect(enabled(.always, tty: false, ["NO_COLOR": "1"]))
        #expect(!enabled(.never, tty: true, ["CLICOLOR_FORCE": "1"]))
    }

    @Test func widthComesFromColumnsThenTheTerminalThenEighty() {
        #expect(OutputSettings.width(environment: ["COLUMNS": "132"], reported: 90) == 132)
        #expect(OutputSettings.width(environment: [:], reported: 90) == 90)
        #expect(OutputSettings.width(environment: [:], reported: nil) == 80)
        #expect(OutputSettings.width(environment: ["COLUMNS": "junk"], reported: nil) == 80)
    }

    @Test func fieldSelectionParsesRenamesAndRejectsEmptyEntries() throws {
        let selection = try FieldSelection(parsing: "title, img = primaryImage._dynamicUrl,tags[0]")
        #expect(selection.fields.map(\.name) == ["title", "img", "tags[0]"])
        #expect(selection.fields[1].path.description == "primaryImage._dynamicUrl")
        #expect(throws: OutputError.self) { try FieldSelection(parsing: "a,,b") }
        #expect(throws: OutputError.self) { try FieldSelection(parsing: "=path") }
        #expect(throws: OutputError.self) { try FieldSelection(parsing: "a[") }
    }
}
