/// Malformed JSON: where it is (byte offset and line:column) and what was expected there.
public struct JSONParseError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The offset of the offending byte from the start of the input, from 0.
    public var offset: Int
    /// The line, from 1.
    public var line: Int
    /// The column in bytes, from 1.
    public var column: Int
    /// What was wrong, such as "expected ',' or '}' after an object member".
    public var message: String

    /// Creates an error.
    ///
    /// - Parameters:
    ///   - offset: The byte offset, from 0.
    ///   - line: The line, from 1.
    ///   - column: The column, from 1.
    ///   - message: What was wrong.
    public init(offset: Int, line: Int, column: Int, message: String) {
        self.offset = offset
        self.line = line
        self.column = column
        self.message = message
    }

    /// `line:column (byte N): message`.
    public var description: String { "\(line):\(column) (byte \(offset)): \(message)" }
}
