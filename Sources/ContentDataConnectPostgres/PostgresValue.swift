internal import ContentDataConnect
internal import ContentJSON
internal import Foundation
internal import PostgresNIO

/// A value going to or coming from PostgreSQL, in the forms the emulator's engine keeps for every database:
/// integers (booleans as 0 and 1), reals, and text (UUIDs as 32 lowercase hex digits, dates as `YYYY-MM-DD`, timestamps
/// as `YYYY-MM-DDTHH:MM:SS.ffffffZ`, lists and `jsonb` as JSON text).
public enum PostgresValue: Sendable, Equatable {
    case null
    case integer(Int64)
    case real(Double)
    case text(String)

    /// The text PostgreSQL parses for a parameter whose type it infers from where the parameter stands.
    var parameterText: String? {
        switch self {
        case .null: return nil
        case .integer(let number): return String(number)
        case .real(let number):
            if number.isNaN { return "NaN" }
            if number.isInfinite { return number < 0 ? "-Infinity" : "Infinity" }
            return "\(number)"
        case .text(let text): return text
        }
    }
}

/// One row: its column names and values, in the order the statement selected them.
public struct PostgresRecord: Sendable {
    /// The column names.
    public var columns: [String]
    /// The values, one per column.
    public var values: [PostgresValue]

    /// The value of the column named `name`, if there is one.
    public subscript(_ name: String) -> PostgresValue? {
        columns.firstIndex(of: name).map { values[$0] }
    }
}

/// A parameter as text of no declared type (OID 0), so that PostgreSQL types it from its context, as it does a quoted
/// literal: one binding serves a `uuid`, `timestamptz`, `boolean` or `integer` column alike.
struct UntypedParameter: PostgresDynamicTypeEncodable {
    let text: String
    var psqlType: PostgresDataType { .null }
    var psqlFormat: PostgresFormat { .text }

    func encode<JSONEncoder: PostgresJSONEncoder>(
        into byteBuffer: inout ByteBuffer, context: PostgresEncodingContext<JSONEncoder>
    ) {
        byteBuffer.writeString(text)
    }
}

/// Reads the binary form of the types Data Connect tables hold.
enum PostgresValueDecoding {
    /// Microseconds and days between 1970-01-01 and PostgreSQL's epoch, 2000-01-01.
    static let epochSeconds: Int64 = 946_684_800
    static let epochDays = 10_957

    /// A cell in the engine's storage form.
    ///
    /// - Parameters:
    ///   - cell: The cell.
    ///   - vector: pgvector's `vector` type in this database, if it is installed: an extension's type has no fixed
    ///     OID.
    /// - Returns: The value.
    static func value(_ cell: PostgresCell, vector: PostgresDataType?) -> PostgresValue {
        guard var bytes = cell.bytes else { return .null }
        if cell.format == .text { return .text(bytes.readString(length: bytes.readableBytes) ?? "") }
        if let vector, cell.dataType == vector {
            return self.vector(&bytes).map { .text(DataConnectVector.text($0)) } ?? .null
        }
        // The scalars most columns hold, read straight into their storage form rather than through JSON.
        switch cell.dataType {
        case .bool: return .integer((bytes.readInteger(as: UInt8.self) ?? 0) != 0 ? 1 : 0)
        case .int2: return bytes.readInteger(as: Int16.self).map { .integer(Int64($0)) } ?? .null
        case .int4: return bytes.readInteger(as: Int32.self).map { .integer(Int64($0)) } ?? .null
        case .int8: return bytes.readInteger(as: Int64.self).map { .integer($0) } ?? .null
        case .float8: return bytes.readInteger(as: UInt64.self).map { .real(Double(bitPattern: $0)) } ?? .null
        case .text, .varchar, .bpchar, .name: return .text(bytes.readString(length: bytes.readableBytes) ?? "")
        // A document stays JSON text, a string in it quoted, as the engine keeps `Any`.
        case .json: return .text(bytes.readString(length: bytes.readableBytes) ?? "null")
        case .jsonb:
            _ = bytes.readInteger(as: UInt8.self)  // the format version, 1
            return .text(bytes.readString(length: bytes.readableBytes) ?? "null")
        default: break
        }
        switch json(&bytes, type: cell.dataType, vector: vector) {
        case .null: return .null
        case .bool(let flag): return .integer(flag ? 1 : 0)
        case .number(let number):
            if let integer = Int64(number.text) { return .integer(integer) }
            return .real(number.doubleValue ?? 0)
        case .string(let text): return .text(text)
        case let other: return .text(other.jsonText)
        }
    }

    /// A value as JSON: strings for text-like types, numbers, booleans as 0 and 1 as the engine stores them in lists,
    /// arrays for arrays (a `vector` as its numbers, as in a `[Vector]` column), and the document for `json` and
    /// `jsonb`.
    static func json(_ bytes: inout ByteBuffer, type: PostgresDataType, vector: PostgresDataType? = nil) -> JSONValue {
        if let vector, type == vector {
            guard let numbers = self.vector(&bytes) else { return .null }
            return .array(numbers.map { .number(JSONNumber(text: DataConnectVector.number($0))) })
        }
        switch type {
        case .bool:
            return .bool((bytes.readInteger(as: UInt8.self) ?? 0) != 0)
        case .int2:
            return bytes.readInteger(as: Int16.self).map { .number(JSONNumber(text: String($0))) } ?? .null
        case .int4, .oid:
            return bytes.readInteger(as: Int32.self).map { .number(JSONNumber(text: String($0))) } ?? .null
        case .int8:
            return bytes.readInteger(as: Int64.self).map { .number(JSONNumber(text: String($0))) } ?? .null
        case .float4:
            return bytes.readInteger(as: UInt32.self).map {
                .number(JSONNumber(text: "\(Double(Float(bitPattern: $0)))"))
            }
                ?? .null
        case .float8:
            return bytes.readInteger(as: UInt64.self).map { .number(JSONNumber(text: "\(Double(bitPattern: $0))")) }
                ?? .null
        case .numeric:
            var copy = bytes
            if let decimal = try? Decimal(from: &copy, type: .numeric, format: .binary, context: .default) {
                return .number(JSONNumber(text: "\(decimal)"))
            }
            return .null
        case .text, .varchar, .bpchar, .name:
            return .string(bytes.readString(length: bytes.readableBytes) ?? "")
        case .uuid:
            guard let raw = bytes.readBytes(length: 16) else { return .null }
            return .string(raw.withUnsafeBytes { DataConnectUUID.hex($0) })
        case .date:
            guard let days = bytes.readInteger(as: Int32.self) else { return .null }
            if days == Int32.max { return .string("infinity") }
            if days == Int32.min { return .string("-infinity") }
            return .string(DataConnectCalendar.dateText(days: Int(days) + epochDays))
        case .timestamptz, .timestamp:
            guard let micros = bytes.readInteger(as: Int64.self) else { return .null }
            if micros == Int64.max { return .string("infinity") }
            if micros == Int64.min { return .string("-infinity") }
            let seconds = DataConnectCalendar.floorDivide(micros, 1_000_000)
            return .string(
                DataConnectCalendar.timestampText(
                    seconds: seconds + epochSeconds, microseconds: Int(micros - seconds * 1_000_000)))
        case .json:
            let text = bytes.readString(length: bytes.readableBytes) ?? "null"
            return (try? JSONParser().parse(Array(text.utf8))) ?? .string(text)
        case .jsonb:
            _ = bytes.readInteger(as: UInt8.self)  // the format version, 1
            let text = bytes.readString(length: bytes.readableBytes) ?? "null"
            return (try? JSONParser().parse(Array(text.utf8))) ?? .string(text)
        case .tid:
            guard let block = bytes.readInteger(as: UInt32.self), let offset = bytes.readInteger(as: UInt16.self) else {
                return .null
            }
            return .string("(\(block),\(offset))")
        default:
            if let array = self.array(&bytes, vector: vector) { return array }
            return .string(bytes.readString(length: bytes.readableBytes) ?? "")
        }
    }

    /// pgvector's binary form (`vector_send`): the dimension count and an unused word, both 16-bit, then each
    /// element as a big-endian `float4`.
    private static func vector(_ bytes: inout ByteBuffer) -> [Float]? {
        guard let dimensions = bytes.readInteger(as: Int16.self), dimensions >= 0,
            bytes.readInteger(as: Int16.self) != nil
        else { return nil }
        var numbers: [Float] = []
        numbers.reserveCapacity(Int(dimensions))
        for _ in 0..<dimensions {
            guard let bits = bytes.readInteger(as: UInt32.self) else { return nil }
            numbers.append(Float(bitPattern: bits))
        }
        return numbers
    }

    /// A one-dimensional array as a JSON array.
    ///
    /// The binary form: dimensions, a null flag, the element type, each dimension's length and lower bound, then each
    /// element's length (-1 for null) and bytes.
    private static func array(_ bytes: inout ByteBuffer, vector: PostgresDataType?) -> JSONValue? {
        var reader = bytes
        guard let dimensions = reader.readInteger(as: Int32.self), (0...1).contains(dimensions),
            reader.readInteger(as: Int32.self) != nil, let elementOID = reader.readInteger(as: UInt32.self)
        else { return nil }
        if dimensions == 0 { return .array([]) }
        guard let count = reader.readInteger(as: Int32.self), count >= 0, reader.readInteger(as: Int32.self) != nil
        else { return nil }
        var elements: [JSONValue] = []
        for _ in 0..<count {
            guard let length = reader.readInteger(as: Int32.self) else { return nil }
            if length < 0 {
                elements.append(.null)
                continue
            }
            guard var element = reader.readSlice(length: Int(length)) else { return nil }
            switch json(&element, type: PostgresDataType(elementOID), vector: vector) {
            case .bool(let flag): elements.append(.number(JSONNumber(flag ? 1 : 0)))
            case let other: elements.append(other)
            }
        }
        bytes = reader
        return .array(elements)
    }
}
