/// Parses JSON text (RFC 8259) from contiguous bytes into a ``JSONValue``.
///
/// One pass over the bytes, no Foundation objects, no backtracking; strings without escapes are
/// copied straight into `String` storage after UTF-8 validation.
///
/// ```swift
/// let document = try JSONParser().parse(Array(#"{"a":[1,2.50]}"#.utf8))
/// ```
public struct JSONParser: Sendable {
    /// How deeply arrays and objects may nest before the input is rejected.
    public var maxDepth: Int

    /// Creates a parser.
    ///
    /// - Parameter maxDepth: How deeply arrays and objects may nest.
    public init(maxDepth: Int = 512) {
        self.maxDepth = maxDepth
    }

    /// Parses one JSON value that fills the whole input (whitespace around it allowed).
    ///
    /// - Parameter bytes: UTF-8 JSON text.
    /// - Returns: The value.
    /// - Throws: ``JSONParseError`` at the first byte that breaks the grammar.
    public func parse(_ bytes: some ContiguousBytes) throws(JSONParseError) -> JSONValue {
        let result: Result<JSONValue, JSONParseError> = bytes.withUnsafeBytes { raw in
            var reader = JSONReader(bytes: raw, maxDepth: maxDepth)
            do throws(JSONParseError) {
                return .success(try reader.parseDocument())
            } catch {
                return .failure(error)
            }
        }
        return try result.get()
    }

    /// Parses a stream of JSON values one after another, such as NDJSON (as jq reads its input).
    ///
    /// - Parameter bytes: UTF-8 text holding zero or more JSON values.
    /// - Returns: The values, in order.
    /// - Throws: ``JSONParseError`` at the first byte that breaks the grammar.
    public func parseSequence(_ bytes: some ContiguousBytes) throws(JSONParseError) -> [JSONValue] {
        let result: Result<[JSONValue], JSONParseError> = bytes.withUnsafeBytes { raw in
            var reader = JSONReader(bytes: raw, maxDepth: maxDepth)
            var values: [JSONValue] = []
            do throws(JSONParseError) {
                reader.skipWhitespace()
                while reader.index < raw.count {
                    values.append(try reader.parseValue(depth: 0))
                    reader.skipWhitespace()
                }
                return .success(values)
            } catch {
                return .failure(error)
            }
        }
        return try result.get()
    }

    /// Parses a UTF-8 string.
    ///
    /// - Parameter text: JSON text.
    /// - Returns: The value.
    /// - Throws: ``JSONParseError``.
    public func parse(_ text: String) throws(JSONParseError) -> JSONValue {
        try parse(Array(text.utf8))
    }
}

/// Bytes that can be read in place; `[UInt8]`, `ArraySlice<UInt8>` and `ContiguousArray<UInt8>` conform.
public protocol ContiguousBytes {
    /// Calls `body` with the bytes.
    ///
    /// - Parameter body: A closure reading the bytes.
    /// - Returns: What `body` returns.
    /// - Throws: What `body` throws.
    func withUnsafeBytes<R>(_ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R
}

extension Array: ContiguousBytes where Element == UInt8 {}
extension ArraySlice: ContiguousBytes where Element == UInt8 {}
extension ContiguousArray: ContiguousBytes where Element == UInt8 {}

/// The cursor over the input; kept apart from `JSONParser` so the public type stays a plain value.
struct JSONReader {
    let bytes: UnsafeRawBufferPointer
    let maxDepth: Int
    var index = 0
    /// The bytes are known to be valid UTF-8 (a ``JSONSkipper`` checked them), so strings need no second check.
    var trustsUTF8 = false
    /// The members of the objects being read, innermost last, and likewise the elements of the arrays: each
    /// container's go into an array of their exact count when it closes, not one that grows as they are read.
    private var openMembers: [JSONMember] = []
    private var openElements: [JSONValue] = []

    init(bytes: UnsafeRawBufferPointer, maxDepth: Int) {
        self.bytes = bytes
        self.maxDepth = maxDepth
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

    func error(_ message: String, at offset: Int? = nil) -> JSONParseError {
        let offset = offset ?? index
        var line = 1
        var lineStart = 0
        for position in 0..<min(offset, bytes.count) where bytes[position] == 0x0A {
            line += 1
            lineStart = position + 1
        }
        return JSONParseError(offset: offset, line: line, column: offset - lineStart + 1, message: message)
    }

    private func describeCurrent() -> String { JSONBytes.describe(bytes, at: index) }

    /// The one value that fills the bytes, whitespace around it allowed.
    mutating func parseDocument() throws(JSONParseError) -> JSONValue {
        skipWhitespace()
        let value = try parseValue(depth: 0)
        skipWhitespace()
        if index < bytes.count { throw error("expected the end of the input after a complete JSON value") }
        return value
    }

    mutating func parseValue(depth: Int) throws(JSONParseError) -> JSONValue {
        guard index < bytes.count else { throw error("expected a JSON value, found the end of the input") }
        switch bytes[index] {
        case UInt8(ascii: "{"): return try parseObject(depth: depth + 1)
        case UInt8(ascii: "["): return try parseArray(depth: depth + 1)
        case UInt8(ascii: "\""): return .string(try parseString())
        case UInt8(ascii: "t"):
            try expectLiteral("true")
            return .bool(true)
        case UInt8(ascii: "f"):
            try expectLiteral("false")
            return .bool(false)
        case UInt8(ascii: "n"):
            try expectLiteral("null")
            return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .number(try parseNumber())
        default: throw error("expected a JSON value, found \(describeCurrent())")
        }
    }

    private mutating func expectLiteral(_ literal: StaticString) throws(JSONParseError) {
        let start = index
        let count = literal.utf8CodeUnitCount
        guard bytes.count - index >= count,
            memcmpEqual(bytes.baseAddress.map { $0 + index }, literal.utf8Start, count)
        else {
            throw error("expected '\(literal)'", at: start)
        }
        index += count
    }

    private mutating func parseObject(depth: Int) throws(JSONParseError) -> JSONValue {
        guard depth <= maxDepth else { throw error("objects and arrays nest deeper than \(maxDepth)") }
        index += 1
        skipWhitespace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "}") {
            index += 1
            return .object(JSONObject())
        }
        let base = openMembers.count
        defer { openMembers.removeSubrange(base...) }
        while true {
            guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else {
                throw error("expected a member name in double quotes, found \(describeCurrent())")
            }
            let key = try parseString()
            skipWhitespace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else {
                throw error("expected ':' after the member name \"\(key)\", found \(describeCurrent())")
            }
            index += 1
            skipWhitespace()
            let value = try parseValue(depth: depth)
            openMembers.append(JSONMember(key, value))
            skipWhitespace()
            guard index < bytes.count else {
                throw error("expected ',' or '}' in an object, found the end of the input")
            }
            switch bytes[index] {
            case UInt8(ascii: ","):
                index += 1
                skipWhitespace()
            case UInt8(ascii: "}"):
                index += 1
                return .object(JSONObject(Array(openMembers[base...])))
            default:
                throw error("expected ',' or '}' after an object member, found \(describeCurrent())")
            }
        }
    }

    private mutating func parseArray(depth: Int) throws(JSONParseError) -> JSONValue {
        guard depth <= maxDepth else { throw error("objects and arrays nest deeper than \(maxDepth)") }
        index += 1
        skipWhitespace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "]") {
            index += 1
            return .array([])
        }
        let base = openElements.count
        defer { openElements.removeSubrange(base...) }
        while true {
            openElements.append(try parseValue(depth: depth))
            skipWhitespace()
            guard index < bytes.count else {
                throw error("expected ',' or ']' in an array, found the end of the input")
            }
            switch bytes[index] {
            case UInt8(ascii: ","):
                index += 1
                skipWhitespace()
            case UInt8(ascii: "]"):
                index += 1
                return .array(Array(openElements[base...]))
            default:
                throw error("expected ',' or ']' after an array element, found \(describeCurrent())")
            }
        }
    }

    /// Reads a number per RFC 8259 and keeps its text.
    private mutating func parseNumber() throws(JSONParseError) -> JSONNumber {
        let start = index
        if bytes[index] == UInt8(ascii: "-") { index += 1 }
        guard index < bytes.count, isDigit(bytes[index]) else { throw error("expected a digit in a number") }
        if bytes[index] == UInt8(ascii: "0") {
            index += 1
            if index < bytes.count, isDigit(bytes[index]) {
                throw error("numbers must not have leading zeros")
            }
        } else {
            while index < bytes.count, isDigit(bytes[index]) { index += 1 }
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            index += 1
            guard index < bytes.count, isDigit(bytes[index]) else {
                throw error("expected a digit after the decimal point")
            }
            while index < bytes.count, isDigit(bytes[index]) { index += 1 }
        }
        if index < bytes.count, bytes[index] | 0x20 == UInt8(ascii: "e") {
            index += 1
            if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") {
                index += 1
            }
            guard index < bytes.count, isDigit(bytes[index]) else { throw error("expected a digit in the exponent") }
            while index < bytes.count, isDigit(bytes[index]) { index += 1 }
        }
        return JSONNumber(text: String(decoding: UnsafeRawBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self))
    }

    @inline(__always)
    private func isDigit(_ byte: UInt8) -> Bool { byte &- UInt8(ascii: "0") < 10 }

    /// Reads a string; the cursor is on the opening quote.
    mutating func parseString() throws(JSONParseError) -> String {
        let open = index
        index += 1
        let start = index
        // Fast path: no escapes, so the bytes are the string.
        while index < bytes.count {
            if let base = bytes.baseAddress {
                index = JSONBytes.firstSpecialStringByte(base, from: index, to: bytes.count, flaggingNonASCII: false)
                guard index < bytes.count else { break }
            }
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") {
                let slice = UnsafeRawBufferPointer(rebasing: bytes[start..<index])
                guard
                    let string = trustsUTF8 ? String(decoding: slice, as: UTF8.self) : JSONBytes.validatedString(slice)
                else {
                    throw error("a string holds bytes that are not valid UTF-8", at: start + invalidUTF8Offset(slice))
                }
                index += 1
                return string
            }
            if byte == UInt8(ascii: "\\") { break }
            if byte < 0x20 {
                throw error("control character 0x\(String(byte, radix: 16)) must be escaped inside a string")
            }
            index += 1
        }
        guard index < bytes.count else { throw error("unterminated string that starts here", at: open) }
        return try parseEscapedString(from: start, open: open)
    }

    private mutating func parseEscapedString(from start: Int, open: Int) throws(JSONParseError) -> String {
        var utf8: [UInt8] = []
        // Rich text has an escape every few dozen bytes: the plain runs between them go over whole.
        var runStart = start
        while index < bytes.count {
            if let base = bytes.baseAddress {
                index = JSONBytes.firstSpecialStringByte(base, from: index, to: bytes.count, flaggingNonASCII: false)
                guard index < bytes.count else { break }
            }
            let byte = bytes[index]
            if byte < 0x20 {
                throw error("control character 0x\(String(byte, radix: 16)) must be escaped inside a string")
            }
            utf8.append(contentsOf: UnsafeRawBufferPointer(rebasing: bytes[runStart..<index]))
            if byte == UInt8(ascii: "\"") {
                let decoded = utf8.withUnsafeBytes { JSONBytes.validatedString($0) }
                guard let string = decoded else {
                    // Escapes are ASCII, so the first bad byte of the source is the one to point at.
                    let raw = UnsafeRawBufferPointer(rebasing: bytes[start..<index])
                    let offset = invalidUTF8Offset(raw)
                    throw error(
                        "a string holds bytes that are not valid UTF-8", at: offset < raw.count ? start + offset : open)
                }
                index += 1
                return string
            }
            // A backslash.
            index += 1
            guard index < bytes.count else { break }
            let escape = bytes[index]
            index += 1
            switch escape {
            case UInt8(ascii: "\""): utf8.append(0x22)
            case UInt8(ascii: "\\"): utf8.append(0x5C)
            case UInt8(ascii: "/"): utf8.append(0x2F)
            case UInt8(ascii: "b"): utf8.append(0x08)
            case UInt8(ascii: "f"): utf8.append(0x0C)
            case UInt8(ascii: "n"): utf8.append(0x0A)
            case UInt8(ascii: "r"): utf8.append(0x0D)
            case UInt8(ascii: "t"): utf8.append(0x09)
            case UInt8(ascii: "u"):
                let scalar = try parseUnicodeEscape()
                utf8.append(contentsOf: String(Character(scalar)).utf8)
            default:
                throw error("invalid escape '\\\(Character(Unicode.Scalar(escape)))' in a string", at: index - 2)
            }
            runStart = index
        }
        throw error("unterminated string that starts here", at: open)
    }

    /// Reads the four hex digits after `\u`, joining a surrogate pair when one follows.
    private mutating func parseUnicodeEscape() throws(JSONParseError) -> Unicode.Scalar {
        let escapeStart = index - 2
        let high = try hex4()
        if (0xD800..<0xDC00).contains(high) {
            guard bytes.count - index >= 6, bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u")
            else {
                throw error(
                    "a high surrogate \\u\(String(high, radix: 16)) must be followed by a low one", at: escapeStart)
            }
            index += 2
            let low = try hex4()
            guard (0xDC00..<0xE000).contains(low) else {
                throw error("expected a low surrogate after \\u\(String(high, radix: 16))", at: index - 6)
            }
            let value = 0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00)
            guard let scalar = Unicode.Scalar(value) else { throw error("invalid surrogate pair", at: escapeStart) }
            return scalar
        }
        guard let scalar = Unicode.Scalar(high) else {
            throw error("a lone low surrogate \\u\(String(high, radix: 16)) is not a character", at: escapeStart)
        }
        return scalar
    }

    private mutating func hex4() throws(JSONParseError) -> UInt32 {
        switch JSONBytes.hexQuad(bytes, at: index) {
        case .success(let value):
            index += 4
            return value
        case .failure(let failure):
            throw error("expected four hex digits after \\u", at: failure.offset)
        }
    }

    private func invalidUTF8Offset(_ slice: UnsafeRawBufferPointer) -> Int {
        var offset = 0
        var decoder = UTF8()
        var iterator = slice.makeIterator()
        while true {
            switch decoder.decode(&iterator) {
            case .scalarValue(let scalar): offset += UTF8.width(scalar)
            case .emptyInput, .error: return offset
            }
        }
    }
}

@inline(__always)
private func memcmpEqual(_ a: UnsafeRawPointer?, _ b: UnsafePointer<UInt8>, _ count: Int) -> Bool {
    guard let a else { return false }
    for offset in 0..<count where a.load(fromByteOffset: offset, as: UInt8.self) != b[offset] {
        return false
    }
    return true
}
