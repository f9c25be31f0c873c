#if arch(x86_64) && canImport(_Builtin_intrinsics.intel)
    import _Builtin_intrinsics.intel
#endif

/// What ``JSONSkipper/skipString()`` saw inside a string.
struct JSONStringTraits {
    /// The string holds escapes, so its bytes are not its text.
    var escaped = false
    /// The string holds bytes above 0x7F.
    var nonASCII = false
}

/// Why the skipper stopped: it needs bytes that have not been read yet, or the input is malformed.
enum JSONSkipFailure: Error {
    /// The value runs past the bytes at hand; read more and try again from the same place.
    case needMore
    /// The input breaks the grammar at this offset (relative to the skipper's bytes).
    case malformed(offset: Int, message: String)
}

/// Steps over JSON values without building them, checking them as strictly as ``JSONParser``.
///
/// It is the fast half of streaming: values nobody asked for are validated and passed over eight bytes
/// at a time. It works on a window of a larger input: reaching the end of the window before the end
/// of a value is ``JSONSkipFailure/needMore`` unless `isFinal` says no more bytes will come, so a
/// caller reads more and retries from the same offset.
struct JSONSkipper {
    let bytes: UnsafeRawBufferPointer
    let isFinal: Bool
    let maxDepth: Int
    var index: Int

    init(bytes: UnsafeRawBufferPointer, index: Int, isFinal: Bool, maxDepth: Int = 512) {
        self.bytes = bytes
        self.index = index
        self.isFinal = isFinal
        self.maxDepth = maxDepth
    }

    /// The failure for running out of bytes at the cursor.
    @inline(__always)
    func endOfWindow(_ message: String) -> JSONSkipFailure {
        isFinal ? .malformed(offset: index, message: message) : .needMore
    }

    @inline(__always)
    func malformed(_ message: String, at offset: Int? = nil) -> JSONSkipFailure {
        .malformed(offset: offset ?? index, message: message)
    }

    @inline(__always)
    mutating func skipWhitespace() {
        while index < bytes.count {
            switch bytes[index] {
            case 0x20, 0x0A, 0x0D, 0x09: index += 1
            default: return
            }
        }
    }

    /// Whitespace, then the next byte, or the window's end failure.
    @inline(__always)
    mutating func peekAfterWhitespace(_ expectation: StaticString) throws(JSONSkipFailure) -> UInt8 {
        // Most tokens follow at once or after one space (`": "`, `", "`): answer those without a loop or a call.
        if index < bytes.count {
            let byte = bytes[index]
            if byte > 0x20 { return byte }
            if byte == 0x20, index &+ 1 < bytes.count, bytes[index &+ 1] > 0x20 {
                index &+= 1
                return bytes[index]
            }
        }
        return try peekAfterLongerWhitespace(expectation)
    }

    @inline(never)
    private mutating func peekAfterLongerWhitespace(_ expectation: StaticString) throws(JSONSkipFailure) -> UInt8 {
        skipWhitespace()
        guard index < bytes.count else { throw endOfWindow("\(expectation), found the end of the input") }
        return bytes[index]
    }

    /// The byte at the cursor, for messages.
    func describeCurrent() -> String { JSONBytes.describe(bytes, at: index) }

    /// Steps into the object or array at the cursor, checking how deeply it nests.
    ///
    /// - Parameters:
    ///   - closer: `}` or `]`, whichever closes it.
    ///   - depth: Its depth, counting itself.
    /// - Returns: Whether it is empty: the cursor is then past it, else on its first member or element.
    /// - Throws: ``JSONSkipFailure`` when it nests too deeply or its first token is missing.
    @inline(__always)
    mutating func enterContainer(closedBy closer: UInt8, depth: Int) throws(JSONSkipFailure) -> Bool {
        guard depth <= maxDepth else { throw malformed("objects and arrays nest deeper than \(maxDepth)") }
        index += 1
        let expectation: StaticString =
            closer == UInt8(ascii: "}") ? "expected a member name in double quotes" : "expected a JSON value"
        guard try peekAfterWhitespace(expectation) == closer else { return false }
        index += 1
        return true
    }

    /// Steps over the `:` after a member name whose opening quote is at `keyStart`, and the whitespace after it.
    @inline(__always)
    mutating func skipColon(afterKeyAt keyStart: Int) throws(JSONSkipFailure) {
        guard try peekAfterWhitespace("expected ':' after the member name") == UInt8(ascii: ":") else {
            throw malformed("expected ':' after the member name \(keyText(from: keyStart)), found \(describeCurrent())")
        }
        index += 1
        skipWhitespace()
    }

    /// Steps over what ends an object member: a `,` and the whitespace before the next name, or the `}`.
    ///
    /// - Returns: Whether another member follows.
    /// - Throws: ``JSONSkipFailure`` when neither follows.
    @inline(__always)
    mutating func skipAfterMember() throws(JSONSkipFailure) -> Bool {
        switch try peekAfterWhitespace("expected ',' or '}' in an object") {
        case UInt8(ascii: ","):
            index += 1
            _ = try peekAfterWhitespace("expected a member name in double quotes")
            return true
        case UInt8(ascii: "}"):
            index += 1
            return false
        default:
            throw malformed("expected ',' or '}' after an object member, found \(describeCurrent())")
        }
    }

    /// Steps over what ends an array element: a `,` and the whitespace after it, or the `]`.
    ///
    /// - Returns: Whether another element follows.
    /// - Throws: ``JSONSkipFailure`` when neither follows.
    @inline(__always)
    mutating func skipAfterElement() throws(JSONSkipFailure) -> Bool {
        switch try peekAfterWhitespace("expected ',' or ']' in an array") {
        case UInt8(ascii: ","):
            index += 1
            skipWhitespace()
            return true
        case UInt8(ascii: "]"):
            index += 1
            return false
        default:
            throw malformed("expected ',' or ']' after an array element, found \(describeCurrent())")
        }
    }

    /// Steps over one value; the cursor is on its first byte and ends just after it.
    ///
    /// - Parameter depth: How deeply the value's container nests already.
    /// - Throws: ``JSONSkipFailure``.
    mutating func skipValue(depth: Int) throws(JSONSkipFailure) {
        guard index < bytes.count else { throw endOfWindow("expected a JSON value, found the end of the input") }
        switch bytes[index] {
        case UInt8(ascii: "\""): try skipString()
        case UInt8(ascii: "{"): try skipObject(depth: depth + 1)
        case UInt8(ascii: "["): try skipArray(depth: depth + 1)
        case UInt8(ascii: "t"): try skipLiteral("true")
        case UInt8(ascii: "f"): try skipLiteral("false")
        case UInt8(ascii: "n"): try skipLiteral("null")
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): try skipNumber()
        default: throw malformed("expected a JSON value, found \(describeCurrent())")
        }
    }

    private mutating func skipObject(depth: Int) throws(JSONSkipFailure) {
        if try enterContainer(closedBy: UInt8(ascii: "}"), depth: depth) { return }
        while true {
            guard bytes[index] == UInt8(ascii: "\"") else {
                throw malformed("expected a member name in double quotes, found \(describeCurrent())")
            }
            let keyStart = index
            try skipString()
            try skipColon(afterKeyAt: keyStart)
            try skipValue(depth: depth)
            guard try skipAfterMember() else { return }
        }
    }

    /// The member name starting at `start`, quoted, for messages.
    func keyText(from start: Int) -> String {
        (try? memberName(from: start)).map { "\"\($0)\"" } ?? "before it"
    }

    private mutating func skipArray(depth: Int) throws(JSONSkipFailure) {
        if try enterContainer(closedBy: UInt8(ascii: "]"), depth: depth) { return }
        while true {
            try skipValue(depth: depth)
            guard try skipAfterElement() else { return }
        }
    }

    private mutating func skipLiteral(_ literal: StaticString) throws(JSONSkipFailure) {
        let count = literal.utf8CodeUnitCount
        let available = min(count, bytes.count - index)
        for offset in 0..<available where bytes[index + offset] != literal.utf8Start[offset] {
            throw malformed("expected '\(literal)'")
        }
        guard available == count else { throw endOfWindow("expected '\(literal)'") }
        index += count
    }

    /// A number per RFC 8259.
    ///
    /// A number that reaches the window's end may continue, so that needs more.
    private mutating func skipNumber() throws(JSONSkipFailure) {
        if bytes[index] == UInt8(ascii: "-") { index += 1 }
        guard index < bytes.count else { throw endOfWindow("expected a digit in a number") }
        guard isDigit(bytes[index]) else { throw malformed("expected a digit in a number") }
        if bytes[index] == UInt8(ascii: "0") {
            index += 1
            if index < bytes.count, isDigit(bytes[index]) { throw malformed("numbers must not have leading zeros") }
        } else {
            while index < bytes.count, isDigit(bytes[index]) { index += 1 }
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            index += 1
            guard index < bytes.count else { throw endOfWindow("expected a digit after the decimal point") }
            guard isDigit(bytes[index]) else { throw malformed("expected a digit after the decimal point") }
            while index < bytes.count, isDigit(bytes[index]) { index += 1 }
        }
        if index < bytes.count, bytes[index] | 0x20 == UInt8(ascii: "e") {
            index += 1
            if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") {
                index += 1
            }
            guard index < bytes.count else { throw endOfWindow("expected a digit in the exponent") }
            guard isDigit(bytes[index]) else { throw malformed("expected a digit in the exponent") }
            while index < bytes.count, isDigit(bytes[index]) { index += 1 }
        }
        if index == bytes.count, !isFinal { throw .needMore }
    }

    @inline(__always)
    private func isDigit(_ byte: UInt8) -> Bool { byte &- UInt8(ascii: "0") < 10 }

    /// Steps over a string, checking escapes, control characters and UTF-8; the cursor is on the quote.
    ///
    /// - Returns: Whether the string holds escapes or non-ASCII bytes, so callers need not look again.
    @discardableResult
    @inline(__always)
    mutating func skipString() throws(JSONSkipFailure) -> JSONStringTraits {
        let open = index
        // Most strings (member names above all) are plain and end within sixteen bytes: one test finds their
        // closing quote here, without a call; sixteen plain bytes are stepped over before the call.
        if index &+ 17 <= bytes.count, let base = bytes.baseAddress {
            let mask = JSONBytes.specialStringBytes(base, at: index &+ 1)
            if mask == 0 {
                index &+= 17
                return try skipRestOfString(openedAt: open)
            }
            if base.load(fromByteOffset: index &+ 1 &+ mask.trailingZeroBitCount, as: UInt8.self) == 0x22 {
                index &+= mask.trailingZeroBitCount &+ 2
                return JSONStringTraits()
            }
        }
        index += 1
        return try skipRestOfString(openedAt: open)
    }

    /// ``skipString()`` from the cursor, inside a string whose quote is at `open` and whose bytes up to the cursor
    /// are plain: the long strings and the escaped ones.
    @inline(never)
    private mutating func skipRestOfString(openedAt open: Int) throws(JSONSkipFailure) -> JSONStringTraits {
        var traits = JSONStringTraits()
        // Like the parser, report bad UTF-8 only once the string is otherwise complete: a control
        // character, a bad escape or the end of the input after it is the error to report.
        var invalidUTF8: Int?
        guard let base = bytes.baseAddress else { throw endOfWindow("unterminated string that starts here") }
        let end = bytes.count
        // Rich text has an escape or a non-ASCII byte every few dozen bytes. One mask per 64 bytes marks every
        // byte that needs a look, and each is stepped over in turn without reading the block again.
        while index &+ 64 <= end {
            let blockStart = index
            var mask = JSONBytes.specialStringBytes64(base, at: blockStart)
            var next = blockStart &+ 64
            while mask != 0 {
                index = blockStart &+ mask.trailingZeroBitCount
                if try stepOverSpecialByte(open: open, traits: &traits, invalidUTF8: &invalidUTF8) { return traits }
                let consumed = index &- blockStart
                if consumed >= 64 {
                    next = index
                    break
                }
                mask &= ~0 << UInt64(consumed)
            }
            index = next
        }
        while true {
            index = JSONBytes.firstSpecialStringByte(base, from: index, to: end, flaggingNonASCII: true)
            guard index < end else {
                throw isFinal ? malformed("unterminated string that starts here", at: open) : .needMore
            }
            if try stepOverSpecialByte(open: open, traits: &traits, invalidUTF8: &invalidUTF8) { return traits }
        }
    }

    /// Steps over the byte at the cursor, which ends a run of plain string text, and what it begins.
    ///
    /// - Returns: Whether it was the closing quote.
    @inline(__always)
    private mutating func stepOverSpecialByte(
        open: Int, traits: inout JSONStringTraits, invalidUTF8: inout Int?
    ) throws(JSONSkipFailure) -> Bool {
        let byte = bytes[index]
        switch byte {
        case UInt8(ascii: "\""):
            if let invalidUTF8 { throw malformed("a string holds bytes that are not valid UTF-8", at: invalidUTF8) }
            index += 1
            return true
        case UInt8(ascii: "\\"):
            traits.escaped = true
            // The one-letter escapes (`\n`, `\"`, …) are most of them in rich text: step over them here.
            if index &+ 1 < bytes.count, Self.isSimpleEscape(bytes[index &+ 1]) {
                index &+= 2
            } else {
                try skipEscape(open: open)
            }
        case 0x80...:
            traits.nonASCII = true
            if try !skipUTF8Sequence() {
                if invalidUTF8 == nil { invalidUTF8 = index }
                index += 1
            }
        default:
            throw malformed("control character 0x\(String(byte, radix: 16)) must be escaped inside a string")
        }
        return false
    }

    /// Whether `\` followed by this byte is a complete escape: `"`, `\`, `/`, `b`, `f`, `n`, `r`, `t`.
    @inline(__always)
    static func isSimpleEscape(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"), UInt8(ascii: "b"), UInt8(ascii: "f"),
            UInt8(ascii: "n"), UInt8(ascii: "r"), UInt8(ascii: "t"):
            return true
        default:
            return false
        }
    }

    private mutating func skipEscape(open: Int) throws(JSONSkipFailure) {
        let start = index
        guard index + 1 < bytes.count else {
            throw isFinal ? malformed("unterminated string that starts here", at: open) : .needMore
        }
        let escape = bytes[index + 1]
        if Self.isSimpleEscape(escape) {
            index += 2
            return
        }
        switch escape {
        case UInt8(ascii: "u"):
            index += 2
            let high = try hex4()
            if (0xD800..<0xDC00).contains(high) {
                guard bytes.count - index >= 6 else {
                    if !isFinal { throw .needMore }
                    throw malformed(
                        "a high surrogate \\u\(String(high, radix: 16)) must be followed by a low one", at: start)
                }
                guard bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u") else {
                    throw malformed(
                        "a high surrogate \\u\(String(high, radix: 16)) must be followed by a low one", at: start)
                }
                index += 2
                let low = try hex4()
                guard (0xDC00..<0xE000).contains(low) else {
                    throw malformed("expected a low surrogate after \\u\(String(high, radix: 16))", at: index - 6)
                }
            } else if (0xDC00..<0xE000).contains(high) {
                throw malformed("a lone low surrogate \\u\(String(high, radix: 16)) is not a character", at: start)
            }
        default:
            throw malformed("invalid escape '\\\(Character(Unicode.Scalar(escape)))' in a string", at: start)
        }
    }

    private mutating func hex4() throws(JSONSkipFailure) -> UInt32 {
        switch JSONBytes.hexQuad(bytes, at: index) {
        case .success(let value):
            index += 4
            return value
        case .failure(let failure):
            // Too few bytes in the window may only mean the rest has not been read yet.
            if failure.offset == index, bytes.count - index < 4 {
                throw endOfWindow("expected four hex digits after \\u")
            }
            throw malformed("expected four hex digits after \\u", at: failure.offset)
        }
    }

    /// One multi-byte UTF-8 scalar (RFC 3629: no overlong forms, no surrogates, nothing past U+10FFFF).
    ///
    /// - Returns: Whether the bytes at the cursor are one; the cursor moves past it only then.
    private mutating func skipUTF8Sequence() throws(JSONSkipFailure) -> Bool {
        let lead = bytes[index]
        let length: Int
        var lower: UInt8 = 0x80
        var upper: UInt8 = 0xBF
        switch lead {
        case 0xC2...0xDF: length = 2
        case 0xE0:
            length = 3
            lower = 0xA0
        case 0xE1...0xEC, 0xEE...0xEF: length = 3
        case 0xED:
            length = 3
            upper = 0x9F
        case 0xF0:
            length = 4
            lower = 0x90
        case 0xF1...0xF3: length = 4
        case 0xF4:
            length = 4
            upper = 0x8F
        default: return false
        }
        for offset in 1..<length {
            guard index + offset < bytes.count else {
                if !isFinal { throw .needMore }
                return false
            }
            let byte = bytes[index + offset]
            let (low, high) = offset == 1 ? (lower, upper) : (UInt8(0x80), UInt8(0xBF))
            guard byte >= low, byte <= high else { return false }
        }
        index += length
        return true
    }
}

/// Word-at-a-time byte searches shared by the parser and the skipper.
enum JSONBytes {
    private static let ones: UInt64 = 0x0101_0101_0101_0101
    private static let highBits: UInt64 = 0x8080_8080_8080_8080

    /// The first eight bytes of the text from `start` to `end` (all of a shorter one, the rest zero), first
    /// byte lowest.
    @inline(__always)
    static func firstBytes(_ bytes: UnsafeRawBufferPointer, from start: Int, to end: Int) -> UInt64 {
        let length = end - start
        guard start + 8 <= bytes.count else {
            var word: UInt64 = 0
            for offset in 0..<min(length, 8) { word |= UInt64(bytes[start + offset]) << (UInt64(offset) * 8) }
            return word
        }
        let word = UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: start, as: UInt64.self))
        return length < 8 ? word & ((1 << (UInt64(length) * 8)) - 1) : word
    }

    /// One of 64 bits for a member name of `length` bytes whose first eight are `word` (``firstBytes(_:from:to:)``):
    /// OR'd together, the bits of the names a node looks for pass over most other keys in one test.
    @inline(__always)
    static func keyBit(length: Int, word: UInt64) -> UInt64 {
        // The top six bits of the product: each depends on every byte of the sum.
        1 &<< (((word &+ UInt64(truncatingIfNeeded: length)) &* 0x9E37_79B9_7F4A_7C15) &>> 58)
    }

    /// The lanes of `chunk` that end a run of plain string text: `"`, `\`, a control character, and (when
    /// asked) any byte of a multi-byte UTF-8 sequence.
    @inline(__always)
    static func specialLanes(_ chunk: SIMD16<UInt8>, flaggingNonASCII: Bool) -> SIMDMask<SIMD16<Int8>> {
        let quoteOrBackslash =
            (chunk .== SIMD16<UInt8>(repeating: 0x22)) .| (chunk .== SIMD16<UInt8>(repeating: 0x5C))
        guard flaggingNonASCII else { return quoteOrBackslash .| (chunk .< SIMD16<UInt8>(repeating: 0x20)) }
        // One signed compare finds both controls and bytes above 0x7F: adding 0x60 maps 0x20...0x7F onto
        // -128...-33 and every other byte above that.
        let shifted = unsafeBitCast(chunk &+ SIMD16<UInt8>(repeating: 0x60), to: SIMD16<Int8>.self)
        return quoteOrBackslash .| (shifted .> SIMD16<Int8>(repeating: -33))
    }

    /// Bit `i` set when lane `i` of `mask` is: what SSE2's `pmovmskb` does in one instruction.
    @inline(__always)
    static func bits(of mask: SIMDMask<SIMD16<Int8>>) -> UInt64 {
        #if arch(x86_64) && canImport(_Builtin_intrinsics.intel)
            UInt64(UInt16(truncatingIfNeeded: _mm_movemask_epi8(unsafeBitCast(mask, to: __m128i.self))))
        #else
            portableBits(of: mask)
        #endif
    }

    /// ``bits(of:)`` in plain arithmetic, for targets without a byte-mask instruction: each lane's top bit
    /// is moved to the bottom of its byte, and one multiply gathers the eight bytes of a word into its top byte.
    @inline(__always)
    static func portableBits(of mask: SIMDMask<SIMD16<Int8>>) -> UInt64 {
        let lanes = unsafeBitCast(mask, to: SIMD2<UInt64>.self)
        let low = (((UInt64(littleEndian: lanes[0]) & highBits) >> 7) &* 0x0102_0408_1020_4080) >> 56
        let high = (((UInt64(littleEndian: lanes[1]) & highBits) >> 7) &* 0x0102_0408_1020_4080) >> 56
        return low | high << 8
    }

    /// One bit per byte of the sixteen at `offset` (flagging non-ASCII): set where ``specialLanes(_:flaggingNonASCII:)`` is.
    @inline(__always)
    static func specialStringBytes(_ base: UnsafeRawPointer, at offset: Int) -> UInt64 {
        bits(
            of: specialLanes(base.loadUnaligned(fromByteOffset: offset, as: SIMD16<UInt8>.self), flaggingNonASCII: true)
        )
    }

    /// ``specialStringBytes(_:at:)`` for the 64 bytes at `offset`.
    @inline(__always)
    static func specialStringBytes64(_ base: UnsafeRawPointer, at offset: Int) -> UInt64 {
        specialStringBytes(base, at: offset) | specialStringBytes(base, at: offset &+ 16) << 16
            | specialStringBytes(base, at: offset &+ 32) << 32 | specialStringBytes(base, at: offset &+ 48) << 48
    }

    /// The offset of the first byte in `start..<end` that ends a run of plain string text: `"`, `\`, a
    /// control character, and (when asked) any byte of a multi-byte UTF-8 sequence; `end` when none.
    ///
    /// Sixteen bytes are compared at once (SSE2 or NEON); the last few eight at a time in a word (SWAR),
    /// where a byte is flagged when it equals a quote or a backslash or is below 0x20. Borrows only ever
    /// flag bytes above a genuine match, so the lowest flag is exact.
    @inline(__always)
    static func firstSpecialStringByte(
        _ base: UnsafeRawPointer, from start: Int, to end: Int, flaggingNonASCII: Bool
    ) -> Int {
        var index = start
        @inline(__always) func special(_ offset: Int) -> SIMDMask<SIMD16<Int8>> {
            specialLanes(
                base.loadUnaligned(fromByteOffset: offset, as: SIMD16<UInt8>.self), flaggingNonASCII: flaggingNonASCII)
        }
        // Most strings are short, so the first sixteen bytes get a test of their own; long runs of plain text
        // then go 64 bytes at a time, with one test, and the loop below finds the byte.
        if index &+ 16 <= end {
            let mask = bits(of: special(index))
            if mask != 0 { return index &+ mask.trailingZeroBitCount }
            index &+= 16
        }
        while index &+ 64 <= end {
            let any = special(index) .| special(index &+ 16) .| special(index &+ 32) .| special(index &+ 48)
            if bits(of: any) != 0 { break }
            index &+= 64
        }
        while index &+ 16 <= end {
            let mask = bits(of: special(index))
            if mask != 0 { return index &+ mask.trailingZeroBitCount }
            index &+= 16
        }
        let nonASCIIMask: UInt64 = flaggingNonASCII ? highBits : 0
        while index &+ 8 <= end {
            let word = UInt64(littleEndian: base.loadUnaligned(fromByteOffset: index, as: UInt64.self))
            let quote = word ^ (ones &* 0x22)
            let backslash = word ^ (ones &* 0x5C)
            let flags =
                ((quote &- ones) & ~quote) | ((backslash &- ones) & ~backslash) | ((word &- ones &* 0x20) & ~word)
                | (word & nonASCIIMask)
            let hits = flags & highBits
            if hits != 0 { return index &+ hits.trailingZeroBitCount >> 3 }
            index &+= 8
        }
        while index < end {
            let byte = base.load(fromByteOffset: index, as: UInt8.self)
            if byte == 0x22 || byte == 0x5C || byte < 0x20 || (flaggingNonASCII && byte >= 0x80) { return index }
            index &+= 1
        }
        return end
    }

    /// The UTF-8 text of `bytes`, or `nil` when it is not valid UTF-8.
    ///
    /// ASCII, most of what JSON strings hold, is checked sixteen bytes at a time and taken as it is; only
    /// text with other bytes goes through the standard library's validation, whose generic entry point
    /// costs a metadata lookup per call.
    @inline(__always)
    static func validatedString(_ bytes: UnsafeRawBufferPointer) -> String? {
        guard isASCII(bytes) else { return String(validating: bytes, as: UTF8.self) }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Whether every byte is below 0x80.
    static func isASCII(_ bytes: UnsafeRawBufferPointer) -> Bool {
        guard let base = bytes.baseAddress else { return true }
        var index = 0
        var high = SIMD16<UInt8>(repeating: 0)
        while index &+ 16 <= bytes.count {
            high |= base.loadUnaligned(fromByteOffset: index, as: SIMD16<UInt8>.self)
            index &+= 16
        }
        let lanes = unsafeBitCast(high, to: SIMD2<UInt64>.self)
        var word = (lanes[0] | lanes[1]) & highBits
        while index < bytes.count {
            word |= UInt64(bytes[index] & 0x80)
            index &+= 1
        }
        return word == 0
    }

    /// The index of the first byte from `start` that a JSON string literal escapes on output, or `end`.
    ///
    /// Those are `"`, `\`, control characters and DEL; sixteen bytes are tested at once.
    static func firstByteToEscape(_ base: UnsafeRawPointer, from start: Int, to end: Int) -> Int {
        var index = start
        while index &+ 16 <= end {
            let chunk = base.loadUnaligned(fromByteOffset: index, as: SIMD16<UInt8>.self)
            let quoteOrBackslash =
                (chunk .== SIMD16<UInt8>(repeating: 0x22)) .| (chunk .== SIMD16<UInt8>(repeating: 0x5C))
            let controlOrDelete =
                (chunk .< SIMD16<UInt8>(repeating: 0x20)) .| (chunk .== SIMD16<UInt8>(repeating: 0x7F))
            let mask = bits(of: quoteOrBackslash .| controlOrDelete)
            if mask != 0 { return index &+ mask.trailingZeroBitCount }
            index &+= 16
        }
        while index < end {
            let byte = base.load(fromByteOffset: index, as: UInt8.self)
            if byte < 0x20 || byte == 0x22 || byte == 0x5C || byte == 0x7F { return index }
            index &+= 1
        }
        return end
    }

    /// The byte at `index` for an error message: the character when printable, else its hex value.
    static func describe(_ bytes: UnsafeRawBufferPointer, at index: Int) -> String {
        guard index < bytes.count else { return "the end of the input" }
        let byte = bytes[index]
        if byte >= 0x21 && byte < 0x7F { return "'\(Character(Unicode.Scalar(byte)))'" }
        return "byte 0x\(String(byte, radix: 16, uppercase: true))"
    }

    /// The four hex digits of a `\u` escape at `index`: their value, or the offset of the first bad digit.
    static func hexQuad(_ bytes: UnsafeRawBufferPointer, at index: Int) -> Result<UInt32, HexDigitError> {
        guard bytes.count - index >= 4 else { return .failure(HexDigitError(offset: index)) }
        var value: UInt32 = 0
        for offset in index..<(index + 4) {
            guard let digit = hexDigit(bytes[offset]) else { return .failure(HexDigitError(offset: offset)) }
            value = value << 4 | UInt32(digit)
        }
        return .success(value)
    }

    /// Where a `\u` escape stops being four hex digits.
    struct HexDigitError: Error {
        let offset: Int
    }

    /// The value of a hexadecimal digit, either case.
    @inline(__always)
    static func hexDigit(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return byte - UInt8(ascii: "A") + 10
        default: return nil
        }
    }

    /// How many line feeds `bytes` holds, and the offset just after the last one.
    static func lineFeeds(in bytes: UnsafeRawBufferPointer) -> (count: Int, lastLineStart: Int?) {
        var count = 0
        var last: Int?
        guard let base = bytes.baseAddress else { return (0, nil) }
        var index = 0
        let low7: UInt64 = 0x7F7F_7F7F_7F7F_7F7F
        while index + 8 <= bytes.count {
            // Exact per-byte zero test (no borrows): a byte is 0 when neither it nor its low 7 bits plus 0x7F carry into bit 7.
            let word = UInt64(littleEndian: base.loadUnaligned(fromByteOffset: index, as: UInt64.self)) ^ (ones &* 0x0A)
            let zeros = ~(((word & low7) &+ low7) | word) & highBits
            if zeros != 0 {
                count += zeros.nonzeroBitCount
                last = index + (63 - zeros.leadingZeroBitCount) / 8 + 1
            }
            index += 8
        }
        while index < bytes.count {
            if bytes[index] == 0x0A {
                count += 1
                last = index + 1
            }
            index += 1
        }
        return (count, last)
    }
}
