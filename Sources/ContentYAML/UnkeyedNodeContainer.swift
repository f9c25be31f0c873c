/// A sequence, read in order.
struct UnkeyedNodeContainer: UnkeyedDecodingContainer {
    let decoder: NodeDecoder
    let items: [YAMLNode]
    private(set) var currentIndex = 0

    init(decoder: NodeDecoder, items: [YAMLNode]) {
        self.decoder = decoder
        self.items = items
    }

    var codingPath: [any CodingKey] { decoder.codingPath }
    var count: Int? { items.count }
    var isAtEnd: Bool { currentIndex >= items.count }

    private mutating func next() throws -> NodeDecoder {
        guard !isAtEnd else {
            throw decoder.context.error(
                "expected more than \(items.count) items",
                at: decoder.node,
                path: codingPath
            )
        }
        defer { currentIndex += 1 }
        return decoder.child(items[currentIndex], key: YAMLKey(intValue: currentIndex))
    }

    mutating func decodeNil() throws -> Bool {
        guard !isAtEnd else {
            throw decoder.context.error("expected more than \(items.count) items", at: decoder.node, path: codingPath)
        }
        guard case .scalar(let scalar) = items[currentIndex].kind, scalar.isNull else { return false }
        currentIndex += 1
        return true
    }

    mutating func decode<T: Decodable>(_ type: T.Type) throws -> T {
        try next().decodeValue(T.self)
    }

    mutating func nestedContainer<NestedKey: CodingKey>(
        keyedBy type: NestedKey.Type
    ) throws -> KeyedDecodingContainer<NestedKey> {
        try next().container(keyedBy: type)
    }

    mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
        try next().unkeyedContainer()
    }

    mutating func superDecoder() throws -> any Decoder { try next() }
}
