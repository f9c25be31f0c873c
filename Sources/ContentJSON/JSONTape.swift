/// A flat index of every value in a JSON document, built in one validating pass.
///
/// Each value is one entry: where its bytes are, and for arrays and objects how many elements or
/// members they hold and where the entry after them is, so a decoder can step over a whole subtree
/// in one move. An object's entries are its members' keys and values, alternating. Nothing is
/// decoded here: strings stay bytes until a model asks for them.
struct JSONTape {
    struct Entry {
        enum Kind: UInt8 {
            case object, array, string, escapedString, number, `true`, `false`, null
        }

        var kind: Kind
        /// Member names: bytes 1 and 2–3 of ``namePrefix`` (room the alignment of `start` leaves anyway).
        var namePrefixLow: UInt8 = 0
        var namePrefixMiddle: UInt16 = 0
        /// Strings: the offset after the opening quote; other values: their first byte.
        var start: UInt32
        /// Strings: the offset of the closing quote; numbers: one past their last byte; arrays and
        /// objects: the index of the entry after their last element.
        var end: UInt32
        /// Arrays and objects: how many elements or members, and for objects ``distinctNames``.
        ///
        /// Strings: ``nonASCII`` when the text holds bytes above 0x7F, so a name lookup knows without reading
        /// the bytes whether byte equality decides it; member names also keep bytes 4–6 of ``namePrefix`` in the
        /// low 24 bits.
        var count: UInt32

        /// The bit of a string's `count` that says it holds bytes above 0x7F.
        static let nonASCII: UInt32 = 1 << 31
        /// The bit of an object's `count` that says no two of its member names can be equal.
        ///
        /// All are plain ASCII and their bytes differ, so a lookup may start anywhere and stop at the first match.
        static let distinctNames: UInt32 = 1 << 31

        /// An object's member count or an array's element count, without flags.
        var elementCount: Int { Int(count & ~Self.distinctNames) }

        /// A member name's first six bytes (all of a shorter name, the rest zero), first byte lowest.
        ///
        /// A lookup compares these before the text, and names of up to six bytes only here: by the time a
        /// model asks for a member, the tape is read in order while the names are far apart in a large document,
        /// and each name read from the text would be a cache miss.
        var namePrefix: UInt64 {
            UInt64(namePrefixLow) | UInt64(namePrefixMiddle) << 8 | UInt64(count & 0xFF_FFFF) << 24
        }

        /// The bytes of ``JSONBytes/firstBytes(_:from:to:)`` a name entry keeps as its ``namePrefix``.
        static let namePrefixMask: UInt64 = 0xFFFF_FFFF_FFFF

        /// The member name entry for text from `start` to `end`, whose first eight bytes are `firstBytes`.
        init(name kind: Kind, start: Int, end: Int, nonASCII: Bool, firstBytes: UInt64) {
            let prefix = firstBytes & Self.namePrefixMask
            self.kind = kind
            namePrefixLow = UInt8(truncatingIfNeeded: prefix)
            namePrefixMiddle = UInt16(truncatingIfNeeded: prefix >> 8)
            self.start = UInt32(start)
            self.end = UInt32(end)
            count = UInt32(truncatingIfNeeded: prefix >> 24) & 0xFF_FFFF | (nonASCII ? Self.nonASCII : 0)
        }

        init(kind: Kind, start: UInt32, end: UInt32, count: UInt32) {
            self.kind = kind
            self.start = start
            self.end = end
            self.count = count
        }
    }

    var entries: [Entry] = []

    /// Builds the tape of a whole document.
    ///
    /// - Parameters:
    ///   - bytes: One JSON value, with whitespace around it allowed.
    ///   - maxDepth: How deeply arrays and objects may nest.
    /// - Throws: ``JSONParseError`` at the first byte that breaks the grammar, as ``JSONParser`` reports it.
    init(bytes: UnsafeRawBufferPointer, maxDepth: Int) throws(JSONParseError) {
        guard bytes.count < Int(UInt32.max) else {
            throw JSONParseError(offset: 0, line: 1, column: 1, message: "documents of 4 GiB or more are not supported")
        }
        // Room for an entry per 12 bytes (dense rows of short values need about that), up to 16 MiB of tape;
        // `add(_:_:)` grows it from the rate the text turns out to have.
        entries.reserveCapacity(max(16, min(bytes.count / 12, 1 << 20)))
        var skipper = JSONSkipper(bytes: bytes, index: 0, isFinal: true, maxDepth: maxDepth)
        do throws(JSONSkipFailure) {
            skipper.skipWhitespace()
            try record(&skipper, depth: 0)
            skipper.skipWhitespace()
            if skipper.index < bytes.count {
                throw skipper.malformed("expected the end of the input after a complete JSON value")
            }
            // A `null` after the document, for decoders that must read a missing member as null.
            entries.append(Entry(kind: .null, start: UInt32(bytes.count), end: UInt32(bytes.count), count: 0))
        } catch {
            guard case .malformed(let offset, let message) = error else {
                throw JSONParseError(offset: bytes.count, line: 1, column: 1, message: "unexpected end of the input")
            }
            var reader = JSONReader(bytes: bytes, maxDepth: maxDepth)
            reader.index = offset
            throw reader.error(message, at: offset)
        }
    }

    /// Appends an entry.
    ///
    /// When the tape is full it grows to what the whole text will need at the rate of entries
    /// per byte so far, rather than doubling again and again: each growth copies the whole tape.
    @inline(__always)
    private mutating func add(_ skipper: JSONSkipper, _ entry: Entry) {
        if entries.count == entries.capacity {
            let read = max(1, skipper.index)
            let projected = Double(entries.count) * Double(skipper.bytes.count) / Double(read) * 1.125
            entries.reserveCapacity(max(entries.count * 2, Int(min(projected, Double(skipper.bytes.count)))))
        }
        entries.append(entry)
    }

    private mutating func record(_ skipper: inout JSONSkipper, depth: Int) throws(JSONSkipFailure) {
        let bytes = skipper.bytes
        guard skipper.index < bytes.count else {
            throw skipper.malformed("expected a JSON value, found the end of the input")
        }
        let start = skipper.index
        switch bytes[start] {
        case UInt8(ascii: "\""):
            let traits = try skipper.skipString()
            add(
                skipper,
                Entry(
                    kind: traits.escaped ? .escapedString : .string, start: UInt32(start + 1),
                    end: UInt32(skipper.index - 1), count: traits.nonASCII ? Entry.nonASCII : 0))
        case UInt8(ascii: "{"):
            try recordObject(&skipper, depth: depth + 1)
        case UInt8(ascii: "["):
            try recordArray(&skipper, depth: depth + 1)
        case UInt8(ascii: "t"), UInt8(ascii: "f"), UInt8(ascii: "n"):
            try skipper.skipValue(depth: depth)
            let kind: Entry.Kind =
                bytes[start] == UInt8(ascii: "t") ? .true : bytes[start] == UInt8(ascii: "f") ? .false : .null
            add(skipper, Entry(kind: kind, start: UInt32(start), end: UInt32(skipper.index), count: 0))
        default:
            try skipper.skipValue(depth: depth)
            add(skipper, Entry(kind: .number, start: UInt32(start), end: UInt32(skipper.index), count: 0))
        }
    }

    private mutating func recordObject(_ skipper: inout JSONSkipper, depth: Int) throws(JSONSkipFailure) {
        let slot = entries.count
        add(skipper, Entry(kind: .object, start: UInt32(skipper.index), end: 0, count: 0))
        var count: UInt32 = 0
        // One bit per name, from a hash of its bytes: equal names set the same bit, so no bit set twice
        // means no two names are equal.
        var names: UInt64 = 0
        var distinct = true
        if try !skipper.enterContainer(closedBy: UInt8(ascii: "}"), depth: depth) {
            while true {
                guard skipper.bytes[skipper.index] == UInt8(ascii: "\"") else {
                    throw skipper.malformed(
                        "expected a member name in double quotes, found \(skipper.describeCurrent())")
                }
                let keyStart = skipper.index
                let traits = try skipper.skipString()
                let first = JSONBytes.firstBytes(skipper.bytes, from: keyStart + 1, to: skipper.index - 1)
                let name = Entry(
                    name: traits.escaped ? .escapedString : .string, start: keyStart + 1, end: skipper.index - 1,
                    nonASCII: traits.nonASCII, firstBytes: first)
                if distinct {
                    let bit = Self.nameBit(first, skipper.bytes, from: keyStart + 1, to: skipper.index - 1)
                    // Two names on one bit are compared, in the first few members only: past them the
                    // bits fill up and comparing each name with all before it would grow with the square.
                    distinct =
                        !traits.escaped && !traits.nonASCII
                        && (names & bit == 0
                            || (count < 16 && !hasName(name, before: entries.count, from: slot + 1, in: skipper.bytes)))
                    names |= bit
                }
                add(skipper, name)
                try skipper.skipColon(afterKeyAt: keyStart)
                try record(&skipper, depth: depth)
                count += 1
                guard try skipper.skipAfterMember() else { break }
            }
        }
        entries[slot].end = UInt32(entries.count)
        entries[slot].count = count | (distinct ? Entry.distinctNames : 0)
    }

    /// Whether a member name from `first` on, before the entry `name`, has the same bytes as `name`.
    private func hasName(_ name: Entry, before end: Int, from first: Int, in bytes: UnsafeRawBufferPointer) -> Bool {
        let length = Int(name.end - name.start)
        let text = UnsafeRawBufferPointer(rebasing: bytes[Int(name.start)..<Int(name.end)])
        var index = first
        while index < end {
            let other = entries[index]
            if Int(other.end - other.start) == length,
                TapeDecoder.sameBytes(UnsafeRawBufferPointer(rebasing: bytes[Int(other.start)..<Int(other.end)]), text)
            {
                return true
            }
            let value = entries[index + 1]
            index = value.kind == .object || value.kind == .array ? Int(value.end) : index + 2
        }
        return false
    }

    /// One of 64 bits, picked by a hash of a name's length, its first eight bytes (`first`) and its last eight.
    @inline(__always)
    static func nameBit(_ first: UInt64, _ bytes: UnsafeRawBufferPointer, from start: Int, to end: Int) -> UInt64 {
        let length = end - start
        var word = first
        if length > 8 { word ^= UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: end - 8, as: UInt64.self)) }
        return 1 << (((word ^ UInt64(length)) &* 0x9E37_79B9_7F4A_7C15) >> 58)
    }

    private mutating func recordArray(_ skipper: inout JSONSkipper, depth: Int) throws(JSONSkipFailure) {
        let slot = entries.count
        add(skipper, Entry(kind: .array, start: UInt32(skipper.index), end: 0, count: 0))
        var count: UInt32 = 0
        if try !skipper.enterContainer(closedBy: UInt8(ascii: "]"), depth: depth) {
            while true {
                try record(&skipper, depth: depth)
                count += 1
                guard try skipper.skipAfterElement() else { break }
            }
        }
        entries[slot].end = UInt32(entries.count)
        entries[slot].count = count
    }
}
