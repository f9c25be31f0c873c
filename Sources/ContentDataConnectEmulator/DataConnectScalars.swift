internal import ContentDataConnect
internal import ContentGraphQL
internal import ContentJSON
internal import Foundation
internal import GraphQL
internal import OrderedCollections

/// The wire encodings of Data Connect's scalars, and their canonical forms inside the emulator.
///
/// Inputs are checked and normalised as GraphQL coerces them, so resolvers only ever see canonical
/// values: UUIDs as 32 lowercase hex digits, Int64 as decimal text, dates as `YYYY-MM-DD`, timestamps
/// as UTC with six fractional digits (which sorts as text).
enum DataConnectScalars {
    struct Invalid: Error, CustomStringConvertible {
        let description: String
    }

    /// Installs parsing and serialisation on the schema's custom scalars.
    static func install(in schema: GraphQLSchema) {
        func set(_ name: String, _ parse: @escaping @Sendable (Map) throws -> Map) {
            guard let scalar = schema.getType(name: name) as? GraphQLScalarType else { return }
            scalar.parseValue = parse
            scalar.parseLiteral = { literal in try parse(literalMap(literal)) }
            scalar.serialize = { value in try (value as? Map) ?? map(from: value) }
        }
        set("UUID") { value in
            guard case .string(let text) = value, let uuid = uuid(text) else {
                throw Invalid(description: "expected a UUID (32 hex digits, dashes allowed), got \(shown(value))")
            }
            return .string(uuid)
        }
        set("Int64") { value in
            switch value {
            case .string(let text):
                guard let number = Int64(text) else {
                    throw Invalid(description: "expected an Int64 as a decimal string, got \(shown(value))")
                }
                return .string(String(number))
            case .number(let number) where number.storageType == .int:
                return .string(String(number.intValue))
            case .number(let number)
            where number.doubleValue.rounded() == number.doubleValue
                && abs(number.doubleValue) < 9.007_199_254_740_992e15:
                return .string(String(Int64(number.doubleValue)))
            default:
                throw Invalid(description: "expected an Int64 (a decimal string), got \(shown(value))")
            }
        }
        set("Date") { value in
            guard case .string(let text) = value, let date = date(text) else {
                throw Invalid(description: "expected a Date as YYYY-MM-DD, got \(shown(value))")
            }
            return .string(date)
        }
        set("Timestamp") { value in
            guard case .string(let text) = value, let timestamp = timestamp(text) else {
                throw Invalid(
                    description: "expected a Timestamp in RFC 3339 (2024-05-01T12:00:00Z), got \(shown(value))")
            }
            return .string(timestamp)
        }
        set("True") { value in
            guard case .bool(true) = value else { throw Invalid(description: "expected true, got \(shown(value))") }
            return .bool(true)
        }
        for name in ["Any", "SQL_Params"] { set(name) { $0 } }
        set("Vector") { value in
            guard case .array(let elements) = value,
                elements.allSatisfy({ if case .number = $0 { true } else { false } })
            else {
                throw Invalid(description: "expected a Vector (a list of numbers), got \(shown(value))")
            }
            return value
        }
        for name in [
            "String_Expr", "UUID_Expr", "Date_Expr", "Timestamp_Expr", "Boolean_Expr", "Int64_Expr", "Any_Expr",
            "Int_Expr", "Float_Expr", "Any_SQL", "SQL_Query", "SQL_Mutation",
        ] {
            set(name) { value in
                guard case .string = value else {
                    throw Invalid(description: "expected an expression string, got \(shown(value))")
                }
                return value
            }
        }
        for type in schema.typeMap.values {
            guard let scalar = type as? GraphQLScalarType, scalar.name.hasSuffix("_KeyOutput") else { continue }
            scalar.serialize = { value in try (value as? Map) ?? map(from: value) }
        }
    }

    static func shown(_ value: Map) -> String {
        GraphQLJSON.json(value).jsonText
    }

    /// A literal as a `Map`, without a type to guide it (variables are resolved before scalars see values).
    static func literalMap(_ value: any Value) -> Map {
        switch value {
        case let string as StringValue: return .string(string.value)
        case let integer as IntValue:
            if let number = Int(integer.value) { return .int(number) }
            if let big = GraphQLJSON.bigInteger(integer.value) { return .number(big) }
            return .string(integer.value)
        case let float as FloatValue: return .double(Double(float.value) ?? 0)
        case let boolean as BooleanValue: return .bool(boolean.value)
        case let enumeration as EnumValue: return .string(enumeration.value)
        case let list as ListValue: return .array(list.values.map(literalMap))
        case let object as ObjectValue:
            var dictionary = OrderedDictionary<String, Map>()
            for field in object.fields { dictionary[field.name.value] = literalMap(field.value) }
            return .dictionary(dictionary)
        default: return .null
        }
    }

    // MARK: - Canonical forms

    /// 32 lowercase hex digits from hex or dashed input.
    static func uuid(_ text: String) -> String? {
        let utf8 = Array(text.utf8)
        let digits: [UInt8]
        if utf8.count == 36 {
            guard [8, 13, 18, 23].allSatisfy({ utf8[$0] == UInt8(ascii: "-") }) else { return nil }
            digits = utf8.enumerated().filter { ![8, 13, 18, 23].contains($0.offset) }.map(\.element)
        } else {
            digits = utf8
        }
        guard digits.count == 32, digits.allSatisfy({ isHex($0) }) else { return nil }
        return String(decoding: digits, as: UTF8.self).lowercased()
    }

    private static func isHex(_ byte: UInt8) -> Bool {
        (0x30...0x39).contains(byte) || (0x41...0x46).contains(byte) || (0x61...0x66).contains(byte)
    }

    /// `YYYY-MM-DD`; a timestamp's date part is accepted, as the service does.
    static func date(_ text: String) -> String? {
        let datePart = text.split(separator: "T", maxSplits: 1).first.map(String.init) ?? text
        let parts = datePart.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0].count == 4, parts[1].count == 2, parts[2].count == 2,
            let year = Int(parts[0]), let month = Int(parts[1]), let day = Int(parts[2]),
            (1...12).contains(month), day >= 1, day <= daysIn(month: month, year: year)
        else { return nil }
        if datePart.count != text.count, timestamp(text) == nil { return nil }
        return datePart
    }

    static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: return (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    /// RFC 3339 to canonical UTC with microseconds: `2024-05-01T12:00:00.000000Z`.
    static func timestamp(_ text: String) -> String? {
        guard let instant = instant(text) else { return nil }
        return DataConnectCalendar.timestampText(seconds: instant.seconds, microseconds: instant.microseconds)
    }

    /// Seconds since 1970 and the microsecond fraction of an RFC 3339 timestamp.
    static func instant(_ text: String) -> (seconds: Int64, microseconds: Int)? {
        let bytes = Array(text.utf8)
        guard bytes.count >= 20, bytes[10] == UInt8(ascii: "T") || bytes[10] == UInt8(ascii: "t") || bytes[10] == 0x20,
            bytes[13] == UInt8(ascii: ":"), bytes[16] == UInt8(ascii: ":"),
            let day = date(String(decoding: bytes[0..<10], as: UTF8.self)),
            let hour = Int(String(decoding: bytes[11..<13], as: UTF8.self)), hour < 24,
            let minute = Int(String(decoding: bytes[14..<16], as: UTF8.self)), minute < 60,
            let second = Int(String(decoding: bytes[17..<19], as: UTF8.self)), second < 61
        else { return nil }
        var index = 19
        var fraction = ""
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            index += 1
            while index < bytes.count, (0x30...0x39).contains(bytes[index]) {
                fraction.append(Character(UnicodeScalar(bytes[index])))
                index += 1
            }
            guard !fraction.isEmpty, fraction.count <= 9 else { return nil }
        }
        guard index < bytes.count else { return nil }
        var offsetSeconds = 0
        let zone = String(decoding: bytes[index...], as: UTF8.self)
        if zone == "Z" || zone == "z" {
            offsetSeconds = 0
        } else {
            let sign = zone.first == "+" ? 1 : (zone.first == "-" ? -1 : 0)
            let parts = zone.dropFirst().split(separator: ":")
            guard sign != 0, parts.count == 2, parts[0].count == 2, parts[1].count == 2,
                let hours = Int(parts[0]), let minutes = Int(parts[1]), hours < 24, minutes < 60
            else { return nil }
            offsetSeconds = sign * (hours * 3600 + minutes * 60)
        }
        let dayParts = day.split(separator: "-").compactMap { Int($0) }
        let days = DataConnectCalendar.days(year: dayParts[0], month: dayParts[1], day: dayParts[2])
        let seconds = Int64(days) * 86_400 + Int64(hour * 3600 + minute * 60 + second) - Int64(offsetSeconds)
        let micro = Int((fraction + "000000").prefix(6)) ?? 0
        return (seconds, micro)
    }

    /// What the wire shows for a canonical timestamp: no fraction when it is zero, else 3 or 6 digits.
    static func wireTimestamp(_ canonical: String) -> String {
        guard canonical.count == 27 else { return canonical }
        let base = canonical.prefix(19)
        let fraction = canonical.dropFirst(20).prefix(6)
        if fraction == "000000" { return base + "Z" }
        if fraction.hasSuffix("000") { return base + "." + fraction.prefix(3) + "Z" }
        return base + "." + fraction + "Z"
    }

    /// The current instant, canonical.
    static func now() -> String {
        let interval = Date().timeIntervalSince1970
        let seconds = Int64(interval.rounded(.down))
        return DataConnectCalendar.timestampText(
            seconds: seconds, microseconds: Int((interval - Double(seconds)) * 1_000_000))
    }
}
