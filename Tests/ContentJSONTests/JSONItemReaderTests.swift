import ContentJSON
import Testing

// Tests of the streaming item reader against the whole-input parser.
//
// The oracle is `JSONParser().parseSequence`: the reader's items must be the elements (or the value) found at the
// items path of each value the parser reads, and when the parser rejects an input the reader must fail too, at the
// same byte offset, line and column. Inputs are built from the seeded generators of the parser property tests, so
// the seed in a failure message rebuilds the input. Reads are cut into pieces of a few bytes and buffers start
// small, so that refills and buffer growth fall inside tokens.

struct JSONItemReaderTests {
    private static let wrappedSeed: UInt64 = 0x4954_454D_0000_0001
    private static let sequenceSeed: UInt64 = 0x4954_454D_0000_0002
    private static let corruptionSeed: UInt64 = 0x4954_454D_0000_0003

    // MARK: Generated inputs

    @Test(arguments: ReadSetup.all)
    func itemsAreTheElementsTheParserFindsAtTheItemsPath(setup: ReadSetup) {
        let count = setup.readSize < 64 ? 20 : 40
        var failures = 0
        var itemsSeen = 0
        for index in 0..<count where failures < 3 {
            let seed = documentSeed(Self.wrappedSeed ^ UInt64(setup.id), index)
            var writer = InputWriter(seed: seed, smallDocuments: setup.readSize < 64)
            let bytes = writer.input()
            let context = "seed \(hex(seed)), \(setup); input \(describe(bytes))"
            let expected = expectedOutcome(bytes, path: InputWriter.itemsPath)
            guard case .items(let full) = expected else {
                Issue.record("the generated input holds no list of items: \(summary(expected)); \(context)")
                failures += 1
                continue
            }
            itemsSeen += full.count
            let problem = mismatch(readItems(bytes, path: InputWriter.itemsPath, setup: setup), expected)
            #expect(problem == nil, "\(problem ?? ""); \(context)")
            if problem != nil { failures += 1 }

            for _ in 0..<2 {
                let keep = writer.keepPaths(for: full)
                let pruned = readItems(bytes, path: InputWriter.itemsPath, keeping: keep, setup: setup)
                let keepProblem = keepMismatch(pruned, full: full, keeping: keep)
                #expect(keepProblem == nil, "\(keepProblem ?? ""); keeping \(keep); \(context)")
                if keepProblem != nil { failures += 1 }
            }
        }
        #expect(failures > 0 || itemsSeen > count, "only \(itemsSeen) items in \(count) inputs")
    }

    @Test(arguments: ReadSetup.all)
    func valuesInARowAreReadAsTheParserReadsThem(setup: ReadSetup) {
        var failures = 0
        for index in 0..<30 where failures < 3 {
            let seed = documentSeed(Self.sequenceSeed ^ UInt64(setup.id), index)
            var writer = InputWriter(seed: seed, smallDocuments: setup.readSize < 64)
            let bytes = writer.sequence()
            let expected = expectedOutcome(bytes, path: nil)
            let problem = mismatch(readItems(bytes, path: nil, setup: setup), expected)
            #expect(problem == nil, "\(problem ?? ""); seed \(hex(seed)), \(setup); input \(describe(bytes))")
            if problem != nil { failures += 1 }
        }
    }

    // MARK: Malformed inputs

    @Test(arguments: 0..<6)
    func corruptedInputsFailWhereTheParserFails(batch: Int) {
        let count = 150
        var failures = 0
        var rejected = 0
        for index in 0..<count where failures < 5 {
            let seed = documentSeed(Self.corruptionSeed, batch * count + index)
            var random = SplitMix64(seed: seed)
            var generator = DocumentGenerator(seed: random.next(), shape: .small)
            _ = generator.document()
            let corruption = generator.corrupted()
            var writer = InputWriter(seed: random.next(), smallDocuments: true)
            let placed = writer.placing(corruption.bytes, at: random.below(6))
            let setup = ReadSetup.random(&random)
            let outcome = readItems(placed.bytes, path: placed.path, keeping: placed.keep, setup: setup)
            let expected = expectedOutcome(placed.bytes, path: placed.path)
            let context =
                "seed \(hex(seed)), \(corruption.label), \(placed.label), \(setup); input \(describe(placed.bytes))"

            let problem: String?
            switch expected {
            case .failed(.malformed(let parserError), _):
                rejected += 1
                switch outcome {
                case .failed(.malformed(let error), _):
                    let same =
                        [error.offset, error.line, error.column] as [Int] == [
                            parserError.offset, parserError.line, parserError.column,
                        ]
                    problem = same ? nil : "the reader failed at \(error), the parser at \(parserError)"
                case .failed(.itemsNotFound, _)
                where aValueLacksThePath(placed.bytes, before: parserError.offset, path: placed.path):
                    // The reader stopped at a complete value without the items path, before the error.
                    problem = nil
                default:
                    problem = "the parser fails at \(parserError), but the reader gave \(summary(outcome))"
                }
            default:
                if let keep = placed.keep, case .items(let full) = expected {
                    problem = keepMismatch(outcome, full: full, keeping: keep)
                } else {
                    problem = mismatch(outcome, expected)
                }
            }
            #expect(problem == nil, "\(problem ?? ""); \(context)")
            if problem != nil { failures += 1 }
        }
        #expect(failures > 0 || rejected * 2 > count, "only \(rejected) of \(count) inputs were malformed")
    }

    @Test(arguments: [true, false])
    func errorsFarIntoAMultiLineInputHaveTheParsersLineAndColumn(restartable: Bool) {
        for placement in MultiLineError.allCases {
            let input = multiLineInput(lines: 2_000, errorOnLine: 1_700, placement: placement)
            let (line, column) = lineAndColumn(of: input.offset, in: input.bytes)
            let parser = expectedOutcome(input.bytes, path: input.path)
            let context = "\(placement), \(restartable ? "restartable" : "a pipe")"
            guard case .failed(.malformed(let parserError), _) = parser else {
                Issue.record("the parser accepted the input with an error \(context)")
                continue
            }
            #expect(
                [parserError.offset, parserError.line, parserError.column] as [Int] == [input.offset, line, column],
                "the parser places it at \(parserError), expected \(line):\(column) (byte \(input.offset)); \(context)")
            let setup = ReadSetup(id: 0, readSize: 7, bufferSize: 16, restartable: restartable)
            let outcome = readItems(input.bytes, path: input.path, keeping: input.keep, setup: setup)
            guard case .failed(.malformed(let error), let before) = outcome else {
                Issue.record("the reader gave \(summary(outcome)); \(context)")
                continue
            }
            #expect(
                [error.offset, error.line, error.column] as [Int] == [input.offset, line, column],
                "the reader places it at \(error), expected \(line):\(column) (byte \(input.offset)); \(context)")
            #expect(before.count == input.itemsBefore, "\(before.count) items before the error; \(context)")
        }
    }

    @Test func invalidUTF8InASkippedMemberIsMalformedAtTheBadByte() {
        let keep = [JSONPath([.member("title")])]
        let path = JSONPath([.member("data"), .member("items")])
        let cases: [(name: String, before: String, after: String)] = [
            ("a member of an item", #"{"data": {"items": [{"title": "a", "body": "caf"#, #"é"}]}}"#),
            ("after an escape in an item", #"{"data": {"items": [{"body": "x\n"#, #"", "title": "t"}]}}"#),
            ("a member before the path", "{\"meta\":\n {\"note\": \"", "\"}, \"data\": {\"items\": [1]}}"),
            ("a member after the items", #"{"data": {"items": [1], "more": [""#, "\"]}}"),
            ("a member name", "{\"data\": {\"items\": [{\"", "\": 1}]}}"),
        ]
        for item in cases {
            for bad: [UInt8] in [[0xFF], [0xC3, 0x28], [0xED, 0xA0, 0x80], [0xF4, 0x90, 0x80, 0x80]] {
                let bytes = Array(item.before.utf8) + bad + Array(item.after.utf8)
                let offset = Array(item.before.utf8).count
                let (line, column) = lineAndColumn(of: offset, in: bytes)
                for setup in [ReadSetup.tiny, ReadSetup.whole] {
                    let outcome = readItems(bytes, path: path, keeping: keep, setup: setup)
                    let context = "\(item.name), bytes \(bad), \(setup); input \(describe(bytes))"
                    guard case .failed(.malformed(let error), _) = outcome else {
                        Issue.record("the reader gave \(summary(outcome)); \(context)")
                        continue
                    }
                    #expect(
                        [error.offset, error.line, error.column] as [Int] == [offset, line, column],
                        "\(error), expected \(line):\(column) (byte \(offset)); \(context)")
                    let parser = mismatch(outcome, expectedOutcome(bytes, path: path))
                    #expect(parser == nil, "\(parser ?? ""); \(context)")
                }
            }
        }
    }

    @Test func anInputCutInsideAMultiByteCharacterFailsWhereTheParserFails() {
        // The string is unterminated and its last character incomplete; the parser reports the string.
        let cases: [[UInt8]] = [
            Array("[\"a".utf8) + [0xC3],
            Array("{\"data\": {\"items\": [\"caf".utf8) + [0xE2, 0x82],
            Array("[1,\n\"".utf8) + [0xF0, 0x9F, 0x98],
        ]
        for bytes in cases {
            let expected = expectedOutcome(bytes, path: nil)
            for setup in [ReadSetup.tiny, ReadSetup.whole] {
                let problem = mismatch(readItems(bytes, path: nil, setup: setup), expected)
                #expect(problem == nil, "\(problem ?? ""); \(setup); input \(describe(bytes))")
            }
        }
    }

    // MARK: Values, sequences and paths

    @Test func aSingleValueThatIsNotAListIsReturnedWhole() throws {
        let text = #"{"title": "x", "data": {"items": {"id": 1}, "list": [1, 2]}}"#
        let bytes = Array(text.utf8)
        let document = try JSONParser().parse(bytes)
        let cases: [(path: JSONPath?, expected: Outcome)] = [
            (nil, .value(document)),
            (JSONPath([.member("data"), .member("items")]), .value(.object(["id": .number(JSONNumber(1))]))),
            (JSONPath([.member("title")]), .value(.string("x"))),
            (JSONPath([.member("data"), .member("list")]), .items([.number(JSONNumber(1)), .number(JSONNumber(2))])),
        ]
        for item in cases {
            for setup in [ReadSetup.tiny, ReadSetup.whole] {
                let problem = mismatch(readItems(bytes, path: item.path, setup: setup), item.expected)
                #expect(problem == nil, "\(problem ?? ""); path \(item.path.map { "\($0)" } ?? "none"), \(setup)")
            }
        }
        // After the whole value there is nothing more to read.
        var reader = JSONItemReader(input: JSONMemoryInput(bytes), itemsPath: nil, keeping: nil)
        let start = try reader.start()
        let next = try reader.next()
        #expect(start == .value(document))
        #expect(next == nil)
    }

    @Test func aTopLevelArrayGivesItsElements() {
        let bytes = Array(#" [1, {"a": [2, "b"]}, "c\n", [], null, -0.5e3] "#.utf8)
        let expected: Outcome = .items([
            .number(JSONNumber(1)), .object(["a": .array([.number(JSONNumber(2)), .string("b")])]),
            .string("c\n"), .array([]), .null, .number(JSONNumber(text: "-0.5e3")),
        ])
        for setup in ReadSetup.all {
            let problem = mismatch(readItems(bytes, path: nil, setup: setup), expected)
            #expect(problem == nil, "\(problem ?? ""); \(setup)")
        }
        let empty = mismatch(readItems(Array(" [ \n ] ".utf8), path: nil, setup: .tiny), .items([]))
        #expect(empty == nil, "\(empty ?? "")")
    }

    @Test func anInputWithoutAValueIsEmpty() {
        for text in ["", " ", "\n\r\t ", String(repeating: " \n", count: 100)] {
            for setup in [ReadSetup.tiny, ReadSetup.whole] {
                let outcome = readItems(Array(text.utf8), path: JSONPath([.member("items")]), setup: setup)
                #expect(outcome == .failed(.empty, after: []), "\(summary(outcome)) for \(text.utf8.count) spaces")
            }
        }
    }

    @Test func valuesInARowGiveTheirItemsInOrder() {
        let items = JSONPath([.member("data"), .member("items")])
        let one = JSONValue.number(JSONNumber(1))
        let two = JSONValue.number(JSONNumber(2))
        let three = JSONValue.number(JSONNumber(3))
        let cases: [(text: String, path: JSONPath?, expected: Outcome)] = [
            (
                "{\"data\": {\"items\": [1, 2]}}\n{\"data\": {\"items\": []}}\r\n{\"data\": {\"items\": [3]}}",
                items, .items([one, two, three])
            ),
            // A value whose items path holds no array is one item.
            (
                "{\"data\": {\"items\": {\"x\": 1}}}\n{\"data\": {\"items\": [2]}}", items,
                .items([.object(["x": one]), two])
            ),
            (
                "{\"a\": 1} {\"b\": 2}\n[1, 2]\n3", nil,
                .items([.object(["a": one]), .object(["b": two]), one, two, three])
            ),
            ("1 2\n3", nil, .items([one, two, three])),
            ("[1][2]{\"a\":3}\"x\"", nil, .items([one, two, .object(["a": three]), .string("x")])),
            ("truefalse null", nil, .items([.bool(true), .bool(false), .null])),
            // A value without the path ends the reading after the items before it.
            (
                "{\"data\": {\"items\": [1]}}\n{\"other\": 1}", items,
                .failed(.itemsNotFound(available: ["other"]), after: [one])
            ),
        ]
        for item in cases {
            let bytes = Array(item.text.utf8)
            let parser = mismatch(expectedOutcome(bytes, path: item.path), item.expected)
            #expect(parser == nil, "the parser's reading differs: \(parser ?? ""); input \(item.text)")
            for setup in ReadSetup.all {
                let problem = mismatch(readItems(bytes, path: item.path, setup: setup), item.expected)
                #expect(problem == nil, "\(problem ?? ""); \(setup); input \(item.text)")
            }
        }
    }

    @Test func aReaderResumedAtAnItemReadsTheRestAsTheReaderItself() throws {
        // Items of several shapes, whitespace between them, a later response, and keeping only some members.
        let text = """
            {"data": {"items": [ {"id": 1, "x": {"y": "}, {"}},\n  {"id": 2},{"id":3,"x":[{"y":1},{"y":2}]} ,
            {"id": 4, "skip": "long text"}], "after": 1}}
            {"data": {"items": [{"id": 5}]}}
            """
        let bytes = Array(text.utf8)
        let path = JSONPath([.member("data"), .member("items")])
        let keep = [JSONPath([.member("id")]), JSONPath([.member("x")])]
        func reader(chunk: Int) -> JSONItemReader {
            JSONItemReader(
                input: JSONMemoryInput(bytes, chunkSize: chunk), itemsPath: path, keeping: keep, bufferSize: 16)
        }
        for chunk in [1, 7, bytes.count] {
            var whole = reader(chunk: chunk)
            guard case .items = try whole.start() else {
                Issue.record("no items")
                continue
            }
            var seen = 0
            while let offset = whole.nextItemOffset() {
                // The offset is the item's first byte, and a reader started there reads what this one reads.
                #expect(bytes[offset] == UInt8(ascii: "{"), "chunk \(chunk), item \(seen)")
                let rest = JSONMemoryInput(Array(bytes[offset...]), chunkSize: chunk)
                var resumed = try #require(whole.resuming(at: offset, from: rest))
                var fromHere = whole
                var expected: [UInt8] = []
                var actual: [UInt8] = []
                while try fromHere.nextEncoded(into: &expected) { expected.append(0x0A) }
                while try resumed.nextEncoded(into: &actual) { actual.append(0x0A) }
                #expect(actual == expected, "chunk \(chunk), item \(seen): \(String(decoding: actual, as: UTF8.self))")
                var item: [UInt8] = []
                _ = try whole.nextEncoded(into: &item)
                seen += 1
            }
            // At the first response's closing bracket there is no next item to resume at.
            #expect(seen == 4, "chunk \(chunk)")
        }
        // A single value is not a list: there is nothing to resume.
        var single = JSONItemReader(input: JSONMemoryInput(Array(#"{"a": 1}"#.utf8)), itemsPath: nil, keeping: nil)
        _ = try single.start()
        #expect(single.nextItemOffset() == nil)
        #expect(single.resuming(at: 0, from: JSONMemoryInput([])) == nil)
    }

    @Test func aMissingPathNamesTheKeysWhereMatchingStopped() {
        let path = JSONPath([.member("data"), .member("list"), .member("items")])
        let cases: [(text: String, path: JSONPath, available: [String])] = [
            (#"{"meta": {}, "data": {"list": {"other": [], "more": 1}}}"#, path, ["other", "more"]),
            (#"{"meta": 1, "after": [2]}"#, path, ["meta", "after"]),
            (#"{"data": {"count": 2}, "x": 1}"#, path, ["count"]),
            (#"{"data": {"list": 5}}"#, path, []),
            ("[1, 2]", path, []),
            ("{}", path, []),
            (#"{"data": {"list": [{"items": 1}]}}"#, JSONPath([.member("data"), .member("list"), .index(3)]), []),
            (
                #"{"data": {"list": [{"a": 1}, {"b": 2, "c": 3}]}}"#,
                JSONPath([.member("data"), .member("list"), .index(1), .member("items")]), ["b", "c"]
            ),
        ]
        for item in cases {
            let bytes = Array(item.text.utf8)
            let expected: Outcome = .failed(.itemsNotFound(available: item.available), after: [])
            for setup in [ReadSetup.tiny, ReadSetup.whole] {
                let outcome = readItems(bytes, path: item.path, setup: setup)
                #expect(outcome == expected, "\(summary(outcome)); \(setup); input \(item.text), path \(item.path)")
            }
        }
    }

    @Test func aPathThroughAnArrayIsFollowedInMemory() throws {
        let path = try JSONPath(parsing: "data.list[1].items")
        let text = #"{"meta": 0, "data": {"list": [{"items": [0]}, {"items": [1, {"a": 2}, "3"]}], "n": 2}, "z": []}"#
        let bytes = Array(text.utf8)
        let expected: Outcome = .items([.number(JSONNumber(1)), .object(["a": .number(JSONNumber(2))]), .string("3")])
        let twice = bytes + [0x0A] + bytes
        let expectedTwice: Outcome = .items([
            .number(JSONNumber(1)), .object(["a": .number(JSONNumber(2))]), .string("3"),
            .number(JSONNumber(1)), .object(["a": .number(JSONNumber(2))]), .string("3"),
        ])
        let toObject = Array(#"{"data": {"list": [{"items": [0]}, {"items": {"k": true}}]}}"#.utf8)
        for setup in ReadSetup.all {
            let problem = mismatch(readItems(bytes, path: path, setup: setup), expected)
            #expect(problem == nil, "\(problem ?? ""); \(setup)")
            let problemTwice = mismatch(readItems(twice, path: path, setup: setup), expectedTwice)
            #expect(problemTwice == nil, "two values: \(problemTwice ?? ""); \(setup)")
            let objectOutcome = readItems(toObject, path: path, setup: setup)
            let problemObject = mismatch(objectOutcome, .value(.object(["k": .bool(true)])))
            #expect(problemObject == nil, "an object at the path: \(problemObject ?? ""); \(setup)")
        }
    }

    @Test func anEmptyMemberNameIsKeptOnlyWhereTheFieldsNameIt() {
        // The empty name has no first byte: it must match itself and nothing else, beside names of every length.
        let text = #"[{"a": 1, "": 2, "b": {"": 3, "c": 4}}, {"": [5]}]"#
        let keep = [JSONPath([.member("")]), JSONPath([.member("b"), .member("")])]
        let expected: [JSONValue] = [
            .object(["": .number(JSONNumber(2)), "b": .object(["": .number(JSONNumber(3))])]),
            .object(["": .array([.number(JSONNumber(5))])]),
        ]
        for setup in [ReadSetup.tiny, ReadSetup.whole] {
            let outcome = readItems(Array(text.utf8), path: nil, keeping: keep, setup: setup)
            #expect(outcome == .items(expected), "\(summary(outcome)); \(setup)")
        }
    }

    @Test func theFirstOfDuplicateNamesOnThePathIsFollowed() {
        let path = JSONPath([.member("data"), .member("items")])
        let one = JSONValue.number(JSONNumber(1))
        let cases = [
            #"{"data": {"items": [1]}, "data": {"items": [2]}}"#,
            #"{"data": {"items": [1], "items": [2]}}"#,
            #"{"data": {"other": 0, "items": [1]}, "data": 5}"#,
        ]
        for text in cases {
            for setup in [ReadSetup.tiny, ReadSetup.whole] {
                let outcome = readItems(Array(text.utf8), path: path, setup: setup)
                #expect(outcome == .items([one]), "\(summary(outcome)); \(setup); input \(text)")
            }
        }
    }

    // MARK: Keeping paths

    @Test func canonicallyEquivalentNamesAreKeptAsPathLookupFindsThem() {
        // `value(at:)` compares member names as Strings, so a path written with a precomposed letter finds a member
        // written with a combining mark, and the reverse; keeping must not prune what the lookup finds. U+212A
        // KELVIN SIGN is equivalent to the ASCII `K`: a plain ASCII key can match a name that is not ASCII.
        let groups: [(spellings: [String], names: [String])] = [
            (
                [
                    "e\u{301}",  // raw combining acute accent
                    "e\\u0301",  // the same, escaped
                    "\u{E9}",  // raw precomposed letter
                    "\\u00e9",  // the same, escaped
                ], ["\u{E9}", "e\u{301}"]
            ),
            (["K", "\\u004B", "\u{212A}", "\\u212A"], ["K", "\u{212A}"]),
        ]
        for (spellings, names) in groups {
            for spelling in spellings {
                for name in names {
                    let bytes = Array("[{\"\(spelling)\": 1, \"other\": 2}]".utf8)
                    let keep = [JSONPath([.member(name)])]
                    let full = expectedOutcome(bytes, path: nil)
                    guard case .items(let items) = full else {
                        Issue.record("the parser read \(summary(full))")
                        continue
                    }
                    for setup in [ReadSetup.whole, .tiny] {
                        let outcome = readItems(bytes, path: nil, keeping: keep, setup: setup)
                        let problem = keepMismatch(outcome, full: items, keeping: keep)
                        let scalars = name.unicodeScalars.map { String($0.value, radix: 16) }
                        #expect(problem == nil, "\(problem ?? ""); member \(spelling), keeping U+\(scalars)")
                    }
                }
            }
        }
        // A kept member is named as the input spells it, not as the path does (equal strings, other scalars).
        var reader = JSONItemReader(
            input: JSONMemoryInput(Array(#"[{"K": 1}]"#.utf8)), itemsPath: nil,
            keeping: [JSONPath([.member("\u{212A}")])])
        _ = try? reader.start()
        guard case .object(let object) = try? reader.next() else {
            Issue.record("no object read")
            return
        }
        #expect(object.members.map { Array($0.key.unicodeScalars) } == [["K"]])
    }

    @Test func itemsOfValuesInARowArePrunedToo() {
        // Each value of an NDJSON input is an item, and items are read for the keeping paths only.
        let keep = [JSONPath([.member("title")])]
        let text = #"{"id": 1, "title": "a", "body": "x"}"# + "\n" + #"{"id": 2, "title": "b", "body": "y"}"#
        let bytes = Array(text.utf8)
        let expected: Outcome = .items([.object(["title": .string("a")]), .object(["title": .string("b")])])
        for setup in [ReadSetup.tiny, ReadSetup.whole] {
            let problem = mismatch(readItems(bytes, path: nil, keeping: keep, setup: setup), expected)
            #expect(problem == nil, "\(problem ?? ""); \(setup)")
        }
        // So are the items found through an array, which are read in memory.
        let throughArray = Array(#"{"list": [{"items": [{"id": 1, "title": "a", "body": "x"}]}]}"#.utf8)
        let path = JSONPath([.member("list"), .index(0), .member("items")])
        let outcome = readItems(throughArray, path: path, keeping: keep, setup: .whole)
        let problem = mismatch(outcome, .items([.object(["title": .string("a")])]))
        #expect(problem == nil, "through an array: \(problem ?? "")")
    }

    // MARK: Hostile inputs

    @Test func nestingPastTheLimitInsideAnItemIsMalformedWhereTheParserSaysSo() {
        let path = JSONPath([.member("data"), .member("items")])
        let prefix = #"{"data":{"items":[1,"#
        let arrays = prefix + String(repeating: "[", count: 600) + String(repeating: "]", count: 600) + "]}}"
        let objects =
            prefix + String(repeating: #"{"a":"#, count: 600) + "1" + String(repeating: "}", count: 600) + "]}}"
        let endless = prefix + String(repeating: "[", count: 100_000)
        // The top object, `data` and `items` are three levels; the item's 510th bracket is the 513th level.
        let cases: [(name: String, text: String, offset: Int, keep: [JSONPath]?)] = [
            ("arrays", arrays, prefix.utf8.count + 509, nil),
            ("objects", objects, prefix.utf8.count + 509 * 5, nil),
            (
                "objects read for a path along them", objects, prefix.utf8.count + 509 * 5,
                [
                    JSONPath(Array(repeating: .member("a"), count: 520))
                ]
            ),
            (
                "objects read for a short path", objects, prefix.utf8.count + 509 * 5,
                [
                    JSONPath([.member("a"), .member("a")])
                ]
            ),
            ("an endless opening", endless, prefix.utf8.count + 509, nil),
        ]
        for item in cases {
            let bytes = Array(item.text.utf8)
            let expected = expectedOutcome(bytes, path: path)
            if case .failed(.malformed(let parserError), _) = expected {
                #expect(parserError.offset == item.offset, "the parser fails at \(parserError); \(item.name)")
            } else {
                Issue.record("the parser accepted \(item.name)")
            }
            for setup in [ReadSetup.small, ReadSetup.whole] {
                let problem = mismatch(readItems(bytes, path: path, keeping: item.keep, setup: setup), expected)
                #expect(problem == nil, "\(problem ?? ""); \(item.name), \(setup)")
            }
        }
    }

    @Test func nestingPastTheLimitAlongTheItemsPathIsMalformedWhereTheParserSaysSo() {
        let opening = #"{"a":"#
        func chain(_ depth: Int, around inner: String) -> [UInt8] {
            Array((String(repeating: opening, count: depth) + inner + String(repeating: "}", count: depth)).utf8)
        }
        let deepMeta =
            #"{"meta":"# + String(repeating: "[", count: 600) + String(repeating: "]", count: 600)
            + #","data":{"items":[1]}}"#
        func path(_ depth: Int) -> JSONPath { JSONPath(Array(repeating: .member("a"), count: depth)) }
        let items = JSONPath([.member("data"), .member("items")])
        let cases: [(name: String, bytes: [UInt8], path: JSONPath, maxDepth: Int, offset: Int)] = [
            // With a limit of eight, the ninth level is one too many, whatever the path leads to.
            ("ten objects to a list", chain(10, around: "[1,2]"), path(10), 8, 40),
            ("ten objects to a number", chain(10, around: "1"), path(10), 8, 40),
            ("nine objects to a list", chain(9, around: "[]"), path(9), 8, 40),
            ("eight objects to a list of lists", chain(8, around: "[[]]"), path(8), 8, 40),
            ("six hundred objects to a list", chain(600, around: "[1]"), path(600), 512, 512 * 5),
            ("a skipped member before the path", Array(deepMeta.utf8), items, 512, 8 + 511),
        ]
        for item in cases {
            let expected = expectedOutcome(item.bytes, path: item.path, maxDepth: item.maxDepth)
            if case .failed(.malformed(let parserError), _) = expected {
                #expect(parserError.offset == item.offset, "the parser fails at \(parserError); \(item.name)")
            } else {
                Issue.record("the parser accepted \(item.name): \(summary(expected))")
            }
            for setup in [ReadSetup.small, ReadSetup.whole] {
                let outcome = readItems(item.bytes, path: item.path, setup: setup, maxDepth: item.maxDepth)
                let problem = mismatch(outcome, expected)
                #expect(problem == nil, "\(problem ?? ""); \(item.name), limit \(item.maxDepth), \(setup)")
            }
        }
    }

    @Test func aMegabyteStringWithEscapesArrivesWholeThroughTinyReads() throws {
        let unit = EscapedText.unit
        let repeats = (1 << 20) / unit.encoded.count + 1
        var body: [UInt8] = []
        body.reserveCapacity(repeats * unit.encoded.count)
        for _ in 0..<repeats { body += unit.encoded }
        let value = String(repeating: unit.value, count: repeats)
        // `["…", {"big": "…", "id": 1}, 2]`, read for `id`: the megabyte is read, then a shorter copy skipped.
        var bytes: [UInt8] = Array(#"[""#.utf8)
        bytes += body
        bytes += Array(#"", {"big": ""#.utf8)
        bytes += body.prefix((1 << 16) / unit.encoded.count * unit.encoded.count)
        bytes += Array(#"", "id": 1}, 2]"#.utf8)
        let parsed = try JSONParser().parse(bytes)
        let parsedString = try #require(parsed.value(at: JSONPath([.index(0)]))?.stringValue)
        let parserAgrees = parsedString.unicodeScalars.elementsEqual(value.unicodeScalars)
        #expect(parserAgrees, "the parser reads the string differently")
        // Reads of one byte from a pipe, and of seven from memory.
        let inputs: [(name: String, input: any JSONByteInput)] = [
            ("reads of 1 byte", ScriptedInput(bytes, readSizes: [1], restartable: false)),
            ("reads of 7 bytes", JSONMemoryInput(bytes, chunkSize: 7)),
        ]
        for (name, input) in inputs {
            let outcome = readAll(input, path: nil, keeping: [JSONPath([.member("id")])], bufferSize: 16, maxDepth: 512)
            guard case .items(let items) = outcome, items.count == 3 else {
                Issue.record("\(name): read \(summary(outcome))")
                continue
            }
            let string = items[0].stringValue ?? ""
            let sameScalars = string.unicodeScalars.elementsEqual(value.unicodeScalars)
            #expect(sameScalars, "\(name): \(string.unicodeScalars.count) scalars, not \(value.unicodeScalars.count)")
            let second = items[1]
            let expectedSecond = JSONValue.object(["id": .number(JSONNumber(1))])
            #expect(second == expectedSecond, "\(name): the second item is \(clipped(second.jsonText))")
            #expect(items[2] == .number(JSONNumber(2)), "\(name): the last item is \(clipped(items[2].jsonText))")
        }
    }

    @Test func everySplitPointInsideEscapesAndMultiByteCharactersReadsTheSame() {
        let unit = EscapedText.unit
        let body = unit.encoded + unit.encoded
        let value = unit.value + unit.value
        for padding in 0..<7 {
            let text = "[" + String(repeating: " ", count: padding) + "{\"k\": \""
            let bytes = Array(text.utf8) + body + Array("\", \"n\": 12345}, \"".utf8) + body + Array("\"]".utf8)
            let expected: Outcome = .items([
                .object(["k": .string(value), "n": .number(JSONNumber(12345))]), .string(value),
            ])
            for readSize in [1, 7] {
                for restartable in [true, false] {
                    let setup = ReadSetup(id: 0, readSize: readSize, bufferSize: 16, restartable: restartable)
                    let problem = mismatch(readItems(bytes, path: nil, setup: setup), expected)
                    #expect(problem == nil, "\(problem ?? ""); padding \(padding), \(setup)")
                    let kept = mismatch(
                        readItems(bytes, path: nil, keeping: [JSONPath([.member("n")])], setup: setup),
                        .items([.object(["n": .number(JSONNumber(12345))]), .string(value)]))
                    #expect(kept == nil, "keeping n: \(kept ?? ""); padding \(padding), \(setup)")
                }
            }
        }
    }

    @Test func numbersSplitAcrossReadsAreReadWhole() {
        let cases: [(text: String, expected: Outcome)] = [
            ("[12345,6]", .items([.number(JSONNumber(12345)), .number(JSONNumber(6))])),
            ("12345", .value(.number(JSONNumber(12345)))),
            ("12345 6", .items([.number(JSONNumber(12345)), .number(JSONNumber(6))])),
            (
                "[-12.5e+30,0.25E-7]",
                .items([.number(JSONNumber(text: "-12.5e+30")), .number(JSONNumber(text: "0.25E-7"))])
            ),
            ("-0.000001", .value(.number(JSONNumber(text: "-0.000001")))),
            (#"{"n": 98765}"#, .value(.object(["n": .number(JSONNumber(98765))]))),
        ]
        for item in cases {
            for readSize in [1, 2, 3] {
                for bufferSize in [16, 1 << 10] {
                    let setup = ReadSetup(id: 0, readSize: readSize, bufferSize: bufferSize, restartable: readSize != 2)
                    let problem = mismatch(readItems(Array(item.text.utf8), path: nil, setup: setup), item.expected)
                    #expect(problem == nil, "\(problem ?? ""); \(setup); input \(item.text)")
                }
            }
        }
        // A number cut short at the end of the input is malformed where the parser says so.
        for text in ["[1.", "[1e", "-", "[12345,6"] {
            let bytes = Array(text.utf8)
            let problem = mismatch(readItems(bytes, path: nil, setup: .tiny), expectedOutcome(bytes, path: nil))
            #expect(problem == nil, "\(problem ?? ""); input \(text)")
        }
    }

    @Test func anItemIsReturnedOnceItsLastByteHasBeenRead() {
        // A live pipe: the first item arrives in two writes, then the writer pauses. A read that would wait for
        // the next write fails here instead, so an item held back until more bytes come shows as that failure.
        let item = #"{"id": 1, "text": "an item written in two parts, then nothing for a while"}"#
        let bytes = Array(("[" + item + ",\n").utf8)
        let firstWrite = 1 + item.utf8.count * 2 / 3
        let expected = try? JSONParser().parse(Array(item.utf8))
        for bufferSize in [16, 1 << 16] {
            let input = PausingPipe(bytes, writes: [firstWrite, bytes.count - firstWrite])
            var reader = JSONItemReader(input: input, itemsPath: nil, keeping: nil, bufferSize: bufferSize)
            var first: JSONValue?
            var failure = ""
            do throws(JSONItemReaderError) {
                _ = try reader.start()
                first = try reader.next()
            } catch {
                failure = "\(error)"
            }
            let read = first.map { $0.jsonText } ?? "nothing"
            #expect(first == expected && expected != nil, "buffer of \(bufferSize): read \(read); \(failure)")
        }
    }

    @Test func aFailingReadIsReportedAsAnInputError() {
        let bytes = Array(#"{"data": {"items": [1, 2, 3, 4, 5, 6, 7, 8, 9]}}"#.utf8)
        let failure = JSONInputReadError("read failed: the device went away")
        for failingAt in [0, 5, 25, 40] {
            let input = ScriptedInput(bytes, readSizes: [3], restartable: false, failingAt: failingAt)
            let outcome = readAll(
                input, path: JSONPath([.member("data"), .member("items")]), keeping: nil, bufferSize: 16, maxDepth: 512)
            guard case .failed(.input(let error), _) = outcome else {
                Issue.record("failing after \(failingAt) bytes read \(summary(outcome))")
                continue
            }
            #expect(error == failure)
        }
    }
}

// MARK: - Inputs

/// An input whose reads return the given sizes in turn; restartable like a file or not like a pipe; failing once
/// `failingAt` bytes have been read, when given; and saying whether bytes are ready, or (like an input that cannot
/// tell) not.
private struct ScriptedInput: JSONByteInput {
    let bytes: [UInt8]
    let readSizes: [Int]
    let restartable: Bool
    let failingAt: Int?
    let tellsReadiness: Bool
    private var position = 0
    private var reads = 0

    init(_ bytes: [UInt8], readSizes: [Int], restartable: Bool, failingAt: Int? = nil, tellsReadiness: Bool = true) {
        self.bytes = bytes
        self.readSizes = readSizes.isEmpty ? [1] : readSizes.map { max(1, $0) }
        self.restartable = restartable
        self.failingAt = failingAt
        self.tellsReadiness = tellsReadiness
    }

    /// Every byte is written already, so a read never waits.
    func hasBytesReady() -> Bool { tellsReadiness && position < bytes.count }

    mutating func read(into buffer: UnsafeMutableRawBufferPointer) throws(JSONInputReadError) -> Int {
        if let failingAt, position >= failingAt { throw JSONInputReadError("read failed: the device went away") }
        var count = min(buffer.count, readSizes[reads % readSizes.count], bytes.count - position)
        if let failingAt { count = min(count, failingAt - position) }
        reads += 1
        guard count > 0, let destination = buffer.baseAddress else { return 0 }
        let start = position
        let length = count
        bytes.withUnsafeBytes { source in
            if let base = source.baseAddress { destination.copyMemory(from: base + start, byteCount: length) }
        }
        position += count
        return count
    }

    var isRestartable: Bool { restartable }

    func restarted() -> ScriptedInput? {
        guard restartable else { return nil }
        return ScriptedInput(
            bytes, readSizes: readSizes, restartable: true, failingAt: failingAt, tellsReadiness: tellsReadiness)
    }
}

/// A pipe whose writer wrote `writes` bytes at a time and then paused: a read returns what is left of the
/// current write (as much as fits), and a read after the last write fails where a real pipe would wait.
private struct PausingPipe: JSONByteInput {
    let bytes: [UInt8]
    private var writeEnds: [Int]
    private var position = 0

    init(_ bytes: [UInt8], writes: [Int]) {
        self.bytes = bytes
        var end = 0
        writeEnds = writes.map { size in
            end = min(bytes.count, end + size)
            return end
        }
    }

    mutating func read(into buffer: UnsafeMutableRawBufferPointer) throws(JSONInputReadError) -> Int {
        guard let writeEnd = writeEnds.first(where: { $0 > position }) else {
            throw JSONInputReadError("the writer has not written more yet")
        }
        let count = min(buffer.count, writeEnd - position)
        guard count > 0, let destination = buffer.baseAddress else { return 0 }
        let start = position
        bytes.withUnsafeBytes { source in
            if let base = source.baseAddress { destination.copyMemory(from: base + start, byteCount: count) }
        }
        position += count
        return count
    }

    var isRestartable: Bool { false }

    /// Whether written bytes are left to read: after the last write, the writer has paused.
    func hasBytesReady() -> Bool { writeEnds.contains { $0 > position } }

    func restarted() -> PausingPipe? { nil }
}

/// How an input reaches the reader: the most each read returns, the reader's first buffer size, and whether the
/// input can be read again (then it is a `JSONMemoryInput`; otherwise a pipe-like input, which says whether bytes
/// are ready when `id` is even and cannot tell when it is odd).
struct ReadSetup: Sendable, CustomStringConvertible {
    var id: Int
    var readSize: Int
    var bufferSize: Int
    var restartable: Bool

    var description: String {
        let pipe = id % 2 == 0 ? "a pipe" : "a pipe that cannot tell whether bytes are ready"
        let kind = restartable ? "restartable" : pipe
        return "reads of \(readSize) bytes into a buffer of \(bufferSize), \(kind)"
    }

    static let all: [ReadSetup] = [
        ReadSetup(id: 1, readSize: 1, bufferSize: 16, restartable: true),
        ReadSetup(id: 2, readSize: 3, bufferSize: 16, restartable: false),
        ReadSetup(id: 3, readSize: 3, bufferSize: 64, restartable: true),
        ReadSetup(id: 4, readSize: 64, bufferSize: 16, restartable: false),
        ReadSetup(id: 5, readSize: 64, bufferSize: 64, restartable: true),
        ReadSetup(id: 6, readSize: 4096, bufferSize: 16, restartable: true),
        ReadSetup(id: 7, readSize: 4096, bufferSize: 64, restartable: false),
        ReadSetup(id: 8, readSize: 1 << 20, bufferSize: 1 << 20, restartable: true),
    ]

    /// Byte-at-a-time reads into the smallest buffer, from a pipe.
    static let tiny = ReadSetup(id: 0, readSize: 1, bufferSize: 16, restartable: false)
    /// Reads of 64 bytes into the smallest buffer.
    static let small = ReadSetup(id: 0, readSize: 64, bufferSize: 16, restartable: true)
    /// The whole input in one read.
    static let whole = ReadSetup(id: 0, readSize: 1 << 20, bufferSize: 1 << 20, restartable: true)

    static func random(_ random: inout SplitMix64) -> ReadSetup {
        ReadSetup(
            id: random.below(2), readSize: random.pick([3, 7, 64, 4096]), bufferSize: random.pick([16, 64, 1 << 16]),
            restartable: random.percent(50))
    }
}

// MARK: - Reading

/// What reading an input gave.
private enum Outcome: Equatable {
    /// `start()` returned a single value.
    case value(JSONValue)
    /// `start()` returned `.items` and `next()` these, then `nil`.
    case items([JSONValue])
    /// An error, after these items.
    case failed(JSONItemReaderError, after: [JSONValue])
    /// `next()` kept returning items long past the end of the input.
    case runaway(Int)
}

/// The reader's outcome through `next()`; reading the same input into ``JSONItemBatch``es (the path `content
/// format` takes on a second thread) must give the same items and the same failure, or the test records an issue.
private func readItems(
    _ bytes: [UInt8], path: JSONPath?, keeping: [JSONPath]? = nil, setup: ReadSetup, maxDepth: Int = 512
) -> Outcome {
    func input() -> any JSONByteInput {
        if setup.restartable { return JSONMemoryInput(bytes, chunkSize: setup.readSize) }
        return ScriptedInput(bytes, readSizes: [setup.readSize], restartable: false, tellsReadiness: setup.id % 2 == 0)
    }
    let values = readAll(input(), path: path, keeping: keeping, bufferSize: setup.bufferSize, maxDepth: maxDepth)
    let batched = readAll(
        input(), path: path, keeping: keeping, bufferSize: setup.bufferSize, maxDepth: maxDepth, inBatches: true)
    if batched != values {
        Issue.record("read in batches: \(summary(batched)); read item by item: \(summary(values))")
    }
    // The kept paths found where each item lies in the buffer must be what they lead to in the items read.
    if let keeping, var projection = JSONTextProjection(paths: keeping) {
        var reader = JSONItemReader(
            input: input(), itemsPath: path, keeping: keeping, bufferSize: setup.bufferSize, maxDepth: maxDepth)
        let located = locatedRows(&reader, &projection)
        let expected: LocatedRows
        switch values {
        case .items(let items): expected = .rows(items.map { item in keeping.map { item.value(at: $0) } })
        case .failed(let error, let before):
            expected = .failed(error, after: before.map { item in keeping.map { item.value(at: $0) } })
        case .value, .runaway: expected = located
        }
        if located != expected {
            Issue.record("located in the buffer: \(located); read item by item: \(summary(values))")
        }
    }
    return values
}

/// Rows of the values a reader's items hold at a projection's paths, found with `nextItem(locating:_:)`.
private enum LocatedRows: Equatable, CustomStringConvertible {
    case rows([[JSONValue?]])
    case failed(JSONItemReaderError, after: [[JSONValue?]])
    /// `start()` gave a single value, or a slice did not parse.
    case other(String)

    var description: String {
        switch self {
        case .rows(let rows): "\(rows.count) rows \(rows)"
        case .failed(let error, let rows): "\(error) after \(rows.count) rows"
        case .other(let text): text
        }
    }
}

private func locatedRows(_ reader: inout JSONItemReader, _ projection: inout JSONTextProjection) -> LocatedRows {
    var rows: [[JSONValue?]] = []
    do {
        guard case .items = try reader.start() else { return .other("a single value") }
        while try reader.nextItem(
            locating: &projection,
            { text, located in
                rows.append(try located.slices.map { try $0.map { try JSONTextProjection.value(of: $0, in: text) } })
            })
        {
            if rows.count > 1_000_000 { return .other("a runaway reader") }
        }
        return .rows(rows)
    } catch let error as JSONItemReaderError {
        return .failed(error, after: rows)
    } catch {
        return .other("\(error)")
    }
}

private func readAll(
    _ input: some JSONByteInput, path: JSONPath?, keeping: [JSONPath]?, bufferSize: Int, maxDepth: Int,
    inBatches: Bool = false
) -> Outcome {
    var reader = JSONItemReader(
        input: input, itemsPath: path, keeping: keeping, bufferSize: bufferSize, maxDepth: maxDepth)
    var items: [JSONValue] = []
    do throws(JSONItemReaderError) {
        switch try reader.start() {
        case .value(let value):
            return .value(value)
        case .items:
            while true {
                if inBatches {
                    // Small batches, so batch edges fall everywhere.
                    var batch = JSONItemBatch(maxDepth: maxDepth)
                    var more = true
                    do {
                        while batch.count < 3, more { more = try batch.append(from: &reader) }
                    } catch {
                        items += (0..<batch.count).compactMap { try? batch.item(at: $0) }
                        throw error
                    }
                    for position in 0..<batch.count {
                        do throws(JSONParseError) {
                            items.append(try batch.item(at: position))
                        } catch {
                            return .failed(.malformed(error), after: items)
                        }
                    }
                    if !more { break }
                } else {
                    guard let item = try reader.next() else { break }
                    items.append(item)
                }
                if items.count > 1_000_000 { return .runaway(items.count) }
            }
            return .items(items)
        }
    } catch {
        return .failed(error, after: items)
    }
}

/// What the reader must give, from the parser: the items at `path` in each value of the input.
private func expectedOutcome(_ bytes: [UInt8], path: JSONPath?, maxDepth: Int = 512) -> Outcome {
    let values: [JSONValue]
    do throws(JSONParseError) {
        values = try JSONParser(maxDepth: maxDepth).parseSequence(bytes)
    } catch {
        return .failed(.malformed(error), after: [])
    }
    guard !values.isEmpty else { return .failed(.empty, after: []) }
    var items: [JSONValue] = []
    for value in values {
        let found: JSONValue?
        if let path { found = value.value(at: path) } else { found = value }
        guard let found else {
            return .failed(.itemsNotFound(available: keysWhereMatchingStops(value, path)), after: items)
        }
        if values.count == 1, found.arrayValue == nil { return .value(found) }
        items += found.arrayValue ?? [found]
    }
    return .items(items)
}

/// The member names of the deepest object `path` reaches in `value`: where a reader looked for the next step.
private func keysWhereMatchingStops(_ value: JSONValue, _ path: JSONPath?) -> [String] {
    var current = value
    for component in path?.components ?? [] {
        guard let next = current.value(at: JSONPath([component])) else { break }
        current = next
    }
    return current.objectValue?.members.map { $0.key } ?? []
}

/// Why the reader's outcome is not the expected one, if it is not.
///
/// Values compare by their serialized bytes (member
/// order, number text, string scalars); a malformed input must fail at the same offset, line and column, whatever
/// the message and whatever items came before.
private func mismatch(_ actual: Outcome, _ expected: Outcome) -> String? {
    switch (actual, expected) {
    case (.failed(.malformed(let ours), _), .failed(.malformed(let parser), _)):
        let same = [ours.offset, ours.line, ours.column] == [parser.offset, parser.line, parser.column]
        return same ? nil : "the reader failed at \(ours), the parser at \(parser)"
    case (.value(let ours), .value(let parser)):
        return ours.serialized() == parser.serialized() ? nil : "read \(summary(actual)), expected \(summary(expected))"
    case (.items(let ours), .items(let parser)):
        return serialized(ours) == serialized(parser) ? nil : "read \(summary(actual)), expected \(summary(expected))"
    case (.failed(let ours, let oursBefore), .failed(let parser, let parserBefore)):
        let same = ours == parser && serialized(oursBefore) == serialized(parserBefore)
        return same ? nil : "read \(summary(actual)), expected \(summary(expected))"
    default:
        return "read \(summary(actual)), expected \(summary(expected))"
    }
}

private func serialized(_ values: [JSONValue]) -> [[UInt8]] {
    values.map { $0.serialized() }
}

/// Why items read with `keeping` paths are not the full items pruned, or `nil`: every path must lead to the same
/// value in both, and a pruned object holds only members some path reads.
private func keepMismatch(_ outcome: Outcome, full: [JSONValue], keeping paths: [JSONPath]) -> String? {
    guard case .items(let pruned) = outcome else { return "read \(summary(outcome)) instead of \(full.count) items" }
    guard pruned.count == full.count else { return "\(pruned.count) items instead of \(full.count)" }
    for (index, (item, whole)) in zip(pruned, full).enumerated() {
        for path in paths {
            let kept = item.value(at: path)
            let original = whole.value(at: path)
            if kept?.serialized() != original?.serialized() {
                return "item \(index) at \(path) holds \(kept.map { clipped($0.jsonText) } ?? "nothing") "
                    + "instead of \(original.map { clipped($0.jsonText) } ?? "nothing")"
            }
        }
        if whole.objectValue == nil, item.serialized() != whole.serialized() {
            return "item \(index), not an object, read as \(clipped(item.jsonText))"
        }
        if !holdsOnlyKeptMembers(item, paths.map { $0.components }) {
            return "item \(index) keeps members no path reads: \(clipped(item.jsonText))"
        }
    }
    return nil
}

/// Whether every member of `value`, at every level, is one some path reads.
private func holdsOnlyKeptMembers(_ value: JSONValue, _ paths: [[JSONPath.Component]]) -> Bool {
    guard case .object(let object) = value else { return true }
    for path in paths {
        guard let first = path.first, case .member = first else { return true }
    }
    for member in object.members {
        var rests: [[JSONPath.Component]] = []
        for path in paths {
            if case .member(let name) = path[0], name == member.key { rests.append(Array(path.dropFirst())) }
        }
        if rests.isEmpty || !holdsOnlyKeptMembers(member.value, rests) { return false }
    }
    return true
}

/// Whether some complete value that ends before `offset` lacks the items path.
private func aValueLacksThePath(_ bytes: [UInt8], before offset: Int, path: JSONPath?) -> Bool {
    guard let path else { return false }
    for end in stride(from: min(offset, bytes.count), through: 1, by: -1) where bytes[end - 1] == UInt8(ascii: "}") {
        guard let values = try? JSONParser().parseSequence(bytes[..<end]) else { continue }
        if values.contains(where: { $0.value(at: path) == nil }) { return true }
    }
    return false
}

/// An outcome in a few words, for failure messages.
private func summary(_ outcome: Outcome) -> String {
    switch outcome {
    case .value(let value): "the value \(clipped(value.jsonText))"
    case .items(let items): "\(items.count) items \(clipped(JSONValue.array(items).jsonText))"
    case .failed(let error, let before): "\(error) after \(before.count) items"
    case .runaway(let count): "more than \(count) items"
    }
}

// MARK: - Generated inputs

/// Writes inputs from generated documents: items at `data.list.items`, with members before and after them at every
/// level of the path, random whitespace, and member names with escaped letters.
private struct InputWriter {
    static let itemsPath = JSONPath([.member("data"), .member("list"), .member("items")])

    /// Paths the keeping tests choose from: members most items have, members of members, an index, `[]`, and
    /// names no item has.
    static let keepPool: [JSONPath] = [
        JSONPath([.member("title")]),
        JSONPath([.member("id")]),
        JSONPath([.member("a"), .member("b")]),
        JSONPath([.member("a"), .member("c"), .member("d")]),
        JSONPath([.member("list"), .index(0)]),
        JSONPath([.member("list"), .each, .member("b")]),
        JSONPath([.member("missing")]),
        JSONPath([.member("a"), .member("missing"), .member("deeper")]),
    ]

    var random: SplitMix64
    /// Only small documents: with reads of a few bytes the reader reads a value again after every read.
    let smallDocuments: Bool

    init(seed: UInt64, smallDocuments: Bool) {
        random = SplitMix64(seed: seed)
        self.smallDocuments = smallDocuments
    }

    /// One or, sometimes, a few wrapped values in a row.
    mutating func input() -> [UInt8] {
        let count = random.percent(80) ? 1 : random.inRange(2...3)
        var bytes = space()
        for index in 0..<count {
            if index > 0 {
                let separator: [UInt8] = random.pick([[0x0A], [0x0D, 0x0A], [0x20], []])
                bytes += separator
            }
            bytes += wrapped()
        }
        return bytes + space()
    }

    /// One to four generated documents in a row, each followed by whitespace.
    mutating func sequence() -> [UInt8] {
        var bytes: [UInt8] = []
        for _ in 0..<random.inRange(1...4) {
            bytes += document()
            let separator: [UInt8] = random.pick([[0x0A], [0x0D, 0x0A], [0x20], [0x09]])
            bytes += separator
        }
        return bytes
    }

    /// `{"meta": …, "data": {"count": …, "list": {"kind": …, "items": […], "more": …}}, "after": …}`, some
    /// members left out.
    mutating func wrapped() -> [UInt8] {
        var items: [[UInt8]] = []
        for _ in 0..<random.below(smallDocuments ? 5 : 7) { items.append(item()) }
        var list: [(String, [UInt8])] = [("items", array(items))]
        if random.percent(50) { list.insert(("kind", document()), at: 0) }
        if random.percent(50) { list.append(("more", document())) }
        var data: [(String, [UInt8])] = [("list", object(list))]
        if random.percent(50) { data.insert(("count", Array(String(items.count).utf8)), at: random.below(2)) }
        var top: [(String, [UInt8])] = [("data", object(data))]
        if random.percent(70) { top.insert(("meta", document()), at: 0) }
        if random.percent(60) { top.append(("after", document())) }
        return object(top)
    }

    /// An item: usually an object with members the keeping paths name, otherwise any generated document.
    mutating func item() -> [UInt8] {
        guard random.percent(65) else { return document() }
        var members: [(String, [UInt8])] = []
        if random.percent(80) { members.append(("id", Array(String(random.below(100_000)).utf8))) }
        if random.percent(70) { members.append(("title", value())) }
        if random.percent(70) {
            if random.percent(75) {
                var inner: [(String, [UInt8])] = []
                if random.percent(80) { inner.append(("b", value())) }
                if random.percent(60) { inner.append(("c", object([("d", value()), ("e", value())]))) }
                if random.percent(50) { inner.append(("f", value())) }
                members.append(("a", object(inner)))
            } else {
                members.append(("a", document()))
            }
        }
        if random.percent(60) {
            if random.percent(80) {
                var elements: [[UInt8]] = []
                for _ in 0..<random.below(4) {
                    elements.append(random.percent(50) ? object([("b", value())]) : value())
                }
                members.append(("list", array(elements)))
            } else {
                members.append(("list", document()))
            }
        }
        for _ in 0..<random.below(3) {
            members.append((random.pick(["x", "skip", "body", "\u{E9}t\u{E9}", "\u{1F600}", "a.b"]), value()))
        }
        // Now and then a name twice: keeping reads every member with a kept name.
        if random.percent(15), !members.isEmpty {
            let name = random.pick(members).0
            members.insert((name, value()), at: random.inRange(0...members.count))
        }
        for index in stride(from: members.count - 1, to: 0, by: -1) {
            members.swapAt(index, random.inRange(0...index))
        }
        return object(members)
    }

    /// A member value: a generated document, or (when only small documents are wanted) often a scalar.
    mutating func value() -> [UInt8] {
        guard smallDocuments, random.percent(60) else { return document() }
        let scalars = [
            "0", "-12.5e-3", "true", "null", #""t\u00e9xt""#, "\"\u{1F600}\"", #""""#, "12345678901234567890",
        ]
        return Array(random.pick(scalars).utf8)
    }

    /// A generated document: small, or now and then nested (unless only small ones are wanted).
    mutating func document() -> [UInt8] {
        let shape: DocumentShape = smallDocuments || random.percent(70) ? .small : .nested
        var generator = DocumentGenerator(seed: random.next(), shape: shape)
        _ = generator.document()
        return generator.text
    }

    /// Keeping paths for one read: a few from the pool, and names some of the items really have.
    mutating func keepPaths(for items: [JSONValue]) -> [JSONPath] {
        var paths: [JSONPath] = []
        for _ in 0..<random.inRange(1...3) { paths.append(random.pick(Self.keepPool)) }
        let objects = items.compactMap { $0.objectValue }.filter { !$0.members.isEmpty }
        if !objects.isEmpty, random.percent(70) {
            let object = random.pick(objects)
            let member = random.pick(object.members)
            if let inner = member.value.objectValue, !inner.members.isEmpty, random.percent(50) {
                let innerMember = random.pick(inner.members)
                paths.append(JSONPath([.member(member.key), .member(innerMember.key)]))
            } else {
                paths.append(JSONPath([.member(member.key)]))
            }
        }
        return paths
    }

    /// `payload` somewhere in an input, with the items path and keeping paths to read that input with.
    mutating func placing(
        _ payload: [UInt8], at placement: Int
    ) -> (bytes: [UInt8], path: JSONPath?, keep: [JSONPath]?, label: String) {
        let keep: [JSONPath]? = random.percent(40) ? [random.pick(Self.keepPool), random.pick(Self.keepPool)] : nil
        switch placement {
        case 0:
            return (payload, nil, nil, "the whole input")
        case 1:
            let items = array([item(), payload, item()])
            let bytes = object([("data", object([("list", object([("items", items)]))]))])
            return (bytes, Self.itemsPath, keep, "an item")
        case 2:
            let items = array([item()])
            let bytes = object([("meta", payload), ("data", object([("list", object([("items", items)]))]))])
            return (bytes, Self.itemsPath, keep, "a member before the path")
        case 3:
            let items = array([item()])
            let bytes = object([("data", object([("list", object([("items", items), ("more", payload)]))]))])
            return (bytes, Self.itemsPath, keep, "a member after the items")
        case 4:
            let bytes = document() + [0x0A] + payload + [0x0A] + document()
            return (bytes, nil, nil, "the second of three values")
        default:
            let record = object([("id", Array("1".utf8)), ("skip", payload), ("title", document())])
            let bytes = object([("data", object([("list", object([("items", array([record]))]))]))])
            return (bytes, Self.itemsPath, [JSONPath([.member("title")])], "a skipped member of an item")
        }
    }

    mutating func space() -> [UInt8] {
        guard random.percent(35) else { return [] }
        var bytes: [UInt8] = []
        for _ in 0..<random.inRange(1...3) {
            let piece: [UInt8] = random.pick([[0x20], [0x0A], [0x0D, 0x0A], [0x09]])
            bytes += piece
        }
        return bytes
    }

    /// A member name in quotes, now and then with letters written as `\u` escapes.
    mutating func name(_ text: String) -> [UInt8] {
        var bytes: [UInt8] = [UInt8(ascii: "\"")]
        for byte in text.utf8 {
            let isLetter = (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte | 0x20)
            if isLetter, random.percent(15) {
                let digits = String(byte, radix: 16, uppercase: random.percent(50))
                bytes += Array(("\\u00" + digits).utf8)
            } else {
                bytes.append(byte)
            }
        }
        bytes.append(UInt8(ascii: "\""))
        return bytes
    }

    mutating func object(_ members: [(String, [UInt8])]) -> [UInt8] {
        var bytes: [UInt8] = [UInt8(ascii: "{")]
        bytes += space()
        for (index, member) in members.enumerated() {
            if index > 0 {
                bytes.append(UInt8(ascii: ","))
                bytes += space()
            }
            bytes += name(member.0)
            bytes += space()
            bytes.append(UInt8(ascii: ":"))
            bytes += space()
            bytes += member.1
            bytes += space()
        }
        bytes.append(UInt8(ascii: "}"))
        return bytes
    }

    mutating func array(_ elements: [[UInt8]]) -> [UInt8] {
        var bytes: [UInt8] = [UInt8(ascii: "[")]
        bytes += space()
        for (index, element) in elements.enumerated() {
            if index > 0 {
                bytes.append(UInt8(ascii: ","))
                bytes += space()
            }
            bytes += element
            bytes += space()
        }
        bytes.append(UInt8(ascii: "]"))
        return bytes
    }
}

/// A run of string text with every kind of escape and raw characters of two, three and four bytes.
private enum EscapedText {
    static let unit: (encoded: [UInt8], value: String) = {
        let pieces: [(text: String, value: String)] = [
            ("abc ", "abc "), (#"\n"#, "\n"), (#"\""#, "\""), (#"\\"#, "\\"), (#"\/"#, "/"),
            (#"\b\f\r"#, "\u{8}\u{C}\r"),
            (#"\u00e9"#, "\u{E9}"), (#"\uD83D\uDE00"#, "\u{1F600}"), ("\u{E9}", "\u{E9}"), ("\u{4E2D}", "\u{4E2D}"),
            ("\u{1F600}", "\u{1F600}"), (#"\t"#, "\t"), (#"\u001F"#, "\u{1F}"), ("\u{7F}", "\u{7F}"), ("x", "x"),
        ]
        var encoded: [UInt8] = []
        var value = ""
        for piece in pieces {
            encoded += Array(piece.text.utf8)
            value += piece.value
        }
        return (encoded, value)
    }()
}

// MARK: - A long input with one error

/// Where the error in a long multi-line input is.
private enum MultiLineError: CaseIterable, CustomStringConvertible {
    /// A misspelt literal in an item.
    case inAnItem
    /// A stray letter in a member of an item that the keeping paths skip.
    case inASkippedMember
    /// A missing comma in a member after the items.
    case afterTheItems
    /// A bracket of the wrong kind in a second value.
    case inASecondValue

    var description: String {
        switch self {
        case .inAnItem: "in an item"
        case .inASkippedMember: "in a skipped member of an item"
        case .afterTheItems: "after the items"
        case .inASecondValue: "in a second value"
        }
    }
}

/// `{"data": {"items": [` then one item a line (LF and CR LF endings, multi-byte characters), then `]}, "after":
/// […]}` and a second value; with one error, whose byte offset is returned.
private func multiLineInput(
    lines: Int, errorOnLine target: Int, placement: MultiLineError
) -> (bytes: [UInt8], offset: Int, path: JSONPath, keep: [JSONPath]?, itemsBefore: Int) {
    var bytes = Array("{\"data\": {\"items\": [\n".utf8)
    var offset = -1
    for index in 0..<lines {
        let ending = index % 3 == 0 ? "\r\n" : "\n"
        let separator = index + 1 < lines ? "," : ""
        var prefix = "  {\"n\": \(index), \"s\": \"caf\u{E9} \u{1F600} \(index)\", \"skip\": {\"deep\": [\(index), "
        var bad = "\"x\""
        var suffix = "]}}" + separator + ending
        if index == target, placement == .inAnItem {
            prefix = "  {\"n\": \(index), \"s\": \"caf\u{E9} \u{4E2D}\", \"flag\": "
            bad = "tru"
            suffix = "}" + separator + ending
        } else if index == target, placement == .inASkippedMember {
            bad = "x"
        }
        if index == target, placement == .inAnItem || placement == .inASkippedMember {
            offset = bytes.count + prefix.utf8.count
        }
        bytes += Array((prefix + bad + suffix).utf8)
    }
    bytes += Array("]},\n\"after\": [1, 2,\n   3".utf8)
    bytes += Array((placement == .afterTheItems ? " " : ", ").utf8)
    if placement == .afterTheItems { offset = bytes.count }
    bytes += Array("4]\n}\n{\"data\": {\"items\": [\n  1,\n  2\n ".utf8)
    if placement == .inASecondValue { offset = bytes.count }
    bytes += Array((placement == .inASecondValue ? "}}" : "]}}").utf8)
    bytes += Array("\n".utf8)
    let keep: [JSONPath]? = placement == .inASkippedMember ? [JSONPath([.member("s")])] : nil
    let itemsBefore: Int
    switch placement {
    case .inAnItem, .inASkippedMember: itemsBefore = target
    case .afterTheItems: itemsBefore = lines
    case .inASecondValue: itemsBefore = lines + 2
    }
    return (bytes, offset, JSONPath([.member("data"), .member("items")]), keep, itemsBefore)
}
