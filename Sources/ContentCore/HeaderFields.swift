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

        /// What makes the field unsendable, or `nil` when HTTP allows it.
        ///
        /// The name must be a token (RFC 9110 §5.1) and the value free of control characters other than tab
        /// (§5.5), so a token read with a stray `\r` cannot split a header. The answer never quotes the value,
        /// which may be a secret.
        public var problem: String? {
            if name.isEmpty { return "a header has no name" }
            if let bad = name.utf8.first(where: {
                !(Self.tokenSymbols.contains($0) || (0x30...0x39).contains($0) || (0x41...0x5A).contains($0)
                    || (0x61...0x7A).contains($0))
            }) {
                return
                    "the header name \(Self.shown(name)) has a character HTTP does not allow in a name (\(Self.codePoint(bad)))"
            }
            if let bad = value.utf8.first(where: { ($0 < 0x20 && $0 != 0x09) || $0 == 0x7F }) {
                return "the value of header \(name) has a control character (\(Self.codePoint(bad))), such as a line "
                    + "break read with a token"
            }
            return nil
        }

        /// The symbols a header name (an RFC 9110 token) may hold besides letters and digits.
        private static let tokenSymbols = Set("!#$%&'*+-.^_`|~".utf8)

        private static func codePoint(_ byte: UInt8) -> String {
            let hex = String(byte, radix: 16, uppercase: true)
            return "U+" + String(repeating: "0", count: Swift.max(0, 4 - hex.count)) + hex
        }

        /// A name as shown in an error: printable ASCII kept, anything else as `?`.
        private static func shown(_ name: String) -> String {
            "'" + String(name.unicodeScalars.map { $0.value >= 0x20 && $0.value < 0x7F ? Character($0) : "?" }) + "'"
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
