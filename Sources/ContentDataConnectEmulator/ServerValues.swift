internal import ContentDataConnect
internal import ContentGraphQL
internal import ContentJSON
internal import Foundation
internal import GRDB
internal import GraphQL
internal import OrderedCollections

/// Values the server computes for one request: `auth.uid`, `request.time`, `uuidV4()`, other CEL
/// expressions, and relative dates and timestamps (`{today: true, add: {days: 7}}`).
struct ServerValues: Sendable {
    let auth: AuthContext
    /// The request's time, canonical; every `request.time` in one request agrees.
    let now: String
    let variables: JSONObject

    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    /// The stored value of a server expression for a column type.
    func evaluate(_ expression: String, as type: ScalarType) throws -> DatabaseValue {
        // Foundation's trimming is a good part of a planned insert's time; most expressions have nothing to trim (an
        // ASCII character other than space and tab at each end is not in `.whitespaces`).
        let isKept = { (byte: UInt8?) in byte.map { $0 < 0x80 && $0 != 0x20 && $0 != 0x09 } == true }
        let isTrimmed = isKept(expression.utf8.first) && isKept(expression.utf8.last)
        switch isTrimmed ? expression : expression.trimmingCharacters(in: .whitespaces) {
        case "auth.uid":
            guard let uid = auth.uid else {
                throw Failure(
                    description: "auth.uid is null: the request has no X-Firebase-Auth-Token with a sub or user_id")
            }
            return uid.databaseValue
        case "request.time":
            return (type == .date ? String(now.prefix(10)) : now).databaseValue
        case "uuidV4()":
            return DataConnectUUID.random().databaseValue
        default:
            let value: JSONValue
            do {
                value = try ServerExpression(expression).evaluate(environment)
            } catch {
                throw Failure(description: "cannot evaluate \(expression): \(error)")
            }
            var coerced = GraphQLJSON.map(value)
            if type == .uuid, case .string(let text) = coerced, let uuid = DataConnectScalars.uuid(text) {
                coerced = .string(uuid)
            }
            return try StoredValue.storage(coerced, as: type)
        }
    }

    /// `auth`, `request` and `vars` as expressions see them.
    var environment: [String: JSONValue] {
        [
            "auth": auth.expressionValue,
            "request": .object(["time": .string(DataConnectScalars.wireTimestamp(now))]),
            "vars": .object(variables),
        ]
    }

    // MARK: - Relative dates and times

    /// A `Date_Relative` input as `YYYY-MM-DD`.
    func relativeDate(_ input: Map) throws -> String {
        var (year, month, day): (Int, Int, Int)
        if case .string(let on) = input["on"] {
            let parts = on.split(separator: "-").compactMap { Int($0) }
            guard parts.count == 3 else { throw Failure(description: "on: expected YYYY-MM-DD, got \(on)") }
            (year, month, day) = (parts[0], parts[1], parts[2])
        } else {
            let parts = now.prefix(10).split(separator: "-").compactMap { Int($0) }
            (year, month, day) = (parts[0], parts[1], parts[2])
        }
        for (key, sign) in [("add", 1), ("sub", -1)] {
            let duration = input[key]
            guard case .dictionary = duration else { continue }
            let months = sign * ((duration["months"].int ?? 0) + 12 * (duration["years"].int ?? 0))
            let days = sign * ((duration["days"].int ?? 0) + 7 * (duration["weeks"].int ?? 0))
            // About ±300 000 years; beyond that a date has no four-digit year to print.
            guard abs(months) < 12_000_000, abs(days) < 100_000_000 else {
                throw Failure(description: "the duration \(key) \(GraphQLJSON.json(duration).jsonText) is out of range")
            }
            (year, month, day) = Self.addMonths(months, to: (year, month, day))
            (year, month, day) = DataConnectCalendar.date(
                days:
                    DataConnectCalendar.days(year: year, month: month, day: day) + days)
        }
        switch input["truncateTo"].string {
        case "YEAR": (month, day) = (1, 1)
        case "MONTH": day = 1
        case "WEEK":
            let days = DataConnectCalendar.days(year: year, month: month, day: day)
            // 1970-01-01 was a Thursday; weeks start on Monday, as Postgres truncates them.
            let weekday = ((days % 7) + 7 + 3) % 7
            (year, month, day) = DataConnectCalendar.date(days: days - weekday)
        default: break
        }
        return String(format: "%04d-%02d-%02d", year, month, day)
    }

    /// A `Timestamp_Relative` input, canonical.
    func relativeTimestamp(_ input: Map) throws -> String {
        var base = now
        if case .string(let at) = input["at"] { base = at }
        guard var instant = DataConnectScalars.instant(base) else {
            throw Failure(description: "at: expected an RFC 3339 timestamp, got \(base)")
        }
        for (key, sign) in [("add", 1), ("sub", -1)] {
            let duration = input[key]
            guard case .dictionary = duration else { continue }
            let months = sign * ((duration["months"].int ?? 0) + 12 * (duration["years"].int ?? 0))
            guard abs(months) < 12_000_000 else {
                throw Failure(description: "the duration \(key) \(GraphQLJSON.json(duration).jsonText) is out of range")
            }
            if months != 0 {
                let days = Int(instant.seconds / 86_400)
                let rest = instant.seconds - Int64(days) * 86_400
                let shifted = Self.addMonths(months, to: DataConnectCalendar.date(days: days))
                instant.seconds =
                    Int64(DataConnectCalendar.days(year: shifted.0, month: shifted.1, day: shifted.2)) * 86_400
                    + rest
            }
            // In Double, so that absurd durations are refused instead of overflowing.
            var milliseconds = Double(duration["milliseconds"].int ?? 0)
            milliseconds += 1000 * Double(duration["seconds"].int ?? 0)
            milliseconds += 60_000 * Double(duration["minutes"].int ?? 0)
            milliseconds += 3_600_000 * Double(duration["hours"].int ?? 0)
            milliseconds += 86_400_000 * Double((duration["days"].int ?? 0) + 7 * (duration["weeks"].int ?? 0))
            // About ±300 000 years, far inside Int64 microseconds.
            guard abs(milliseconds) < 1e16 else {
                throw Failure(description: "the duration \(key) \(GraphQLJSON.json(duration).jsonText) is out of range")
            }
            var micro = Int64(instant.microseconds) + Int64(sign) * Int64(milliseconds) * 1000
            instant.seconds += micro >= 0 ? micro / 1_000_000 : (micro - 999_999) / 1_000_000
            micro = ((micro % 1_000_000) + 1_000_000) % 1_000_000
            instant.microseconds = Int(micro)
        }
        if let unit = input["truncateTo"].string {
            instant.microseconds = 0
            let step: Int64 = ["SECOND": 1, "MINUTE": 60, "HOUR": 3600, "DAY": 86_400][unit] ?? 1
            instant.seconds -= ((instant.seconds % step) + step) % step
            if unit == "WEEK" || unit == "MONTH" || unit == "YEAR" {
                let date = try relativeDate(
                    .dictionary([
                        "on": .string(
                            String(
                                DataConnectCalendar.timestampText(seconds: instant.seconds, microseconds: 0).prefix(10))
                        ),
                        "truncateTo": .string(unit),
                    ]))
                let parts = date.split(separator: "-").compactMap { Int($0) }
                instant.seconds =
                    Int64(DataConnectCalendar.days(year: parts[0], month: parts[1], day: parts[2])) * 86_400
            }
        }
        return DataConnectCalendar.timestampText(seconds: instant.seconds, microseconds: instant.microseconds)
    }

    static func addMonths(_ months: Int, to date: (Int, Int, Int)) -> (Int, Int, Int) {
        guard months != 0 else { return date }
        let total = date.0 * 12 + (date.1 - 1) + months
        let year = total >= 0 ? total / 12 : (total - 11) / 12
        let month = total - year * 12 + 1
        return (year, month, min(date.2, DataConnectScalars.daysIn(month: month, year: year)))
    }
}
