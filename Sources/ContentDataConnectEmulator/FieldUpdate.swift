internal import ContentDataConnect
internal import ContentGraphQL
internal import ContentJSON
internal import GRDB
internal import GraphQL
internal import OrderedCollections

/// `<field>_update: [T_Update!]` of an update's `T_Data`: changes to a column's current value, applied in order.
///
/// As the service's prelude defines them: `inc` and `dec` for numbers, and for dates and timestamps by a
/// duration; `append`, `prepend`, `add` (values not already there) and `remove` (every occurrence) for lists.
/// A null number, date or timestamp stays null, as in PostgreSQL; a null list counts as empty.
struct FieldUpdate {
    let column: DataConnectSchema.Column
    let operations: [Map]

    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    /// The updates a `T_Data` input asks for.
    static func all(in data: Map, table: DataConnectSchema.Table) -> [FieldUpdate] {
        (data.dictionary ?? [:]).compactMap { key, value in
            guard key.hasSuffix("_update"), !value.isAbsent, let column = table.column(String(key.dropLast(7)))
            else { return nil }
            return FieldUpdate(column: column, operations: value.array ?? [value])
        }
    }

    /// The stored value after every operation.
    func apply(to current: DatabaseValue, values: ServerValues) throws -> DatabaseValue {
        var value = current
        for operation in operations {
            // Coerced input objects list every field; those not given are undefined.
            let given = operation.dictionary?.elements.filter { !$0.value.isAbsent } ?? []
            guard given.count == 1, let member = given.first else {
                throw Failure(description: "each \(column.field)_update entry takes exactly one operation")
            }
            let (name, argument) = (member.key, member.value)
            value = try column.isList ? list(name, argument, value) : scalar(name, argument, value, values: values)
        }
        return value
    }

    private func scalar(_ name: String, _ argument: Map, _ current: DatabaseValue, values: ServerValues) throws
        -> DatabaseValue
    {
        guard name == "inc" || name == "dec" else {
            throw Failure(description: "\(column.field)_update has no operation \(name)")
        }
        if current.isNull { return .null }
        let sign: Int64 = name == "inc" ? 1 : -1
        switch column.type {
        case .int, .int64:
            guard let base = Int64.fromDatabaseValue(current) else { return current }
            let step = try Int64.fromDatabaseValue(StoredValue.storage(argument, as: column.type)) ?? 0
            let (signed, overflowStep) = step.multipliedReportingOverflow(by: sign)
            let (sum, overflow) = base.addingReportingOverflow(signed)
            let limit = column.type == .int ? Int64(Int32.min)...Int64(Int32.max) : Int64.min...Int64.max
            guard !overflow, !overflowStep, limit.contains(sum) else {
                throw Failure(description: "\(column.field) \(name) \(step) is out of range for \(column.type)")
            }
            return sum.databaseValue
        case .float:
            let base = Double.fromDatabaseValue(current) ?? 0
            let step = Double.fromDatabaseValue(try StoredValue.storage(argument, as: .float)) ?? 0
            return (base + Double(sign) * step).databaseValue
        case .date:
            guard let day = String.fromDatabaseValue(current) else { return current }
            let relative: Map = .dictionary(["on": .string(day), name == "inc" ? "add" : "sub": argument])
            return try values.relativeDate(relative).databaseValue
        case .timestamp:
            guard let instant = String.fromDatabaseValue(current) else { return current }
            let relative: Map = .dictionary(["at": .string(instant), name == "inc" ? "add" : "sub": argument])
            return try values.relativeTimestamp(relative).databaseValue
        default:
            throw Failure(description: "\(column.field) (\(column.type)) has no inc or dec")
        }
    }

    private func list(_ name: String, _ argument: Map, _ current: DatabaseValue) throws -> DatabaseValue {
        var elements: [JSONValue] = []
        if let text = String.fromDatabaseValue(current), case .array(let stored)? = try? JSONParser().parse(text) {
            elements = stored
        }
        guard case .array = argument,
            let text = String.fromDatabaseValue(try StoredValue.storage(argument, as: column.type, isList: true)),
            case .array(let given)? = try? JSONParser().parse(text)
        else {
            throw Failure(description: "\(column.field)_update \(name) takes a list of \(column.type)")
        }
        switch name {
        case "append": elements += given
        case "prepend": elements = given + elements
        case "add":
            var present = Set(elements)
            for element in given where present.insert(element).inserted { elements.append(element) }
        case "remove":
            let removed = Set(given)
            elements.removeAll { removed.contains($0) }
        default: throw Failure(description: "\(column.field)_update has no operation \(name)")
        }
        return JSONValue.array(elements).jsonText.databaseValue
    }
}
