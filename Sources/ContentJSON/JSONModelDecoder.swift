#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Decodes `Decodable` models straight from JSON bytes, several times faster than Foundation's `JSONDecoder`.
///
/// One validating pass indexes the document (``JSONTape``); decoding then walks the index, stepping over
/// members no model property asks for without looking at their bytes again, and makes a `String` only
/// for the strings a model reads. It agrees with `JSONDecoder`'s defaults: the first of two members with
/// the same name wins, integers may be written `1.0` or `1e2` when exact, numbers that do not fit are
/// errors (never infinity or a silent zero), names compare as Strings, and failures are `DecodingError`s
/// with the coding path. Unlike `JSONDecoder`, malformed JSON is judged by RFC 8259 (a trailing comma or
/// a leading byte order mark is an error), and `Data` decodes through its own `Decodable` conformance
/// (an array of numbers), not from base64.
///
/// ```swift
/// let list = try JSONModelDecoder().decode(AdventureList.self, from: bytes)
/// ```
public struct JSONModelDecoder: Sendable {
    /// Values the models' `init(from:)` can read from `decoder.userInfo`.
    public var userInfo: [CodingUserInfoKey: any Sendable]
    /// How deeply arrays and objects may nest.
    public var maxDepth: Int

    /// Creates a decoder.
    ///
    /// - Parameters:
    ///   - userInfo: Values for the models' `init(from:)`.
    ///   - maxDepth: How deeply arrays and objects may nest.
    public init(userInfo: [CodingUserInfoKey: any Sendable] = [:], maxDepth: Int = 512) {
        self.userInfo = userInfo
        self.maxDepth = maxDepth
    }

    /// Decodes a value of `type` from one JSON document.
    ///
    /// - Parameters:
    ///   - type: The model type.
    ///   - bytes: UTF-8 JSON text.
    /// - Returns: The decoded value.
    /// - Throws: `DecodingError`: `.dataCorrupted` for malformed JSON (its underlying error is the
    ///   ``JSONParseError`` with line and column), else the mismatch and the coding path to it.
    public func decode<T: Decodable>(_ type: T.Type, from bytes: some ContiguousBytes) throws -> T {
        try bytes.withUnsafeBytes { raw in
            let tape: JSONTape
            do {
                tape = try JSONTape(bytes: raw, maxDepth: maxDepth)
            } catch {
                throw DecodingError.dataCorrupted(
                    DecodingError.Context(
                        codingPath: [], debugDescription: "The given data was not valid JSON: \(error)",
                        underlyingError: error))
            }
            let decoder = TapeDecoder(bytes: raw, entries: tape.entries, userInfo: userInfo)
            defer { decoder.isLive = false }
            return try decoder.decodeRoot(T.self)
        }
    }
}

/// A decoder that hands over a number as written.
///
/// For values no Swift number type holds exactly: `1e400`, a 50-digit integer. ``JSONModelDecoder``'s decoder and
/// single-value containers conform; cast to find out.
public protocol JSONNumberTextDecoding {
    /// The number being decoded, as written.
    ///
    /// - Returns: The number's text.
    /// - Throws: `DecodingError` when the value is not a number.
    func decodeJSONNumber() throws -> JSONNumber
}

extension UnsafeRawBufferPointer: ContiguousBytes {
    /// Calls `body` with the buffer itself.
    ///
    /// - Parameter body: A closure reading the bytes.
    /// - Returns: What `body` returns.
    /// - Throws: What `body` throws.
    public func withUnsafeBytes<R>(_ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
        try body(self)
    }
}

/// A coding key for an array position, or the `super` member.
struct IndexKey: CodingKey {
    let intValue: Int?
    var stringValue: String { intValue.map { "Index \($0)" } ?? "super" }

    init(_ index: Int) {
        intValue = index
    }

    /// The key `superDecoder()` reads.
    init(superKey: Void) {
        intValue = nil
    }

    init?(stringValue: String) { nil }

    init?(intValue: Int) {
        self.intValue = intValue
    }
}

/// The `Decoder` over a tape: one instance for a whole decode, moved from value to value.
final class TapeDecoder: Decoder, SingleValueDecodingContainer {
    let bytes: UnsafeRawBufferPointer
    let entries: [JSONTape.Entry]
    let userInfoValues: [CodingUserInfoKey: any Sendable]
    /// What changes as decoding moves from value to value.
    ///
    /// It lives behind a pointer because a class's stored `var`s are checked for exclusive access at run
    /// time on every read and write, which costs more than the decoding itself for small members; this
    /// state is only touched by one decode call.
    struct State {
        /// The entry of the value being decoded.
        var current = 0
        /// The keys down to the value being decoded, pushed and popped in place so decoding a member
        /// allocates no path; containers remember their depth and build a path only for an error.
        var keys: [any CodingKey] = []
        /// What the decoder knows to do with each model type it has met.
        var kinds = ModelTypeKinds()
    }

    private let state: UnsafeMutablePointer<State>

    /// Where the last member found in an object was, so the next lookup in it can start after it.
    struct MemberHint {
        var object = -1
        /// The entry of the member after it, and that member's position among the object's members.
        var next = 0
        var ordinal = 0
    }

    /// Hints for a few objects at once, by the low bits of their entry: a model decoding a nested one
    /// between two members of its own keeps its place.
    static let hintSlots = 4
    private let hints: UnsafeMutablePointer<MemberHint>

    var current: Int {
        get { state.pointee.current }
        set { state.pointee.current = newValue }
    }

    var keys: [any CodingKey] {
        get { state.pointee.keys }
        set { state.pointee.keys = newValue }
    }

    var codingPath: [any CodingKey] { keys }
    /// Cleared when the decode returns, for this decoder and any `superDecoder()` made from it: the
    /// bytes belong to the caller only until then.
    final class Liveness {
        // A pointer, not a stored `var`, for the same reason as ``State``: it is read on every access.
        let flag: UnsafeMutablePointer<Bool> = .allocate(capacity: 1)

        init() {
            flag.initialize(to: true)
        }

        deinit {
            flag.deallocate()
        }
    }

    let liveness: Liveness

    var isLive: Bool {
        get { liveness.flag.pointee }
        set { liveness.flag.pointee = newValue }
    }

    init(
        bytes: UnsafeRawBufferPointer, entries: [JSONTape.Entry], userInfo: [CodingUserInfoKey: any Sendable],
        liveness: Liveness = Liveness()
    ) {
        self.bytes = bytes
        self.entries = entries
        self.userInfoValues = userInfo
        self.liveness = liveness
        state = .allocate(capacity: 1)
        state.initialize(to: State())
        hints = .allocate(capacity: Self.hintSlots)
        hints.initialize(repeating: MemberHint(), count: Self.hintSlots)
    }

    deinit {
        state.deinitialize(count: 1)
        state.deallocate()
        hints.deallocate()
    }

    var userInfo: [CodingUserInfoKey: Any] { userInfoValues }

    /// The tape's last entry: a `null` of no document position, for `superDecoder(forKey:)` of a missing key.
    var nullEntry: Int { entries.count - 1 }

    // MARK: Containers

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        try checkLive()
        try expect(.object, [String: Any].self, at: current, path: keys)
        return KeyedDecodingContainer(TapeKeyedContainer<Key>(decoder: self, object: current, depth: keys.count))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        try checkLive()
        try expect(.array, [Any].self, at: current, path: keys)
        return TapeUnkeyedContainer(decoder: self, array: current, depth: keys.count)
    }

    /// The path of a container `depth` keys deep, with `key` after it.
    func path(depth: Int, _ key: (any CodingKey)? = nil) -> [any CodingKey] {
        var path = Array(keys.prefix(depth))
        if let key { path.append(key) }
        return path
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer {
        try checkLive()
        return self
    }

    // MARK: Single value

    func decodeNil() -> Bool { isLive && entries[current].kind == .null }
    func decode(_ type: Bool.Type) throws -> Bool { try bool(at: current, path: keys) }
    func decode(_ type: String.Type) throws -> String { try string(at: current, path: keys) }
    func decode(_ type: Double.Type) throws -> Double { try float(Double.self, at: current, path: keys) }
    func decode(_ type: Float.Type) throws -> Float { try float(Float.self, at: current, path: keys) }
    func decode(_ type: Int.Type) throws -> Int { try integer(Int.self, at: current, path: keys) }
    func decode(_ type: Int8.Type) throws -> Int8 { try integer(Int8.self, at: current, path: keys) }
    func decode(_ type: Int16.Type) throws -> Int16 { try integer(Int16.self, at: current, path: keys) }
    func decode(_ type: Int32.Type) throws -> Int32 { try integer(Int32.self, at: current, path: keys) }
    func decode(_ type: Int64.Type) throws -> Int64 { try integer(Int64.self, at: current, path: keys) }
    func decode(_ type: UInt.Type) throws -> UInt { try integer(UInt.self, at: current, path: keys) }
    func decode(_ type: UInt8.Type) throws -> UInt8 { try integer(UInt8.self, at: current, path: keys) }
    func decode(_ type: UInt16.Type) throws -> UInt16 { try integer(UInt16.self, at: current, path: keys) }
    func decode(_ type: UInt32.Type) throws -> UInt32 { try integer(UInt32.self, at: current, path: keys) }
    func decode(_ type: UInt64.Type) throws -> UInt64 { try integer(UInt64.self, at: current, path: keys) }
    func decode<T: Decodable>(_ type: T.Type) throws -> T { try T(from: self) }

    // MARK: Decoding one entry

    /// Decodes a nested model at `index` for a container whose path is the first `depth` keys and then
    /// `suffix`, with that path and `key` on the key stack meanwhile.
    func decode<T: Decodable>(
        _ type: T.Type, at index: Int, key: some CodingKey, depth: Int, suffix: [any CodingKey]?
    ) throws -> T {
        let kind = state.pointee.kinds.kind(of: T.self)
        if case .primitive(let primitive) = kind {
            return try self.primitive(
                primitive, T.self, at: index, path: self.path(depth: depth) + (suffix ?? []) + [key])
        }
        try checkLive()
        let saved = state.pointee.current
        state.pointee.current = index
        // A container of an outer value used again after a sibling's decode: its path is a prefix.
        if state.pointee.keys.count > depth { state.pointee.keys.removeLast(state.pointee.keys.count - depth) }
        if let suffix { state.pointee.keys.append(contentsOf: suffix) }
        state.pointee.keys.append(key)
        defer {
            state.pointee.current = saved
            state.pointee.keys.removeLast((suffix?.count ?? 0) + 1)
        }
        if case .array(let array) = kind { return try elements(array, as: T.self) }
        return try T(from: self)
    }

    /// Decodes the whole document, as ``decode(_:at:key:depth:suffix:)`` decodes a member.
    func decodeRoot<T: Decodable>(_ type: T.Type) throws -> T {
        switch state.pointee.kinds.kind(of: T.self) {
        case .primitive(let primitive): return try self.primitive(primitive, T.self, at: current, path: [])
        case .array(let array): return try elements(array, as: T.self)
        case .model: return try T(from: self)
        }
    }

    /// The array at the current entry, decoded as `T`, which `array` is.
    private func elements<T, Elements: TapeDecodableArray>(_ array: Elements.Type, as type: T.Type) throws -> T {
        unsafeBitCast(try Elements.decodeElements(from: self), to: T.self)
    }

    /// A `String`, number, `Bool` or array of one of them at `index`, read straight off the tape.
    ///
    /// Their `init(from:)` would end in the same reads, with the same errors, after making a container per
    /// value, and for arrays a boxed container, generic metadata and regrowth per array. `T` is the type
    /// `primitive` stands for, so each result is handed back as itself, with no cast and no `Optional<T>`.
    @inline(__always)
    private func primitive<T>(
        _ primitive: ModelTypeKinds.Primitive, _ type: T.Type, at index: Int, path: @autoclosure () -> [any CodingKey]
    ) throws -> T {
        switch primitive {
        case .string: return unsafeBitCast(try string(at: index, path: path()), to: T.self)
        case .int: return unsafeBitCast(try integer(Int.self, at: index, path: path()), to: T.self)
        case .double: return unsafeBitCast(try float(Double.self, at: index, path: path()), to: T.self)
        case .bool: return unsafeBitCast(try bool(at: index, path: path()), to: T.self)
        case .strings:
            return unsafeBitCast(try array(at: index, path: path()) { try $0.string(at: $1, path: $2()) }, to: T.self)
        case .integers:
            return unsafeBitCast(
                try array(at: index, path: path()) { try $0.integer(Int.self, at: $1, path: $2()) }, to: T.self)
        case .doubles:
            return unsafeBitCast(
                try array(at: index, path: path()) { try $0.float(Double.self, at: $1, path: $2()) }, to: T.self)
        }
    }

    /// The elements of the array at `index`, each read by `element` with its entry and its path.
    private func array<Element>(
        at index: Int, path: @autoclosure () -> [any CodingKey],
        _ element: (TapeDecoder, Int, () -> [any CodingKey]) throws -> Element
    ) throws -> [Element] {
        try checkLive()
        try expect(.array, [Any].self, at: index, path: path())
        let count = entries[index].elementCount
        var elements: [Element] = []
        elements.reserveCapacity(count)
        var position = index + 1
        // The path is only built for an error; the closure handing it on never outlives this call.
        try withoutActuallyEscaping(path) { path in
            for offset in 0..<count {
                elements.append(try element(self, position) { path() + [IndexKey(offset)] })
                position = next(after: position)
            }
        }
        return elements
    }

    func checkLive() throws {
        guard isLive else {
            throw DecodingError.dataCorrupted(
                DecodingError.Context(codingPath: [], debugDescription: "the decoder was used after decode returned"))
        }
    }

    func expect(
        _ kind: JSONTape.Entry.Kind, _ type: Any.Type, at index: Int, path: @autoclosure () -> [any CodingKey]
    ) throws {
        let found = entries[index].kind
        guard found != kind else { return }
        throw mismatch(type, found: found, path: path())
    }

    func mismatch(_ type: Any.Type, found: JSONTape.Entry.Kind, path: [any CodingKey]) -> DecodingError {
        let description = "Expected to decode \(type) but found \(Self.describe(found)) instead."
        if found == .null {
            return .valueNotFound(type, DecodingError.Context(codingPath: path, debugDescription: description))
        }
        return .typeMismatch(type, DecodingError.Context(codingPath: path, debugDescription: description))
    }

    static func describe(_ kind: JSONTape.Entry.Kind) -> String {
        switch kind {
        case .object: return "a dictionary"
        case .array: return "an array"
        case .string, .escapedString: return "a string"
        case .number: return "a number"
        case .true, .false: return "bool"
        case .null: return "null"
        }
    }

    /// The bytes of an entry: a string's text between its quotes, a number's digits.
    @inline(__always)
    func text(of entry: JSONTape.Entry) -> UnsafeRawBufferPointer {
        guard let base = bytes.baseAddress else { return UnsafeRawBufferPointer(start: nil, count: 0) }
        return UnsafeRawBufferPointer(start: base + Int(entry.start), count: Int(entry.end) - Int(entry.start))
    }

    func bool(at index: Int, path: @autoclosure () -> [any CodingKey]) throws -> Bool {
        try checkLive()
        switch entries[index].kind {
        case .true: return true
        case .false: return false
        case let kind: throw mismatch(Bool.self, found: kind, path: path())
        }
    }

    func string(at index: Int, path: @autoclosure () -> [any CodingKey]) throws -> String {
        try checkLive()
        let entry = entries[index]
        switch entry.kind {
        case .string:
            return String(decoding: text(of: entry), as: UTF8.self)
        case .escapedString:
            var reader = JSONReader(bytes: bytes, maxDepth: 1)
            reader.index = Int(entry.start) - 1
            do {
                return try reader.parseString()
            } catch {
                throw DecodingError.dataCorrupted(
                    DecodingError.Context(codingPath: path(), debugDescription: error.message, underlyingError: error))
            }
        case let kind:
            throw mismatch(String.self, found: kind, path: path())
        }
    }

    func integer<T: FixedWidthInteger>(
        _ type: T.Type, at index: Int, path: @autoclosure () -> [any CodingKey]
    ) throws -> T {
        try checkLive()
        let entry = entries[index]
        guard entry.kind == .number else { throw mismatch(T.self, found: entry.kind, path: path()) }
        let digits = text(of: entry)
        if let value = Self.exactInteger(T.self, digits) ?? Self.scaledInteger(T.self, digits) { return value }
        throw DecodingError.dataCorrupted(
            DecodingError.Context(
                codingPath: path(),
                debugDescription: "Number \(String(decoding: digits, as: UTF8.self)) does not fit in \(T.self)."))
    }

    /// `1.0`, `1e2`, `123456789012345678.00`: JSONDecoder takes a number with a fraction or an exponent
    /// when it is exactly a whole number that fits, computed in decimal (never through a rounded `Double`).
    static func scaledInteger<T: FixedWidthInteger>(_ type: T.Type, _ number: UnsafeRawBufferPointer) -> T? {
        var mantissa: [UInt8] = []
        var exponent = 0
        var negative = false
        var position = 0
        var inFraction = false
        while position < number.count {
            let byte = number[position]
            switch byte {
            case UInt8(ascii: "-") where position == 0: negative = true
            case UInt8(ascii: "."): inFraction = true
            case UInt8(ascii: "e"), UInt8(ascii: "E"):
                guard let written = Int(String(decoding: number[(position + 1)...], as: UTF8.self)) else {
                    return nil
                }
                exponent += written
                position = number.count
                continue
            default:
                mantissa.append(byte)
                if inFraction { exponent -= 1 }
            }
            position += 1
        }
        while let first = mantissa.first, first == UInt8(ascii: "0"), mantissa.count > 1 { mantissa.removeFirst() }
        if mantissa == [UInt8(ascii: "0")] { return 0 }
        // Below Decimal's range (1e-128) JSONDecoder reads zero.
        if mantissa.count + exponent < -127 { return 0 }
        while exponent < 0, mantissa.last == UInt8(ascii: "0") {
            mantissa.removeLast()
            exponent += 1
        }
        // Anything left after the point is a fraction; more than 40 digits overflows every integer type.
        guard exponent >= 0, mantissa.count + exponent <= 40 else { return nil }
        mantissa.append(contentsOf: repeatElement(UInt8(ascii: "0"), count: exponent))
        if negative { mantissa.insert(UInt8(ascii: "-"), at: 0) }
        return mantissa.withUnsafeBytes { exactInteger(T.self, $0) }
    }

    /// Digits with an optional minus sign, accumulated with overflow checks; `nil` for anything else.
    static func exactInteger<T: FixedWidthInteger>(_ type: T.Type, _ digits: UnsafeRawBufferPointer) -> T? {
        var position = 0
        let negative = digits.first == UInt8(ascii: "-")
        if negative { position = 1 }
        guard position < digits.count else { return nil }
        var value: T = 0
        while position < digits.count {
            let digit = digits[position] &- UInt8(ascii: "0")
            guard digit < 10 else { return nil }
            let (shifted, overflowShift) = value.multipliedReportingOverflow(by: 10)
            let (next, overflowAdd) =
                negative
                ? shifted.subtractingReportingOverflow(T(digit)) : shifted.addingReportingOverflow(T(digit))
            guard !overflowShift, !overflowAdd else { return nil }
            value = next
            position += 1
        }
        return value
    }

    func float<T: BinaryFloatingPoint & LosslessStringConvertible>(
        _ type: T.Type, at index: Int, path: @autoclosure () -> [any CodingKey]
    ) throws -> T {
        try checkLive()
        let entry = entries[index]
        guard entry.kind == .number else { throw mismatch(T.self, found: entry.kind, path: path()) }
        let digits = text(of: entry)
        if T.self == Double.self, let value = Self.shortDouble(digits) { return unsafeBitCast(value, to: T.self) }
        let text = String(decoding: digits, as: UTF8.self)
        // Out of range either way is an error, as in JSONDecoder: never infinity, never a silent zero.
        guard let value = T(text), value.isFinite, value != 0 || !Self.hasNonZeroMantissa(digits) else {
            throw DecodingError.dataCorrupted(
                DecodingError.Context(codingPath: path(), debugDescription: "Number \(text) does not fit in \(T.self).")
            )
        }
        return value
    }

    /// Powers of ten a `Double` holds exactly.
    private static let exactPowersOfTen: [Double] = (0...22).map { exponent in
        (0..<exponent).reduce(1.0) { power, _ in power * 10 }
    }

    /// The value of a number of at most 15 significant digits and a small exponent (`4.5`, `-12`, `1.25e3`).
    ///
    /// `nil` for any other. Such a number is a whole number below 2^53 times or divided by a power of ten
    /// up to 10^22, both exact in a `Double`, so the one rounded multiplication or division is the correctly
    /// rounded value, as the full conversion would give (Clinger's fast path).
    static func shortDouble(_ digits: UnsafeRawBufferPointer) -> Double? {
        var position = 0
        let negative = digits.first == UInt8(ascii: "-")
        if negative { position = 1 }
        var mantissa: UInt64 = 0
        var significant = 0
        var scale = 0
        var inFraction = false
        while position < digits.count {
            let byte = digits[position]
            if byte == UInt8(ascii: ".") {
                inFraction = true
            } else if byte | 0x20 == UInt8(ascii: "e") {
                break
            } else {
                let digit = byte &- UInt8(ascii: "0")
                guard digit < 10 else { return nil }
                if mantissa != 0 || digit != 0 { significant += 1 }
                guard significant <= 15 else { return nil }
                mantissa = mantissa &* 10 &+ UInt64(digit)
                if inFraction { scale -= 1 }
            }
            position += 1
        }
        if position < digits.count {
            // The exponent: at most three digits, so it cannot overflow.
            position += 1
            var exponentNegative = false
            if position < digits.count, digits[position] == UInt8(ascii: "-") || digits[position] == UInt8(ascii: "+") {
                exponentNegative = digits[position] == UInt8(ascii: "-")
                position += 1
            }
            let exponentDigits = digits.count - position
            guard exponentDigits > 0, exponentDigits <= 3 else { return nil }
            var exponent = 0
            while position < digits.count {
                let digit = digits[position] &- UInt8(ascii: "0")
                guard digit < 10 else { return nil }
                exponent = exponent * 10 + Int(digit)
                position += 1
            }
            scale += exponentNegative ? -exponent : exponent
        }
        guard scale >= -22, scale <= 22 else { return nil }
        var value = Double(mantissa)
        value = scale < 0 ? value / exactPowersOfTen[-scale] : value * exactPowersOfTen[scale]
        return negative ? -value : value
    }

    /// Whether a number's digits before its exponent include a nonzero one.
    static func hasNonZeroMantissa(_ digits: UnsafeRawBufferPointer) -> Bool {
        for byte in digits {
            if byte | 0x20 == UInt8(ascii: "e") { return false }
            if byte >= UInt8(ascii: "1") && byte <= UInt8(ascii: "9") { return true }
        }
        return false
    }

    /// The value entry of the member named `key` in the object at `object`: the first such member.
    func member(_ key: some CodingKey, in object: Int) -> Int? {
        guard isLive else { return nil }
        let name = key.stringValue
        var utf8 = name
        return utf8.withUTF8 { wanted -> Int? in
            let raw = UnsafeRawBufferPointer(wanted)
            let header = entries[object]
            let members = header.elementCount
            // Where names cannot repeat, the first match is the only one, so the search starts after the
            // member found last in this object: models mostly ask for members in the order they are written.
            let distinct = header.count & JSONTape.Entry.distinctNames != 0
            let hint = hints + (object & (Self.hintSlots - 1))
            var index = object + 1
            var ordinal = 0
            if distinct, hint.pointee.object == object, hint.pointee.ordinal < members {
                index = hint.pointee.next
                ordinal = hint.pointee.ordinal
            }
            // Equal bytes are equal names. Different bytes can still be equal Strings (canonical equivalence:
            // "K" and the Kelvin sign), but only when one side has an escape or a byte above 0x7F.
            var wantedIsASCII: Bool?
            let wantedPrefix =
                JSONBytes.firstBytes(raw, from: 0, to: raw.count) & JSONTape.Entry.namePrefixMask
            for _ in 0..<members {
                if ordinal == members {
                    index = object + 1
                    ordinal = 0
                }
                let keyEntry = entries[index]
                var found = false
                if keyEntry.kind == .string, Int(keyEntry.end &- keyEntry.start) == wanted.count,
                    keyEntry.namePrefix == wantedPrefix
                {
                    // The first six bytes are equal; only a longer name needs its text read.
                    found =
                        wanted.count <= 6
                        || Self.sameBytes(
                            UnsafeRawBufferPointer(rebasing: text(of: keyEntry)[6...]),
                            UnsafeRawBufferPointer(rebasing: raw[6...]))
                }
                if !found,
                    keyEntry.kind != .string || keyEntry.count & JSONTape.Entry.nonASCII != 0
                        || !isASCII(wanted, &wantedIsASCII)
                {
                    found = (try? string(at: index, path: [])) == name
                }
                let after = next(after: index + 1)
                if found {
                    if distinct { hint.pointee = MemberHint(object: object, next: after, ordinal: ordinal + 1) }
                    return index + 1
                }
                index = after
                ordinal += 1
            }
            return nil
        }
    }

    /// Whether `bytes` are all ASCII, worked out on the first call and kept in `known`.
    private func isASCII(_ bytes: UnsafeBufferPointer<UInt8>, _ known: inout Bool?) -> Bool {
        if let known { return known }
        let answer = !bytes.contains { $0 >= 0x80 }
        known = answer
        return answer
    }

    /// Whether two buffers of the same length hold the same bytes: a word at a time, inline, since member names
    /// are short and a call to `memcmp` costs more than comparing them.
    @inline(__always)
    static func sameBytes(_ first: UnsafeRawBufferPointer, _ second: UnsafeRawBufferPointer) -> Bool {
        guard let left = first.baseAddress, let right = second.baseAddress else { return first.count == second.count }
        var offset = 0
        while offset &+ 8 <= first.count {
            if left.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
                != right.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
            {
                return false
            }
            offset &+= 8
        }
        while offset < first.count {
            if left.load(fromByteOffset: offset, as: UInt8.self) != right.load(fromByteOffset: offset, as: UInt8.self) {
                return false
            }
            offset &+= 1
        }
        return true
    }

    /// The entry after the value at `index` and everything inside it.
    @inline(__always)
    func next(after index: Int) -> Int {
        let entry = entries[index]
        switch entry.kind {
        case .object, .array: return Int(entry.end)
        default: return index + 1
        }
    }
}

/// What ``TapeDecoder`` does with each model type it meets, found once per type and decode.
///
/// Asking `T.self == String.self` of a generic `T` is cheap, but `[String].self` looks up generic metadata
/// and `T.self as? any TapeDecodableArray.Type` a protocol conformance, each several hundred instructions, on
/// every value; a decode meets only a handful of types.
struct ModelTypeKinds {
    /// The types read straight off the tape.
    enum Primitive {
        case string, int, double, bool, strings, integers, doubles
    }

    enum Kind {
        case primitive(Primitive)
        /// An `Array` of some `Decodable` element.
        case array(any TapeDecodableArray.Type)
        /// Anything else: decoded by its own `init(from:)`.
        case model
    }

    private var types: [ObjectIdentifier] = []
    private var kinds: [Kind] = []

    /// The kind of `type`, remembered for the first 16 types asked about.
    mutating func kind(of type: Any.Type) -> Kind {
        let identifier = ObjectIdentifier(type)
        for position in types.indices where types[position] == identifier { return kinds[position] }
        let kind = Self.classify(type)
        if types.count < 16 {
            types.append(identifier)
            kinds.append(kind)
        }
        return kind
    }

    private static func classify(_ type: Any.Type) -> Kind {
        if type == String.self { return .primitive(.string) }
        if type == Int.self { return .primitive(.int) }
        if type == Double.self { return .primitive(.double) }
        if type == Bool.self { return .primitive(.bool) }
        if type == [String].self { return .primitive(.strings) }
        if type == [Int].self { return .primitive(.integers) }
        if type == [Double].self { return .primitive(.doubles) }
        if let array = type as? any TapeDecodableArray.Type { return .array(array) }
        return .model
    }
}

/// An array whose elements ``TapeDecoder`` decodes itself.
///
/// `Array.init(from:)`, unspecialized, looks up the array's generic metadata for every element it appends
/// and goes through a boxed unkeyed container; this reserves the array once and decodes each element in place.
protocol TapeDecodableArray {
    /// The array at the decoder's current entry, with the decoder's keys as its path.
    static func decodeElements(from decoder: TapeDecoder) throws -> Self
}

extension Array: TapeDecodableArray where Element: Decodable {
    static func decodeElements(from decoder: TapeDecoder) throws -> [Element] {
        try decoder.checkLive()
        let array = decoder.current
        let path = decoder.keys
        try decoder.expect(.array, [Any].self, at: array, path: path)
        let count = decoder.entries[array].elementCount
        return try [Element](unsafeUninitializedCapacity: count) { buffer, initialized in
            var position = array + 1
            for offset in 0..<count {
                let element = try decoder.decode(
                    Element.self, at: position, key: IndexKey(offset), depth: path.count, suffix: nil)
                buffer.initializeElement(at: offset, to: element)
                initialized += 1
                position = decoder.next(after: position)
            }
        }
    }
}

extension TapeDecoder: JSONNumberTextDecoding {
    func decodeJSONNumber() throws -> JSONNumber {
        try checkLive()
        let entry = entries[current]
        guard entry.kind == .number else { throw mismatch(JSONNumber.self, found: entry.kind, path: keys) }
        return JSONNumber(text: String(decoding: text(of: entry), as: UTF8.self))
    }
}
