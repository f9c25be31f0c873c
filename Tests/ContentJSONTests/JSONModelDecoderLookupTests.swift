import ContentJSON
import Foundation
import Testing

// Member lookups and arrays of models, against Foundation's `JSONDecoder`.
//
// The model decoder starts a lookup after the member it found last when an object's names cannot repeat, and
// decodes arrays of models itself rather than through `Array.init(from:)`. Objects here have many members, names
// that repeat exactly or only as equal Strings, and names enough to share the tape's hash bits; models ask for
// members in any order, more than once, or for names that are missing. Whatever the order, both decoders must
// read the same values: the first of two equal names wins.

struct JSONModelDecoderLookupTests {
    private static let lookupSeed: UInt64 = 0x4C4F_4F4B_0000_0001

    @Test(arguments: 0..<4)
    func lookupsInAnyOrderFindWhatFoundationFinds(batch: Int) throws {
        let count = 150
        var failures = 0
        var tally = (duplicates: 0, many: 0, found: 0, missing: 0)
        for index in 0..<count where failures < 5 {
            let seed = documentSeed(Self.lookupSeed, batch * count + index)
            var random = SplitMix64(seed: seed)
            let document = LookupDocument(random: &random)
            if document.hasDuplicates { tally.duplicates += 1 }
            if document.names.count > 16 { tally.many += 1 }
            let order = (0..<random.inRange(1...40)).map { _ in
                if random.percent(10) { return "absent\(random.below(3))" }
                if random.percent(60), !document.names.isEmpty { return random.pick(document.names) }
                return random.pick(LookupDocument.pool)
            }
            let info: [CodingUserInfoKey: any Sendable] = [
                try #require(Lookups.order): order, try #require(Lookups.nesting): document.nesting,
            ]
            let (ours, theirs) = lookups(document.bytes, info)
            if case .success(let values) = theirs {
                tally.found += values.filter { $0 != nil }.count
                tally.missing += values.filter { $0 == nil }.count
            }
            if ours != theirs {
                failures += 1
                let input = describe(document.bytes)
                Issue.record("seed \(hex(seed)), order \(order): \(ours) here, \(theirs) by Foundation; \(input)")
            }
        }
        // Each kind of case must be common, or the test checks little.
        #expect(failures > 0 || (tally.duplicates * 5 > count && tally.many * 5 > count), "\(tally)")
        #expect(failures > 0 || (tally.found > count * 5 && tally.missing > count), "\(tally)")
    }

    @Test func aRepeatedNameIsFoundFirstWhereverTheLastLookupEnded() throws {
        // The lookup of "a" (the fourth, asked once) would start after "b", at the later "a", if the tape took the
        // names for distinct.
        let texts = [
            #"{"a": 1, "b": 2, "a": 3}"#, #"{"a": 1, "b": 2, "\u0061": 3}"#, #"{"a": 1, "b": 2, "c": 3, "a": 4}"#,
            "{\"\u{E9}\": 1, \"b\": 2, \"e\u{301}\": 3}",
        ]
        for text in texts {
            let bytes = Array(text.utf8)
            let info: [CodingUserInfoKey: any Sendable] = [
                try #require(Lookups.order): ["b", "b", "b", "a", "\u{E9}", "b"]
            ]
            let (ours, theirs) = lookups(bytes, info)
            #expect(ours == theirs, "\(text): \(ours) here, \(theirs) by Foundation")
        }
    }

    /// The values `Lookups` reads from `bytes` with each decoder, or the error it ends with.
    private func lookups(
        _ bytes: [UInt8], _ info: [CodingUserInfoKey: any Sendable]
    ) -> (ours: Result<[Int?], LookupFailure>, theirs: Result<[Int?], LookupFailure>) {
        let decoder = JSONDecoder()
        decoder.userInfo = info
        let theirs = Result { try decoder.decode(Lookups.self, from: Data(bytes)).values }
        let ours = Result { try JSONModelDecoder(userInfo: info).decode(Lookups.self, from: bytes).values }
        return (
            ours.mapError { LookupFailure(summary: summary($0)) },
            theirs.mapError { LookupFailure(summary: summary($0)) }
        )
    }

    @Test func arraysOfModelsDecodeAndFailAsFoundationDoes() {
        let texts = [
            #"[{"x": 1, "y": 2}, {"y": 4, "x": 3}]"#, #"[]"#, #"[[{"x": 1, "y": 2}], [], [{"x": 5, "y": 6}]]"#,
            #"[{"x": 1, "y": 2}, {"x": "3", "y": 4}]"#, #"[{"x": 1, "y": 2}, null]"#, #"[{"x": 1}]"#,
            #"{"x": 1, "y": 2}"#, #"null"#, #"[[{"x": 1, "y": 2}], [{"x": 1, "y": true}]]"#, #"[[null]]"#,
            #"{"points": [{"x": 1, "y": 2}, {"x": 2.0, "y": false}]}"#, #"{"points": [[1, 2]]}"#,
            #"{"points": [{"x": 1, "y": 2}], "grid": [[{"x": 0, "y": 0}], [{"x": 9}]]}"#,
        ]
        for text in texts {
            let bytes = Array(text.utf8)
            expectAgreement([Point].self, bytes)
            expectAgreement([[Point]].self, bytes)
            expectAgreement([Point?].self, bytes)
            expectAgreement(Plane.self, bytes)
        }
    }

    /// Both decoders decode `bytes` to equal values, or both throw the same kind of error at the same path.
    private func expectAgreement<T: Decodable & Equatable>(
        _ type: T.Type, _ bytes: [UInt8], sourceLocation: SourceLocation = #_sourceLocation
    ) {
        let ours = Result { try JSONModelDecoder().decode(T.self, from: bytes) }
        let theirs = Result { try JSONDecoder().decode(T.self, from: Data(bytes)) }
        switch (ours, theirs) {
        case (.success(let mine), .success(let foundation)):
            #expect(mine == foundation, "\(T.self) from \(describe(bytes))", sourceLocation: sourceLocation)
        case (.failure(let mine), .failure(let foundation)):
            #expect(
                summary(mine) == summary(foundation),
                "\(T.self) from \(describe(bytes)): \(mine) here, \(foundation) by Foundation",
                sourceLocation: sourceLocation)
        default:
            Issue.record("\(T.self) from \(describe(bytes)): \(ours) here, \(theirs) by Foundation")
        }
    }
}

/// An error as its kind and coding path.
private struct LookupFailure: Error, Equatable {
    var summary: String
}

/// A point: two members, asked for in order.
private struct Point: Decodable, Equatable {
    var x: Int
    var y: Int
}

/// Arrays of points as members of an object.
private struct Plane: Decodable, Equatable {
    var points: [Point]
    var grid: [[Point]]?
}

/// The kind of a `DecodingError` and its coding path, indexes as `[N]`.
private func summary(_ error: any Error) -> String {
    guard let error = error as? DecodingError else { return "\(type(of: error))" }
    func path(_ context: DecodingError.Context) -> String {
        context.codingPath.map { key in key.intValue.map { "[\($0)]" } ?? key.stringValue }.joined(separator: ".")
    }
    switch error {
    case .keyNotFound(let key, let context): return "keyNotFound \(key.stringValue) at \(path(context))"
    case .typeMismatch(_, let context): return "typeMismatch at \(path(context))"
    case .valueNotFound(_, let context): return "valueNotFound at \(path(context))"
    case .dataCorrupted(let context): return "dataCorrupted at \(path(context))"
    @unknown default: return "\(error)"
    }
}

/// A key of any name.
private struct NameKey: CodingKey {
    var stringValue: String
    var intValue: Int? { nil }

    init(stringValue: String) {
        self.stringValue = stringValue
    }

    init?(intValue: Int) { nil }
}

/// The values of the members `userInfo[order]` names, looked up in that order (`nil` for a missing one), in the
/// document's top object and, `userInfo[nesting]` levels down, in the object under `inner` between lookups.
private struct Lookups: Decodable, Equatable {
    static let order = CodingUserInfoKey(rawValue: "order")
    static let nesting = CodingUserInfoKey(rawValue: "nesting")

    var values: [Int?] = []

    init(from decoder: any Decoder) throws {
        let order = Self.order.flatMap { decoder.userInfo[$0] as? [String] } ?? []
        let nesting = Self.nesting.flatMap { decoder.userInfo[$0] as? Int } ?? 0
        let container = try decoder.container(keyedBy: NameKey.self)
        for (position, name) in order.enumerated() {
            let key = NameKey(stringValue: name)
            // Each way of asking looks the member up once or twice, so the next lookup starts elsewhere.
            switch position % 3 {
            case 0: values.append(try container.decodeIfPresent(Int.self, forKey: key))
            case 1: values.append(container.contains(key) ? try container.decode(Int.self, forKey: key) : nil)
            default:
                let isNull = try? container.decodeNil(forKey: key)
                values.append(isNull == false ? try container.decode(Int.self, forKey: key) : nil)
            }
            // Lookups in another object in between, as a model decoding a nested one has them.
            if nesting > 0, position % 3 == 1, container.contains(NameKey(stringValue: "inner")) {
                values += try container.decode(Lookups.self, forKey: NameKey(stringValue: "inner")).values
            }
        }
    }
}

/// An object of integer members with names from a small pool, some repeated, some written with escapes, and
/// now and then an `inner` object of the same kind.
private struct LookupDocument {
    /// Names that are equal as Strings in pairs (`é` precomposed and decomposed), names of one length that
    /// differ only after their sixth byte, and many plain ones.
    static let pool =
        [
            "a", "b", "id", "title", "rating", "releaseYear", "\u{E9}", "e\u{301}", "K", "\u{212A}", "primaryImage",
            "primaryColor", "_dynamicUrl", "_dynamicUri", "abcdefg", "abcdefh",
        ] + (0..<60).map { "name\($0)" }

    var bytes: [UInt8] = []
    var names: [String] = []
    var hasDuplicates = false
    var nesting = 0

    init(random: inout SplitMix64, depth: Int = 0) {
        let count = random.percent(30) ? random.inRange(17...80) : random.inRange(0...16)
        var used: Set<String> = []
        var text = "{"
        for position in 0..<count {
            let name: String
            if random.percent(15), let earlier = names.randomElement(using: &random) {
                name = earlier
            } else {
                name = random.pick(Self.pool)
            }
            if !used.insert(name).inserted { hasDuplicates = true }
            names.append(name)
            if position > 0 { text += random.percent(50) ? "," : ", " }
            let written =
                random.percent(10) ? name.unicodeScalars.map { String(format: "\\u%04x", $0.value) }.joined() : name
            text += "\"\(written)\": \(random.below(1000))"
        }
        if depth < 2, random.percent(40) {
            let inner = LookupDocument(random: &random, depth: depth + 1)
            text += (count > 0 ? ", " : "") + "\"inner\": " + String(decoding: inner.bytes, as: UTF8.self)
            nesting = inner.nesting + 1
        }
        bytes = Array((text + "}").utf8)
    }
}

extension SplitMix64: RandomNumberGenerator {}
