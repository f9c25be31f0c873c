/// An object's members, looked up by name on the tape.
struct TapeKeyedContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let decoder: TapeDecoder
    let object: Int
    /// How many of the decoder's keys lead here, and any more for a nested container: the path itself is
    /// built only when asked for.
    let depth: Int
    let suffix: [any CodingKey]?

    init(decoder: TapeDecoder, object: Int, depth: Int, suffix: [any CodingKey]? = nil) {
        self.decoder = decoder
        self.object = object
        self.depth = depth
        self.suffix = suffix
    }

    var codingPath: [any CodingKey] { decoder.path(depth: depth) + (suffix ?? []) }

    /// Each name once (the first of duplicates), as JSONDecoder lists them.
    var allKeys: [Key] {
        guard decoder.isLive else { return [] }
        var keys: [Key] = []
        var seen: Set<String> = []
        var index = object + 1
        for _ in 0..<decoder.entries[object].elementCount {
            if let name = try? decoder.string(at: index, path: []), seen.insert(name).inserted,
                let key = Key(stringValue: name)
            {
                keys.append(key)
            }
            index = decoder.next(after: index + 1)
        }
        return keys
    }

    func contains(_ key: Key) -> Bool { decoder.member(key, in: object) != nil }

    private func value(_ key: Key) throws -> Int {
        guard let index = decoder.member(key, in: object) else {
            throw DecodingError.keyNotFound(
                key,
                DecodingError.Context(
                    codingPath: codingPath,
                    debugDescription: "No value associated with key \(key) (\"\(key.stringValue)\")."
                ))
        }
        return index
    }

    private func path(_ key: Key) -> [any CodingKey] { codingPath + [key] }

    /// A member that may be missing or null: one lookup, where the protocol's default makes three.
    private func optional<T>(_ key: Key, _ read: (Int) throws -> T) throws -> T? {
        guard let index = decoder.member(key, in: object), decoder.entries[index].kind != .null else { return nil }
        return try read(index)
    }

    func decodeNil(forKey key: Key) throws -> Bool { decoder.entries[try value(key)].kind == .null }

    func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool {
        try decoder.bool(at: try value(key), path: path(key))
    }
    func decode(_ type: String.Type, forKey key: Key) throws -> String {
        try decoder.string(at: try value(key), path: path(key))
    }
    func decode(_ type: Double.Type, forKey key: Key) throws -> Double {
        try decoder.float(Double.self, at: try value(key), path: path(key))
    }
    func decode(_ type: Float.Type, forKey key: Key) throws -> Float {
        try decoder.float(Float.self, at: try value(key), path: path(key))
    }
    func decode(_ type: Int.Type, forKey key: Key) throws -> Int {
        try decoder.integer(Int.self, at: try value(key), path: path(key))
    }
    func decode(_ type: Int8.Type, forKey key: Key) throws -> Int8 {
        try decoder.integer(Int8.self, at: try value(key), path: path(key))
    }
    func decode(_ type: Int16.Type, forKey key: Key) throws -> Int16 {
        try decoder.integer(Int16.self, at: try value(key), path: path(key))
    }
    func decode(_ type: Int32.Type, forKey key: Key) throws -> Int32 {
        try decoder.integer(Int32.self, at: try value(key), path: path(key))
    }
    func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 {
        try decoder.integer(Int64.self, at: try value(key), path: path(key))
    }
    func decode(_ type: UInt.Type, forKey key: Key) throws -> UInt {
        try decoder.integer(UInt.self, at: try value(key), path: path(key))
    }
    func decode(_ type: UInt8.Type, forKey key: Key) throws -> UInt8 {
        try decoder.integer(UInt8.self, at: try value(key), path: path(key))
    }
    func decode(_ type: UInt16.Type, forKey key: Key) throws -> UInt16 {
        try decoder.integer(UInt16.self, at: try value(key), path: path(key))
    }
    func decode(_ type: UInt32.Type, forKey key: Key) throws -> UInt32 {
        try decoder.integer(UInt32.self, at: try value(key), path: path(key))
    }
    func decode(_ type: UInt64.Type, forKey key: Key) throws -> UInt64 {
        try decoder.integer(UInt64.self, at: try value(key), path: path(key))
    }
    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
        try decoder.decode(T.self, at: try value(key), key: key, depth: depth, suffix: suffix)
    }

    func decodeIfPresent(_ type: Bool.Type, forKey key: Key) throws -> Bool? {
        try optional(key) { try decoder.bool(at: $0, path: path(key)) }
    }
    func decodeIfPresent(_ type: String.Type, forKey key: Key) throws -> String? {
        try optional(key) { try decoder.string(at: $0, path: path(key)) }
    }
    func decodeIfPresent(_ type: Double.Type, forKey key: Key) throws -> Double? {
        try optional(key) { try decoder.float(Double.self, at: $0, path: path(key)) }
    }
    func decodeIfPresent(_ type: Float.Type, forKey key: Key) throws -> Float? {
        try optional(key) { try decoder.float(Float.self, at: $0, path: path(key)) }
    }
    func decodeIfPresent(_ type: Int.Type, forKey key: Key) throws -> Int? {
        try optional(key) { try decoder.integer(Int.self, at: $0, path: path(key)) }
    }
    func decodeIfPresent(_ type: Int8.Type, forKey key: Key) throws -> Int8? {
        try optional(key) { try decoder.integer(Int8.self, at: $0, path: path(key)) }
    }
    func decodeIfPresent(_ type: Int16.Type, forKey key: Key) throws -> Int16? {
        try optional(key) { try decoder.integer(Int16.self, at: $0, path: path(key)) }
    }
    func decodeIfPresent(_ type: Int32.Type, forKey key: Key) throws -> Int32? {
        try optional(key) { try decoder.integer(Int32.self, at: $0, path: path(key)) }
    }
    func decodeIfPresent(_ type: Int64.Type, forKey key: Key) throws -> Int64? {
        try optional(key) { try decoder.integer(Int64.self, at: $0, path: path(key)) }
    }
    func decodeIfPresent(_ type: UInt.Type, forKey key: Key) throws -> UInt? {
        try optional(key) { try decoder.integer(UInt.self, at: $0, path: path(key)) }
    }
    func decodeIfPresent(_ type: UInt8.Type, forKey key: Key) throws -> UInt8? {
        try optional(key) { try decoder.integer(UInt8.self, at: $0, path: path(key)) }
    }
    func decodeIfPresent(_ type: UInt16.Type, forKey key: Key) throws -> UInt16? {
        try optional(key) { try decoder.integer(UInt16.self, at: $0, path: path(key)) }
    }
    func decodeIfPresent(_ type: UInt32.Type, forKey key: Key) throws -> UInt32? {
        try optional(key) { try decoder.integer(UInt32.self, at: $0, path: path(key)) }
    }
    func decodeIfPresent(_ type: UInt64.Type, forKey key: Key) throws -> UInt64? {
        try optional(key) { try decoder.integer(UInt64.self, at: $0, path: path(key)) }
    }
    func decodeIfPresent<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T? {
        try optional(key) { try decoder.decode(T.self, at: $0, key: key, depth: depth, suffix: suffix) }
    }

    func nestedContainer<NestedKey: CodingKey>(
        keyedBy type: NestedKey.Type, forKey key: Key
    ) throws -> KeyedDecodingContainer<NestedKey> {
        let index = try value(key)
        try decoder.expect(.object, [String: Any].self, at: index, path: path(key))
        return KeyedDecodingContainer(
            TapeKeyedContainer<NestedKey>(decoder: decoder, object: index, depth: depth, suffix: (suffix ?? []) + [key])
        )
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
        let index = try value(key)
        try decoder.expect(.array, [Any].self, at: index, path: path(key))
        return TapeUnkeyedContainer(decoder: decoder, array: index, depth: depth, suffix: (suffix ?? []) + [key])
    }

    /// The decoder of the member named `super`, as JSONDecoder has it.
    func superDecoder() throws -> any Decoder {
        let key = IndexKey(superKey: ())
        return try decoder.detached(at: decoder.member(key, in: object) ?? decoder.nullEntry, path: codingPath + [key])
    }

    /// The decoder of a member; a missing one reads as `null`.
    func superDecoder(forKey key: Key) throws -> any Decoder {
        try decoder.detached(at: decoder.member(key, in: object) ?? decoder.nullEntry, path: path(key))
    }
}

/// An array's elements, in order.
struct TapeUnkeyedContainer: UnkeyedDecodingContainer {
    let decoder: TapeDecoder
    let count: Int?
    private(set) var currentIndex = 0
    /// The entry of the next element.
    private var position: Int
    /// As for ``TapeKeyedContainer``: the decoder's keys up to `depth`, then `suffix`.
    private let depth: Int
    private let suffix: [any CodingKey]?

    init(decoder: TapeDecoder, array: Int, depth: Int, suffix: [any CodingKey]? = nil) {
        self.decoder = decoder
        self.depth = depth
        self.suffix = suffix
        count = decoder.entries[array].elementCount
        position = array + 1
    }

    var codingPath: [any CodingKey] { decoder.path(depth: depth) + (suffix ?? []) }

    var isAtEnd: Bool { currentIndex >= count ?? 0 }

    /// The next element's entry, after checking there is one; `advance` moves past it.
    private mutating func next<T>(
        _ type: T.Type, _ read: (TapeDecoder, Int, () -> [any CodingKey]) throws -> T
    ) throws -> T {
        guard !isAtEnd else {
            throw DecodingError.valueNotFound(
                T.self,
                DecodingError.Context(
                    codingPath: codingPath + [IndexKey(currentIndex)], debugDescription: "Unkeyed container is at end.")
            )
        }
        let index = currentIndex
        let value = try read(decoder, position) { codingPath + [IndexKey(index)] }
        position = decoder.next(after: position)
        currentIndex += 1
        return value
    }

    mutating func decodeNil() throws -> Bool {
        guard !isAtEnd else {
            throw DecodingError.valueNotFound(
                Any?.self,
                DecodingError.Context(
                    codingPath: codingPath + [IndexKey(currentIndex)], debugDescription: "Unkeyed container is at end.")
            )
        }
        guard decoder.entries[position].kind == .null else { return false }
        position += 1
        currentIndex += 1
        return true
    }

    mutating func decode(_ type: Bool.Type) throws -> Bool { try next(type) { try $0.bool(at: $1, path: $2()) } }
    mutating func decode(_ type: String.Type) throws -> String {
        try next(type) { try $0.string(at: $1, path: $2()) }
    }
    mutating func decode(_ type: Double.Type) throws -> Double {
        try next(type) { try $0.float(Double.self, at: $1, path: $2()) }
    }
    mutating func decode(_ type: Float.Type) throws -> Float {
        try next(type) { try $0.float(Float.self, at: $1, path: $2()) }
    }
    mutating func decode(_ type: Int.Type) throws -> Int { try next(type) { try $0.integer(type, at: $1, path: $2()) } }
    mutating func decode(_ type: Int8.Type) throws -> Int8 {
        try next(type) { try $0.integer(type, at: $1, path: $2()) }
    }
    mutating func decode(_ type: Int16.Type) throws -> Int16 {
        try next(type) { try $0.integer(type, at: $1, path: $2()) }
    }
    mutating func decode(_ type: Int32.Type) throws -> Int32 {
        try next(type) { try $0.integer(type, at: $1, path: $2()) }
    }
    mutating func decode(_ type: Int64.Type) throws -> Int64 {
        try next(type) { try $0.integer(type, at: $1, path: $2()) }
    }
    mutating func decode(_ type: UInt.Type) throws -> UInt {
        try next(type) { try $0.integer(type, at: $1, path: $2()) }
    }
    mutating func decode(_ type: UInt8.Type) throws -> UInt8 {
        try next(type) { try $0.integer(type, at: $1, path: $2()) }
    }
    mutating func decode(_ type: UInt16.Type) throws -> UInt16 {
        try next(type) { try $0.integer(type, at: $1, path: $2()) }
    }
    mutating func decode(_ type: UInt32.Type) throws -> UInt32 {
        try next(type) { try $0.integer(type, at: $1, path: $2()) }
    }
    mutating func decode(_ type: UInt64.Type) throws -> UInt64 {
        try next(type) { try $0.integer(type, at: $1, path: $2()) }
    }
    mutating func decode<T: Decodable>(_ type: T.Type) throws -> T {
        let key = IndexKey(currentIndex)
        let (depth, suffix) = (self.depth, self.suffix)
        return try next(type) { decoder, entry, _ in
            try decoder.decode(T.self, at: entry, key: key, depth: depth, suffix: suffix)
        }
    }

    mutating func nestedContainer<NestedKey: CodingKey>(
        keyedBy type: NestedKey.Type
    ) throws -> KeyedDecodingContainer<NestedKey> {
        try next(KeyedDecodingContainer<NestedKey>.self) { decoder, entry, path in
            let elementPath = path()
            try decoder.expect(.object, [String: Any].self, at: entry, path: elementPath)
            return KeyedDecodingContainer(
                TapeKeyedContainer<NestedKey>(
                    decoder: decoder, object: entry, depth: 0, suffix: elementPath))
        }
    }

    mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
        try next(TapeUnkeyedContainer.self) { decoder, entry, path in
            let elementPath = path()
            try decoder.expect(.array, [Any].self, at: entry, path: elementPath)
            return TapeUnkeyedContainer(decoder: decoder, array: entry, depth: 0, suffix: elementPath)
        }
    }

    mutating func superDecoder() throws -> any Decoder {
        try next(TapeDecoder.self) { decoder, entry, path in try decoder.detached(at: entry, path: path()) }
    }
}

extension TapeDecoder {
    /// A decoder of its own at `index`, for `superDecoder()`: the shared one moves on while it is in use.
    func detached(at index: Int, path: [any CodingKey]) throws -> TapeDecoder {
        try checkLive()
        let decoder = TapeDecoder(bytes: bytes, entries: entries, userInfo: userInfoValues, liveness: liveness)
        decoder.current = index
        decoder.keys = path
        return decoder
    }
}
