/// A position in a YAML document, counted from 1 as editors show it.
public struct YAMLMark: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// The line, starting at 1.
    public var line: Int
    /// The column, starting at 1.
    public var column: Int

    /// Creates a mark.
    ///
    /// - Parameters:
    ///   - line: The line, starting at 1.
    ///   - column: The column, starting at 1.
    public init(line: Int, column: Int) {
        self.line = line
        self.column = column
    }

    /// `line:column`.
    public var description: String { "\(line):\(column)" }

    /// Orders marks by position in the document.
    ///
    /// - Parameters:
    ///   - lhs: A mark.
    ///   - rhs: Another mark.
    /// - Returns: Whether `lhs` comes first.
    public static func < (lhs: YAMLMark, rhs: YAMLMark) -> Bool {
        (lhs.line, lhs.column) < (rhs.line, rhs.column)
    }
}
