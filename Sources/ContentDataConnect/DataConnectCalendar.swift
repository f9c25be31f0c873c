internal import Foundation

/// The proleptic Gregorian calendar in UTC, for the canonical text of Data Connect's dates and timestamps.
///
/// `YYYY-MM-DD` and `YYYY-MM-DDTHH:MM:SS.ffffffZ`. Arithmetic on day counts (Howard Hinnant's algorithms), so every
/// year from 0 to 9999 reads and writes alike whatever the host's calendar.
package enum DataConnectCalendar {
    /// Days since 1970-01-01 for a date.
    package static func days(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    /// The date of a day count since 1970-01-01: year, month, day.
    package static func date(days: Int) -> (Int, Int, Int) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let mp = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }

    /// `YYYY-MM-DD` of a day count since 1970-01-01.
    package static func dateText(days: Int) -> String {
        let (year, month, day) = date(days: days)
        return String(format: "%04d-%02d-%02d", year, month, day)
    }

    /// `value / divisor` rounded down, for instants before 1970 (a positive divisor).
    package static func floorDivide(_ value: Int64, _ divisor: Int64) -> Int64 {
        let quotient = value / divisor
        return (value % divisor != 0 && value < 0) ? quotient - 1 : quotient
    }

    /// The canonical text of an instant: seconds since 1970 and a microsecond fraction.
    package static func timestampText(seconds: Int64, microseconds: Int) -> String {
        let days = floorDivide(seconds, 86_400)
        let rest = Int(seconds - days * 86_400)
        let (year, month, day) = date(days: Int(days))
        guard year >= 0, (0..<1_000_000).contains(microseconds) else {
            return String(
                format: "%04d-%02d-%02dT%02d:%02d:%02d.%06dZ", year, month, day, rest / 3600, rest % 3600 / 60,
                rest % 60, microseconds)
        }
        // Every request reads the time: built directly, as `String(format:)` costs a locale and a format parse.
        return padded(year, 4) + "-" + padded(month, 2) + "-" + padded(day, 2) + "T" + padded(rest / 3600, 2) + ":"
            + padded(rest % 3600 / 60, 2) + ":" + padded(rest % 60, 2) + "." + padded(microseconds, 6) + "Z"
    }

    /// `%0*d` of a value that is not negative.
    private static func padded(_ value: Int, _ width: Int) -> String {
        let digits = String(value)
        return digits.count < width ? String(repeating: "0", count: width - digits.count) + digits : digits
    }
}
