import ContentJSON
import Foundation
import Testing

// Tests of the model decoder against Foundation's `JSONDecoder`.
//
// Generated documents for a handful of models (valid ones, and ones with members reordered, added, left out,
// repeated, null, of the wrong type, or holding numbers at the edges of their types) must decode to equal values
// with both decoders, or make both throw. Every document comes from a seeded SplitMix64 generator; the seed in a
// failure message rebuilds it. Where the decoders differ on purpose (RFC 8259 strictness, `Data`), the tests pin
// the project's side instead.

struct JSONModelDecoderTests {
    private static let modelSeed: UInt64 = 0x4D4F_4445_0000_0001
    private static let anythingSeed: UInt64 = 0x4D4F_4445_0000_0002
    private static let corruptionSeed: UInt64 = 0x4D4F_4445_0000_0003

    // MARK: Generated documents

    @Test(arguments: 0..<8)
    func generatedModelsDecodeAsFoundationDecodesThem(batch: Int) {
        let count = 120
        var failures = 0
        var tally: [String: Int] = [:]
        for index in 0..<count where failures < 5 {
            let seed = documentSeed(Self.modelSeed, batch * count + index)
            var writer = ModelWriter(seed: seed)
            let model = writer.random.pick(Model.allCases)
            let bytes = writer.document(model.shape)
            let agreement = model.agreement(bytes)
            tally[agreement.name, default: 0] += 1
            if case .differ(let reason) = agreement {
                failures += 1
                Issue.record("\(reason); seed \(hex(seed)), \(model), \(writer.mutations); input \(describe(bytes))")
            }
        }
        // Both outcomes must be common, or the test checks little.
        let decoded = tally["both decoded", default: 0]
        let threw = tally["both threw", default: 0]
        #expect(failures > 0 || (decoded * 5 > count && threw * 10 > count), "\(tally)")
    }

    @Test(arguments: 0..<4)
    func generatedDocumentsDecodeAsFoundationDecodesThemWhenAnythingGoes(batch: Int) {
        let count = 15
        var failures = 0
        for index in 0..<count where failures < 3 {
            let seed = documentSeed(Self.anythingSeed, batch * count + index)
            var generator = DocumentGenerator(seed: seed, shape: .nested)
            _ = generator.document()
            let agreement = anyJSONAgreement(generator.text)
            if case .differ(let reason) = agreement {
                failures += 1
                Issue.record("\(reason); document seed \(hex(seed)); input \(describe(generator.text))")
            }
        }
    }

    @Test(arguments: 0..<4)
    func corruptedDocumentsAreRejectedByBothDecoders(batch: Int) {
        let count = 200
        var failures = 0
        var threw = 0
        for index in 0..<count where failures < 5 {
            let seed = documentSeed(Self.corruptionSeed, batch * count + index)
            var generator = DocumentGenerator(seed: seed, shape: .small)
            _ = generator.document()
            let corruption = generator.corrupted()
            let agreement = anyJSONAgreement(corruption.bytes)
            switch agreement {
            case .bothThrew: threw += 1
            case .bothDecoded: break
            case .differ(let reason):
                failures += 1
                let input = describe(corruption.bytes)
                Issue.record("\(reason); small document seed \(hex(seed)), \(corruption.label); input \(input)")
            }
        }
        #expect(failures > 0 || threw * 2 > count, "only \(threw) of \(count) corrupted documents were rejected")
    }

    // MARK: Coding paths

    @Test func decodingErrorsCarryTheCodingPathFoundationGives() {
        /// An item of a `Page`, some members replaced or added.
        func item(_ changes: KeyValuePairs<String, String> = [:]) -> String {
            var members: [(name: String, value: String)] = [
                ("id", "1"), ("title", #""t""#), ("flavor", #""plain""#), ("tags", "[]"), ("scores", "{}"),
                ("ratings", "[]"), ("featured", "true"), ("primaryImage", #"{"width": 4, "url": "u"}"#),
            ]
            for (name, value) in changes {
                if let index = members.firstIndex(where: { $0.name == name }) {
                    members[index].value = value
                } else {
                    members.append((name, value))
                }
            }
            return "{" + members.map { "\"\($0.name)\": \($0.value)" }.joined(separator: ", ") + "}"
        }
        func page(third: String) -> [UInt8] {
            Array(#"{"total": 3, "items": [\#(item()), \#(item()), \#(third)]}"#.utf8)
        }
        let image = "primaryImage"
        let cases: [(name: String, bytes: [UInt8], kind: String, path: [String])] = [
            (
                "a string for an Int", page(third: item([image: #"{"width": "wide", "url": "u"}"#])),
                "typeMismatch", ["items", "[2]", image, "width"]
            ),
            (
                "a missing Int", page(third: item([image: #"{"url": "u"}"#])),
                "keyNotFound width", ["items", "[2]", image]
            ),
            (
                "null for an Int", page(third: item([image: #"{"width": null, "url": "u"}"#])),
                "valueNotFound", ["items", "[2]", image, "width"]
            ),
            (
                "a string in an array of Double?", page(third: item(["ratings": #"[1, "x"]"#])),
                "typeMismatch", ["items", "[2]", "ratings", "[1]"]
            ),
            (
                "a string in a dictionary of Int", page(third: item(["scores": #"{"a": 1, "b": "x"}"#])),
                "typeMismatch", ["items", "[2]", "scores", "b"]
            ),
            (
                "an unknown enum raw value", page(third: item(["flavor": #""sour""#])),
                "dataCorrupted", ["items", "[2]", "flavor"]
            ),
            ("a number for an item", page(third: "5"), "typeMismatch", ["items", "[2]"]),
            (
                "a number in an array of String", page(third: item(["tags": #"["a", 5]"#])),
                "typeMismatch", ["items", "[2]", "tags", "[1]"]
            ),
            (
                "null in an array of String", page(third: item(["tags": "[null]"])),
                "valueNotFound", ["items", "[2]", "tags", "[0]"]
            ),
            (
                "an object for an array of String", page(third: item(["tags": "{}"])),
                "typeMismatch", ["items", "[2]", "tags"]
            ),
            (
                "null for an array of String", page(third: item(["tags": "null"])), "valueNotFound",
                ["items", "[2]", "tags"]
            ),
            ("a missing top-level member", Array(#"{"items": []}"#.utf8), "keyNotFound total", []),
            ("null for an array", Array(#"{"items": null, "total": 1}"#.utf8), "valueNotFound", ["items"]),
        ]
        for item in cases {
            let ours = failure(Page.self, item.bytes, foundation: false)
            let theirs = failure(Page.self, item.bytes, foundation: true)
            #expect(ours?.kind == item.kind, "\(item.name): \(ours?.kind ?? "decoded")")
            #expect(ours?.path == item.path, "\(item.name): the path is \(ours?.path ?? [])")
            #expect(theirs?.kind == item.kind, "\(item.name): Foundation: \(theirs?.kind ?? "decoded")")
            #expect(theirs?.path == ours?.path, "\(item.name): Foundation's path is \(theirs?.path ?? [])")
        }

        // Inside custom containers: an element of a pair read through `superDecoder()`, and a member read through
        // `superDecoder(forKey:)`.
        let custom = #"{"meta": {"name": "n"}, "values": [], "pairs": [[1, "a"], ["x", "b"]], "base": {"x": 1}}"#
        let customBase = #"{"meta": {"name": "n"}, "values": [], "pairs": [], "base": {"x": "one"}}"#
        let customCases: [(name: String, text: String, path: [String])] = [
            ("a pair through superDecoder()", custom, ["pairs", "[1]", "[0]"]),
            ("a member through superDecoder(forKey:)", customBase, ["base", "x"]),
        ]
        for item in customCases {
            let ours = failure(Custom.self, Array(item.text.utf8), foundation: false)
            let theirs = failure(Custom.self, Array(item.text.utf8), foundation: true)
            #expect(ours?.kind == "typeMismatch", "\(item.name): \(ours?.kind ?? "decoded")")
            #expect(ours?.path == item.path, "\(item.name): the path is \(ours?.path ?? [])")
            #expect(theirs?.path == item.path, "\(item.name): Foundation's path is \(theirs?.path ?? [])")
        }

        // A number that does not fit names the member (Foundation reports these with an empty path).
        let tooLarge = failure(Page.self, Array(#"{"items": [], "total": 4294967296}"#.utf8), foundation: false)
        #expect(tooLarge?.kind == "dataCorrupted", "\(tooLarge?.kind ?? "decoded")")
        #expect(tooLarge?.path == ["total"], "the path is \(tooLarge?.path ?? [])")
    }

    // MARK: Malformed JSON

    @Test func malformedJSONIsDataCorruptedWithTheParsersLineAndColumn() {
        // Each input is the text before the offending byte, then the rest.
        let cases: [(name: String, before: [UInt8], after: [UInt8])] = [
            ("a stray letter on line 3", Array("{\n  \"items\": [1,\n   2 ".utf8), Array("x]\n}".utf8)),
            ("garbage after the value", Array("{}\r\n\n  ".utf8), Array("x".utf8)),
            (
                "a misspelt literal after multi-byte text", Array("[\"caf\u{E9} \u{1F600}\",\n ".utf8),
                Array("tru]".utf8)
            ),
            ("a trailing comma", Array("[\n  1,\n  2,\n".utf8), Array("]".utf8)),
            ("invalid UTF-8 on line 2", Array("[\n\"a".utf8), [0xFF, 0x22, 0x5D]),
            ("a lone low surrogate", Array("[\n\"".utf8), Array("\\uDC00\"]".utf8)),
            ("an empty input", [], []),
            ("a leading zero", Array("{\"n\":\n 0".utf8), Array("12}".utf8)),
        ]
        for item in cases {
            let bytes = item.before + item.after
            let offset = item.before.count
            let (line, column) = lineAndColumn(of: offset, in: bytes)
            guard let error = parseError(JSONModelDecoder(), Page.self, bytes) else {
                Issue.record("\(item.name): no JSONParseError under a dataCorrupted error")
                continue
            }
            #expect(
                [error.offset, error.line, error.column] as [Int] == [offset, line, column],
                "\(item.name): \(error), expected \(line):\(column) (byte \(offset))")
            let parser = parserError(bytes)
            let parserText = parser.map { "\($0)" } ?? "valid"
            #expect(parser?.offset == error.offset, "\(item.name): the parser says \(parserText)")
        }
    }

    @Test func anInputCutInsideAMultiByteCharacterFailsWhereTheParserFails() {
        // The string is unterminated and its last character incomplete; the parser reports the string.
        let cases: [[UInt8]] = [
            Array("[\"a".utf8) + [0xC3],
            Array("{\"title\": \"caf".utf8) + [0xE2, 0x82],
            Array("[1,\n\"".utf8) + [0xF0, 0x9F, 0x98],
        ]
        for bytes in cases {
            let ours = parseError(JSONModelDecoder(), [String].self, bytes)
            let parser = parserError(bytes)
            let same = ours.map { [$0.offset, $0.line, $0.column] } == parser.map { [$0.offset, $0.line, $0.column] }
            let oursText = ours.map { "\($0)" } ?? "no error"
            let parserText = parser.map { "\($0)" } ?? "none"
            #expect(same, "\(oursText) here, \(parserText) from the parser; input \(describe(bytes))")
        }
    }

    @Test func nestingPastTheLimitIsDataCorrupted() {
        let decoder = JSONModelDecoder(maxDepth: 4)
        let fits = try? decoder.decode([[[[Int]]]].self, from: Array("[[[[1]]]]".utf8))
        #expect(fits == [[[[1]]]])
        let tooDeep = parseError(decoder, [[[[[Int]]]]].self, Array("[[[[[1]]]]]".utf8))
        #expect(tooDeep?.offset == 4, "\(tooDeep.map { "\($0)" } ?? "no error")")
        // Far past the default limit: an error, not a crash.
        let deep = Array((String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)).utf8)
        let error = parseError(JSONModelDecoder(), AnyJSON.self, deep)
        #expect(error?.offset == 512, "\(error.map { "\($0)" } ?? "no error")")
    }

    @Test func rawControlCharactersInStringsAreRejected() {
        // RFC 8259 §7: control characters must be escaped inside strings.
        let cases: [(before: String, control: UInt8, after: String)] = [
            ("\"a", 0x01, "b\""), ("[\"x\", \"a", 0x0A, "b\"]"), ("{\"k\\n", 0x09, "\": 1}"), ("\"", 0x1F, "\""),
        ]
        for item in cases {
            let bytes = Array(item.before.utf8) + [item.control] + Array(item.after.utf8)
            let offset = item.before.utf8.count
            let error = parseError(JSONModelDecoder(), AnyJSON.self, bytes)
            #expect(error?.offset == offset, "\(error.map { "\($0)" } ?? "no error"); input \(describe(bytes))")
        }
    }

    // MARK: Where the decoders differ on purpose

    @Test func dataAndDateUseTheirOwnDecodableConformances() throws {
        let data = try JSONModelDecoder().decode(Data.self, from: Array("[1, 2, 255]".utf8))
        #expect(data == Data([1, 2, 255]))
        #expect(throws: DecodingError.self) { try JSONModelDecoder().decode(Data.self, from: Array("\"AQID\"".utf8)) }
        let date = try JSONModelDecoder().decode(Date.self, from: Array("86400.5".utf8))
        #expect(date == Date(timeIntervalSinceReferenceDate: 86_400.5))
    }

    // MARK: Containers and decoders

    @Test func superDecoderReadsTheSuperMemberAsFoundationDoes() throws {
        // `superDecoder()` is the decoder for the member named "super" (where `superEncoder()` writes).
        let bytes = Array(#"{"super": {"x": 1}, "x": 2}"#.utf8)
        let ours = try JSONModelDecoder().decode(WithSuper.self, from: bytes)
        let theirs = try JSONDecoder().decode(WithSuper.self, from: Data(bytes))
        #expect(ours.base == WithSuper.Base(x: 1), "read \(ours.base)")
        #expect(ours == theirs)
    }

    @Test func superDecoderForAMissingKeyDecodesNullAsFoundationDoes() throws {
        let bytes = Array(#"{"present": {"x": 1}, "x": 2}"#.utf8)
        let ours = try JSONModelDecoder().decode(MissingSuper.self, from: bytes)
        let theirs = try JSONDecoder().decode(MissingSuper.self, from: Data(bytes))
        #expect(ours.missingIsNull, "the decoder for a missing key does not hold null")
        #expect(ours.missingBase == nil, "a missing key decoded as \(ours.missingBase.map { "\($0)" } ?? "")")
        #expect(ours == theirs)
    }

    @Test func allKeysListsEachNameOnceAsFoundationDoes() throws {
        let bytes = Array(#"{"a": 1, "b": 2, "a": 3, "\u0061": 4}"#.utf8)
        let ours = try JSONModelDecoder().decode(KeyList.self, from: bytes)
        let theirs = try JSONDecoder().decode(KeyList.self, from: Data(bytes))
        #expect(ours.keys.sorted() == ["a", "b"], "allKeys is \(ours.keys)")
        #expect(ours.keys.sorted() == theirs.keys.sorted(), "Foundation lists \(theirs.keys)")
    }

    @Test func memberNamesMatchAsFoundationMatchesThem() {
        // Foundation looks names up as Strings, so a name written with a combining mark matches a key written with
        // the precomposed letter; the first of two such names wins, as with any duplicate.
        let cases = [
            "{\"e\u{301}\": 1}", "{\"e\\u0301\": 1}", "{\"\u{E9}\": 1}", "{\"\\u00e9\": 1}",
            "{\"\u{E9}\": 1, \"e\u{301}\": 2}", "{\"e\u{301}\": 1, \"\u{E9}\": 2}",
        ]
        for text in cases {
            let bytes = Array(text.utf8)
            for agreement in [Model.accented.agreement(bytes), agreementOf([String: Int].self, bytes)] {
                if case .differ(let reason) = agreement { Issue.record("\(reason); input \(describe(bytes))") }
            }
        }
    }

    @Test func aDecoderKeptPastTheDecodeThrowsInsteadOfReadingFreedBytes() throws {
        let capture = DecoderCapture()
        let key = try #require(Capturing.captureKey)
        let bytes = Array(#"{"a": [1, 2], "b": "text", "c": {"d": 1}}"#.utf8)
        _ = try JSONModelDecoder(userInfo: [key: capture]).decode(Capturing.self, from: bytes)
        let kept = try #require(capture.kept)
        #expect(throws: DecodingError.self) { try kept.decoder.container(keyedBy: AnyKey.self) }
        #expect(throws: DecodingError.self) { try kept.decoder.unkeyedContainer() }
        #expect(throws: DecodingError.self) { try kept.decoder.singleValueContainer().decode(String.self) }
        #expect(throws: DecodingError.self) { try kept.single.decode(Int.self) }
        #expect(throws: DecodingError.self) { try kept.keyed.decode(String.self, forKey: AnyKey("b")) }
        #expect(throws: DecodingError.self) { try kept.keyed.decode(AnyJSON.self, forKey: AnyKey("c")) }
        #expect(throws: DecodingError.self) {
            try kept.keyed.nestedContainer(keyedBy: AnyKey.self, forKey: AnyKey("c"))
        }
        #expect(throws: DecodingError.self) { try kept.keyed.superDecoder() }
        #expect(throws: DecodingError.self) { try kept.superDecoder.container(keyedBy: AnyKey.self) }
        #expect(throws: DecodingError.self) {
            var unkeyed = kept.unkeyed
            return try unkeyed.decode(Int.self)
        }
        // Questions that cannot throw must still answer without reading the bytes.
        _ = kept.keyed.contains(AnyKey("b"))
        _ = kept.keyed.allKeys
        _ = kept.single.decodeNil()
    }

    @Test func userInfoReachesEveryInitFromDecoder() throws {
        let tag = try #require(Tagged.tagKey)
        let bytes = Array(#"{"child": {"n": 1}, "children": [{"n": 2}], "sup": {"n": 3}}"#.utf8)
        let ours = try JSONModelDecoder(userInfo: [tag: "blue"]).decode(Tagged.self, from: bytes)
        let foundation = JSONDecoder()
        foundation.userInfo[tag] = "blue"
        let theirs = try foundation.decode(Tagged.self, from: Data(bytes))
        #expect(ours.tags == ["blue", "blue", "blue", "blue"], "tags \(ours.tags)")
        #expect(ours == theirs)
        let untagged = try JSONModelDecoder().decode(Tagged.self, from: bytes)
        #expect(untagged.tags == ["", "", "", ""])
    }

    // MARK: Numbers

    @Test func numbersDecodeAsFoundationDecodesThem() {
        expectNumber(Int.self, "1.0", 1)
        expectNumber(Int.self, "1e2", 100)
        expectNumber(Int.self, "100e-2", 1)
        expectNumber(Int.self, "-1.0", -1)
        expectNumber(Int.self, "1.5", nil)
        expectNumber(Int.self, "9223372036854775807", Int.max)
        expectNumber(Int.self, "9223372036854775808", nil)
        expectNumber(Int.self, "-9223372036854775809", nil)
        expectNumber(Int8.self, "-128", Int8.min)
        expectNumber(Int8.self, "128", nil)
        expectNumber(UInt8.self, "255.0", 255)
        expectNumber(UInt8.self, "256", nil)
        expectNumber(UInt.self, "-1", nil)
        expectNumber(UInt.self, "-0", 0)
        expectNumber(UInt64.self, "18446744073709551615", UInt64.max)
        expectNumber(UInt64.self, "18446744073709551616", nil)
        expectNumber(Double.self, "1e400", nil)
        expectNumber(Double.self, "-1e-400", nil)
        expectNumber(Double.self, "4.9e-325", nil)
        expectNumber(Double.self, "5e-324", Double.leastNonzeroMagnitude)
        expectNumber(Double.self, "0e-400", 0)
        expectNumber(Double.self, "1.7976931348623157e308", Double.greatestFiniteMagnitude)
        expectNumber(Float.self, "1e39", nil)
        expectNumber(Float.self, "3.4028235e38", Float.greatestFiniteMagnitude)
        expectNumber(Float.self, "1e-46", nil)
        expectNumber(String.self, "1", nil)
        expectNumber(Bool.self, "1", nil)
        expectNumber(Int.self, " 5 ", 5)
        expectNumber(Int?.self, "null", .some(nil))
        expectNumber(String.self, #""\u00e9\ud83d\ude00""#, "\u{E9}\u{1F600}")
    }

    @Test func shortDecimalNumbersReadAsTheFullConversionReadsThem() {
        // Up to 15 significant digits and a power of ten up to 10^22 take a shortcut; these sit on both sides of it.
        let texts = [
            "0.1", "0.2", "0.3", "4.35", "-0.0", "0", "-0", "1e22", "1e23", "1.5e-22", "1e-23", "123456789012345",
            "999999999999999", "1234567890123456", "9007199254740993", "0.000123456789012345", "12.5E+3", "7e-0",
            "3e000", "2.5e0001", "100000000000000000000000", "0.0000000000000000000001", "1.00000000000000000001",
            "-98765.4321e-10", "5e-324", "1.7976931348623157e308",
        ]
        var random = SplitMix64(seed: 20_261_124)
        func digits(_ count: Int) -> String {
            String((0..<count).map { _ in Character("\(random.below(10))") })
        }
        let generated = (0..<2000).map { _ in
            let whole = random.below(10)
            var text = random.percent(30) ? "-" : ""
            text += whole == 0 ? "0" : "\(random.inRange(1...9))" + digits(whole - 1)
            if random.percent(70) { text += "." + digits(random.inRange(1...12)) }
            if random.percent(40) { text += "e\(random.inRange(-30...30))" }
            return text
        }
        for text in texts + generated {
            guard let exact = Double(text) else {
                Issue.record("\(text) is not a number Swift reads")
                continue
            }
            let ours = try? JSONModelDecoder().decode([Double].self, from: Array("[\(text)]".utf8))
            #expect(ours?.first?.bitPattern == exact.bitPattern, "\(text): \(ours.map { "\($0)" } ?? "an error")")
            // Foundation rejects a zero with an exponent and no fraction (`0e5`), which RFC 8259 allows.
            if let theirs = try? JSONDecoder().decode([Double].self, from: Data("[\(text)]".utf8)) {
                #expect(theirs.first == exact, "Foundation: \(text)")
            }
        }
    }

    @Test func namesThatAreEqualStringsWithDifferentBytesMatch() throws {
        // The Kelvin sign is canonically equivalent to the letter K, so as Strings the two names are equal.
        struct Letter: Decodable, Equatable {
            enum CodingKeys: String, CodingKey {
                case value = "K"
            }
            var value: Int
        }
        struct Sign: Decodable, Equatable {
            enum CodingKeys: String, CodingKey {
                case value = "\u{212A}"
            }
            var value: Int
        }
        let kelvin = Array("{\"\u{212A}\": 1}".utf8)
        let letter = Array(#"{"K": 2}"#.utf8)
        #expect(
            try JSONModelDecoder().decode(Letter.self, from: kelvin)
                == JSONDecoder().decode(Letter.self, from: Data(kelvin)))
        #expect(try JSONModelDecoder().decode(Letter.self, from: kelvin).value == 1)
        #expect(
            try JSONModelDecoder().decode(Sign.self, from: letter)
                == JSONDecoder().decode(Sign.self, from: Data(letter)))
        #expect(try JSONModelDecoder().decode(Sign.self, from: letter).value == 2)
    }

    @Test func integersWrittenWithAFractionOrAnExponentAreExactOrRejected() {
        // Beyond 2^53 a Double no longer holds every integer, so going through one changes the value.
        expectNumber(Int64.self, "9007199254740993.0", 9_007_199_254_740_993)
        expectNumber(Int64.self, "9007199254740993e0", 9_007_199_254_740_993)
        expectNumber(Int64.self, "-9007199254740993.0", -9_007_199_254_740_993)
        expectNumber(UInt64.self, "123456789012345678.00", 123_456_789_012_345_678)
        // Not an integer at all, however large.
        expectNumber(Int64.self, "9007199254740993.5", nil, comparingWithFoundation: false)
    }

    @Test func everyKindOfInputDecodesAlike() throws {
        let text = #"{"items": [], "total": 7, "next": "caf\u00e9"}"#
        let bytes = Array(text.utf8)
        let expected = try JSONModelDecoder().decode(Page.self, from: bytes)
        #expect(expected == Page(items: [], total: 7, next: "caf\u{E9}"))
        let padded: [UInt8] = Array("xx[".utf8) + bytes + Array("]yy".utf8)
        let fromSlice = try JSONModelDecoder().decode(Page.self, from: padded[3..<(3 + bytes.count)])
        #expect(fromSlice == expected)
        let fromContiguousArray = try JSONModelDecoder().decode(Page.self, from: ContiguousArray(bytes))
        #expect(fromContiguousArray == expected)
        let fromPointer = try bytes.withUnsafeBytes { raw in try JSONModelDecoder().decode(Page.self, from: raw) }
        #expect(fromPointer == expected)
        // Error positions count from the start of the slice, as the parser counts them.
        let before = Array("{\"items\": [],\n \"total\": 7 ".utf8)
        let document = before + Array("8}".utf8)
        let broken: [UInt8] = Array("xx\n".utf8) + document + Array("\n".utf8)
        let (line, column) = lineAndColumn(of: before.count, in: document)
        let error = parseError(JSONModelDecoder(), Page.self, broken[3..<(3 + document.count)])
        let position = error.map { [$0.offset, $0.line, $0.column] }
        #expect(position == [before.count, line, column], "\(error.map { "\($0)" } ?? "no error")")
        let parser = parserError(document)
        #expect(parser.map { [$0.offset, $0.line, $0.column] } == position)
    }
}

// MARK: - Models

private enum Flavor: String, Decodable, Equatable {
    case plain
    case spicy = "very spicy"
    case sweet = "s\u{FC}\u{DF}"
}

private struct Image: Decodable, Equatable {
    var width: Int
    var height: Int16?
    var url: String
}

private struct Item: Decodable, Equatable {
    var id: Int64
    var title: String
    var flavor: Flavor
    var tags: [String]
    var scores: [String: Int]
    var primaryImage: Image?
    var ratings: [Double?]
    var featured: Bool
    var note: String?
}

private struct Page: Decodable, Equatable {
    var items: [Item]
    var total: UInt32
    var next: String?
}

private struct Widths: Decodable, Equatable {
    var int: Int
    var int8: Int8
    var int16: Int16
    var int32: Int32
    var int64: Int64
    var uint: UInt
    var uint8: UInt8
    var uint16: UInt16
    var uint32: UInt32
    var uint64: UInt64
    var optionalInt8: Int8?
    var optionalUInt64: UInt64?
}

private struct Reals: Decodable, Equatable {
    var double: Double
    var float: Float
    var doubles: [Double]
    var floats: [Float?]
    var flag: Bool
    var optionalDouble: Double?
}

/// A model that reads itself through every kind of container: nested keyed and unkeyed containers, `allKeys`,
/// `contains`, and decoders of their own from `superDecoder()` and `superDecoder(forKey:)`.
private struct Custom: Decodable, Equatable {
    struct Pair: Equatable {
        var number: Int32
        var label: String
    }

    struct Base: Decodable, Equatable {
        var x: Int8
        var y: String?
    }

    enum Key: String, CodingKey {
        case note, meta, values, pairs, base
    }

    enum MetaKey: String, CodingKey {
        case name, count
    }

    var keys: Set<String>
    var hasNote: Bool
    var note: String?
    var name: String
    var count: Int?
    var values: [Int?]
    var pairs: [Pair]
    var base: Base

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: Key.self)
        keys = Set(container.allKeys.map { $0.stringValue })
        hasNote = container.contains(.note)
        note = try container.decodeIfPresent(String.self, forKey: .note)
        let meta = try container.nestedContainer(keyedBy: MetaKey.self, forKey: .meta)
        name = try meta.decode(String.self, forKey: .name)
        count = try meta.decodeIfPresent(Int.self, forKey: .count)
        var list = try container.nestedUnkeyedContainer(forKey: .values)
        var values: [Int?] = []
        while !list.isAtEnd {
            if try list.decodeNil() {
                values.append(nil)
            } else {
                values.append(try list.decode(Int.self))
            }
        }
        self.values = values
        var pairList = try container.nestedUnkeyedContainer(forKey: .pairs)
        var pairs: [Pair] = []
        while !pairList.isAtEnd {
            // Every other pair through a decoder of its own.
            var pair: any UnkeyedDecodingContainer
            if pairs.count % 2 == 0 {
                pair = try pairList.nestedUnkeyedContainer()
            } else {
                pair = try pairList.superDecoder().unkeyedContainer()
            }
            let number = try pair.decode(Int32.self)
            let label = try pair.decode(String.self)
            pairs.append(Pair(number: number, label: label))
        }
        self.pairs = pairs
        base = try Base(from: container.superDecoder(forKey: .base))
    }
}

/// A property whose key is a precomposed letter.
private struct Accented: Decodable, Equatable {
    enum CodingKeys: String, CodingKey {
        case value = "\u{E9}"
    }

    var value: Int
}

/// Reads its base from `superDecoder()`.
private struct WithSuper: Decodable, Equatable {
    struct Base: Decodable, Equatable {
        var x: Int
    }

    enum Key: String, CodingKey {
        case x
    }

    var base: Base
    var x: Int

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: Key.self)
        base = try Base(from: container.superDecoder())
        x = try container.decode(Int.self, forKey: .x)
    }
}

/// Asks `superDecoder(forKey:)` for a member that is not there.
private struct MissingSuper: Decodable, Equatable {
    enum Key: String, CodingKey {
        case present, missing
    }

    var missingIsNull: Bool
    var missingBase: WithSuper.Base?
    var presentBase: WithSuper.Base

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: Key.self)
        let missing = try container.superDecoder(forKey: .missing)
        missingIsNull = try missing.singleValueContainer().decodeNil()
        missingBase = try? WithSuper.Base(from: missing)
        presentBase = try WithSuper.Base(from: container.superDecoder(forKey: .present))
    }
}

/// The names `allKeys` lists.
private struct KeyList: Decodable {
    var keys: [String]

    init(from decoder: any Decoder) throws {
        keys = try decoder.container(keyedBy: AnyKey.self).allKeys.map { $0.stringValue }
    }
}

/// Reads a value from `userInfo` in its own `init(from:)` and in those of its children.
private struct Tagged: Decodable, Equatable {
    static let tagKey = CodingUserInfoKey(rawValue: "tag")

    struct Child: Decodable, Equatable {
        var n: Int
        var tag: String

        enum Key: String, CodingKey {
            case n
        }

        init(from decoder: any Decoder) throws {
            n = try decoder.container(keyedBy: Key.self).decode(Int.self, forKey: .n)
            tag = Tagged.tagKey.flatMap { decoder.userInfo[$0] as? String } ?? ""
        }
    }

    enum Key: String, CodingKey {
        case child, children, sup
    }

    var own: String
    var child: Child
    var children: [Child]
    var sup: Child

    var tags: [String] { [own, child.tag] + children.map { $0.tag } + [sup.tag] }

    init(from decoder: any Decoder) throws {
        own = Tagged.tagKey.flatMap { decoder.userInfo[$0] as? String } ?? ""
        let container = try decoder.container(keyedBy: Key.self)
        child = try container.decode(Child.self, forKey: .child)
        children = try container.decode([Child].self, forKey: .children)
        sup = try Child(from: container.superDecoder(forKey: .sup))
    }
}

/// Any JSON value, decoded through the decoder's containers; numbers as `Double`.
private enum AnyJSON: Decodable, Equatable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([AnyJSON])
    case object([String: AnyJSON])

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let value = try? container.decode(Bool.self) {
            self = .bool(value)
        } else if let value = try? container.decode(Double.self) {
            self = .number(value)
        } else if let value = try? container.decode(String.self) {
            self = .string(value)
        } else if let value = try? container.decode([AnyJSON].self) {
            self = .array(value)
        } else {
            self = .object(try container.decode([String: AnyJSON].self))
        }
    }
}

/// A coding key for any name.
private struct AnyKey: CodingKey {
    var stringValue: String
    var intValue: Int? { nil }

    init(_ name: String) {
        stringValue = name
    }

    init?(stringValue: String) {
        self.stringValue = stringValue
    }

    init?(intValue: Int) {
        nil
    }
}

/// Keeps the decoder and containers a model was given, to use them after the decode returns.
private final class DecoderCapture: @unchecked Sendable {  // The lock guards `stored`.
    struct Kept {
        var decoder: any Decoder
        var keyed: KeyedDecodingContainer<AnyKey>
        var unkeyed: any UnkeyedDecodingContainer
        var single: any SingleValueDecodingContainer
        var superDecoder: any Decoder
    }

    private let lock = NSLock()
    private var stored: Kept?

    var kept: Kept? {
        lock.lock()
        defer { lock.unlock() }
        return stored
    }

    func keep(_ kept: Kept) {
        lock.lock()
        defer { lock.unlock() }
        stored = kept
    }
}

/// Hands its decoder and containers to the `DecoderCapture` in `userInfo`.
private struct Capturing: Decodable {
    static let captureKey = CodingUserInfoKey(rawValue: "capture")

    init(from decoder: any Decoder) throws {
        let keyed = try decoder.container(keyedBy: AnyKey.self)
        let unkeyed = try keyed.nestedUnkeyedContainer(forKey: AnyKey("a"))
        let superDecoder = try keyed.superDecoder(forKey: AnyKey("c"))
        let single = try decoder.singleValueContainer()
        guard let key = Self.captureKey, let capture = decoder.userInfo[key] as? DecoderCapture else {
            throw DecodingError.dataCorrupted(
                DecodingError.Context(codingPath: decoder.codingPath, debugDescription: "no capture in userInfo"))
        }
        capture.keep(
            DecoderCapture.Kept(
                decoder: decoder, keyed: keyed, unkeyed: unkeyed, single: single, superDecoder: superDecoder))
    }
}

// MARK: - Comparing with Foundation

/// How the two decoders read one input.
private enum Agreement {
    case bothDecoded
    case bothThrew
    case differ(String)

    var name: String {
        switch self {
        case .bothDecoded: "both decoded"
        case .bothThrew: "both threw"
        case .differ: "differ"
        }
    }
}

/// The models the generated documents are written for.
private enum Model: CaseIterable, CustomStringConvertible {
    case page, items, widths, reals, custom, scores, flavors, number, text, accented

    var description: String {
        switch self {
        case .page: "Page"
        case .items: "[Item]"
        case .widths: "Widths"
        case .reals: "Reals"
        case .custom: "Custom"
        case .scores: "[String: Int]"
        case .flavors: "[Flavor?]"
        case .number: "Int64"
        case .text: "String"
        case .accented: "Accented"
        }
    }

    func agreement(_ bytes: [UInt8]) -> Agreement {
        switch self {
        case .page: agreementOf(Page.self, bytes)
        case .items: agreementOf([Item].self, bytes)
        case .widths: agreementOf(Widths.self, bytes)
        case .reals: agreementOf(Reals.self, bytes)
        case .custom: agreementOf(Custom.self, bytes)
        case .scores: agreementOf([String: Int].self, bytes)
        case .flavors: agreementOf([Flavor?].self, bytes)
        case .number: agreementOf(Int64.self, bytes)
        case .text: agreementOf(String.self, bytes)
        case .accented: agreementOf(Accented.self, bytes)
        }
    }

    var shape: Shape {
        let image = Shape.object([
            Field("width", .integer(.int)), Field("height", .optional(.integer(.int16))), Field("url", .string),
        ])
        let item = Shape.object([
            Field("id", .integer(.int64)), Field("title", .string), Field("flavor", .enumeration(Model.flavorNames)),
            Field("tags", .array(.string)), Field("scores", .dictionary(.integer(.int))),
            Field("primaryImage", .optional(image)), Field("ratings", .array(.optional(.double))),
            Field("featured", .bool), Field("note", .optional(.string)),
        ])
        switch self {
        case .page:
            return .object([
                Field("items", .array(item)), Field("total", .integer(.uint32)), Field("next", .optional(.string)),
            ])
        case .items:
            return .array(item)
        case .widths:
            return .object([
                Field("int", .integer(.int)), Field("int8", .integer(.int8)), Field("int16", .integer(.int16)),
                Field("int32", .integer(.int32)), Field("int64", .integer(.int64)), Field("uint", .integer(.uint)),
                Field("uint8", .integer(.uint8)), Field("uint16", .integer(.uint16)),
                Field("uint32", .integer(.uint32)), Field("uint64", .integer(.uint64)),
                Field("optionalInt8", .optional(.integer(.int8))),
                Field("optionalUInt64", .optional(.integer(.uint64))),
            ])
        case .reals:
            return .object([
                Field("double", .double), Field("float", .float), Field("doubles", .array(.double)),
                Field("floats", .array(.optional(.float))), Field("flag", .bool),
                Field("optionalDouble", .optional(.double)),
            ])
        case .custom:
            return .object([
                Field("note", .optional(.string)),
                Field("meta", .object([Field("name", .string), Field("count", .optional(.integer(.int)))])),
                Field("values", .array(.optional(.integer(.int)))),
                Field("pairs", .array(.tuple([.integer(.int32), .string]))),
                Field("base", .object([Field("x", .integer(.int8)), Field("y", .optional(.string))])),
            ])
        case .scores:
            return .dictionary(.integer(.int))
        case .flavors:
            return .array(.optional(.enumeration(Model.flavorNames)))
        case .number:
            return .integer(.int64)
        case .text:
            return .string
        case .accented:
            return .object([Field("\u{E9}", .integer(.int))])
        }
    }

    static let flavorNames = ["plain", "very spicy", "s\u{FC}\u{DF}"]
}

/// Decodes `bytes` as `T` with both decoders.
private func agreementOf<T: Decodable & Equatable>(_ type: T.Type, _ bytes: [UInt8]) -> Agreement {
    let ours = Result { try JSONModelDecoder().decode(T.self, from: bytes) }
    let theirs = Result { try JSONDecoder().decode(T.self, from: Data(bytes)) }
    switch (ours, theirs) {
    case (.success(let mine), .success(let foundation)):
        if mine == foundation { return .bothDecoded }
        return .differ("decoded as \(clipped("\(mine)")) here, as \(clipped("\(foundation)")) by Foundation")
    case (.failure, .failure):
        return .bothThrew
    case (.success(let mine), .failure(let error)):
        return .differ("decoded as \(clipped("\(mine)")) here; Foundation threw \(clipped("\(error)"))")
    case (.failure(let error), .success(let foundation)):
        return .differ("threw \(clipped("\(error)")) here; Foundation decoded \(clipped("\(foundation)"))")
    }
}

/// Decodes `bytes` as any JSON with both decoders, allowing the differences RFC 8259 explains: the project's
/// decoder rejects trailing commas and a byte order mark, which Foundation accepts, and rejects unescaped control
/// characters in strings, as its documentation says.
private func anyJSONAgreement(_ bytes: [UInt8]) -> Agreement {
    let agreement = agreementOf(AnyJSON.self, bytes)
    guard case .differ = agreement else { return agreement }
    let ours = Result { try JSONModelDecoder().decode(AnyJSON.self, from: bytes) }
    guard case .failure = ours, let theirs = try? JSONDecoder().decode(AnyJSON.self, from: Data(bytes)) else {
        return agreement
    }
    if let message = parseError(JSONModelDecoder(), AnyJSON.self, bytes)?.message,
        message.contains("control character")
    {
        return .bothThrew
    }
    if let withoutCommas = removingTrailingCommas(bytes),
        (try? JSONModelDecoder().decode(AnyJSON.self, from: withoutCommas)) == theirs
    {
        return .bothThrew
    }
    if bytes.starts(with: [0xEF, 0xBB, 0xBF]) || bytes.prefix(4).contains(0) { return .bothThrew }
    return agreement
}

/// The kind of `DecodingError` decoding `bytes` as `T` throws, and its coding path (indexes as `[N]`).
private func failure<T: Decodable>(
    _ type: T.Type, _ bytes: [UInt8], foundation: Bool
) -> (kind: String, path: [String])? {
    do {
        if foundation {
            _ = try JSONDecoder().decode(T.self, from: Data(bytes))
        } else {
            _ = try JSONModelDecoder().decode(T.self, from: bytes)
        }
        return nil
    } catch let error as DecodingError {
        func path(_ context: DecodingError.Context) -> [String] {
            context.codingPath.map { key in key.intValue.map { "[\($0)]" } ?? key.stringValue }
        }
        switch error {
        case .keyNotFound(let key, let context): return ("keyNotFound \(key.stringValue)", path(context))
        case .typeMismatch(_, let context): return ("typeMismatch", path(context))
        case .valueNotFound(_, let context): return ("valueNotFound", path(context))
        case .dataCorrupted(let context): return ("dataCorrupted", path(context))
        @unknown default: return ("\(error)", [])
        }
    } catch {
        return ("\(error)", [])
    }
}

/// The `JSONParseError` under the `dataCorrupted` error that decoding `bytes` as `T` throws, if that is what it
/// throws.
private func parseError<T: Decodable>(
    _ decoder: JSONModelDecoder, _ type: T.Type, _ bytes: some ContentJSON.ContiguousBytes
) -> JSONParseError? {
    do {
        _ = try decoder.decode(T.self, from: bytes)
        return nil
    } catch DecodingError.dataCorrupted(let context) {
        return context.underlyingError as? JSONParseError
    } catch {
        return nil
    }
}

/// The parser's error for `bytes`, if it rejects them.
private func parserError(_ bytes: [UInt8]) -> JSONParseError? {
    do throws(JSONParseError) {
        _ = try JSONParser().parse(bytes)
        return nil
    } catch {
        return error
    }
}

/// Expects both decoders to decode `text` as `expected`, or both to throw when it is `nil`.
private func expectNumber<T: Decodable & Equatable>(
    _ type: T.Type, _ text: String, _ expected: T?, comparingWithFoundation: Bool = true,
    sourceLocation: SourceLocation = #_sourceLocation
) {
    let bytes = Array(text.utf8)
    let ours = try? JSONModelDecoder().decode(T.self, from: bytes)
    let oursText = ours.map { "\($0)" } ?? "an error"
    #expect(ours == expected, "\(T.self) from \(text): \(oursText)", sourceLocation: sourceLocation)
    guard comparingWithFoundation else { return }
    let theirs = try? JSONDecoder().decode(T.self, from: Data(bytes))
    #expect(
        theirs == expected, "Foundation: \(T.self) from \(text): \(theirs.map { "\($0)" } ?? "an error")",
        sourceLocation: sourceLocation)
}

// MARK: - Generated documents

/// The shape of a model's JSON.
private indirect enum Shape {
    case integer(IntegerKind)
    case double
    case float
    case bool
    case string
    case enumeration([String])
    case optional(Shape)
    case array(Shape)
    /// An array of a fixed number of elements of these shapes.
    case tuple([Shape])
    /// An object of any member names.
    case dictionary(Shape)
    case object([Field])
}

private struct Field {
    var name: String
    var shape: Shape

    init(_ name: String, _ shape: Shape) {
        self.name = name
        self.shape = shape
    }
}

private enum IntegerKind {
    case int, int8, int16, int32, int64, uint, uint8, uint16, uint32, uint64

    var bits: Int {
        switch self {
        case .int8, .uint8: 8
        case .int16, .uint16: 16
        case .int32, .uint32: 32
        case .int, .int64, .uint, .uint64: 64
        }
    }

    var isSigned: Bool {
        switch self {
        case .int, .int8, .int16, .int32, .int64: true
        case .uint, .uint8, .uint16, .uint32, .uint64: false
        }
    }

    /// The smallest and largest values, and the integers just past them.
    var limits: [String] {
        switch self {
        case .int8: [String(Int8.min), String(Int8.max), "-129", "128"]
        case .int16: [String(Int16.min), String(Int16.max), "-32769", "32768"]
        case .int32: [String(Int32.min), String(Int32.max), "-2147483649", "2147483648"]
        case .int, .int64: [String(Int64.min), String(Int64.max), "-9223372036854775809", "9223372036854775808"]
        case .uint8: ["0", String(UInt8.max), "-1", "256"]
        case .uint16: ["0", String(UInt16.max), "-1", "65536"]
        case .uint32: ["0", String(UInt32.max), "-1", "4294967296"]
        case .uint, .uint64: ["0", String(UInt64.max), "-1", "18446744073709551616"]
        }
    }
}

/// What a generated document does besides being valid.
private struct Mutations: OptionSet, CustomStringConvertible {
    let rawValue: Int

    static let reordered = Mutations(rawValue: 1 << 0)
    static let extraMembers = Mutations(rawValue: 1 << 1)
    static let missingKeys = Mutations(rawValue: 1 << 2)
    static let nulls = Mutations(rawValue: 1 << 3)
    static let wrongTypes = Mutations(rawValue: 1 << 4)
    static let edgeNumbers = Mutations(rawValue: 1 << 5)
    static let duplicateKeys = Mutations(rawValue: 1 << 6)
    static let escapedNames = Mutations(rawValue: 1 << 7)

    static let names: [(Mutations, String)] = [
        (.reordered, "reordered"), (.extraMembers, "extra members"), (.missingKeys, "missing keys"),
        (.nulls, "nulls"), (.wrongTypes, "wrong types"), (.edgeNumbers, "edge numbers"),
        (.duplicateKeys, "duplicate keys"), (.escapedNames, "escaped names"),
    ]

    var description: String {
        let included = Self.names.filter { contains($0.0) }.map { $0.1 }
        return included.isEmpty ? "valid" : included.joined(separator: ", ")
    }
}

/// Writes JSON for a shape, with random whitespace and the mutations chosen for the document.
private struct ModelWriter {
    var random: SplitMix64
    private(set) var mutations: Mutations = []

    init(seed: UInt64) {
        random = SplitMix64(seed: seed)
    }

    /// Numbers and spellings that test the edges of the types.
    private static let integerSpellings = [
        "1.0", "1e2", "100e-2", "-1.0", "1.5", "-0", "0.0", "-0.0", "1E2", "2.5e1", "1e400", "1e-400", "12.000",
        "-5e0", "0.5", "127.0", "128.0", "255.0", "256.0", "-128.0", "-129.0", "65535e0", "4294967295.0", "1e9",
    ]
    private static let doubles = [
        "0.1", "0", "-0.0", "1e308", "5e-324", "2.2250738585072014e-308", "1.7976931348623157e308",
        "123456789012345678901234567890", "0.30000000000000004", "-2.5E-3", "1E+2", "9007199254740993",
    ]
    private static let edgeDoubles = [
        "1e309", "-1e309", "1e-400", "-1e-400", "4.9e-325", "2.4703282292062327e-324", "2.4703282292062328e-324",
        "1.7976931348623159e308", "1.7976931348623158e308", "0e-999", "-0e999",
    ]
    private static let edgeFloats = [
        "3.4028235e38", "3.4028236e38", "3.40282357e38", "1e39", "1e-46", "1.4e-45", "7e-46", "0.1", "16777217",
        "-0", "1e-400", "0e99", "1e308",
    ]
    private static let stringPieces = [
        #"\n"#, #"\""#, #"\\"#, #"\/"#, #"\u00e9"#, #"\u00E9"#, #"\ud83d\ude00"#, #"\t"#, #"\b\f\r"#, #"\u0000"#,
        "\u{E9}", "\u{4E2D}\u{6587}", "\u{1F600}", "plain", " ", "e\u{301}", "\u{7F}", "\u{FFFD}", "super",
    ]
    private static let dictionaryKeys = ["a", "b", "id", "\u{E9}", "\u{4E2D}", "\u{1F600}", "key with space", "", "x"]
    private static let wrongValues = [
        "\"text\"", "12", "-3.5", "true", "false", "[]", "[1, \"a\"]", "{}", "{\"k\": 1}", "\"12\"", "\"true\"",
    ]
    private static let extraNames = ["extra", "unknown", "_links", "\u{E9}xtra", "deeply", "super", "0"]

    /// A document for `shape`: valid now and then, otherwise with a few random kinds of mutation.
    mutating func document(_ shape: Shape) -> [UInt8] {
        mutations = []
        if random.percent(70) {
            for (mutation, _) in Mutations.names where random.percent(40) { mutations.insert(mutation) }
        }
        return space() + value(shape) + space()
    }

    private mutating func value(_ shape: Shape) -> [UInt8] {
        if mutations.contains(.nulls), random.percent(3) { return Array("null".utf8) }
        if mutations.contains(.wrongTypes), random.percent(3) { return Array(random.pick(Self.wrongValues).utf8) }
        switch shape {
        case .integer(let kind):
            return Array(integer(kind).utf8)
        case .double:
            if mutations.contains(.edgeNumbers), random.percent(25) { return Array(random.pick(Self.edgeDoubles).utf8) }
            return Array(double().utf8)
        case .float:
            if mutations.contains(.edgeNumbers), random.percent(25) { return Array(random.pick(Self.edgeFloats).utf8) }
            return Array(float().utf8)
        case .bool:
            return Array((random.percent(50) ? "true" : "false").utf8)
        case .string:
            return string()
        case .enumeration(let names):
            if mutations.contains(.wrongTypes), random.percent(10) {
                return Array(random.pick(["\"nope\"", "\"Plain\"", "\"\"", "\"very  spicy\""]).utf8)
            }
            return quoted(random.pick(names), escaping: random.percent(30))
        case .optional(let wrapped):
            return random.percent(15) ? Array("null".utf8) : value(wrapped)
        case .array(let element):
            var elements: [[UInt8]] = []
            for _ in 0..<random.below(5) { elements.append(value(element)) }
            return array(elements)
        case .tuple(let shapes):
            var elements: [[UInt8]] = []
            for element in shapes { elements.append(value(element)) }
            return array(elements)
        case .dictionary(let element):
            var members: [([UInt8], [UInt8])] = []
            for _ in 0..<random.below(5) {
                let name = quoted(random.pick(Self.dictionaryKeys), escaping: random.percent(20))
                members.append((name, value(element)))
            }
            return object(members)
        case .object(let fields):
            return object(fields)
        }
    }

    private mutating func object(_ fields: [Field]) -> [UInt8] {
        var members: [([UInt8], [UInt8])] = []
        for field in fields {
            let isOptional: Bool
            if case .optional = field.shape { isOptional = true } else { isOptional = false }
            if isOptional, random.percent(20) { continue }
            if mutations.contains(.missingKeys), random.percent(5) { continue }
            let escaping = mutations.contains(.escapedNames) && random.percent(30)
            members.append((quoted(field.name, escaping: escaping), value(field.shape)))
            if mutations.contains(.duplicateKeys), random.percent(10) {
                // The same name again, before or after, with another value of the shape (or not).
                let duplicate = (quoted(field.name, escaping: random.percent(50)), value(field.shape))
                members.insert(duplicate, at: random.percent(50) ? members.count : members.count - 1)
            }
        }
        if mutations.contains(.extraMembers) {
            for _ in 0..<random.below(4) {
                var generator = DocumentGenerator(seed: random.next(), shape: random.percent(80) ? .small : .nested)
                _ = generator.document()
                let name = quoted(random.pick(Self.extraNames), escaping: random.percent(20))
                members.insert((name, generator.text), at: random.inRange(0...members.count))
            }
        }
        if mutations.contains(.reordered) {
            for index in stride(from: members.count - 1, to: 0, by: -1) {
                members.swapAt(index, random.inRange(0...index))
            }
        }
        return object(members)
    }

    private mutating func integer(_ kind: IntegerKind) -> String {
        if mutations.contains(.edgeNumbers), random.percent(30) {
            return random.percent(50) ? random.pick(kind.limits) : random.pick(Self.integerSpellings)
        }
        switch random.below(10) {
        case 0..<5:
            return String(kind.isSigned ? random.inRange(-100...100) : random.inRange(0...200))
        case 5..<8:
            let shift = UInt64(64 - kind.bits)
            if kind.isSigned { return String(Int64(bitPattern: random.next()) >> Int64(shift)) }
            return String(random.next() >> shift)
        default:
            return random.pick(Array(kind.limits.prefix(2)))
        }
    }

    private mutating func double() -> String {
        switch random.below(4) {
        case 0:
            return "\(random.inRange(-1000...1000)).\(random.below(1000))"
        case 1:
            var digits = String(random.inRange(1...9))
            for _ in 0..<random.below(16) { digits += String(random.below(10)) }
            if random.percent(50) { digits += "." + String(random.below(100_000)) }
            return (random.percent(30) ? "-" : "") + digits + "e" + String(random.inRange(-300...290))
        case 2:
            return random.pick(Self.doubles)
        default:
            return String(random.inRange(-1_000_000...1_000_000))
        }
    }

    private mutating func float() -> String {
        switch random.below(3) {
        case 0:
            return "\(random.inRange(-1000...1000)).\(random.below(1000))"
        case 1:
            var digits = String(random.inRange(1...9))
            for _ in 0..<random.below(8) { digits += String(random.below(10)) }
            return digits + "e" + String(random.inRange(-40...30))
        default:
            return String(random.inRange(-100_000...100_000))
        }
    }

    private mutating func string() -> [UInt8] {
        var bytes: [UInt8] = [UInt8(ascii: "\"")]
        for _ in 0..<random.below(7) { bytes += Array(random.pick(Self.stringPieces).utf8) }
        bytes.append(UInt8(ascii: "\""))
        return bytes
    }

    /// `text` in quotes; when `escaping`, some of its characters as `\u` escapes.
    private mutating func quoted(_ text: String, escaping: Bool) -> [UInt8] {
        var bytes: [UInt8] = [UInt8(ascii: "\"")]
        for scalar in text.unicodeScalars {
            if escaping, scalar.value < 0x10000, random.percent(50) {
                let digits = String(scalar.value, radix: 16, uppercase: random.percent(50))
                bytes += Array(("\\u" + String(repeating: "0", count: 4 - digits.count) + digits).utf8)
            } else if scalar == "\"" || scalar == "\\" {
                bytes += [UInt8(ascii: "\\"), UInt8(scalar.value)]
            } else {
                bytes += Array(String(scalar).utf8)
            }
        }
        bytes.append(UInt8(ascii: "\""))
        return bytes
    }

    private mutating func space() -> [UInt8] {
        guard random.percent(30) else { return [] }
        return random.pick([[0x20], [0x0A], [0x0D, 0x0A], [0x09, 0x20]])
    }

    private mutating func object(_ members: [([UInt8], [UInt8])]) -> [UInt8] {
        var bytes: [UInt8] = [UInt8(ascii: "{")]
        for (index, member) in members.enumerated() {
            if index > 0 { bytes.append(UInt8(ascii: ",")) }
            bytes += space() + member.0 + space() + [UInt8(ascii: ":")] + space() + member.1 + space()
        }
        bytes.append(UInt8(ascii: "}"))
        return bytes
    }

    private mutating func array(_ elements: [[UInt8]]) -> [UInt8] {
        var bytes: [UInt8] = [UInt8(ascii: "[")]
        for (index, element) in elements.enumerated() {
            if index > 0 { bytes.append(UInt8(ascii: ",")) }
            bytes += space() + element + space()
        }
        bytes.append(UInt8(ascii: "]"))
        return bytes
    }
}
