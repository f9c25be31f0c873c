import Foundation
import Testing

@testable import ContentJSON

// Tests of how strings are stepped over where nobody reads them: by the item reader when it skips or copies a
// member, and by the model decoder's tape. Past its first sixteen bytes a string is scanned in blocks of 64, one
// mask of the bytes that need a look per block, so these strings are long, start at every alignment, and put
// escapes, multi-byte characters and errors across the edges of blocks and of reads. The parser, which reads
// strings its own way, is the oracle: same text, or a failure at the same byte with the same message.

struct JSONStringScanTests {
    private static let seed: UInt64 = 0x5354_5249_4E47_0001

    @Test func theByteMaskInArithmeticIsTheLanesInOrder() {
        var random = SplitMix64(seed: Self.seed)
        for _ in 0..<2_000 {
            var mask = SIMDMask<SIMD16<Int8>>()
            var expected: UInt64 = 0
            for lane in 0..<16 where random.percent(40) {
                mask[lane] = true
                expected |= 1 << UInt64(lane)
            }
            #expect(JSONBytes.portableBits(of: mask) == expected, "lanes \(String(expected, radix: 2))")
            #expect(JSONBytes.bits(of: mask) == expected, "lanes \(String(expected, radix: 2))")
        }
    }

    @Test(arguments: 0..<4)
    func longStringsAreSkippedCopiedAndDecodedAsTheParserReadsThem(batch: Int) {
        let count = 150
        var failures = 0
        var rejected = 0
        for index in 0..<count where failures < 5 {
            let seed = documentSeed(Self.seed, batch * count + index)
            var random = SplitMix64(seed: seed)
            let text = Self.string(&random)
            // Padding moves the string's first byte through every offset in a block.
            let padding = [UInt8](repeating: 0x20, count: random.below(64))
            let bytes =
                Array("[".utf8) + padding + Array(#"{"n":1,"s":""#.utf8) + text.bytes
                + (text.unterminated ? [] : Array(#""},{"n":2,"pad":""#.utf8) + Self.padding + Array(#""}]"#.utf8))
            let setup = random.pick([
                ReadSetup.whole, ReadSetup.small, ReadSetup(id: 0, readSize: 7, bufferSize: 16, restartable: true),
            ])
            let problem = Self.disagreement(bytes, setup: setup)
            let context = "seed \(hex(seed)), \(text.label), \(setup); input \(describe(bytes))"
            #expect(problem == nil, "\(problem ?? ""); \(context)")
            if problem != nil { failures += 1 }
            if (try? JSONParser().parse(bytes)) == nil { rejected += 1 }
        }
        // Both kinds must be well represented, or the test checks less than it says.
        #expect(failures > 0 || (rejected > count / 8 && rejected < count / 2), "\(rejected) of \(count) rejected")
    }

    @Test func keyBitsSpreadNamesAlikeInFirstByteAndLength() {
        // A node's filter passes over a key in one test only if names that differ get different bits, most of
        // the time, even when they share their first byte and length (title, teams, trips, ...).
        var bits = Set<UInt64>()
        for second in UInt8(ascii: "a")...UInt8(ascii: "z") {
            for third in UInt8(ascii: "a")...UInt8(ascii: "z") {
                let name = [UInt8(ascii: "t"), second, third, UInt8(ascii: "l"), UInt8(ascii: "e")]
                let word = name.withUnsafeBytes { JSONBytes.firstBytes($0, from: 0, to: $0.count) }
                bits.insert(JSONBytes.keyBit(length: name.count, word: word))
            }
        }
        #expect(bits.count >= 60, "676 names alike in first byte and length set only \(bits.count) of 64 bits")
    }

    @Test func aStringEndingAtEveryOffsetOfABlockIsFound() {
        // Plain text then an escape, a character or the quote at each position of two blocks; the padding after
        // it keeps 64 bytes in view, so each is found by the block scan rather than the tail's.
        for length in 0..<140 {
            for tail in [#"\n"#, "é", "😀", ""] {
                let text = String(repeating: "a", count: length) + tail
                let bytes =
                    Array(#"[{"n":1,"s":""#.utf8) + Array(text.utf8) + Array(#"","pad":""#.utf8) + Self.padding
                    + Array(#""}]"#.utf8)
                let problem = Self.disagreement(bytes, setup: .whole)
                #expect(problem == nil, "\(problem ?? ""); \(length) bytes then \(tail.debugDescription)")
            }
        }
    }

    @Test func aBlockEndingInsideAnEscapeOrACharacterAsksForMore() {
        // 81 bytes: the quote, sixteen bytes for the first test, then one block whose last bytes start something
        // the window does not finish. Only a final window may call that malformed, and then as the parser does.
        let quote = Array("\"".utf8)
        let cases: [(label: String, bytes: [UInt8])] = [
            ("a character cut short", quote + Array(repeating: 0x61, count: 79) + [0xE2]),
            ("a backslash at the end", quote + Array(repeating: 0x61, count: 79) + Array(#"\"#.utf8)),
            ("a high surrogate at the end", quote + Array(repeating: 0x61, count: 74) + Array(#"\uD83D"#.utf8)),
            ("a \\u escape cut short", quote + Array(repeating: 0x61, count: 77) + Array(#"\u0"#.utf8)),
        ]
        for (label, bytes) in cases {
            #expect(bytes.count == 81, "\(label): \(bytes.count) bytes")
            let expected: JSONParseError?
            do throws(JSONParseError) {
                _ = try JSONParser().parse(bytes)
                expected = nil
            } catch {
                expected = error
            }
            let (open, final) = bytes.withUnsafeBytes { raw in
                (skipping(raw, isFinal: false), skipping(raw, isFinal: true))
            }
            switch open {
            case .failure(.needMore): break
            default: Issue.record("\(label): \(open), not a request for more")
            }
            switch (final, expected) {
            case (.failure(.malformed(let offset, let message)), .some(let expected)):
                #expect(
                    offset == expected.offset && message == expected.message,
                    "\(label): byte \(offset), \(message); the parser: \(expected)")
            default:
                Issue.record("\(label): a final window gave \(final); the parser \(String(describing: expected))")
            }
        }
    }

    /// What skipping the string at the start of `bytes` gives: where it ends, or the failure.
    private func skipping(_ bytes: UnsafeRawBufferPointer, isFinal: Bool) -> Result<Int, JSONSkipFailure> {
        var skipper = JSONSkipper(bytes: bytes, index: 0, isFinal: isFinal)
        do throws(JSONSkipFailure) {
            try skipper.skipString()
            return .success(skipper.index)
        } catch {
            return .failure(error)
        }
    }

    // MARK: Generated strings

    /// Plain text after the string under test, so the scan of its end has a whole block in view.
    private static let padding = [UInt8](repeating: 0x20, count: 128)

    /// A string's bytes as written between its quotes.
    private struct GeneratedString {
        var bytes: [UInt8] = []
        var label = "valid"
        var unterminated = false
    }

    private static let plainBytes = Array(" !#$%&'()*+,-./0123456789:;<=>?@AZaz[]^_`{|}~\u{7F}".utf8)
    private static let escapes = [
        #"\n"#, #"\""#, #"\\"#, #"\/"#, #"\b"#, #"\f"#, #"\r"#, #"\t"#, #"\u00e9"#, #"\uD83D\uDE00"#, #"\u0000"#,
    ]
    private static let characters = ["é", "€", "😀", "ü", "中"]
    private static let corruptions: [(label: String, bytes: [UInt8])] = [
        ("a raw control character", [0x01]), ("a raw line feed", [0x0A]), ("a raw 0x1F", [0x1F]),
        ("a lone continuation byte", [0x80]), ("an overlong two-byte form", [0xC0, 0xAF]),
        ("a three-byte sequence cut short", [0xE2, 0x82]), ("an encoded surrogate", [0xED, 0xA0, 0x80]),
        ("a lead byte past U+10FFFF", [0xF5, 0x80, 0x80, 0x80]), ("a byte 0xFF", [0xFF]),
        ("an unknown escape", Array(#"\x"#.utf8)), ("a bad hex digit", Array(#"\u12G4"#.utf8)),
        ("a lone low surrogate", Array(#"\uDC00"#.utf8)), ("a high surrogate alone", Array(#"\uD800x"#.utf8)),
    ]

    /// Up to about 400 bytes of rich-text-like string: runs of plain text broken by escapes and characters, and
    /// in about one string in five an error somewhere.
    private static func string(_ random: inout SplitMix64) -> GeneratedString {
        var generated = GeneratedString()
        let pieces = random.inRange(1...40)
        let corruptAt = random.percent(22) ? random.below(pieces) : -1
        for piece in 0..<pieces {
            if piece == corruptAt {
                let corruption = random.pick(corruptions)
                generated.bytes += corruption.bytes
                generated.label = corruption.label
            }
            switch random.below(10) {
            case 0..<5:
                for _ in 0..<random.below(random.percent(20) ? 90 : 20) {
                    generated.bytes.append(random.pick(plainBytes))
                }
            case 5..<8: generated.bytes += Array(random.pick(escapes).utf8)
            default: generated.bytes += Array(random.pick(characters).utf8)
            }
        }
        if random.percent(3) {
            generated.unterminated = true
            generated.label += ", unterminated"
        }
        return generated
    }

    // MARK: Checks

    private struct Item: Decodable, Equatable {
        var n: Int
        var s: String?
    }

    /// What differs between the parser's reading of `bytes` and the reader's (skipping `s`, and copying it) and the
    /// model decoder's, or `nil`.
    private static func disagreement(_ bytes: [UInt8], setup: ReadSetup) -> String? {
        let parsed: [JSONValue]
        do throws(JSONParseError) {
            parsed = try JSONParser().parse(bytes).arrayValue ?? []
        } catch {
            for keep in ["n", "s"] {
                switch read(bytes, keeping: keep, setup: setup) {
                case .failure(.malformed(let failure)) where failure == error: continue
                case let other: return "the parser fails with \(error); the reader keeping \(keep) gave \(other)"
                }
            }
            let failure = decodeFailure(bytes)
            return failure == error
                ? nil
                : "the parser fails with \(error); the model decoder with \(failure.map { "\($0)" } ?? "no parse error")"
        }
        let members = parsed.map { $0.objectValue ?? [:] }
        for keep in ["n", "s"] {
            let expected = members.map { JSONValue.object(JSONObject($0.members.filter { $0.key == keep })) }
            switch read(bytes, keeping: keep, setup: setup) {
            case .success(let items) where items == expected: continue
            case let other: return "keeping \(keep) the reader gave \(other), not \(expected)"
            }
        }
        let expected = members.map { object -> Item in
            guard case .number(let number) = object["n"] else { return Item(n: -1, s: nil) }
            return Item(n: Int(number.int64Value ?? -1), s: object["s"]?.stringValue)
        }
        do {
            let decoded = try JSONModelDecoder().decode([Item].self, from: bytes)
            guard decoded == expected else { return "the model decoder read \(decoded), not \(expected)" }
        } catch {
            return "the model decoder failed: \(error)"
        }
        return nil
    }

    /// The items read keeping member `keep`: item by item as values, and as text the parser then reads, which must
    /// agree.
    private static func read(
        _ bytes: [UInt8], keeping keep: String, setup: ReadSetup
    ) -> Result<[JSONValue], JSONItemReaderError> {
        func reader() -> JSONItemReader {
            JSONItemReader(
                input: JSONMemoryInput(bytes, chunkSize: setup.readSize), itemsPath: nil,
                keeping: [JSONPath([.member(keep)])], bufferSize: setup.bufferSize)
        }
        var values: [JSONValue] = []
        var copies: [JSONValue] = []
        do throws(JSONItemReaderError) {
            var byValue = reader()
            _ = try byValue.start()
            while let item = try byValue.next() { values.append(item) }
            var byText = reader()
            _ = try byText.start()
            var text: [UInt8] = []
            while try byText.nextEncoded(into: &text) {
                guard let copy = try? JSONParser().parse(text) else {
                    return .success([.string("copied text the parser rejects: \(describe(text))")])
                }
                copies.append(copy)
                text.removeAll(keepingCapacity: true)
            }
        } catch {
            return .failure(error)
        }
        return copies == values ? .success(values) : .success([.string("copied \(copies), read \(values)")])
    }

    /// The parse error under the model decoder's failure, or `nil` when it fails otherwise or not at all.
    private static func decodeFailure(_ bytes: [UInt8]) -> JSONParseError? {
        do {
            _ = try JSONModelDecoder().decode([Item].self, from: bytes)
            return nil
        } catch DecodingError.dataCorrupted(let context) {
            return context.underlyingError as? JSONParseError
        } catch {
            return nil
        }
    }
}
