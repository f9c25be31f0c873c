public import ContentJSON

/// Turns items into rows of cells for the tabular formats.
///
/// Nested objects flatten into dotted columns (`primaryImage._dynamicUrl`); arrays stay one cell
/// holding their compact JSON; an item that is not an object becomes one `value` column.
public struct RowFlattener: Sendable {
    /// Creates a flattener.
    public init() {}

    /// The item's cells in member order, keyed by dotted column name.
    ///
    /// - Parameter item: An item.
    /// - Returns: Column names and values.
    public func flatten(_ item: JSONValue) -> [JSONMember] {
        guard case .object(let object) = item else { return [JSONMember("value", item)] }
        var cells: [JSONMember] = []
        append(object, prefix: "", to: &cells)
        return cells
    }

    private func append(_ object: JSONObject, prefix: String, to cells: inout [JSONMember]) {
        for member in object.members {
            let name = prefix.isEmpty ? member.key : prefix + "." + member.key
            if case .object(let nested) = member.value, !nested.members.isEmpty {
                append(nested, prefix: name, to: &cells)
            } else {
                cells.append(JSONMember(name, member.value))
            }
        }
    }
}

/// Column names in first-seen order across rows.
public struct ColumnSet: Sendable {
    /// The names, in order.
    public private(set) var names: [String] = []
    private var positions: [String: Int] = [:]

    /// Creates a column set.
    ///
    /// - Parameter names: Columns known up front.
    public init(_ names: [String] = []) {
        for name in names { insert(name) }
    }

    /// Adds a column if it is new.
    ///
    /// - Parameter name: The column.
    /// - Returns: Whether it was new.
    @discardableResult
    public mutating func insert(_ name: String) -> Bool {
        guard positions[name] == nil else { return false }
        positions[name] = names.count
        names.append(name)
        return true
    }

    /// The position of a column.
    ///
    /// - Parameter name: The column.
    /// - Returns: Its index, or `nil`.
    public func position(of name: String) -> Int? { positions[name] }

    /// Places a row's cells under these columns; cells of unknown columns are dropped.
    ///
    /// - Parameter cells: A flattened row.
    /// - Returns: One value per column, `nil` where the row has none.
    public func align(_ cells: [JSONMember]) -> [JSONValue?] {
        var row = [JSONValue?](repeating: nil, count: names.count)
        for cell in cells {
            if let position = positions[cell.key] { row[position] = cell.value }
        }
        return row
    }
}
