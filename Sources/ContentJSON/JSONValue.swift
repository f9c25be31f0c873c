/// A JSON value exactly as the server sent it: object keys in their order, numbers as their text.
///
/// Keeping the number text means `152.59` never turns into `152.58999999999999` and a 19-digit
/// `Int64` id survives; keeping key order means output columns follow the server.
public enum JSONValue: Sendable, Hashable {
    /// `null`.
    case null
    /// `true` or `false`.
    case bool(Bool)
    /// A number, as written.
    case number(JSONNumber)
    /// A string.
    case string(String)
    /// An array.
    case array([JSONValue])
    /// An object, in member order.
    case object(JSONObject)

    /// The value at a member name, when this is an object that has it.
    ///
    /// - Parameter key: The member name.
    /// - Returns: The member's value, or `nil`.
    public subscript(key: String) -> JSONValue? {
        guard case .object(let object) = self else { return nil }
        return object[key]
    }

    /// The object, when this is one.
    public var objectValue: JSONObject? {
        if case .object(let object) = self { return object }
        return nil
    }

    /// The elements, when this is an array.
    public var arrayValue: [JSONValue]? {
        if case .array(let elements) = self { return elements }
        return nil
    }

    /// The string, when this is one.
    public var stringValue: String? {
        if case .string(let string) = self { return string }
        return nil
    }
}

/// A JSON number kept as its source text, which the parser has checked against RFC 8259's grammar.
public struct JSONNumber: Sendable, Hashable, CustomStringConvertible {
    /// The number as written, such as `152.59` or `1e400`.
    public let text: String

    /// Wraps number text without checking it; use for text the parser produced or that you wrote.
    ///
    /// - Parameter text: The number as written.
    public init(text: String) {
        self.text = text
    }

    /// Wraps an integer.
    ///
    /// - Parameter value: The integer.
    public init(_ value: Int) {
        text = String(value)
    }

    /// The number as a `Double`, rounded as IEEE 754 rounds it (`1e400` is infinity).
    public var doubleValue: Double? { Double(text) }

    /// The number as an `Int64`, when it is an integer in range.
    public var int64Value: Int64? { Int64(text) }

    /// The number as written.
    public var description: String { text }
}

/// One member of a JSON object.
public struct JSONMember: Sendable, Hashable {
    /// The member name.
    public var key: String
    /// The member value.
    public var value: JSONValue

    /// Creates a member.
    ///
    /// - Parameters:
    ///   - key: The name.
    ///   - value: The value.
    public init(_ key: String, _ value: JSONValue) {
        self.key = key
        self.value = value
    }
}

/// A JSON object: members in the order they were written.
///
/// Lookup is linear, which is faster than hashing for the few-dozen-member objects content APIs return.
/// When a name repeats, lookup finds the last one, as most JSON readers do.
public struct JSONObject: Sendable, Hashable, RandomAccessCollection, ExpressibleByDictionaryLiteral {
    /// The members, in order.
    public var members: [JSONMember]

    /// Creates an object.
    ///
    /// - Parameter members: The members, in order.
    public init(_ members: [JSONMember] = []) {
        self.members = members
    }

    /// Creates an object from a literal, in the literal's order.
    ///
    /// - Parameter elements: Names and values.
    public init(dictionaryLiteral elements: (String, JSONValue)...) {
        members = elements.map { JSONMember($0.0, $0.1) }
    }

    /// The value of the last member with this name; setting `nil` removes every member with the name.
    ///
    /// - Parameter key: The member name.
    /// - Returns: The value, or `nil`.
    public subscript(key: String) -> JSONValue? {
        get { members.last { $0.key == key }?.value }
        set {
            guard let newValue else {
                members.removeAll { $0.key == key }
                return
            }
            if let index = members.lastIndex(where: { $0.key == key }) {
                members[index].value = newValue
            } else {
                members.append(JSONMember(key, newValue))
            }
        }
    }

    /// The first index.
    public var startIndex: Int { members.startIndex }
    /// One past the last index.
    public var endIndex: Int { members.endIndex }

    /// The member at a position.
    ///
    /// - Parameter position: The index.
    /// - Returns: The member.
    public subscript(position: Int) -> JSONMember { members[position] }
}
