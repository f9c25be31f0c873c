internal import ContentDataConnect
internal import ContentGraphQL
internal import ContentJSON
internal import Foundation
internal import GRDB
internal import GraphQL
internal import OrderedCollections

/// Between the canonical GraphQL values resolvers receive, what SQLite stores, and what the wire shows.
///
/// Storage: text for strings, enums, UUIDs, dates and timestamps (canonical forms sort correctly as text),
/// integers for Int, Int64 and Boolean, reals for Float, and JSON text for Any, Vector and lists.
enum StoredValue {
    struct Invalid: Error, CustomStringConvertible {
        let description: String
    }

    /// The SQLite value for a canonical input value.
    static func storage(_ value: Map, as type: ScalarType, isList: Bool = false) throws -> DatabaseValue {
        switch value {
        case .undefined, .null: return .null
        default: break
        }
        if type == .vector, !isList, case .array(let elements) = value {
            return try vector(elements).databaseValue
        }
        if isList || type == .any || type == .vector {
            if isList, case .array(let elements) = value {
                let stored = try elements.map { element -> JSONValue in
                    try json(storage(element, as: type))
                }
                return JSONValue.array(stored).jsonText.databaseValue
            }
            return GraphQLJSON.json(value).jsonText.databaseValue
        }
        switch (type, value) {
        case (.int, .number(let number)):
            if number.storageType == .int { return Int64(number.intValue).databaseValue }
            guard let value = Int32(exactly: number.doubleValue) else {
                throw Invalid(description: "expected an Int (32-bit), got \(number.doubleValue)")
            }
            return Int64(value).databaseValue
        case (.int64, .string(let text)):
            guard let number = Int64(text) else { throw Invalid(description: "expected an Int64, got \(text)") }
            return number.databaseValue
        case (.int64, .number(let number)):
            return Int64(number.intValue).databaseValue
        case (.float, .number(let number)):
            return number.doubleValue.databaseValue
        case (.boolean, .bool(let flag)):
            return (flag ? 1 : 0).databaseValue
        case (.string, .string(let text)), (.enumeration, .string(let text)), (.uuid, .string(let text)),
            (.date, .string(let text)), (.timestamp, .string(let text)):
            return text.databaseValue
        default:
            throw Invalid(description: "expected a \(type) value, got \(DataConnectScalars.shown(value))")
        }
    }

    /// A `Vector` as pgvector keeps it, in single precision (``DataConnectVector``), refused in pgvector's words
    /// (`src/vector.c`) when a number is beyond it or it has no elements or more than 16,000 (`VECTOR_MAX_DIM`).
    private static func vector(_ elements: [Map]) throws -> String {
        if elements.isEmpty { throw Invalid(description: "vector must have at least 1 dimension") }
        if elements.count > 16_000 { throw Invalid(description: "vector cannot have more than 16000 dimensions") }
        var numbers: [Float] = []
        numbers.reserveCapacity(elements.count)
        for element in elements {
            guard case .number(let number) = element else {
                throw Invalid(
                    description:
                        "expected a Vector (a list of numbers), got \(DataConnectScalars.shown(.array(elements)))")
            }
            let single = Float(number.doubleValue)
            guard single.isFinite else { throw Invalid(description: "\"\(number)\" is out of range for type vector") }
            numbers.append(single)
        }
        return DataConnectVector.text(numbers)
    }

    private static func json(_ value: DatabaseValue) -> JSONValue {
        switch value.storage {
        case .null: return .null
        case .int64(let number): return .number(JSONNumber(text: String(number)))
        case .double(let number): return .number(JSONNumber(text: "\(number)"))
        case .string(let text):
            return (try? JSONParser().parse(text)) ?? .string(text)
        case .blob: return .null
        }
    }

    /// The wire value for a stored one, as the default GraphQL resolvers hand it on.
    static func wire(_ value: DatabaseValue, as type: ScalarType, isList: Bool = false) -> (any Sendable)? {
        if value.isNull { return nil }
        if isList {
            guard let text = String.fromDatabaseValue(value),
                case .array(let elements)? = try? JSONParser().parse(text)
            else { return nil }
            return elements.map { element -> (any Sendable)? in
                wire(databaseValue(element), as: type)
            } as [(any Sendable)?]
        }
        switch type {
        case .any, .vector:
            guard let text = String.fromDatabaseValue(value), let parsed = try? JSONParser().parse(text) else {
                return nil
            }
            return GraphQLJSON.map(parsed)
        case .int: return Int.fromDatabaseValue(value)
        case .int64: return Int64.fromDatabaseValue(value).map { String($0) }
        case .float: return Double.fromDatabaseValue(value)
        case .boolean: return Int.fromDatabaseValue(value).map { $0 != 0 }
        case .timestamp: return String.fromDatabaseValue(value).map(DataConnectScalars.wireTimestamp)
        case .string, .uuid, .date, .enumeration: return String.fromDatabaseValue(value)
        }
    }

    /// A JSON value as SQLite stores it: booleans as 0 or 1, arrays and objects as JSON text.
    static func databaseValue(_ json: JSONValue) -> DatabaseValue {
        switch json {
        case .null: return .null
        case .bool(let flag): return (flag ? 1 : 0).databaseValue
        case .number(let number):
            if let integer = Int64(number.text) { return integer.databaseValue }
            return (number.doubleValue ?? 0).databaseValue
        case .string(let text): return text.databaseValue
        default: return json.jsonText.databaseValue
        }
    }

    /// The key output of a stored row: `{"id": "…"}` in wire form.
    static func keyOutput(_ row: [String: DatabaseValue], table: DataConnectSchema.Table) -> Map {
        var dictionary: [String: Map] = [:]
        var order: [String] = []
        for column in table.keyColumns {
            let wireValue = wire(row[column.field] ?? .null, as: column.type)
            dictionary[column.field] = (try? map(from: wireValue)) ?? .null
            order.append(column.field)
        }
        return .dictionary(.init(uniqueKeysWithValues: order.map { ($0, dictionary[$0] ?? .null) }))
    }
}
