/// A mapping, read by key; every key asked for is recorded so unknown ones can be reported.
struct KeyedNodeContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let decoder: NodeDecoder
    let entries: [YAMLMappingEntry]
    /// Each key's entry, so that reading every key of a large mapping (`headers:`) is linear, not quadratic.
    private let index: [String: Int]

    init(decoder: NodeDecoder, entries: [YAMLMappingEntry]) {
        self.decoder = decoder
        self.entries = entries
        var index: [String: Int] = [:]
        index.reserveCapacity(entries.count)
        for (position, entry) in entries.enumerated() where index[entry.key] == nil { index[entry.key] = position }
        self.index = index
    }

    var codingPath: [any CodingKey] { decoder.codingPath }

    var allKeys: [Key] {
        decoder.context.enumerate(at: codingPath)
        return entries.compactMap { Key(stringValue: $0.key) }
    }

    private func entry(_ key: Key) -> YAMLMappingEntry? {
        decoder.context.ask(key.stringValue, at: codingPath)
        return index[key.stringValue].map { entries[$0] }
    }

    private func required(_ key: Key) throws -> YAMLMappingEntry {
        guard let entry = entry(key) else {
            throw decoder.context.error(
                "missing required key '\(key.stringValue)'",
                at: decoder.node,
                path: codingPath
            )
        }
        return entry
    }

    func contains(_ key: Key) -> Bool { entry(key) != nil }

    func decodeNil(forKey key: Key) throws -> Bool {
        let entry = try required(key)
        if case .scalar(let scalar) = entry.value.kind { return scalar.isNull }
        return false
    }

    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
        let entry = try required(key)
        return try decoder.child(entry.value, key: key).decodeValue(T.self)
    }

    func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool { try decode(Box<Bool>.self, forKey: key).value }
    func decode(_ type: String.Type, forKey key: Key) throws -> String {
        try decode(Box<String>.self, forKey: key).value
    }
    func decode(_ type: Double.Type, forKey key: Key) throws -> Double {
        try decode(Box<Double>.self, forKey: key).value
    }
    func decode(_ type: Float.Type, forKey key: Key) throws -> Float { try decode(Box<Float>.self, forKey: key).value }
    func decode(_ type: Int.Type, forKey key: Key) throws -> Int { try decode(Box<Int>.self, forKey: key).value }
    func decode(_ type: Int8.Type, forKey key: Key) throws -> Int8 { try decode(Box<Int8>.self, forKey: key).value }
    func decode(_ type: Int16.Type, forKey key: Key) throws -> Int16 { try decode(Box<Int16>.self, forKey: key).value }
    func decode(_ type: Int32.Type, forKey key: Key) throws -> Int32 { try decode(Box<Int32>.self, forKey: key).value }
    func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 { try decode(Box<Int64>.self, forKey: key).value }
    func decode(_ type: UInt.Type, forKey key: Key) throws -> UInt { try decode(Box<UInt>.self, forKey: key).value }
    func decode(_ type: UInt8.Type, forKey key: Key) throws -> UInt8 { try decode(Box<UInt8>.self, forKey: key).value }
    func decode(_ type: UInt16.Type, forKey key: Key) throws -> UInt16 {
        try decode(Box<UInt16>.self, forKey: key).value
    }
    func decode(_ type: UInt32.Type, forKey key: Key) throws -> UInt32 {
        try decode(Box<UInt32>.self, forKey: key).value
    }
    func decode(_ type: UInt64.Type, forKey key: Key) throws -> UInt64 {
        try decode(Box<UInt64>.self, forKey: key).value
    }

    func nestedContainer<NestedKey: CodingKey>(
        keyedBy type: NestedKey.Type,
        forKey key: Key
    ) throws -> KeyedDecodingContainer<NestedKey> {
        try decoder.child(required(key).value, key: key).container(keyedBy: type)
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
        try decoder.child(required(key).value, key: key).unkeyedContainer()
    }

    func superDecoder() throws -> any Decoder { decoder }

    func superDecoder(forKey key: Key) throws -> any Decoder {
        try decoder.child(required(key).value, key: key)
    }
}

/// Routes the primitive overloads through the one generic path, which carries positions into errors.
private struct Box<Value: Decodable>: Decodable {
    var value: Value
    init(from decoder: any Decoder) throws {
        value = try decoder.singleValueContainer().decode(Value.self)
    }
}
