/// The `Decoder` over one node.
struct NodeDecoder: Decoder {
    let node: YAMLNode
    let codingPath: [any CodingKey]
    let context: DecodingContext
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        guard case .mapping(let entries) = node.kind else {
            throw context.error("expected a mapping, found \(node.kindDescription)", at: node, path: codingPath)
        }
        context.visit(entries, at: codingPath)
        return KeyedDecodingContainer(KeyedNodeContainer<Key>(decoder: self, entries: entries))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        guard case .sequence(let items) = node.kind else {
            throw context.error("expected a sequence, found \(node.kindDescription)", at: node, path: codingPath)
        }
        return UnkeyedNodeContainer(decoder: self, items: items)
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer {
        ScalarContainer(decoder: self)
    }

    func child(_ node: YAMLNode, key: any CodingKey) -> NodeDecoder {
        NodeDecoder(node: node, codingPath: codingPath + [key], context: context)
    }

    /// Decodes `T` from this node, naming the allowed values when a string enum meets an unknown one.
    func decodeValue<T: Decodable>(_ type: T.Type) throws -> T {
        do {
            return try T(from: self)
        } catch DecodingError.dataCorrupted(let detail) where detail.codingPath.count == codingPath.count {
            guard let cases = stringCases(of: T.self), case .scalar = node.kind else {
                throw DecodingError.dataCorrupted(detail)
            }
            let value = (try? ScalarContainer(decoder: self).text()) ?? ""
            let hint = closestMatch(to: value, in: cases).map { "did you mean '\($0)'?" }
            throw context.error(
                "expected one of \(cases.joined(separator: ", ")), found '\(value)'",
                at: node,
                path: codingPath,
                hint: hint
            )
        }
    }
}

private func stringCases<T>(of type: T.Type) -> [String]? {
    guard let enumeration = type as? any (CaseIterable & RawRepresentable).Type else { return nil }
    return rawStrings(enumeration)
}

private func rawStrings<E: CaseIterable & RawRepresentable>(_ type: E.Type) -> [String]? {
    let values = E.allCases.compactMap { $0.rawValue as? String }
    return values.isEmpty ? nil : values
}

extension YAMLNode {
    /// How error messages describe what was found: `null`, `a mapping`, or the scalar's own text.
    var kindDescription: String {
        if case .scalar(let scalar) = kind, !scalar.isNull { return "'\(scalar.value)'" }
        return kindName
    }
}
