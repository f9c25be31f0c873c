import Foundation
import Testing

@testable import ContentJSON

// Expected error positions were counted by hand: `offset` is the 0-based index of the offending byte,
// `line` and `column` are 1-based, and the column counts bytes (so `é` advances it by two).

/// A number value with the given text.
private func number(_ text: String) -> JSONValue {
    .number(JSONNumber(text: text))
}

/// Checks that parsing `bytes` fails at the given place with a message containing `message`.
private func expectParseError(
    bytes: [UInt8],
    maxDepth: Int = 512,
    offset: Int,
    line: Int,
    column: Int,
    message: String,
    sourceLocation: SourceLocation = #_sourceLocation
) {
    let error = #expect(throws: JSONParseError.self, sourceLocation: sourceLocation) {
        try JSONParser(maxDepth: maxDepth).parse(bytes)
    }
    guard let error else { return }
    #expect(error.offset == offset, "offset; error was \(error)", sourceLocation: sourceLocation)
    #expect(error.line == line, "line; error was \(error)", sourceLocation: sourceLocation)
    #expect(error.column == column, "column; error was \(error)", sourceLocation: sourceLocation)
    #expect(error.message.contains(message), "message; error was \(error)", sourceLocation: sourceLocation)
}

/// Checks that parsing `text` fails at the given place with a message containing `message`.
private func expectParseError(
    _ text: String,
    maxDepth: Int = 512,
    offset: Int,
    line: Int,
    column: Int,
    message: String,
    sourceLocation: SourceLocation = #_sourceLocation
) {
    expectParseError(
        bytes: Array(text.utf8),
        maxDepth: maxDepth,
        offset: offset,
        line: line,
        column: column,
        message: message,
        sourceLocation: sourceLocation
    )
}

/// `count` arrays nested in each other around `1`: `[[[1]]]` for 3.
private func nestedArrays(_ count: Int) -> String {
    String(repeating: "[", count: count) + "1" + String(repeating: "]", count: count)
}

struct JSONParserTests {
    // MARK: - Values

    @Test func parsesEveryKindOfValue() throws {
        let text = #"{"n":null,"t":true,"f":false,"i":42,"d":-3.25,"s":"hi","a":[1,"two",null],"o":{"x":{}},"e":[]}"#
        let value = try JSONParser().parse(text)
        let expected = JSONValue.object([
            "n": .null,
            "t": .bool(true),
            "f": .bool(false),
            "i": number("42"),
            "d": number("-3.25"),
            "s": .string("hi"),
            "a": .array([number("1"), .string("two"), .null]),
            "o": .object(["x": .object([:])]),
            "e": .array([]),
        ])
        #expect(value == expected)
    }

    @Test func parsesScalarsAtTheTopLevel() throws {
        #expect(try JSONParser().parse("null") == .null)
        #expect(try JSONParser().parse("true") == .bool(true))
        #expect(try JSONParser().parse("false") == .bool(false))
        #expect(try JSONParser().parse("0") == number("0"))
        #expect(try JSONParser().parse(#""x""#) == .string("x"))
        #expect(try JSONParser().parse(#""""#) == .string(""))
    }

    @Test func keepsObjectKeysInDocumentOrder() throws {
        let value = try JSONParser().parse(#"{"zeta":1,"alpha":2,"mid":{"z":0,"a":0},"beta":3}"#)
        let object = try #require(value.objectValue)
        #expect(object.members.map(\.key) == ["zeta", "alpha", "mid", "beta"])
        #expect(value["mid"]?.objectValue?.members.map(\.key) == ["z", "a"])
    }

    @Test(arguments: [
        "152.59", "-0", "1e400", "1E-7", "9223372036854775807", "12345678901234567890123", "0", "-0.0e+00",
        "2.50", "1.5E+10", "-12.000",
    ])
    func keepsNumberTextExactly(text: String) throws {
        let value = try JSONParser().parse("[\(text)]")
        #expect(value == .array([number(text)]))
        #expect(value.jsonText == "[\(text)]")
    }

    @Test func numbersConvertWhenAsked() throws {
        let value = try JSONParser().parse(
            "[152.59, -0, 1e400, 1E-7, 9223372036854775807, 12345678901234567890123, 2.50]")
        let elements = try #require(value.arrayValue)
        let numbers = elements.compactMap { element -> JSONNumber? in
            if case .number(let parsed) = element { return parsed }
            return nil
        }
        try #require(numbers.count == 7)
        #expect(numbers[0].doubleValue == 152.59)
        #expect(numbers[0].int64Value == nil)
        #expect(numbers[1].doubleValue == 0)
        #expect(numbers[1].doubleValue?.sign == .minus)
        #expect(numbers[2].doubleValue == .infinity)
        #expect(numbers[3].doubleValue == 1e-7)
        #expect(numbers[4].int64Value == Int64.max)
        #expect(numbers[5].int64Value == nil)
        #expect(numbers[5].description == "12345678901234567890123")
        #expect(numbers[6].doubleValue == 2.5)
    }

    // MARK: - Strings

    @Test func decodesEveryEscape() throws {
        let value = try JSONParser().parse(#""a\nb\tc\"d\\e\/f\bg\fh\ri\u00e9\u00E9\u0041""#)
        #expect(value == .string("a\nb\tc\"d\\e/f\u{08}g\u{0C}h\ri\u{E9}\u{E9}A"))
    }

    @Test func joinsSurrogatePairs() throws {
        #expect(try JSONParser().parse(#""\ud83d\ude00""#) == .string("😀"))
        #expect(try JSONParser().parse(#""\uD83D\uDE00""#) == .string("\u{1F600}"))
        #expect(try JSONParser().parse(#""x\ud83d\ude00y""#) == .string("x😀y"))
    }

    @Test func readsRawUTF8() throws {
        let value = try JSONParser().parse(#"{"clé":"café","日本":"日本語","emoji":"😀👍🏽"}"#)
        #expect(value["clé"] == .string("café"))
        #expect(value["日本"] == .string("日本語"))
        #expect(value["emoji"] == .string("😀👍🏽"))
        #expect(value["emoji"]?.stringValue?.unicodeScalars.count == 3)
    }

    @Test func mixesRawUTF8AndEscapesInOneString() throws {
        #expect(try JSONParser().parse(#""é\n日\u00e9😀""#) == .string("é\n日é😀"))
    }

    // MARK: - Whitespace and input forms

    @Test func allowsTheFourWhitespaceCharactersAnywhereBetweenTokens() throws {
        let value = try JSONParser().parse(" \t\r\n{ \"a\" :\n[ 1 ,\t2 ] ,\r\n\"b\" : { } }\n\t ")
        #expect(value == .object(["a": .array([number("1"), number("2")]), "b": .object([:])]))
    }

    @Test func rejectsOtherWhitespace() {
        expectParseError("\u{0C}1", offset: 0, line: 1, column: 1, message: "expected a JSON value, found byte 0xC")
        expectParseError(
            bytes: [0xC2, 0xA0, 0x31], offset: 0, line: 1, column: 1, message: "expected a JSON value, found byte 0xC2")
    }

    @Test func parsesSlicesAndContiguousArrays() throws {
        let contiguous = ContiguousArray(#"{"a":[true]}"#.utf8)
        #expect(try JSONParser().parse(contiguous) == .object(["a": .array([.bool(true)])]))
        let buffer = Array(#"xx["ok"]yy"#.utf8)
        #expect(try JSONParser().parse(buffer[2..<8]) == .array([.string("ok")]))
        // Offsets are relative to the slice: `[1,]` fails at its own byte 3.
        let bad = Array("xx[1,]".utf8)
        let error = #expect(throws: JSONParseError.self) { try JSONParser().parse(bad[2...]) }
        #expect(error?.offset == 3)
        #expect(error?.column == 4)
    }

    // MARK: - Malformed input

    @Test func trailingCommaInAnObject() {
        expectParseError(
            #"{"a":1,}"#, offset: 7, line: 1, column: 8,
            message: "expected a member name in double quotes, found '}'")
    }

    @Test func trailingCommaInAnArray() {
        expectParseError("[1,2,]", offset: 5, line: 1, column: 6, message: "expected a JSON value, found ']'")
    }

    @Test func missingColon() {
        expectParseError(
            #"{"a" 1}"#, offset: 5, line: 1, column: 6, message: #"expected ':' after the member name "a""#)
    }

    @Test func unquotedKey() {
        expectParseError(
            "{a:1}", offset: 1, line: 1, column: 2, message: "expected a member name in double quotes, found 'a'")
    }

    @Test func singleQuotes() {
        expectParseError("{'a':1}", offset: 1, line: 1, column: 2, message: "expected a member name in double quotes")
        expectParseError("['a']", offset: 1, line: 1, column: 2, message: "expected a JSON value")
    }

    @Test func leadingZero() {
        expectParseError("01", offset: 1, line: 1, column: 2, message: "leading zero")
        expectParseError("-01", offset: 2, line: 1, column: 3, message: "leading zero")
        expectParseError("[00]", offset: 2, line: 1, column: 3, message: "leading zero")
    }

    @Test func decimalPointWithoutDigits() {
        expectParseError("1.", offset: 2, line: 1, column: 3, message: "expected a digit after the decimal point")
        expectParseError("[1.e5]", offset: 3, line: 1, column: 4, message: "expected a digit after the decimal point")
        expectParseError(".5", offset: 0, line: 1, column: 1, message: "expected a JSON value, found '.'")
    }

    @Test func signWithoutDigits() {
        expectParseError("-", offset: 1, line: 1, column: 2, message: "expected a digit in a number")
        expectParseError("[-]", offset: 2, line: 1, column: 3, message: "expected a digit in a number")
        expectParseError("+1", offset: 0, line: 1, column: 1, message: "expected a JSON value, found '+'")
    }

    @Test func exponentWithoutDigits() {
        expectParseError("1e", offset: 2, line: 1, column: 3, message: "expected a digit in the exponent")
        expectParseError("[1E+]", offset: 4, line: 1, column: 5, message: "expected a digit in the exponent")
        expectParseError("2e-x", offset: 3, line: 1, column: 4, message: "expected a digit in the exponent")
    }

    @Test func truncatedLiterals() {
        expectParseError("tru", offset: 0, line: 1, column: 1, message: "expected 'true'")
        expectParseError("nul", offset: 0, line: 1, column: 1, message: "expected 'null'")
        expectParseError("[fals]", offset: 1, line: 1, column: 2, message: "expected 'false'")
        expectParseError("[nULL]", offset: 1, line: 1, column: 2, message: "expected 'null'")
        expectParseError("trueish", offset: 4, line: 1, column: 5, message: "expected the end of the input")
    }

    @Test func unterminatedStringIsReportedAtItsOpeningQuote() {
        expectParseError(#"{"a": "abc"#, offset: 6, line: 1, column: 7, message: "unterminated string")
        expectParseError(#"["a\"b"#, offset: 1, line: 1, column: 2, message: "unterminated string")
        expectParseError(#""ab\"#, offset: 0, line: 1, column: 1, message: "unterminated string")
    }

    @Test func rawControlCharacterInAString() {
        expectParseError("[\"a\tb\"]", offset: 3, line: 1, column: 4, message: "must be escaped inside a string")
        // A raw newline ends nothing: it is reported where it is, still on line 1.
        expectParseError("[\"x\ny\"]", offset: 3, line: 1, column: 4, message: "must be escaped inside a string")
        // The same after an escape, on the slower path.
        expectParseError("\"\\n\u{01}\"", offset: 3, line: 1, column: 4, message: "must be escaped inside a string")
    }

    @Test func invalidEscape() {
        expectParseError(#""a\x""#, offset: 2, line: 1, column: 3, message: #"invalid escape '\x'"#)
        expectParseError(#"["\'"]"#, offset: 2, line: 1, column: 3, message: "invalid escape")
    }

    @Test func badUnicodeEscapeDigits() {
        expectParseError(#""\u12G4""#, offset: 5, line: 1, column: 6, message: "expected four hex digits")
        expectParseError(#""\u12""#, offset: 3, line: 1, column: 4, message: "expected four hex digits")
    }

    @Test func loneLowSurrogate() {
        expectParseError(#""\udc00""#, offset: 1, line: 1, column: 2, message: "lone low surrogate")
        expectParseError(#"["ok", "a\uDFFF"]"#, offset: 9, line: 1, column: 10, message: "lone low surrogate")
    }

    @Test func highSurrogateWithoutALowOne() {
        expectParseError(#""\ud83d""#, offset: 1, line: 1, column: 2, message: "must be followed by a low one")
        expectParseError(#""\ud83dx""#, offset: 1, line: 1, column: 2, message: "must be followed by a low one")
        expectParseError(
            #""\ud83d abcdef""#, offset: 1, line: 1, column: 2, message: "must be followed by a low one")
        // A second escape that is not a low surrogate is reported at that escape.
        expectParseError(#""\ud83d\u0041""#, offset: 7, line: 1, column: 8, message: "expected a low surrogate")
        expectParseError(#""\ud83d\ud83d""#, offset: 7, line: 1, column: 8, message: "expected a low surrogate")
    }

    @Test func invalidUTF8IsReportedAtTheFirstBadByte() {
        expectParseError(
            bytes: [0x22, 0xC3, 0x28, 0x22], offset: 1, line: 1, column: 2, message: "not valid UTF-8")
        // `a` (1 byte) and `é` (2 bytes) are fine; 0xFF at offset 4 is not.
        expectParseError(
            bytes: [0x22, 0x61, 0xC3, 0xA9, 0xFF, 0x22], offset: 4, line: 1, column: 5, message: "not valid UTF-8")
        // A lone continuation byte, an overlong `/` and an encoded surrogate.
        expectParseError(bytes: [0x22, 0x80, 0x22], offset: 1, line: 1, column: 2, message: "not valid UTF-8")
        expectParseError(bytes: [0x22, 0xC0, 0xAF, 0x22], offset: 1, line: 1, column: 2, message: "not valid UTF-8")
        expectParseError(
            bytes: [0x22, 0xED, 0xA0, 0x80, 0x22], offset: 1, line: 1, column: 2, message: "not valid UTF-8")
    }

    @Test func invalidUTF8AfterAnEscapeIsStillRejected() {
        let error = #expect(throws: JSONParseError.self) {
            try JSONParser().parse([0x22, 0x5C, 0x6E, 0xFF, 0x22] as [UInt8])
        }
        #expect(error?.message.contains("not valid UTF-8") == true)
        #expect(error?.line == 1)
    }

    @Test func invalidUTF8OutsideAString() {
        expectParseError(
            bytes: [0x5B, 0xFF, 0x5D], offset: 1, line: 1, column: 2, message: "expected a JSON value, found byte 0xFF")
    }

    @Test func trailingGarbageAfterAValue() {
        expectParseError("{} x", offset: 3, line: 1, column: 4, message: "expected the end of the input")
        expectParseError("[1] [2]", offset: 4, line: 1, column: 5, message: "expected the end of the input")
        expectParseError("1 2", offset: 2, line: 1, column: 3, message: "expected the end of the input")
        expectParseError("{}\n}", offset: 3, line: 2, column: 1, message: "expected the end of the input")
    }

    @Test func emptyInput() {
        expectParseError(
            "", offset: 0, line: 1, column: 1, message: "expected a JSON value, found the end of the input")
        expectParseError(bytes: [], offset: 0, line: 1, column: 1, message: "found the end of the input")
        expectParseError("  \n ", offset: 4, line: 2, column: 2, message: "found the end of the input")
    }

    @Test func truncatedDocuments() {
        expectParseError("{", offset: 1, line: 1, column: 2, message: "expected a member name in double quotes")
        expectParseError(#"{"a":"#, offset: 5, line: 1, column: 6, message: "expected a JSON value")
        expectParseError(#"{"a":1"#, offset: 6, line: 1, column: 7, message: "expected ',' or '}'")
        expectParseError("[1,2", offset: 4, line: 1, column: 5, message: "expected ',' or ']'")
        expectParseError("[", offset: 1, line: 1, column: 2, message: "expected a JSON value")
    }

    @Test func missingSeparators() {
        expectParseError("[1 2]", offset: 3, line: 1, column: 4, message: "expected ',' or ']'")
        expectParseError(#"{"a":1 "b":2}"#, offset: 7, line: 1, column: 8, message: "expected ',' or '}'")
        expectParseError(#"{"a":1]"#, offset: 6, line: 1, column: 7, message: "expected ',' or '}'")
        expectParseError("[1}", offset: 2, line: 1, column: 3, message: "expected ',' or ']'")
    }

    @Test func errorOnTheThirdLineHasItsLineAndColumn() {
        let text = """
            {
              "a": 1,
              "b" 2
            }
            """
        // Line 3 starts at byte 12 (`{\n` is 2 bytes, `  "a": 1,\n` is 10); `2` is its 7th byte.
        expectParseError(text, offset: 18, line: 3, column: 7, message: #"expected ':' after the member name "b""#)
    }

    @Test func columnsCountBytesAndOnlyLineFeedsStartLines() {
        // `é` is two bytes, so `x` is byte 7 and column 8, not 7.
        expectParseError(#"["é", x]"#, offset: 7, line: 1, column: 8, message: "found 'x'")
        // CR LF: the CR belongs to the line it ends; line 3 starts after the second LF, at byte 7.
        expectParseError("[\r\n1,\r\n x]", offset: 8, line: 3, column: 2, message: "found 'x'")
    }

    @Test func errorDescriptionNamesLineColumnAndByte() {
        let error = #expect(throws: JSONParseError.self) { try JSONParser().parse("[\n  1,\n  ]") }
        // `[\n` is 2 bytes, `  1,\n` is 5, so `]` on line 3 is byte 9, column 3.
        #expect(error?.description == "3:3 (byte 9): expected a JSON value, found ']'")
    }

    // MARK: - Depth

    @Test func hundredLevelsOfNestingParse() throws {
        var current = try JSONParser().parse(nestedArrays(100))
        var depth = 0
        while case .array(let elements) = current, elements.count == 1 {
            depth += 1
            current = elements[0]
        }
        #expect(depth == 100)
        #expect(current == number("1"))
    }

    @Test func sixHundredLevelsOfNestingFail() {
        // The 513th `[`, at byte 512, is one level too deep for the default limit.
        expectParseError(nestedArrays(600), offset: 512, line: 1, column: 513, message: "nest deeper than 512")
    }

    @Test func defaultLimitIsInclusive() throws {
        _ = try JSONParser().parse(nestedArrays(512))
        expectParseError(nestedArrays(513), offset: 512, line: 1, column: 513, message: "nest deeper")
    }

    @Test func objectsCountTowardsTheDepthLimit() throws {
        _ = try JSONParser(maxDepth: 2).parse(#"{"a":[1]}"#)
        expectParseError(#"{"a":[[1]]}"#, maxDepth: 2, offset: 6, line: 1, column: 7, message: "nest deeper than 2")
        expectParseError(#"[{"a":{}}]"#, maxDepth: 2, offset: 6, line: 1, column: 7, message: "nest deeper than 2")
    }

    @Test func zeroDepthAllowsOnlyScalars() throws {
        #expect(try JSONParser(maxDepth: 0).parse("7") == number("7"))
        expectParseError("[]", maxDepth: 0, offset: 0, line: 1, column: 1, message: "nest deeper than 0")
    }
}

// MARK: - Agreement with Foundation

/// Whether Foundation's reading of a document agrees with ours: same strings, same keys, same array lengths.
private func agrees(_ value: JSONValue, _ other: Any) -> Bool {
    switch value {
    case .null:
        return other is NSNull
    case .bool, .number:
        return !(other is NSNull) && !(other is String)
    case .string(let string):
        return (other as? String) == string
    case .array(let elements):
        guard let others = other as? [Any], others.count == elements.count else { return false }
        return zip(elements, others).allSatisfy { agrees($0, $1) }
    case .object(let object):
        guard let others = other as? [String: Any], others.count == Set(object.members.map(\.key)).count else {
            return false
        }
        return others.allSatisfy { key, value in object[key].map { agrees($0, value) } ?? false }
    }
}

/// Foundation's parse of `text`, or `nil` when it rejects it.
private func foundationParse(_ text: String) -> Any? {
    try? JSONSerialization.jsonObject(with: Data(text.utf8), options: [.fragmentsAllowed])
}

/// Documents both parsers must read alike.
private let validDocuments = [
    #"{"name":"caf\u00e9","emoji":"\ud83d\ude00","path":"a\/b","text":"line1\nline2\t\"q\" \\"}"#,
    #"{"title":"日本語のタイトル","price":152.59,"tags":["a","b"],"ok":true,"none":null}"#,
    #"[{"id":"x","n":-0},{"id":"y\u0041z","n":1E-7},[]]"#,
    #"{"nested":{"deep":{"value":"ok \u00fc\u00DF"}},"list":[1,2,3],"empty":""}"#,
    " { \"spaced\" :\t[ \"a\" , \"b\\/c\" ]\r\n} ",
]

struct JSONFoundationAgreementTests {
    @Test(arguments: validDocuments)
    func foundationReadsTheSameValues(text: String) throws {
        let ours = try JSONParser().parse(text)
        let theirs = try #require(foundationParse(text))
        #expect(agrees(ours, theirs))
    }

    @Test func foundationAgreesOnSpecificStrings() throws {
        let text = try #require(validDocuments.first)
        let ours = try JSONParser().parse(text)
        let theirs = try #require(foundationParse(text) as? [String: Any])
        #expect(theirs["name"] as? String == "café")
        #expect(ours["name"]?.stringValue == "café")
        #expect(theirs["emoji"] as? String == ours["emoji"]?.stringValue)
        #expect(theirs["path"] as? String == ours["path"]?.stringValue)
        #expect(theirs["text"] as? String == ours["text"]?.stringValue)
        #expect(ours["text"]?.stringValue == "line1\nline2\t\"q\" \\")
    }

    // Only documents Foundation is known to reject: it accepts trailing commas, so those are not here.
    @Test(arguments: [
        #"{"a" 1}"#, "{a:1}", "{'a':1}", #"["abc"#, "[1,2", #"{"a":1} x"#, #"["\x"]"#, "[tru]", "[.5]", "",
    ])
    func bothRejectMalformedDocuments(text: String) {
        #expect(foundationParse(text) == nil)
        #expect(throws: JSONParseError.self) { try JSONParser().parse(text) }
    }
}
