import ContentJSON
import Testing

// What a projection finds in text must be what `JSONValue.value(at:)` finds in the parsed value, for every path,
// and text the parser rejects must be rejected at the same byte. Documents come from the seeded generators the
// parser's property tests use, so a failure message names the seed that rebuilds the case.

struct JSONTextProjectionTests {
    private static let generatedSeed: UInt64 = 0x5052_4F4A_0000_0001
    private static let duplicatesSeed: UInt64 = 0x5052_4F4A_0000_0002
    private static let corruptionSeed: UInt64 = 0x5052_4F4A_0000_0003

    @Test(arguments: 0..<4)
    func generatedDocumentsGiveWhatPathLookupGives(batch: Int) {
        var failures = 0
        for index in 0..<300 where failures < 5 {
            let seed = documentSeed(Self.generatedSeed, batch * 300 + index)
            var generator = DocumentGenerator(seed: seed, shape: index % 3 == 0 ? .nested : .small)
            let value = generator.document()
            var random = SplitMix64(seed: seed)
            let paths = randomPaths(through: value, &random)
            if let problem = mismatch(generator.text, paths) {
                failures += 1
                Issue.record("seed \(hex(seed)): \(problem); input \(describe(generator.text))")
            }
        }
    }

    @Test func duplicateEscapedAndEquivalentNamesGiveWhatPathLookupGives() {
        var failures = 0
        for index in 0..<1_500 where failures < 5 {
            let seed = documentSeed(Self.duplicatesSeed, index)
            var writer = ClashingNamesWriter(seed: seed)
            let text = writer.value(depth: 0)
            var paths: [JSONPath] = []
            for _ in 0..<writer.random.inRange(1...5) { paths.append(writer.path()) }
            if let problem = mismatch(text, paths) {
                failures += 1
                Issue.record("seed \(hex(seed)): \(problem); input \(describe(text))")
            }
        }
    }

    @Test(arguments: 0..<2)
    func corruptedTextIsRejectedWhereTheParserRejectsIt(batch: Int) {
        var rejected = 0
        var failures = 0
        let count = 400
        for index in 0..<count where failures < 5 {
            let seed = documentSeed(Self.corruptionSeed, batch * count + index)
            var generator = DocumentGenerator(seed: seed, shape: .small)
            let value = generator.document()
            var random = SplitMix64(seed: seed)
            let paths = randomPaths(through: value, &random)
            let corruption = generator.corrupted()
            if (try? JSONParser().parse(corruption.bytes)) == nil { rejected += 1 }
            if let problem = mismatch(corruption.bytes, paths) {
                failures += 1
                Issue.record("seed \(hex(seed)), \(corruption.label): \(problem); input \(describe(corruption.bytes))")
            }
        }
        // Most corruptions must break the text, or this checks little.
        #expect(rejected * 2 > count, "only \(rejected) of \(count) corruptions were rejected")
    }

    @Test func theLastOfDuplicateNamesWinsEvenWhenItLacksWhatTheFirstHad() throws {
        let text = #"{"a": {"b": 1, "c": "x"}, "z": 0, "a": {"c": "y"}}"#
        let found = try locate(text, ["a.b", "a.c", "a", "z"])
        #expect(found[0] == nil)
        #expect(found[1] == .string("y"))
        #expect(found[2] == .object(["c": .string("y")]))
        #expect(found[3] == .number(JSONNumber(0)))
    }

    @Test func arrayElementsArePickedByIndexOrByANumericName() throws {
        let text = #"{"tags": ["a", {"x": [true, null]}, 3]}"#
        let found = try locate(
            text, ["tags[0]", "tags.0", "tags.1.x[1]", "tags[1].x.0", "tags[3]", "tags.-1", "tags.x"])
        #expect(found[0] == .string("a"))
        #expect(found[1] == .string("a"))
        #expect(found[2] == .null)
        #expect(found[3] == .bool(true))
        #expect(found[4] == nil)
        #expect(found[5] == nil)
        #expect(found[6] == nil)
    }

    @Test func escapedAndCanonicallyEquivalentNamesMatchAsStringsDo() throws {
        // `\u0074itle` is `title`; U+212A KELVIN SIGN is canonically equivalent to `K`, as Swift compares strings.
        let text = #"{"\u0074itle": "t", "\u212A": 1, "caf\u00e9": 2}"#
        let found = try locate(text, ["title", "K", "caf\u{E9}", "cafe\u{301}"])
        #expect(found == [.string("t"), .number(JSONNumber(1)), .number(JSONNumber(2)), .number(JSONNumber(2))])
    }

    @Test func stringsWithoutEscapesAreTheBytesBetweenTheirQuotes() throws {
        let text = Array(#"{"plain": "a, \"b\"", "raw": "été 😀", "n": -0.0e+1}"#.utf8)
        var projection = try #require(
            JSONTextProjection(paths: try ["plain", "raw", "n"].map(JSONPath.init(parsing:))))
        try text.withUnsafeBytes { try projection.locate(in: $0) }
        let slices = projection.slices.compactMap { $0 }
        #expect(slices.map(\.kind) == [.string(escaped: true), .string(escaped: false), .number])
        #expect(slices.count == 3)
        if slices.count == 3 {
            #expect(Array(text[slices[1].range]) == Array(#""été 😀""#.utf8))
            #expect(Array(text[slices[2].range]) == Array("-0.0e+1".utf8))
        }
    }

    @Test func pathsThatMapOverArraysAreLeftToValues() throws {
        #expect(JSONTextProjection(paths: [try JSONPath(parsing: "tags[].x")]) == nil)
        #expect(JSONTextProjection(paths: [try JSONPath(parsing: "tags[0].x")]) != nil)
    }

    @Test func nestingPastTheLimitIsRejectedAsTheParserRejectsIt() throws {
        let text = Array((String(repeating: "[", count: 600) + String(repeating: "]", count: 600)).utf8)
        #expect(mismatch(text, [try JSONPath(parsing: "0.0.0")]) == nil)
        let wrapped = Array(#"{"a":"#.utf8) + text + Array("}".utf8)
        #expect(mismatch(wrapped, [try JSONPath(parsing: "a.0")]) == nil)
        #expect((try? JSONParser().parse(wrapped)) == nil)
    }

    /// The values the paths lead to in `text`, through a projection.
    private func locate(_ text: String, _ paths: [String]) throws -> [JSONValue?] {
        var projection = try #require(JSONTextProjection(paths: try paths.map(JSONPath.init(parsing:))))
        let bytes = Array(text.utf8)
        return try bytes.withUnsafeBytes { raw in
            try projection.locate(in: raw)
            return try projection.slices.map { slice in try slice.map { try JSONTextProjection.value(of: $0, in: raw) }
            }
        }
    }
}

/// How a projection's reading of `text` differs from the parser's, or `nil` when it does not.
private func mismatch(_ text: [UInt8], _ paths: [JSONPath]) -> String? {
    guard var projection = JSONTextProjection(paths: paths) else { return "no projection for \(paths)" }
    let parsed: Result<JSONValue, JSONParseError>
    do throws(JSONParseError) {
        parsed = .success(try JSONParser().parse(text))
    } catch {
        parsed = .failure(error)
    }
    return text.withUnsafeBytes { raw -> String? in
        do throws(JSONParseError) {
            try projection.locate(in: raw)
        } catch {
            guard case .failure(let expected) = parsed else { return "rejected what the parser reads: \(error)" }
            guard error.offset == expected.offset else {
                return
                    "rejected at \(error.offset) (\(error.message)), the parser at \(expected.offset) (\(expected.message))"
            }
            return nil
        }
        guard case .success(let value) = parsed else { return "accepted what the parser rejects" }
        for (path, slice) in zip(paths, projection.slices) {
            let expected = value.value(at: path)
            guard let slice else {
                if let expected { return "\(path): found nothing, lookup found \(expected)" }
                continue
            }
            guard let found = try? JSONTextProjection.value(of: slice, in: raw) else {
                return "\(path): the slice \(slice.range) is not a value"
            }
            guard found == expected else {
                return "\(path): found \(found), lookup found \(expected.map { "\($0)" } ?? "nothing")"
            }
            if let problem = kindMismatch(slice, found, raw) { return "\(path): \(problem)" }
        }
        return nil
    }
}

/// Whether a slice's kind, and for plain strings and numbers its bytes, say what its value is.
private func kindMismatch(_ slice: JSONTextProjection.Slice, _ value: JSONValue, _ text: UnsafeRawBufferPointer)
    -> String?
{
    let bytes = Array(text[slice.range])
    switch (slice.kind, value) {
    case (.string(escaped: false), .string(let string)):
        return Array(bytes.dropFirst().dropLast()) == Array(string.utf8) ? nil : "plain string bytes differ"
    case (.string(escaped: true), .string): return nil
    case (.number, .number(let number)): return bytes == Array(number.text.utf8) ? nil : "number text differs"
    case (.bool(let flag), .bool(let other)): return flag == other ? nil : "wrong boolean"
    case (.null, .null), (.array, .array), (.object, .object): return nil
    default: return "kind \(slice.kind) for \(value)"
    }
}

/// A few paths through `value`: down members and elements it has (an element now and then by a numeric name),
/// sometimes a step it lacks, sometimes a path twice or a path and one of its prefixes.
private func randomPaths(through value: JSONValue, _ random: inout SplitMix64) -> [JSONPath] {
    var paths: [JSONPath] = []
    for _ in 0..<random.inRange(1...4) {
        var components: [JSONPath.Component] = []
        var current = value
        while random.percent(80) {
            if let object = current.objectValue, !object.members.isEmpty, random.percent(90) {
                let member = random.pick(object.members)
                components.append(.member(member.key))
                current = member.value
            } else if let elements = current.arrayValue, !elements.isEmpty, random.percent(90) {
                let position = random.below(elements.count)
                components.append(random.percent(70) ? .index(position) : .member(String(position)))
                current = elements[position]
            } else {
                components.append(random.pick([.member("missing"), .index(7), .member("0"), .index(0)]))
                break
            }
        }
        paths.append(JSONPath(components))
    }
    if random.percent(20), let path = paths.first {
        paths.append(path)
        if !path.components.isEmpty { paths.append(JSONPath(Array(path.components.dropLast()))) }
    }
    return paths
}

/// Objects whose names clash: repeated, escaped, canonically equivalent (`é` and `e` with U+0301, `K` and
/// U+212A KELVIN SIGN), and alike in their first eight bytes, with arrays among them.
private struct ClashingNamesWriter {
    static let names = [
        "a", "b", "K", "\u{212A}", "\u{E9}", "e\u{301}", "0", "1", "description_html", "description_text", "abcdefgh",
        "abcdefghi",
    ]

    var random: SplitMix64

    init(seed: UInt64) {
        random = SplitMix64(seed: seed)
    }

    mutating func value(depth: Int) -> [UInt8] {
        let choice = depth >= 3 ? 2 : random.below(5)
        switch choice {
        case 0, 1:
            var members: [[UInt8]] = []
            for _ in 0..<random.inRange(0...5) {
                members.append(name(random.pick(Self.names)) + Array(":".utf8) + value(depth: depth + 1))
            }
            return Array("{".utf8) + members.joined(separator: Array(", ".utf8)) + Array("}".utf8)
        case 2:
            return Array(random.pick([#""s""#, "1.5", "true", "null", #""a\"b""#, "-0"]).utf8)
        default:
            var elements: [[UInt8]] = []
            for _ in 0..<random.inRange(0...3) { elements.append(value(depth: depth + 1)) }
            return Array("[".utf8) + elements.joined(separator: Array(",".utf8)) + Array("]".utf8)
        }
    }

    /// A member name in quotes, sometimes written with `\u` escapes.
    mutating func name(_ text: String) -> [UInt8] {
        guard random.percent(30) else { return Array("\"\(text)\"".utf8) }
        let escaped = text.unicodeScalars.map { scalar in
            let digits = String(scalar.value, radix: 16)
            return "\\u" + String(repeating: "0", count: max(0, 4 - digits.count)) + digits
        }
        return Array("\"\(escaped.joined())\"".utf8)
    }

    mutating func path() -> JSONPath {
        var components: [JSONPath.Component] = []
        for _ in 0..<random.inRange(0...3) {
            components.append(random.percent(80) ? .member(random.pick(Self.names)) : .index(random.below(3)))
        }
        return JSONPath(components)
    }
}
