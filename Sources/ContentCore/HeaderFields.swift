/// HTTP header fields in the order they were added; names compare without regard to case.
public struct HeaderFields: Sendable, Hashable, Sequence, ExpressibleByDictionaryLiteral {
    /// One header line.
    public struct Field: Sendable, Hashable {
        /// The name, as written.
        public var name: String
        /// The value.
        public var value: String

        /// Creates a field.
        ///
        /// - Parameters:
        ///   - name: The name.
        ///   - value: The value.
        public init(name: String, value: String) {
            self.name = name
            self.value = value
        }
    }

    /// The fields, in order.
    public private(set) var fields: [Field]

    /// Creates header fields.
    ///
    /// - Parameter fields: The fields, in order.
    public init(_ fields: [Field] = []) {
        self.fields = fields
    }

    /// Creates header fields from a literal.
    ///
    /// - Parameter elements: Names and values.
    public init(dictionaryLiteral elements: (String, String)...) {
        fields = elements.map { Field(name: $0.0, value: $0.1) }
    }

    /// The first value under a name, compared without case; setting replaces every field of that name.
    ///
    /// - Parameter name: The header name.
    /// - Returns: The first value, or `nil`.
    public subscript(name: String) -> String? {
        get {
            let lowered = name.lowercased()
            return fields.first { $0.name.lowercased() == lowered }?.value
        }
        set {
            remove(name)
            if let newValue { fields.append(Field(name: name, value: newValue)) }
        }
    }

    /// Adds a field, keeping any others of the same name.
    ///
    /// - Parameters:
    ///   - name: The name.
    ///   - value: The value.
    public mutating func append(name: String, value: String) {
        fields.append(Field(name: name, value: value))
    }

    /// Removes every field with this name.
    ///
    /// - Parameter name: The name, in any case.
    public mutating func remove(_ name: String) {
        let lowered = name.lowercased()
        fields.removeAll { $0.name.lowercased() == lowered }
    }

    /// Iterates the fields in order.
    ///
    /// - Returns: An iterator.
    public func makeIterator() -> IndexingIterator<[Field]> { fields.makeIterator() }
}
