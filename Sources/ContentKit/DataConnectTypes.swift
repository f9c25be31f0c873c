public import ContentJSON
public import Foundation

/// A calendar date without a time or zone: Data Connect's `Date` scalar, `YYYY-MM-DD` on the wire.
public struct LocalDate: Sendable, Hashable, Comparable, Codable, CustomStringConvertible {
    /// The year, 1 through 9999.
    public var year: Int
    /// The month, 1 through 12.
    public var month: Int
    /// The day of the month.
    public var day: Int

    /// A date from its parts; `nil` unless it is a real day of the proleptic Gregorian calendar.
    ///
    /// Plain arithmetic, not Foundation's `Calendar`, whose Gregorian calendar is Julian before 1582-10-15:
    /// the service's dates, like RFC 3339's, are Gregorian all the way back. Year 0000 is refused, as
    /// ``Timestamp``'s range starts at 0001-01-01, so every date has an instant.
    public init?(year: Int, month: Int, day: Int) {
        guard (1...9999).contains(year), (1...12).contains(month),
            (1...Self.days(inMonth: month, year: year)).contains(day)
        else { return nil }
        (self.year, self.month, self.day) = (year, month, day)
    }

    /// A date from exactly `YYYY-MM-DD` in ASCII digits; `nil` for anything else, signs included.
    public init?(_ text: String) {
        let utf8 = Array(text.utf8)
        func number(_ range: Range<Int>) -> Int? {
            var value = 0
            for byte in utf8[range] {
                guard byte &- UInt8(ascii: "0") < 10 else { return nil }
                value = value * 10 + Int(byte &- UInt8(ascii: "0"))
            }
            return value
        }
        guard utf8.count == 10, utf8[4] == UInt8(ascii: "-"), utf8[7] == UInt8(ascii: "-"),
            let year = number(0..<4), let month = number(5..<7), let day = number(8..<10)
        else { return nil }
        self.init(year: year, month: month, day: day)
    }

    /// The length of a month (1 through 12): a leap year is divisible by 4, and not by 100 unless by 400.
    private static func days(inMonth month: Int, year: Int) -> Int {
        switch month {
        case 2: return year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    /// Decodes the value from its wire form.
    public init(from decoder: any Decoder) throws {
        let text = try decoder.singleValueContainer().decode(String.self)
        guard let date = LocalDate(text) else {
            throw DecodingError.dataCorrupted(
                .init(codingPath: decoder.codingPath, debugDescription: "'\(text)' is not a YYYY-MM-DD date"))
        }
        self = date
    }

    /// Encodes the value in its wire form.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(description)
    }

    /// `YYYY-MM-DD`.
    public var description: String {
        func padded(_ value: Int, _ width: Int) -> String {
            let digits = String(value)
            return String(repeating: "0", count: max(0, width - digits.count)) + digits
        }
        return "\(padded(year, 4))-\(padded(month, 2))-\(padded(day, 2))"
    }

    /// Whether `lhs` comes first.
    public static func < (lhs: LocalDate, rhs: LocalDate) -> Bool {
        (lhs.year, lhs.month, lhs.day) < (rhs.year, rhs.month, rhs.day)
    }
}

/// An instant: Data Connect's `Timestamp` scalar, RFC 3339 on the wire, to the nanosecond.
public struct Timestamp: Sendable, Hashable, Comparable, Codable, CustomStringConvertible {
    /// Seconds since 1970-01-01T00:00:00Z.
    public var seconds: Int64
    /// The fraction of the second, 0 ..< 1,000,000,000.
    public var nanoseconds: Int32

    /// The seconds RFC 3339 can write: 0001-01-01T00:00:00Z through 9999-12-31T23:59:59Z.
    private static let secondsRange: ClosedRange<Int64> = -62_135_596_800...253_402_300_799

    /// An instant from seconds since 1970 and a fraction.
    ///
    /// Whole seconds in `nanoseconds` carry into `seconds` (a negative fraction borrows one), and an instant
    /// outside years 0001 through 9999 is held at the nearest end, so every value can be written as RFC 3339.
    public init(seconds: Int64, nanoseconds: Int32 = 0) {
        let (carry, fraction) = Int64(nanoseconds).quotientAndRemainder(dividingBy: 1_000_000_000)
        let borrow: Int64 = fraction < 0 ? 1 : 0
        // The carry is at most 3 seconds either way: clamping to a range that much wider first cannot overflow.
        let range = Self.secondsRange
        let total = seconds.clamped(to: (range.lowerBound - 4)...(range.upperBound + 4)) + carry - borrow
        if total > range.upperBound {
            (self.seconds, self.nanoseconds) = (range.upperBound, 999_999_999)
        } else if total < range.lowerBound {
            (self.seconds, self.nanoseconds) = (range.lowerBound, 0)
        } else {
            (self.seconds, self.nanoseconds) = (total, Int32(fraction + borrow * 1_000_000_000))
        }
    }

    /// The instant a `Date` names.
    public init(date: Date) {
        // Beyond year 9999 (or not finite) is past what RFC 3339 can say: hold the nearest end instead of trapping.
        let interval = date.timeIntervalSince1970.isNaN ? 0 : date.timeIntervalSince1970
        let range = Double(Self.secondsRange.lowerBound)...Double(Self.secondsRange.upperBound)
        let whole = interval.rounded(.down).clamped(to: range)
        seconds = Int64(whole)
        let fraction = interval - whole
        nanoseconds = fraction < 1 ? Int32((fraction * 1e9).rounded().clamped(to: 0...999_999_999)) : 0
    }

    /// The instant as a `Date` (to about a microsecond).
    public var date: Date { Date(timeIntervalSince1970: Double(seconds) + Double(nanoseconds) / 1e9) }

    /// Reads RFC 3339: `2024-05-01T12:30:00Z`, with any fraction and a `Z` or `±hh:mm` offset; `nil` for
    /// anything else, or for an instant the offset moves outside years 0001 through 9999 in UTC.
    public init?(_ text: String) {
        guard case .instant(let timestamp) = Self.parse(text) else { return nil }
        self = timestamp
    }

    /// What reading RFC 3339 text found.
    private enum Parsed {
        case instant(Timestamp)
        case malformed
        /// Well formed, but outside years 0001 through 9999 once in UTC: its UTC text would not read back.
        case outOfRange
    }

    private static func parse(_ text: String) -> Parsed {
        let utf8 = Array(text.utf8)
        func number(_ range: Range<Int>) -> Int? {
            guard range.upperBound <= utf8.count else { return nil }
            var value = 0
            for byte in utf8[range] {
                guard byte &- UInt8(ascii: "0") < 10 else { return nil }
                value = value * 10 + Int(byte &- UInt8(ascii: "0"))
            }
            return value
        }
        guard utf8.count >= 20, let date = LocalDate(String(decoding: utf8[0..<10], as: UTF8.self)),
            utf8[10] | 0x20 == UInt8(ascii: "t"), utf8[13] == UInt8(ascii: ":"), utf8[16] == UInt8(ascii: ":"),
            let hour = number(11..<13), let minute = number(14..<16), let second = number(17..<19),
            hour < 24, minute < 60, second < 61
        else { return .malformed }
        var index = 19
        var nanos = 0
        if utf8[index] == UInt8(ascii: ".") {
            index += 1
            var digits = 0
            while index < utf8.count, utf8[index] &- UInt8(ascii: "0") < 10 {
                if digits < 9 { nanos = nanos * 10 + Int(utf8[index] &- UInt8(ascii: "0")) }
                digits += 1
                index += 1
            }
            guard digits > 0 else { return .malformed }
            for _ in digits..<max(digits, 9) { nanos *= 10 }
        }
        var offset = 0
        guard index < utf8.count else { return .malformed }
        switch utf8[index] {
        case UInt8(ascii: "Z"), UInt8(ascii: "z"):
            guard index + 1 == utf8.count else { return .malformed }
        case UInt8(ascii: "+"), UInt8(ascii: "-"):
            guard index + 6 == utf8.count, utf8[index + 3] == UInt8(ascii: ":"),
                let hours = number((index + 1)..<(index + 3)), let minutes = number((index + 4)..<(index + 6)),
                hours < 24, minutes < 60
            else { return .malformed }
            offset = (hours * 60 + minutes) * 60 * (utf8[index] == UInt8(ascii: "-") ? -1 : 1)
        default:
            return .malformed
        }
        let seconds = Int64(daysSinceEpoch(date) * 86_400 + hour * 3600 + minute * 60 + second - offset)
        guard secondsRange.contains(seconds) else { return .outOfRange }
        return .instant(Timestamp(seconds: seconds, nanoseconds: Int32(nanos)))
    }

    /// Decodes the value from its wire form.
    public init(from decoder: any Decoder) throws {
        let text = try decoder.singleValueContainer().decode(String.self)
        let problem: String
        switch Self.parse(text) {
        case .instant(let timestamp):
            self = timestamp
            return
        case .malformed: problem = "is not an RFC 3339 timestamp"
        case .outOfRange: problem = "is outside years 0001 through 9999 in UTC"
        }
        throw DecodingError.dataCorrupted(
            .init(codingPath: decoder.codingPath, debugDescription: "'\(text)' \(problem)"))
    }

    /// Encodes the value in its wire form.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(description)
    }

    /// RFC 3339 in UTC, with the fraction when there is one: `2024-05-01T12:30:00.5Z`.
    public var description: String {
        // The fields are settable, so normalize again: an out-of-range value prints as the nearest end.
        let instant = Self(seconds: seconds, nanoseconds: nanoseconds)
        let days =
            Int(instant.seconds.quotientAndRemainder(dividingBy: 86_400).quotient)
            - (instant.seconds % 86_400 < 0 ? 1 : 0)
        let secondOfDay = Int(instant.seconds - Int64(days) * 86_400)
        let date = Self.civil(fromDays: days)
        func two(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
        var text = "\(date)T\(two(secondOfDay / 3600)):\(two(secondOfDay / 60 % 60)):\(two(secondOfDay % 60))"
        if instant.nanoseconds > 0 {
            var fraction = String(instant.nanoseconds)
            fraction = String(repeating: "0", count: 9 - fraction.count) + fraction
            while fraction.hasSuffix("0") { fraction.removeLast() }
            text += "." + fraction
        }
        return text + "Z"
    }

    /// Whether `lhs` comes first.
    public static func < (lhs: Timestamp, rhs: Timestamp) -> Bool {
        (lhs.seconds, lhs.nanoseconds) < (rhs.seconds, rhs.nanoseconds)
    }

    // Howard Hinnant's days-from-civil and its inverse: exact for the proleptic Gregorian calendar.
    private static func daysSinceEpoch(_ date: LocalDate) -> Int {
        let year = date.month <= 2 ? date.year - 1 : date.year
        let era = (year >= 0 ? year : year - 399) / 400
        let yearOfEra = year - era * 400
        let dayOfYear = (153 * (date.month + (date.month > 2 ? -3 : 9)) + 2) / 5 + date.day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    private static func civil(fromDays days: Int) -> String {
        let shifted = days + 719_468
        let era = (shifted >= 0 ? shifted : shifted - 146_096) / 146_097
        let dayOfEra = shifted - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthIndex = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * monthIndex + 2) / 5 + 1
        let month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
        let year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
        return LocalDate(year: year, month: month, day: day)?.description ?? "\(year)-\(month)-\(day)"
    }
}

extension Comparable {
    fileprivate func clamped(to range: ClosedRange<Self>) -> Self { min(max(self, range.lowerBound), range.upperBound) }
}

/// Any JSON value: Data Connect's `Any` scalar.
public struct AnyValue: Sendable, Hashable, Codable, CustomStringConvertible {
    /// The value.
    public var json: JSONValue

    /// Wraps a value.
    public init(_ json: JSONValue) { self.json = json }

    /// Decodes the value from its wire form.
    public init(from decoder: any Decoder) throws {
        json = try Self.read(decoder)
    }

    private static func read(_ decoder: any Decoder) throws -> JSONValue {
        if var array = try? decoder.unkeyedContainer() {
            var elements: [JSONValue] = []
            while !array.isAtEnd { elements.append(try array.decode(AnyValue.self).json) }
            return .array(elements)
        }
        if let object = try? decoder.container(keyedBy: AnyKey.self) {
            return .object(
                JSONObject(
                    try object.allKeys.map {
                        JSONMember($0.stringValue, try object.decode(AnyValue.self, forKey: $0).json)
                    }))
        }
        let single = try decoder.singleValueContainer()
        if single.decodeNil() { return .null }
        if let bool = try? single.decode(Bool.self) { return .bool(bool) }
        if let string = try? single.decode(String.self) { return .string(string) }
        if let exact = single as? any JSONNumberTextDecoding, let number = try? exact.decodeJSONNumber() {
            return .number(number)
        }
        return .number(try Self.number(from: single, codingPath: decoder.codingPath))
    }

    /// A number from a decoder that keeps no number text, such as `JSONDecoder`.
    ///
    /// The first type that holds it: Int64, UInt64, then Decimal (38 digits, exact for decimal fractions), then
    /// Double. Past all four (`1e400`) the decoder's error stands; ``JSONModelDecoder`` hands over the text
    /// instead, so there any number decodes.
    private static func number(
        from single: any SingleValueDecodingContainer, codingPath: [any CodingKey]
    ) throws -> JSONNumber {
        if let integer = try? single.decode(Int64.self) { return JSONNumber(text: String(integer)) }
        if let integer = try? single.decode(UInt64.self) { return JSONNumber(text: String(integer)) }
        // Some Foundations read a number below Decimal's range as zero: then only a zero Double confirms it.
        if let decimal = try? single.decode(Decimal.self), !decimal.isNaN, ExactNumber(decimal.description) != nil,
            !decimal.isZero || (try? single.decode(Double.self)) == 0
        {
            return JSONNumber(text: decimal.description)
        }
        let double = try single.decode(Double.self)
        guard double.isFinite else {
            throw DecodingError.dataCorrupted(
                .init(codingPath: codingPath, debugDescription: "\(double) is not a JSON number"))
        }
        return JSONNumber(text: String(double))
    }

    /// Encodes the value in its wire form.
    public func encode(to encoder: any Encoder) throws {
        switch json {
        case .null:
            var single = encoder.singleValueContainer()
            try single.encodeNil()
        case .bool(let value):
            var single = encoder.singleValueContainer()
            try single.encode(value)
        case .string(let value):
            var single = encoder.singleValueContainer()
            try single.encode(value)
        case .number(let number):
            var single = encoder.singleValueContainer()
            try Self.write(number, to: &single, codingPath: encoder.codingPath)
        case .array(let elements):
            var array = encoder.unkeyedContainer()
            for element in elements { try array.encode(AnyValue(element)) }
        case .object(let object):
            var container = encoder.container(keyedBy: AnyKey.self)
            for member in object.members { try container.encode(AnyValue(member.value), forKey: AnyKey(member.key)) }
        }
    }

    /// Writes a number as the first type that carries exactly its value, as an `Encoder` takes no number text.
    ///
    /// Int64, UInt64, Double, then Decimal (which JSON encoders write as a number, others as its parts). A number
    /// none of them carries (`1e400`, 50 digits) is an error, never a nearby number.
    private static func write(
        _ number: JSONNumber, to single: inout any SingleValueEncodingContainer, codingPath: [any CodingKey]
    ) throws {
        let text = number.text
        guard let value = ExactNumber(text) else {
            throw EncodingError.invalidValue(
                text, .init(codingPath: codingPath, debugDescription: "'\(text)' is not a JSON number"))
        }
        if let integer = Int64(text) {
            try single.encode(integer)
        } else if let integer = UInt64(text) {
            try single.encode(integer)
        } else if let double = Double(text), double.isFinite, ExactNumber(String(double)) == value {
            try single.encode(double)
        } else if let decimal = Decimal(string: text), !decimal.isNaN, ExactNumber(decimal.description) == value {
            try single.encode(decimal)
        } else {
            throw EncodingError.invalidValue(
                text,
                .init(codingPath: codingPath, debugDescription: "no Swift number type holds \(text) exactly"))
        }
    }

    /// The value as JSON text.
    public var description: String { json.jsonText }

    /// A JSON number's value as sign, digits and power of ten, without leading or trailing zero digits, so
    /// texts naming one number compare equal (`1.50`, `15e-1`); `nil` for text that is not a JSON number.
    private struct ExactNumber: Equatable {
        var negative = false
        var digits: [UInt8] = []
        var exponent = 0

        init?(_ text: String) {
            let bytes = Array(text.utf8)
            var index = 0
            func run() -> [UInt8] {
                let start = index
                while index < bytes.count, bytes[index] &- UInt8(ascii: "0") < 10 { index += 1 }
                return Array(bytes[start..<index])
            }
            if index < bytes.count, bytes[index] == UInt8(ascii: "-") {
                negative = true
                index += 1
            }
            let whole = run()
            guard let first = whole.first, first != UInt8(ascii: "0") || whole.count == 1 else { return nil }
            var fraction: [UInt8] = []
            if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
                index += 1
                fraction = run()
                guard !fraction.isEmpty else { return nil }
            }
            if index < bytes.count, bytes[index] | 0x20 == UInt8(ascii: "e") {
                index += 1
                var sign = 1
                if index < bytes.count, bytes[index] == UInt8(ascii: "-") || bytes[index] == UInt8(ascii: "+") {
                    sign = bytes[index] == UInt8(ascii: "-") ? -1 : 1
                    index += 1
                }
                let written = run()
                guard !written.isEmpty else { return nil }
                // Saturated, to fit any Int: no Double or Decimal text comes near 10^8, so it still compares unequal.
                var magnitude = 0
                for byte in written { magnitude = min(magnitude * 10 + Int(byte &- UInt8(ascii: "0")), 100_000_000) }
                exponent = sign * magnitude
            }
            guard index == bytes.count else { return nil }
            digits = whole + fraction
            exponent -= fraction.count
            guard let firstNonZero = digits.firstIndex(where: { $0 != UInt8(ascii: "0") }) else {
                // Zero, whatever its sign or exponent.
                (negative, digits, exponent) = (false, [], 0)
                return
            }
            digits.removeFirst(firstNonZero)
            while digits.last == UInt8(ascii: "0") {
                digits.removeLast()
                exponent += 1
            }
        }
    }

    private struct AnyKey: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(_ string: String) { stringValue = string }
        init?(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }
}

/// How Data Connect spells the scalars whose Swift type has another `Codable` form: generated clients decode
/// and encode through these, then hand out the plain `UUID` and `Int64`.
public enum DataConnectWire {
    /// A `UUID`: 32 lowercase hex digits on the wire; dashed text is read too.
    public struct UUIDValue: Sendable, Hashable, Codable {
        /// The value.
        public var value: UUID

        /// Wraps a value.
        public init(_ value: UUID) { self.value = value }

        /// Decodes the value from its wire form.
        public init(from decoder: any Decoder) throws {
            let text = try decoder.singleValueContainer().decode(String.self)
            var dashed = text
            if text.count == 32 {
                let hex = Array(text)
                dashed =
                    String(hex[0..<8]) + "-" + String(hex[8..<12]) + "-" + String(hex[12..<16]) + "-"
                    + String(hex[16..<20]) + "-" + String(hex[20..<32])
            }
            guard let uuid = UUID(uuidString: dashed) else {
                throw DecodingError.dataCorrupted(
                    .init(codingPath: decoder.codingPath, debugDescription: "'\(text)' is not a UUID"))
            }
            value = uuid
        }

        /// Encodes the value in its wire form.
        public func encode(to encoder: any Encoder) throws {
            var container = encoder.singleValueContainer()
            try container.encode(value.uuidString.lowercased().replacingOccurrences(of: "-", with: ""))
        }
    }

    /// An `Int64`: a JSON string on the wire, so no digit is lost to a double; a number is read too.
    public struct Int64Value: Sendable, Hashable, Codable {
        /// The value.
        public var value: Int64

        /// Wraps a value.
        public init(_ value: Int64) { self.value = value }

        /// Decodes the value from its wire form.
        public init(from decoder: any Decoder) throws {
            let container = try decoder.singleValueContainer()
            if let number = try? container.decode(Int64.self) {
                value = number
                return
            }
            let text = try container.decode(String.self)
            guard let number = Int64(text) else {
                throw DecodingError.dataCorrupted(
                    .init(codingPath: decoder.codingPath, debugDescription: "'\(text)' is not a 64-bit integer"))
            }
            value = number
        }

        /// Encodes the value in its wire form.
        public func encode(to encoder: any Encoder) throws {
            var container = encoder.singleValueContainer()
            try container.encode(String(value))
        }
    }
}

/// Turns a generated `Variables` value into the JSON object a request carries.
public enum ContentVariables {
    /// The JSON object `value` encodes to; `nil` members are left out.
    ///
    /// - Parameter value: Any `Encodable` that encodes as an object.
    /// - Returns: The object.
    /// - Throws: `EncodingError`, or ``ContentClientError/noData(operation:)``-like failures when it is not an object.
    public static func object(_ value: some Encodable) throws -> JSONObject {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let bytes = try encoder.encode(value)
        guard case .object(let object) = try JSONParser().parse([UInt8](bytes)) else {
            throw EncodingError.invalidValue(
                value, .init(codingPath: [], debugDescription: "variables must encode as a JSON object"))
        }
        return object
    }
}
