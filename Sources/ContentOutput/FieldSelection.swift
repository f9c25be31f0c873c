public import ContentJSON

/// The columns `--fields` (or a query's configured `columns:`) asks for, in order.
///
/// `title,price,primaryImage._dynamicUrl` picks values by path; `image=primaryImage._dynamicUrl`
/// also renames the column.
public struct FieldSelection: Sendable, Hashable {
    /// One selected column.
    public struct Field: Sendable, Hashable {
        /// The column's name in the output.
        public var name: String
        /// Where its value is in each item.
        public var path: JSONPath

        /// Creates a field.
        ///
        /// - Parameters:
        ///   - name: The column's name.
        ///   - path: Where its value is.
        public init(name: String, path: JSONPath) {
            self.name = name
            self.path = path
        }
    }

    /// The fields, in output order.
    public var fields: [Field]

    /// Creates a selection.
    ///
    /// - Parameter fields: The fields, in output order.
    public init(_ fields: [Field]) {
        self.fields = fields
    }

    /// Parses `a,b.c,name=path`.
    ///
    /// - Parameter text: The comma-separated list.
    /// - Throws: ``OutputError/invalidFields(_:)`` naming the bad entry.
    public init(parsing text: String) throws(OutputError) {
        var fields: [Field] = []
        for entry in text.split(separator: ",", omittingEmptySubsequences: false) {
            let trimmed = entry.trimmingCharacters(in: " ")
            guard !trimmed.isEmpty else { throw .invalidFields("an empty field in '\(text)'") }
            let name: String
            let pathText: String
            if let equals = trimmed.firstIndex(of: "=") {
                name = String(trimmed[..<equals]).trimmingCharacters(in: " ")
                pathText = String(trimmed[trimmed.index(after: equals)...]).trimmingCharacters(in: " ")
                guard !name.isEmpty, !pathText.isEmpty else { throw .invalidFields("'\(trimmed)' needs NAME=PATH") }
            } else {
                name = trimmed
                pathText = trimmed
            }
            do {
                fields.append(Field(name: name, path: try JSONPath(parsing: pathText)))
            } catch {
                throw .invalidFields(error.description)
            }
        }
        self.fields = fields
    }

    /// The selection a list of column paths makes (each column named after its path).
    ///
    /// - Parameter columns: Paths such as `title` or `primaryImage._path`.
    /// - Throws: ``OutputError/invalidFields(_:)``.
    public init(columns: [String]) throws(OutputError) {
        try self.init(parsing: columns.joined(separator: ","))
    }

    /// An item with only the selected fields, in order; a missing value is `null`.
    ///
    /// - Parameter item: An item.
    /// - Returns: The projected object.
    public func project(_ item: JSONValue) -> JSONObject {
        JSONObject(fields.map { JSONMember($0.name, item.value(at: $0.path) ?? .null) })
    }
}

extension StringProtocol {
    fileprivate func trimmingCharacters(in character: Character) -> String {
        let start = firstIndex { $0 != character } ?? endIndex
        let end = lastIndex { $0 != character }.map(index(after:)) ?? start
        return String(self[start..<end])
    }
}
