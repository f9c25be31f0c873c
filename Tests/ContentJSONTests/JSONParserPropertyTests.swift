import ContentJSON
import Foundation
import Testing

// Property tests: the project's parser against Foundation's `JSONSerialization` on generated documents.
//
// Every document comes from a seeded SplitMix64 generator, so a failure message names the seed that rebuilds
// it: `DocumentGenerator(seed: seed, shape: .nested)` followed by `document()` writes the same text again, and
// for a corrupted document `corrupted()` then makes the same corruption.
//
// Where the two parsers may rightly differ, RFC 8259 decides. Foundation's reader on Linux
// (swift-corelibs-foundation) is known to:
// - accept a trailing comma, `[1,]` and `{"a":1,}`, which RFC 8259's grammar forbids; the project's parser
//   rejects it, and the corruption test allows exactly this leniency (see `judge`);
// - refuse numbers that round to infinity as a `Double`, such as `1e400`; RFC 8259 §9 lets a parser limit the
//   range of numbers it accepts, so both readings conform (the project's parser keeps the text);
// - drop a raw U+FEFF at the start of a string, or right after an escape in one, because it decodes each run
//   of a string with `String(bytes:encoding:)`, which strips a UTF-8 byte order mark; in a string U+FEFF is an
//   ordinary character (RFC 8259 §7), so the project's parser, which keeps it, is right;
// - skip a byte order mark before the document (RFC 8259 §8.1 allows ignoring it or treating it as an error);
// - guess UTF-16 or UTF-32 from NUL bytes among the first bytes, so `[0x31, 0x00]` reads as `1`; RFC 8259 §8.1
//   requires UTF-8 and NUL is not JSON whitespace, so the project's parser, which rejects it, is right;
// - read `-0` as the integer 0, losing the sign (both accept it; the values compare equal as numbers);
// - keep only the last of duplicate member names, and merge names that are canonically equivalent (RFC 8259 §4
//   leaves duplicate names to the implementation; the project's parser keeps every member in order).
// Generated valid documents avoid raw U+FEFF, byte order marks, NUL bytes and duplicate names; the tests at the
// end pin the project's side of each difference.

// MARK: - Tests

struct JSONParserPropertyTests {
    private static let nestedSeed: UInt64 = 0x4A53_4F4E_0000_0001
    private static let wideSeed: UInt64 = 0x4A53_4F4E_0000_0002
    private static let deepSeed: UInt64 = 0x4A53_4F4E_0000_0003
    private static let corruptionSeed: UInt64 = 0x4A53_4F4E_0000_0004
    private static let straySeed: UInt64 = 0x4A53_4F4E_0000_0005
    private static let sequenceSeed: UInt64 = 0x4A53_4F4E_0000_0006

    // MARK: Valid documents

    @Test(arguments: 0..<8)
    func randomNestedDocumentsReadTheSameAsFoundationAndRoundTrip(batch: Int) {
        let count = 150
        var failures = 0
        for index in 0..<count where failures < 3 {
            let seed = documentSeed(Self.nestedSeed, batch * count + index)
            if checkValidDocument(seed: seed, shape: .nested) == nil { failures += 1 }
        }
    }

    @Test func wideDocumentsReadTheSameAsFoundationAndRoundTrip() {
        var widest = 0
        for index in 0..<30 {
            let seed = documentSeed(Self.wideSeed, index)
            guard let value = checkValidDocument(seed: seed, shape: .wide) else { break }
            widest = max(widest, widestContainer(value))
        }
        #expect(widest >= 100, "the widest generated container has \(widest) members")
    }

    @Test func deepChainsOfAboutFourHundredLevelsReadTheSameAsFoundationAndRoundTrip() {
        for index in 0..<6 {
            let seed = documentSeed(Self.deepSeed, index)
            guard let value = checkValidDocument(seed: seed, shape: .deep) else { break }
            let depth = nestingDepth(value)
            #expect((390...420).contains(depth), "nesting depth \(depth); deep document seed \(hex(seed))")
        }
    }

    @Test func edgeNumbersReadTheSameAsFoundation() {
        for text in edgeNumbers {
            for document in [text, "[\(text)]", "{\"n\":\(text)}", " \(text)\n", "[\(text),\(text)]"] {
                let bytes = Array(document.utf8)
                let agreement = judge(bytes)
                #expect(agreement == .bothAccepted, "\(agreement); input \(describe(bytes))")
            }
            let kept = ourParse(Array(text.utf8))
            let number: Result<JSONValue, JSONParseError> = .success(.number(JSONNumber(text: text)))
            #expect(kept == number, "the text of \(text) is not kept")
        }
        // Foundation reads `-0` as the integer 0; the project's parser keeps the text, and with it the sign.
        if case .success(.number(let number)) = ourParse(Array("-0".utf8)) {
            #expect(number.doubleValue?.sign == .minus)
        } else {
            Issue.record("-0 is not read as a number")
        }
    }

    @Test func everyEscapeReadsTheSameAsFoundation() throws {
        var text = #""\" \\ \/ \b \f \n \r \t "#
        var expected = "\" \\ / \u{08} \u{0C} \n \r \t "
        for value in UInt32(0)..<0x20 {
            text += "\\u" + hex4(value, uppercase: value % 2 == 0)
            expected.unicodeScalars.append(Unicode.Scalar(UInt8(value)))
        }
        text += #" \u00e9\u00C9 \uD83D\uDE00 \ud83d\ude00 \uDBFF\uDFFF \u0041\u002F\u005c""#
        expected += " \u{E9}\u{C9} \u{1F600} \u{1F600} \u{10FFFF} A/\\"
        let bytes = Array(text.utf8)
        guard case .success(let value) = ourParse(bytes) else {
            Issue.record("rejected \(describe(bytes))")
            return
        }
        let scalars = value.stringValue.map { Array($0.unicodeScalars) }
        #expect(scalars == Array(expected.unicodeScalars))
        let theirs = try #require(foundationParse(bytes))
        let mismatch = difference(value, theirs)
        #expect(mismatch == nil, "\(mismatch ?? "")")
    }

    @Test func parseSequenceReadsConcatenatedDocumentsAsParseReadsEachOne() {
        var random = SplitMix64(seed: Self.sequenceSeed)
        let separators: [UInt8] = [0x20, 0x0A, 0x0D, 0x09]
        for round in 0..<100 {
            let count = random.inRange(1...5)
            var joined: [UInt8] = []
            var expected: [[UInt8]] = []
            var seeds: [String] = []
            for _ in 0..<count {
                let seed = random.next()
                seeds.append(hex(seed))
                var generator = DocumentGenerator(seed: seed, shape: .small)
                let value = generator.document()
                if !joined.isEmpty { joined.append(random.pick(separators)) }
                joined.append(contentsOf: generator.text)
                expected.append(value.serialized())
            }
            let context = "round \(round), small document seeds \(seeds); input \(describe(joined))"
            switch ourSequence(joined) {
            case .success(let values):
                let serialized = values.map { $0.serialized() }
                #expect(serialized == expected, "\(context)")
            case .failure(let error):
                Issue.record("parseSequence rejected \(count) valid documents: \(error); \(context)")
            }
            if count > 1 {
                #expect(ourParse(joined).isFailure, "parse accepted \(count) documents; \(context)")
                #expect(foundationParse(joined) == nil, "Foundation accepted \(count) documents; \(context)")
            }
        }
    }

    // MARK: Malformed documents

    @Test(arguments: 0..<8)
    func corruptedDocumentsAreRejectedByBothParsersOrReadAlike(batch: Int) {
        let count = 250
        var tally: [String: Int] = [:]
        var failures = 0
        for index in 0..<count where failures < 5 {
            let seed = documentSeed(Self.corruptionSeed, batch * count + index)
            var generator = DocumentGenerator(seed: seed, shape: .small)
            _ = generator.document()
            let corruption = generator.corrupted()
            let agreement = judge(corruption.bytes)
            tally[agreement.name, default: 0] += 1
            let reason = agreement.reason
            if reason != nil { failures += 1 }
            #expect(
                reason == nil,
                """
                \(reason ?? ""); small document seed \(hex(seed)), \(corruption.label); \
                input \(describe(corruption.bytes))
                """)
        }
        // Most corruptions must break the document, or this test checks little.
        let rejected = tally[Agreement.bothRejected.name, default: 0]
        #expect(failures > 0 || rejected * 2 > count, "only \(rejected) of \(count) were rejected: \(tally)")
    }

    // MARK: Error positions

    @Test func aStrayByteBetweenTokensIsReportedAtItsOwnLineAndColumn() {
        let strays: [UInt8] = Array("#@;=)'x?*".utf8) + [0x01, 0x7F, 0xFF]
        for index in 0..<400 {
            let seed = documentSeed(Self.straySeed, index)
            var generator = DocumentGenerator(seed: seed, shape: .nested)
            _ = generator.document()
            let offset = generator.random.pick(generator.boundaries)
            let stray = generator.random.pick(strays)
            var bytes = generator.text
            bytes.insert(stray, at: offset)
            let (line, column) = lineAndColumn(of: offset, in: bytes)
            let context =
                "byte 0x\(hexByte(stray)) inserted at \(offset); nested document seed \(hex(seed)); "
                + "input \(describe(bytes))"
            switch ourParse(bytes) {
            case .success:
                Issue.record("accepted: \(context)")
                return
            case .failure(let error):
                #expect(
                    [error.offset, error.line, error.column] as [Int] == [offset, line, column],
                    "\(error), expected \(line):\(column) (byte \(offset)); \(context)")
            }
            #expect(foundationParse(bytes) == nil, "Foundation accepted: \(context)")
        }
    }

    @Test func handMadeErrorsPointAtTheOffendingByte() {
        // Offsets count bytes from 0; lines and columns count from 1, columns in bytes, lines after each LF.
        let cases: [(name: String, bytes: [UInt8], offset: Int, line: Int, column: Int)] = [
            ("misspelt literal, at its first letter", Array("{\n  \"a\": 1,\n  \"b\": tru\n}".utf8), 19, 3, 8),
            ("trailing comma, at the bracket after it", Array("[\n  1,\n  2,\n]".utf8), 12, 4, 1),
            ("missing comma, at the next element", Array("{\"a\":\n  [1, 2\n   3]}".utf8), 17, 3, 4),
            ("raw line feed in a string, on the line it ends", Array("\"abc\ndef\"".utf8), 4, 1, 5),
            ("invalid escape after CR LF lines", Array("[\r\n  \"caf\u{E9}\",\r\n  \"\\q\"\r\n]".utf8), 18, 3, 4),
            ("missing comma after multi-byte names", Array("{\"名前\": \"x\" \"y\"}".utf8), 15, 1, 16),
            ("invalid UTF-8 on line 2", [0x5B, 0x0A, 0x22, 0x61, 0xFF, 0x22, 0x5D], 4, 2, 3),
            ("lone low surrogate, at its escape", Array("[\n\"\\uDC00\"]".utf8), 3, 2, 2),
            ("513th level, one too deep", Array((String(repeating: "[\n", count: 513) + "1").utf8), 1024, 513, 1),
            ("garbage after the value", Array("{}\n\n  x".utf8), 6, 3, 3),
            ("leading zero, at the digit after it", Array("[\n 012]".utf8), 4, 2, 3),
            ("end of input after a comma", Array("[1,\n".utf8), 4, 2, 1),
            ("control byte after an escape", Array("{\"a\\n\u{01}\":1}".utf8), 5, 1, 6),
            ("missing colon after a tab", Array("{\n\t\"a\" 1\n}".utf8), 7, 2, 6),
            // An unterminated string is reported where it starts, which is where the reader has to look.
            ("unterminated string, at its opening quote", Array("[1,\n  \"abc".utf8), 6, 2, 3),
        ]
        for item in cases {
            switch ourParse(item.bytes) {
            case .success(let value):
                Issue.record("\(item.name): accepted as \(value.jsonText)")
            case .failure(let error):
                #expect(
                    [error.offset, error.line, error.column] as [Int] == [item.offset, item.line, item.column],
                    "\(item.name): \(error)")
            }
        }
    }

    @Test func invalidUTF8AfterAnEscapeIsReportedAtTheBadByte() {
        // `[`, LF, two spaces, then `"a\nb`, 0xFF, `"]`: the bad byte is byte 9, line 2, column 8.
        let bytes: [UInt8] = Array("[\n  \"a\\nb".utf8) + [0xFF] + Array("\"]".utf8)
        guard case .failure(let error) = ourParse(bytes) else {
            Issue.record("accepted \(describe(bytes))")
            return
        }
        #expect(error.message.contains("UTF-8"), "\(error)")
        #expect([error.offset, error.line, error.column] as [Int] == [9, 2, 8], "\(error)")
    }

    // MARK: Where Foundation and RFC 8259 differ

    @Test func trailingCommasAreRejectedThoughFoundationAcceptsThem() {
        // RFC 8259's grammar has no trailing comma; swift-corelibs-foundation accepts one before `]` and `}`.
        let cases: [(text: String, offset: Int)] = [
            ("[1,]", 3),
            ("[1, ]", 4),
            (#"{"a":1,}"#, 7),
            (#"{"a":[true,],"b":{"c":null,},}"#, 11),
            ("[[],]", 4),
        ]
        for item in cases {
            let result = ourParse(Array(item.text.utf8))
            guard case .failure(let error) = result else {
                Issue.record("accepted \(item.text)")
                continue
            }
            #expect(error.offset == item.offset, "\(item.text): \(error)")
        }
    }

    @Test func numbersBeyondDoubleAreKeptThoughFoundationRefusesThem() {
        // RFC 8259 §9 lets a parser limit the range of numbers; Foundation refuses those that round to infinity,
        // the project's parser keeps their text. Both conform; this pins the project's choice.
        for text in ["1e400", "-1e400", "1E+999", "123456789e999", "-0.5e99999", "17976931348623159e292"] {
            for document in [text, "[\(text)]"] {
                switch ourParse(Array(document.utf8)) {
                case .success(let value):
                    #expect(value.jsonText == document, "\(document) read as \(value.jsonText)")
                    #expect(holdsANumberBeyondDouble(value), "\(document) fits a Double")
                case .failure(let error):
                    Issue.record("rejected \(document): \(error)")
                }
            }
        }
    }

    @Test func aRawByteOrderMarkInsideAStringIsKeptThoughFoundationDropsIt() {
        // U+FEFF is an ordinary character in a string (RFC 8259 §7). Foundation drops it where a run of the
        // string starts: after the opening quote or after an escape.
        let mark: [UInt8] = [0xEF, 0xBB, 0xBF]
        let cases: [(bytes: [UInt8], expected: String)] = [
            ([0x22] + mark + Array("a\"".utf8), "\u{FEFF}a"),
            (Array("\"\\n".utf8) + mark + Array("x\"".utf8), "\n\u{FEFF}x"),
            (Array("[\"".utf8) + mark + Array("\"]".utf8), "\u{FEFF}"),
        ]
        for item in cases {
            let value = ourParse(item.bytes)
            let string: String?
            switch value {
            case .success(.string(let text)): string = text
            case .success(.array(let elements)): string = elements.first?.stringValue
            default: string = nil
            }
            let scalars = string.map { Array($0.unicodeScalars) }
            #expect(scalars == Array(item.expected.unicodeScalars), "\(describe(item.bytes)) read as \(value)")
        }
        let member = ourParse([0x7B, 0x22] + mark + Array("k\":1}".utf8))
        if case .success(.object(let object)) = member {
            let keys = object.members.map { Array($0.key.unicodeScalars) }
            #expect(keys == [Array("\u{FEFF}k".unicodeScalars)])
        } else {
            Issue.record("a member name starting with U+FEFF read as \(member)")
        }
    }

    @Test func nulBytesAreRejectedThoughFoundationGuessesUTF16OrUTF32() {
        // Foundation reads `[0x31, 0x00]` as UTF-16LE `1`, and UTF-16 or UTF-32 documents likewise. RFC 8259 §8.1
        // requires UTF-8, in which a NUL is neither whitespace nor a token.
        let cases: [[UInt8]] = [
            [0x31, 0x00],
            [0x00, 0x31],
            [0x5B, 0x00, 0x31, 0x00, 0x5D, 0x00],
            [0x00, 0x5B, 0x00, 0x31, 0x00, 0x5D],
            [0x31, 0x00, 0x00, 0x00],
        ]
        for bytes in cases {
            #expect(ourParse(bytes).isFailure, "accepted \(describe(bytes))")
        }
    }

    @Test func aLeadingByteOrderMarkIsRejectedOrIgnored() {
        // RFC 8259 §8.1: a parser may ignore a byte order mark rather than treat it as an error. Foundation
        // ignores it; the project's parser may do either, but must not read it as part of the value.
        let bytes: [UInt8] = [0xEF, 0xBB, 0xBF] + Array(#"{"a":[1]}"#.utf8)
        switch ourParse(bytes) {
        case .success(let value):
            #expect(value.jsonText == #"{"a":[1]}"#)
        case .failure(let error):
            #expect(error.offset == 0, "\(error)")
        }
    }

    @Test func duplicateNamesAreAllKeptWhereFoundationKeepsTheLast() throws {
        let bytes = Array(#"{"a":1,"b":2,"a":3}"#.utf8)
        guard case .success(let value) = ourParse(bytes) else {
            Issue.record("rejected duplicate names")
            return
        }
        let keys = value.objectValue?.members.map { $0.key }
        #expect(keys == ["a", "b", "a"])
        // Lookup finds the last, which is the one Foundation keeps.
        let theirs = try #require(foundationParse(bytes))
        let mismatch = difference(value, theirs)
        #expect(mismatch == nil, "\(mismatch ?? "")")
    }
}

// MARK: - Checking one valid document

/// Generates the document for `seed` and checks both parsers read it as generated, and that it round-trips.
///
/// Returns the project's value, or `nil` after recording an issue.
@discardableResult
private func checkValidDocument(
    seed: UInt64,
    shape: DocumentShape,
    sourceLocation: SourceLocation = #_sourceLocation
) -> JSONValue? {
    var generator = DocumentGenerator(seed: seed, shape: shape)
    let expected = generator.document()
    let text = generator.text
    let context = "\(shape.name) document seed \(hex(seed)); input \(describe(text))"
    let ours: JSONValue
    switch ourParse(text) {
    case .success(let value):
        ours = value
    case .failure(let error):
        Issue.record(
            "the project's parser rejected a valid document: \(error); \(context)", sourceLocation: sourceLocation)
        return nil
    }
    var passed = true

    // Against the generator: member order, number text and every string scalar for scalar (serialized bytes).
    let matchesModel = ours.serialized() == expected.serialized()
    passed = passed && matchesModel
    #expect(
        matchesModel, "read as \(clipped(ours.jsonText)), generated \(clipped(expected.jsonText)); \(context)",
        sourceLocation: sourceLocation)

    // Against Foundation.
    guard let theirs = foundationParse(text) else {
        Issue.record("Foundation rejected a valid document; \(context)", sourceLocation: sourceLocation)
        return nil
    }
    let mismatch = difference(ours, theirs)
    passed = passed && mismatch == nil
    #expect(mismatch == nil, "\(mismatch ?? ""); \(context)", sourceLocation: sourceLocation)

    // Round trip: the compact text parses back to the same value, byte for byte when serialized again.
    let reserialized = ours.jsonText
    switch ourParse(text: reserialized) {
    case .success(let reparsed):
        let same = reparsed == ours && reparsed.serialized() == Array(reserialized.utf8)
        passed = passed && same
        #expect(
            same, "\(clipped(reserialized)) read back as \(clipped(reparsed.jsonText)); \(context)",
            sourceLocation: sourceLocation)
    case .failure(let error):
        passed = false
        Issue.record(
            "the serialized text \(clipped(reserialized)) was rejected: \(error); \(context)",
            sourceLocation: sourceLocation)
    }
    return passed ? ours : nil
}

// MARK: - Both parsers

/// The project's reading of `bytes`.
private func ourParse(_ bytes: [UInt8]) -> Result<JSONValue, JSONParseError> {
    do throws(JSONParseError) {
        return .success(try JSONParser().parse(bytes))
    } catch {
        return .failure(error)
    }
}

/// The project's reading of `text`, through the `String` entry point.
private func ourParse(text: String) -> Result<JSONValue, JSONParseError> {
    do throws(JSONParseError) {
        return .success(try JSONParser().parse(text))
    } catch {
        return .failure(error)
    }
}

/// The project's reading of `bytes` as a sequence of documents.
private func ourSequence(_ bytes: [UInt8]) -> Result<[JSONValue], JSONParseError> {
    do throws(JSONParseError) {
        return .success(try JSONParser().parseSequence(bytes))
    } catch {
        return .failure(error)
    }
}

/// Foundation's reading of `bytes` (top-level scalars allowed), or `nil` when it rejects them.
private func foundationParse(_ bytes: [UInt8]) -> Any? {
    try? JSONSerialization.jsonObject(with: Data(bytes), options: [.fragmentsAllowed])
}

extension Result {
    /// Whether this is a failure.
    fileprivate var isFailure: Bool {
        if case .failure = self { return true }
        return false
    }
}

/// How the two parsers read one input.
private enum Agreement: Equatable, CustomStringConvertible {
    case bothRejected
    case bothAccepted
    /// Foundation accepted a trailing comma, which RFC 8259 forbids and the project's parser rejected.
    case foundationAcceptedATrailingComma
    /// Foundation refused a number beyond `Double` that the project's parser kept; RFC 8259 §9 allows either.
    case foundationRefusedAHugeNumber
    case disagreement(String)

    /// A short name for tallies.
    var name: String {
        switch self {
        case .bothRejected: "both rejected"
        case .bothAccepted: "both accepted"
        case .foundationAcceptedATrailingComma: "Foundation accepted a trailing comma"
        case .foundationRefusedAHugeNumber: "Foundation refused a huge number"
        case .disagreement: "disagreement"
        }
    }

    /// What went wrong, when the parsers disagree in a way RFC 8259 does not explain.
    var reason: String? {
        if case .disagreement(let reason) = self { return reason }
        return nil
    }

    var description: String { reason ?? name }
}

/// Compares the two parsers on one input.
///
/// Both must reject it, or both accept it with equal values. Two exceptions are allowed, each where Foundation
/// departs from RFC 8259 or takes a liberty it allows: a trailing comma Foundation accepts, provided the input
/// without it reads alike; and a number beyond `Double` that Foundation refuses.
private func judge(_ bytes: [UInt8]) -> Agreement {
    let theirs = foundationParse(bytes)
    switch ourParse(bytes) {
    case .success(let ours):
        guard let theirs else {
            if holdsANumberBeyondDouble(ours) { return .foundationRefusedAHugeNumber }
            return .disagreement("Foundation rejected what the project's parser read as \(clipped(ours.jsonText))")
        }
        if let mismatch = difference(ours, theirs) { return .disagreement("both accepted, but \(mismatch)") }
        return .bothAccepted
    case .failure(let error):
        guard let theirs else { return .bothRejected }
        if let withoutCommas = removingTrailingCommas(bytes), case .success(let ours) = ourParse(withoutCommas),
            difference(ours, theirs) == nil
        {
            return .foundationAcceptedATrailingComma
        }
        return .disagreement(
            "Foundation accepted, as \(foundationDescription(theirs)), what the project's parser rejected: \(error)")
    }
}

/// `bytes` without each comma that only whitespace separates from a `]` or `}`, outside strings; `nil` if none.
func removingTrailingCommas(_ bytes: [UInt8]) -> [UInt8]? {
    var output: [UInt8] = []
    var inString = false
    var escaped = false
    var removed = false
    for (index, byte) in bytes.enumerated() {
        if inString {
            if escaped {
                escaped = false
            } else if byte == UInt8(ascii: "\\") {
                escaped = true
            } else if byte == UInt8(ascii: "\"") {
                inString = false
            }
        } else if byte == UInt8(ascii: "\"") {
            inString = true
        } else if byte == UInt8(ascii: ",") {
            var next = index + 1
            while next < bytes.count, [0x20, 0x0A, 0x0D, 0x09].contains(bytes[next]) { next += 1 }
            if next < bytes.count, bytes[next] == UInt8(ascii: "]") || bytes[next] == UInt8(ascii: "}") {
                removed = true
                continue
            }
        }
        output.append(byte)
    }
    return removed ? output : nil
}

// MARK: - Comparing values

/// Where the project's value and Foundation's differ, or `nil` when they are structurally equal.
///
/// Strings and member names compare scalar for scalar (not by `String` equality, which is canonical
/// equivalence). Objects compare as sets of members, the last of duplicate names winning as in Foundation.
/// Numbers compare as `Double`, exactly as integers when they fit 64 bits, and as `Decimal` when Foundation
/// read them so.
private func difference(_ ours: JSONValue, _ theirs: Any, at path: String = "$") -> String? {
    switch ours {
    case .null:
        return theirs is NSNull ? nil : "\(path): null here, \(foundationDescription(theirs)) in Foundation"
    case .bool(let bool):
        guard let number = theirs as? NSNumber, !(theirs is NSDecimalNumber), number.boolValue == bool else {
            return "\(path): \(bool) here, \(foundationDescription(theirs)) in Foundation"
        }
        return nil
    case .number(let number):
        return numberDifference(number.text, theirs, at: path)
    case .string(let string):
        guard let other = theirs as? String, other.unicodeScalars.elementsEqual(string.unicodeScalars) else {
            return "\(path): string \(scalarList(string)) here, \(foundationDescription(theirs)) in Foundation"
        }
        return nil
    case .array(let elements):
        guard let others = theirs as? [Any], others.count == elements.count else {
            return "\(path): \(elements.count) elements here, \(foundationDescription(theirs)) in Foundation"
        }
        for (index, element) in elements.enumerated() {
            if let found = difference(element, others[index], at: "\(path)[\(index)]") { return found }
        }
        return nil
    case .object(let object):
        guard let others = theirs as? [String: Any] else {
            return "\(path): an object here, \(foundationDescription(theirs)) in Foundation"
        }
        var members: [String: JSONValue] = [:]
        for member in object.members { members[member.key] = member.value }
        guard members.count == others.count else {
            return "\(path): \(members.count) distinct names here, \(others.count) in Foundation"
        }
        for (key, value) in members {
            guard let index = others.index(forKey: key) else {
                return "\(path): no member \(scalarList(key)) in Foundation"
            }
            let other = others[index]
            guard other.key.unicodeScalars.elementsEqual(key.unicodeScalars) else {
                return "\(path): name \(scalarList(key)) here, \(scalarList(other.key)) in Foundation"
            }
            if let found = difference(value, other.value, at: "\(path).\(key)") { return found }
        }
        return nil
    }
}

/// Where a number's text and Foundation's reading of it differ, or `nil`.
private func numberDifference(_ text: String, _ theirs: Any, at path: String) -> String? {
    if let decimal = theirs as? NSDecimalNumber {
        // Foundation reads integers beyond 64 bits, and numbers of more than 17 characters with a small exponent,
        // as `Decimal`.
        guard let expected = Decimal(string: text), expected == decimal.decimalValue else {
            return "\(path): \(text) here, the decimal \(decimal) in Foundation"
        }
        return nil
    }
    guard let number = theirs as? NSNumber else {
        return "\(path): \(text) here, \(foundationDescription(theirs)) in Foundation"
    }
    guard let double = Double(text), double == number.doubleValue else {
        return "\(path): \(text) here, \(number.doubleValue) in Foundation"
    }
    if let exact = Int64(text) {
        if number.int64Value != exact { return "\(path): the integer \(text) here, \(number) in Foundation" }
    } else if let exact = UInt64(text), number.uint64Value != exact {
        return "\(path): the integer \(text) here, \(number) in Foundation"
    }
    return nil
}

/// Whether `value` holds a number whose `Double` is not finite.
private func holdsANumberBeyondDouble(_ value: JSONValue) -> Bool {
    switch value {
    case .number(let number): !(number.doubleValue?.isFinite ?? false)
    case .array(let elements): elements.contains { holdsANumberBeyondDouble($0) }
    case .object(let object): object.members.contains { holdsANumberBeyondDouble($0.value) }
    case .null, .bool, .string: false
    }
}

/// How many arrays and objects nest at the deepest point of `value`.
private func nestingDepth(_ value: JSONValue) -> Int {
    switch value {
    case .array(let elements): 1 + (elements.map { nestingDepth($0) }.max() ?? 0)
    case .object(let object): 1 + (object.members.map { nestingDepth($0.value) }.max() ?? 0)
    case .null, .bool, .number, .string: 0
    }
}

/// The most elements or members any one container in `value` holds.
private func widestContainer(_ value: JSONValue) -> Int {
    switch value {
    case .array(let elements): max(elements.count, elements.map { widestContainer($0) }.max() ?? 0)
    case .object(let object): max(object.count, object.members.map { widestContainer($0.value) }.max() ?? 0)
    case .null, .bool, .number, .string: 0
    }
}

/// The line and column, from 1, of the byte at `offset`: lines start after each LF, columns count bytes.
func lineAndColumn(of offset: Int, in bytes: [UInt8]) -> (line: Int, column: Int) {
    var line = 1
    var lineStart = 0
    for index in 0..<offset where bytes[index] == 0x0A {
        line += 1
        lineStart = index + 1
    }
    return (line, offset - lineStart + 1)
}

// MARK: - Describing failures

/// The bytes as readable text: printable ASCII as is, anything else as `⟨XX⟩`.
func describe(_ bytes: [UInt8]) -> String {
    let limit = 3_000
    var result = ""
    for byte in bytes.prefix(limit) {
        if byte >= 0x20 && byte < 0x7F {
            result.unicodeScalars.append(Unicode.Scalar(byte))
        } else {
            result += "⟨" + hexByte(byte) + "⟩"
        }
    }
    if bytes.count > limit { result += "… (\(bytes.count) bytes in all)" }
    return result
}

/// At most the first 500 characters of `text`.
func clipped(_ text: String) -> String {
    text.count > 500 ? String(text.prefix(500)) + "…" : text
}

/// A string as its scalars' code points, which shows what `String` equality would hide.
private func scalarList(_ string: String) -> String {
    "\"" + string.unicodeScalars.prefix(80).map { "U+" + hex4($0.value, uppercase: true) }.joined(separator: " ")
        + "\""
}

/// Foundation's value and its type, for a failure message.
private func foundationDescription(_ value: Any) -> String {
    "\(type(of: value)) \(clipped(String(describing: value)))"
}

/// A seed in hexadecimal.
func hex(_ value: UInt64) -> String {
    "0x" + String(value, radix: 16, uppercase: true)
}

/// A byte as two hexadecimal digits.
private func hexByte(_ byte: UInt8) -> String {
    (byte < 0x10 ? "0" : "") + String(byte, radix: 16, uppercase: true)
}

/// A code unit as at least four hexadecimal digits, as a `\u` escape spells it.
private func hex4(_ value: UInt32, uppercase: Bool) -> String {
    let digits = String(value, radix: 16, uppercase: uppercase)
    return String(repeating: "0", count: max(0, 4 - digits.count)) + digits
}

// MARK: - Random documents

// The generator and the helpers above it that are not private are shared with the item reader and model decoder
// tests.

/// SplitMix64 (Steele, Lea and Flood): one word of state, so a seed replays a whole run exactly.
struct SplitMix64 {
    private var state: UInt64

    init(seed: UInt64) {
        state = seed
    }

    /// The next 64 random bits.
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var mixed = state
        mixed = (mixed ^ (mixed >> 30)) &* 0xBF58_476D_1CE4_E5B9
        mixed = (mixed ^ (mixed >> 27)) &* 0x94D0_49BB_1331_11EB
        return mixed ^ (mixed >> 31)
    }

    /// A number in `0..<bound`, for a positive `bound` (the slight modulo bias does not matter here).
    mutating func below(_ bound: Int) -> Int {
        Int(next() % UInt64(bound))
    }

    /// A number in `range`.
    mutating func inRange(_ range: ClosedRange<Int>) -> Int {
        range.lowerBound + below(range.count)
    }

    /// `true` about `chance` times in a hundred.
    mutating func percent(_ chance: Int) -> Bool {
        below(100) < chance
    }

    /// One of `choices`, which must not be empty.
    mutating func pick<Element>(_ choices: [Element]) -> Element {
        choices[below(choices.count)]
    }
}

/// The seed of document `index` of a test.
func documentSeed(_ testSeed: UInt64, _ index: Int) -> UInt64 {
    var mixer = SplitMix64(seed: testSeed ^ (UInt64(index) &* 0xD1B5_4A32_D192_ED03))
    return mixer.next()
}

/// Numbers at the edges of `Double`, `Int64` and `UInt64`, all of which `Double` holds as finite values.
private let edgeNumbers = [
    "0", "-0", "-0.0", "0e0", "0.1", "1E+2", "1e-7", "1E-7", "-2.5e+3", "0.30000000000000004",
    "1e308", "-1e-308", "5e-324", "4.9e-324", "1e-400", "2.2250738585072014e-308",
    "1.7976931348623157e308", "-1.7976931348623157e308",
    "9007199254740992", "9007199254740993", "9223372036854775807", "-9223372036854775808",
    "18446744073709551615", "18446744073709551616", "123456789012345678901234567890",
]

/// What documents a generator makes.
struct DocumentShape {
    /// A name for failure messages.
    var name: String
    /// Off the spine, containers open only while fewer than this many are open.
    var maxDepth: Int
    /// How many containers the chain from the top must hold (chosen per document).
    var spineDepth: ClosedRange<Int>
    /// About how many values a document holds before every further one is a scalar.
    var budget: Int
    /// The percent chance that a container at the top two levels holds 100 to 400 members.
    var wideChance: Int

    /// Arrays and objects nested up to 20 deep.
    static let nested = DocumentShape(name: "nested", maxDepth: 20, spineDepth: 0...20, budget: 120, wideChance: 0)
    /// Containers of hundreds of members.
    static let wide = DocumentShape(name: "wide", maxDepth: 4, spineDepth: 1...2, budget: 1_200, wideChance: 60)
    /// A chain of about 400 containers, within the parsers' limit of 512.
    static let deep = DocumentShape(name: "deep", maxDepth: 3, spineDepth: 390...420, budget: 600, wideChance: 0)
    /// A few values, for corrupting.
    static let small = DocumentShape(name: "small", maxDepth: 5, spineDepth: 0...5, budget: 25, wideChance: 0)
}

/// One corrupted document.
struct Corruption {
    /// What was done, for failure messages.
    var label: String
    var bytes: [UInt8]
}

/// Writes a random valid JSON document and, alongside, the value it means.
///
/// It records where its tokens are, so that corruptions can aim at strings, numbers and the gaps between tokens.
/// Object member names are unique under `String` equality, which is how Foundation tells them apart.
struct DocumentGenerator {
    var random: SplitMix64
    let shape: DocumentShape
    /// The document's UTF-8 text.
    private(set) var text: [UInt8] = []
    /// Offsets between tokens, where whitespace may go.
    private(set) var boundaries: [Int] = []
    /// Where numbers are.
    private(set) var numbers: [Range<Int>] = []
    /// Where `true`, `false` and `null` are.
    private(set) var literals: [Range<Int>] = []
    /// Where strings are, quotes included.
    private(set) var strings: [Range<Int>] = []
    /// Offsets of every `]` and `}`.
    private(set) var closers: [Int] = []
    /// Where raw characters of two to four bytes are.
    private(set) var multiByteCharacters: [Range<Int>] = []
    private var remaining: Int
    private let spineDepth: Int

    init(seed: UInt64, shape: DocumentShape) {
        var random = SplitMix64(seed: seed)
        spineDepth = random.inRange(shape.spineDepth)
        self.random = random
        self.shape = shape
        remaining = shape.budget
    }

    /// Writes the document and returns its value.
    mutating func document() -> JSONValue {
        whitespace()
        let value = randomValue(depth: 0, onSpine: true)
        whitespace()
        return value
    }

    private mutating func whitespace() {
        boundaries.append(text.count)
        guard random.percent(30) else { return }
        for _ in 0..<random.inRange(1...3) {
            text.append(random.pick([0x20, 0x0A, 0x0D, 0x09]))
        }
    }

    /// A value under `depth` open containers; on the spine, a container until the spine is long enough.
    private mutating func randomValue(depth: Int, onSpine: Bool) -> JSONValue {
        remaining -= 1
        if onSpine && depth < spineDepth {
            return random.percent(50) ? array(depth: depth, spine: true) : object(depth: depth, spine: true)
        }
        let mayNest = depth < shape.maxDepth && remaining > 0
        switch random.below(mayNest ? 10 : 6) {
        case 0: return literal("null", .null)
        case 1: return random.percent(50) ? literal("true", .bool(true)) : literal("false", .bool(false))
        case 2, 3: return number()
        case 4, 5: return string()
        case 6, 7: return array(depth: depth, spine: false)
        default: return object(depth: depth, spine: false)
        }
    }

    private mutating func memberCount(depth: Int, spine: Bool) -> Int {
        if depth <= 1 && shape.wideChance > 0 && random.percent(shape.wideChance) { return random.inRange(100...400) }
        let count = random.below(6)
        return spine ? max(1, count) : count
    }

    private mutating func array(depth: Int, spine: Bool) -> JSONValue {
        text.append(UInt8(ascii: "["))
        let count = memberCount(depth: depth, spine: spine)
        let spineIndex = spine ? random.below(count) : -1
        var elements: [JSONValue] = []
        for index in 0..<count {
            if index > 0 { text.append(UInt8(ascii: ",")) }
            whitespace()
            elements.append(randomValue(depth: depth + 1, onSpine: index == spineIndex))
            whitespace()
        }
        if count == 0 { whitespace() }
        closers.append(text.count)
        text.append(UInt8(ascii: "]"))
        return .array(elements)
    }

    private mutating func object(depth: Int, spine: Bool) -> JSONValue {
        text.append(UInt8(ascii: "{"))
        let count = memberCount(depth: depth, spine: spine)
        let spineIndex = spine ? random.below(count) : -1
        var members: [JSONMember] = []
        var names: Set<String> = []
        for index in 0..<count {
            if index > 0 { text.append(UInt8(ascii: ",")) }
            whitespace()
            var name = stringBody(maxLength: 6)
            while names.contains(name.value) {
                let suffix = "~\(index)"
                name.value += suffix
                name.encoded.append(contentsOf: suffix.utf8)
            }
            names.insert(name.value)
            appendString(name)
            whitespace()
            text.append(UInt8(ascii: ":"))
            whitespace()
            let value = randomValue(depth: depth + 1, onSpine: index == spineIndex)
            members.append(JSONMember(name.value, value))
            whitespace()
        }
        if count == 0 { whitespace() }
        closers.append(text.count)
        text.append(UInt8(ascii: "}"))
        return .object(JSONObject(members))
    }

    private mutating func literal(_ word: String, _ value: JSONValue) -> JSONValue {
        let start = text.count
        text.append(contentsOf: word.utf8)
        literals.append(start..<text.count)
        return value
    }

    private mutating func number() -> JSONValue {
        let numberText = random.percent(30) ? random.pick(edgeNumbers) : randomNumberText()
        let start = text.count
        text.append(contentsOf: numberText.utf8)
        numbers.append(start..<text.count)
        return .number(JSONNumber(text: numberText))
    }

    /// A number of up to 20 integer digits, 12 fraction digits and an exponent of up to 280 either way: always
    /// finite as a `Double`.
    private mutating func randomNumberText() -> String {
        var result = random.percent(30) ? "-" : ""
        if random.percent(20) {
            result += "0"
        } else {
            result += String(random.inRange(1...9))
            for _ in 0..<random.below(20) { result += String(random.below(10)) }
        }
        if random.percent(40) {
            result += "."
            for _ in 0..<random.inRange(1...12) { result += String(random.below(10)) }
        }
        if random.percent(30) {
            result += random.pick(["e", "E"]) + random.pick(["", "+", "-"])
            result += (random.percent(10) ? "0" : "") + String(random.below(281))
        }
        return result
    }

    // MARK: Strings

    /// A string's escaped text (without quotes) and its value.
    private struct StringBody {
        var encoded: [UInt8] = []
        var value = ""
        /// Raw characters of two to four bytes, as offsets into `encoded`.
        var multiByte: [Range<Int>] = []
    }

    private static let shortEscapes: [(escape: String, scalar: Unicode.Scalar)] = [
        (#"\""#, "\""), (#"\\"#, "\\"), (#"\/"#, "/"), (#"\b"#, "\u{08}"), (#"\f"#, "\u{0C}"), (#"\n"#, "\n"),
        (#"\r"#, "\r"), (#"\t"#, "\t"),
    ]

    /// Parts of the Basic Multilingual Plane; none holds U+FEFF, which Foundation drops at the start of a string.
    private static let basicPlane: [ClosedRange<UInt32>] = [
        0xA0...0xFF, 0x100...0x17F, 0x300...0x36F, 0x370...0x3FF, 0x400...0x4FF, 0x5D0...0x5EA, 0x600...0x6FF,
        0x900...0x97F, 0x2000...0x206F, 0x20A0...0x20BF, 0x3040...0x30FF, 0x4E00...0x9FFF, 0xAC00...0xD7A3,
        0xE000...0xF8FF, 0xFE00...0xFE0F, 0xFF01...0xFF5E, 0xFFF9...0xFFFD,
    ]

    /// Parts of the other planes: emoji, old scripts, mathematical letters, CJK extension B, the last code points.
    private static let astralPlanes: [ClosedRange<UInt32>] = [
        0x1F300...0x1F64F, 0x1F900...0x1F9FF, 0x10000...0x1007F, 0x1D400...0x1D7FF, 0x20000...0x2A6DF,
        0x10FFF0...0x10FFFD,
    ]

    private mutating func string() -> JSONValue {
        let body = stringBody(maxLength: 12)
        appendString(body)
        return .string(body.value)
    }

    private mutating func appendString(_ body: StringBody) {
        let start = text.count
        text.append(UInt8(ascii: "\""))
        for range in body.multiByte {
            multiByteCharacters.append((range.lowerBound + start + 1)..<(range.upperBound + start + 1))
        }
        text.append(contentsOf: body.encoded)
        text.append(UInt8(ascii: "\""))
        strings.append(start..<text.count)
    }

    private mutating func stringBody(maxLength: Int) -> StringBody {
        var body = StringBody()
        for _ in 0..<random.inRange(0...maxLength) {
            let roll = random.below(100)
            if roll < 35 {
                var byte = UInt8(random.inRange(0x20...0x7E))
                if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") { byte = UInt8(ascii: "q") }
                body.encoded.append(byte)
                body.value.unicodeScalars.append(Unicode.Scalar(byte))
            } else if roll < 50 {
                let (escape, scalar) = random.pick(Self.shortEscapes)
                body.encoded.append(contentsOf: escape.utf8)
                body.value.unicodeScalars.append(scalar)
            } else if roll < 58 {
                appendEscaped(UInt32(random.below(0x20)), to: &body)
            } else if roll < 62 {
                appendEscaped(UInt32(random.inRange(0x20...0x7E)), to: &body)
            } else if roll < 80 {
                let scalar = randomScalar(from: Self.basicPlane)
                if random.percent(60) {
                    appendRaw(scalar, to: &body)
                } else {
                    appendEscaped(scalar.value, to: &body)
                }
            } else if roll < 92 {
                let scalar = randomScalar(from: Self.astralPlanes)
                if random.percent(60) {
                    appendRaw(scalar, to: &body)
                } else {
                    appendSurrogatePair(scalar, to: &body)
                }
            } else {
                // DEL needs no escape.
                body.encoded.append(0x7F)
                body.value.unicodeScalars.append(Unicode.Scalar(UInt8(0x7F)))
            }
        }
        return body
    }

    private mutating func randomScalar(from ranges: [ClosedRange<UInt32>]) -> Unicode.Scalar {
        let range = random.pick(ranges)
        let value = range.lowerBound + UInt32(random.below(Int(range.upperBound - range.lowerBound) + 1))
        return Unicode.Scalar(value) ?? Unicode.Scalar(UInt8(ascii: "?"))
    }

    private mutating func appendEscaped(_ value: UInt32, to body: inout StringBody) {
        body.encoded.append(contentsOf: ("\\u" + hex4(value, uppercase: random.percent(50))).utf8)
        body.value.unicodeScalars.append(Unicode.Scalar(value) ?? Unicode.Scalar(UInt8(ascii: "?")))
    }

    private func appendRaw(_ scalar: Unicode.Scalar, to body: inout StringBody) {
        var piece = ""
        piece.unicodeScalars.append(scalar)
        let start = body.encoded.count
        body.encoded.append(contentsOf: piece.utf8)
        if body.encoded.count - start > 1 { body.multiByte.append(start..<body.encoded.count) }
        body.value.unicodeScalars.append(scalar)
    }

    private mutating func appendSurrogatePair(_ scalar: Unicode.Scalar, to body: inout StringBody) {
        let offset = scalar.value - 0x10000
        let high = 0xD800 + (offset >> 10)
        let low = 0xDC00 + (offset & 0x3FF)
        body.encoded.append(contentsOf: ("\\u" + hex4(high, uppercase: random.percent(50))).utf8)
        body.encoded.append(contentsOf: ("\\u" + hex4(low, uppercase: random.percent(50))).utf8)
        body.value.unicodeScalars.append(scalar)
    }
}

// MARK: - Corruptions

extension DocumentGenerator {
    /// Bytes that break JSON outside strings and are ordinary inside them, or the reverse.
    private static let strayBytes: [UInt8] = Array("{}[],:".utf8) + [0x22, 0x5C] + Array("aeEflnrstuxZ".utf8)

    private static let trailingGarbage = [
        " x", "}", "]", ",", " 1", "{}", " null", "\"", "/", "#", "[", ",]", " true", "\"\"",
    ]

    /// Number forms RFC 8259 forbids.
    private static let badNumbers = [
        "01", "-01", "00", "+1", ".5", "-.5", "1.", "1.e5", "1e", "1e+", "-", "--1", "NaN", "-NaN", "Infinity",
        "-Infinity", "inf", "0x1F", "1_000", "1.5.2", "1e5e5", "1e5.5", "\u{661}",
    ]

    private static let badLiterals = [
        "tru", "True", "TRUE", "nul", "NULL", "Null", "fals", "False", "undefined", "nil", "t", "truee", "nulll",
    ]

    /// Escapes RFC 8259 forbids: lone or mismatched surrogates, short or non-hex `\u`, unknown letters.
    private static let badEscapes = [
        #"\uD800"#, #"\uDBFF"#, #"\uDC00"#, #"\uDFFF"#, #"\uD83D\u0041"#, #"\uD83D\uD83D"#, #"\uDE00\uD83D"#,
        #"\uD83Dx"#, #"\u12"#, #"\u12G4"#, #"\uZZZZ"#, #"\x41"#, #"\'"#, #"\U0041"#, #"\a"#, #"\0"#, #"\ "#, "\\",
    ]

    /// Bytes that are not UTF-8: stray continuation bytes, overlong forms, encoded surrogates, code points past
    /// U+10FFFF, and sequences cut short.
    private static let invalidUTF8: [[UInt8]] = [
        [0xFF], [0xFE], [0x80], [0xBF], [0xC0, 0xAF], [0xC1, 0x81], [0xC3], [0xC3, 0x28], [0xE0, 0x80, 0x80],
        [0xE2, 0x82], [0xED, 0xA0, 0x80], [0xED, 0xBF, 0xBF], [0xF0, 0x9F, 0x98], [0xF4, 0x90, 0x80, 0x80],
        [0xF5, 0x80, 0x80, 0x80], [0xF8, 0x88, 0x80, 0x80, 0x80],
    ]

    /// Bytes that are no token and no JSON whitespace, valid UTF-8 or not (a byte order mark is left out:
    /// Foundation skips one at the start).
    private static let strayBetweenTokens: [[UInt8]] = [
        [0xFF], [0xC3, 0xA9], [0xC2, 0xA0], [0xE2, 0x80, 0xA8], [0x80], [0x0C], [0x0B],
    ]

    /// The document with one random corruption; call after `document()`.
    mutating func corrupted() -> Corruption {
        var bytes = text
        switch random.below(16) {
        case 0:
            let end = random.below(text.count)
            return Corruption(label: "truncated to \(end) bytes", bytes: Array(text[..<end]))
        case 1:
            let index = random.below(text.count)
            bytes.remove(at: index)
            return Corruption(label: "byte \(index) deleted", bytes: bytes)
        case 2:
            let index = random.inRange(0...text.count)
            let byte = random.pick(Self.strayBytes)
            bytes.insert(byte, at: index)
            return Corruption(label: "byte 0x\(hexByte(byte)) inserted at \(index)", bytes: bytes)
        case 3:
            let index = random.below(text.count)
            let byte = random.pick(Self.strayBytes)
            bytes[index] = byte
            return Corruption(label: "byte \(index) replaced by 0x\(hexByte(byte))", bytes: bytes)
        case 4:
            let garbage = random.pick(Self.trailingGarbage)
            return Corruption(label: "trailing \(garbage) appended", bytes: text + Array(garbage.utf8))
        case 5:
            return unbalanced()
        case 6:
            var control = UInt8(random.below(0x20))
            // A NUL in an input of two or three bytes makes Foundation guess UTF-16 (see the top of the file).
            if control == 0 && text.count < 3 { control = 0x1F }
            return insertedInAString([control], label: "raw control byte 0x\(hexByte(control))")
        case 7:
            let bad = random.pick(Self.badNumbers)
            return replacing(numbers, with: Array(bad.utf8), label: "number replaced by \(bad)")
        case 8:
            guard !strings.isEmpty else {
                return Corruption(label: "single-quoted string appended", bytes: wrapped(Array("'a'".utf8)))
            }
            let range = random.pick(strings)
            bytes[range.lowerBound] = UInt8(ascii: "'")
            bytes[range.upperBound - 1] = UInt8(ascii: "'")
            return Corruption(label: "string at \(range.lowerBound) single-quoted", bytes: bytes)
        case 9:
            let comma = random.pick([",", ", ", " ,", ",\n"])
            guard !closers.isEmpty else {
                return Corruption(label: "wrapped in an array with a trailing comma", bytes: wrapped([]))
            }
            let index = random.pick(closers)
            bytes.insert(contentsOf: comma.utf8, at: index)
            return Corruption(label: "comma inserted before the bracket at \(index)", bytes: bytes)
        case 10:
            let comment = random.pick(["/* note */", "// note\n", "/**/", "# note\n"])
            let index = random.pick(boundaries)
            bytes.insert(contentsOf: comment.utf8, at: index)
            return Corruption(label: "comment inserted at \(index)", bytes: bytes)
        case 11:
            let escape = random.pick(Self.badEscapes)
            return insertedInAString(Array(escape.utf8), label: "escape \(escape)")
        case 12:
            let sequence = random.pick(Self.invalidUTF8)
            return insertedInAString(sequence, label: "bytes \(sequence.map(hexByte))")
        case 13:
            guard !multiByteCharacters.isEmpty else {
                return insertedInAString([0xE2, 0x82], label: "a three-byte sequence cut short")
            }
            let range = random.pick(multiByteCharacters)
            bytes.remove(at: range.upperBound - 1)
            return Corruption(label: "last byte of the character at \(range.lowerBound) deleted", bytes: bytes)
        case 14:
            let sequence = random.pick(Self.strayBetweenTokens)
            let index = random.pick(boundaries)
            bytes.insert(contentsOf: sequence, at: index)
            return Corruption(label: "bytes \(sequence.map(hexByte)) inserted at \(index)", bytes: bytes)
        default:
            let bad = random.pick(Self.badLiterals)
            return replacing(literals, with: Array(bad.utf8), label: "literal replaced by \(bad)")
        }
    }

    /// `[`, the document, `,`, `payload`, `]`.
    private func wrapped(_ payload: [UInt8]) -> [UInt8] {
        var bytes: [UInt8] = [UInt8(ascii: "[")]
        bytes.append(contentsOf: text)
        bytes.append(UInt8(ascii: ","))
        bytes.append(contentsOf: payload)
        bytes.append(UInt8(ascii: "]"))
        return bytes
    }

    /// `payload` inside one of the strings (after its opening quote, up to before its closing one), or inside a
    /// new string after the document when it has none.
    private mutating func insertedInAString(_ payload: [UInt8], label: String) -> Corruption {
        guard !strings.isEmpty else {
            let string = [UInt8(ascii: "\""), UInt8(ascii: "a")] + payload + [UInt8(ascii: "b"), UInt8(ascii: "\"")]
            return Corruption(label: label + " in a new string", bytes: wrapped(string))
        }
        let range = random.pick(strings)
        let index = random.inRange((range.lowerBound + 1)...(range.upperBound - 1))
        var bytes = text
        bytes.insert(contentsOf: payload, at: index)
        return Corruption(label: "\(label) inserted at \(index)", bytes: bytes)
    }

    /// One of `ranges` replaced by `replacement`, or `replacement` after the document when there are none.
    private mutating func replacing(_ ranges: [Range<Int>], with replacement: [UInt8], label: String) -> Corruption {
        guard !ranges.isEmpty else {
            return Corruption(label: label + " after the document", bytes: wrapped(replacement))
        }
        let range = random.pick(ranges)
        var bytes = text
        bytes.replaceSubrange(range, with: replacement)
        return Corruption(label: "\(label) at \(range.lowerBound)", bytes: bytes)
    }

    /// An opening bracket too many, a closing one too many, one missing, or one of the wrong kind.
    private mutating func unbalanced() -> Corruption {
        var bytes = text
        let kind = random.below(5)
        if kind == 1 {
            bytes.append(random.pick([UInt8(ascii: "]"), UInt8(ascii: "}")]))
            return Corruption(label: "closing bracket appended", bytes: bytes)
        }
        guard kind > 1, !closers.isEmpty else {
            bytes.insert(random.pick([UInt8(ascii: "["), UInt8(ascii: "{")]), at: 0)
            return Corruption(label: "opening bracket prepended", bytes: bytes)
        }
        let index = random.pick(closers)
        switch kind {
        case 2:
            bytes.remove(at: index)
            return Corruption(label: "bracket at \(index) deleted", bytes: bytes)
        case 3:
            let bracket = bytes[index]
            bytes.insert(bracket, at: index)
            return Corruption(label: "bracket at \(index) doubled", bytes: bytes)
        default:
            bytes[index] = bytes[index] == UInt8(ascii: "]") ? UInt8(ascii: "}") : UInt8(ascii: "]")
            return Corruption(label: "bracket at \(index) of the wrong kind", bytes: bytes)
        }
    }
}
