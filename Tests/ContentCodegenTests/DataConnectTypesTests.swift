import ContentJSON
import ContentKit
import Foundation
import Testing

/// The scalar types generated Data Connect clients use, against the wire forms the service sends.
struct DataConnectTypesTests {
    @Test(arguments: ["2024-02-29", "0001-01-01", "9999-12-31"])
    func localDatesRoundTrip(text: String) throws {
        let date = try #require(LocalDate(text))
        #expect(date.description == text)
    }

    @Test(arguments: ["2023-02-29", "2024-13-01", "24-01-01", "2024-1-01", "２０２４-01-01", "", "2024-01-01T00:00:00Z"])
    func malformedDatesAreRejected(text: String) {
        #expect(LocalDate(text) == nil)
    }

    @Test func timestampsReadOffsetsAndFractionsAndWriteUTC() throws {
        let stamp = try #require(Timestamp("2024-05-01T14:30:00.123456789+02:00"))
        #expect(stamp.description == "2024-05-01T12:30:00.123456789Z")
        #expect(Timestamp("1969-12-31T23:59:59.5Z")?.description == "1969-12-31T23:59:59.5Z")
        #expect(Timestamp("1970-01-01T00:00:00Z")?.seconds == 0)
        // More than nine fraction digits keep the first nine.
        #expect(Timestamp("2024-01-01T00:00:00.1234567891234Z")?.nanoseconds == 123_456_789)
    }

    @Test(arguments: [
        "2024-05-01T12:30:00", "2024-05-01T12:30:00.Z", "2024-05-01 12:30:00Z", "2024-05-01T25:00:00Z",
        "2024-05-01T12:30:00+2:00", "2024-05-01T12:30:00Zjunk", "", "2024-05-01T12:30:00.12345678901234567890123",
    ])
    func malformedTimestampsAreRejected(text: String) {
        #expect(Timestamp(text) == nil)
    }

    @Test func datesOutsideRFC3339AreHeldAtTheEndsInsteadOfTrapping() {
        #expect(Timestamp(date: Date(timeIntervalSince1970: .infinity)).description == "9999-12-31T23:59:59Z")
        #expect(Timestamp(date: Date(timeIntervalSince1970: -.infinity)).description == "0001-01-01T00:00:00Z")
        #expect(Timestamp(date: Date(timeIntervalSince1970: 1.25)).description == "1970-01-01T00:00:01.25Z")
    }

    @Test func uuidsAndInt64sUseTheirWireForms() throws {
        let decoder = JSONDecoder()
        let uuid = try decoder.decode(
            DataConnectWire.UUIDValue.self, from: Data(#""0b5c1b1e3a524c7e9d0b6f1e8a2c4d01""#.utf8))
        #expect(uuid.value == UUID(uuidString: "0B5C1B1E-3A52-4C7E-9D0B-6F1E8A2C4D01"))
        let encoded = try JSONEncoder().encode(uuid)
        #expect(String(decoding: encoded, as: UTF8.self) == #""0b5c1b1e3a524c7e9d0b6f1e8a2c4d01""#)
        #expect(throws: DecodingError.self) {
            try decoder.decode(DataConnectWire.UUIDValue.self, from: Data(#""zz5c1b1e3a524c7e9d0b6f1e8a2c4d01""#.utf8))
        }
        let big = try decoder.decode(DataConnectWire.Int64Value.self, from: Data(#""9223372036854775807""#.utf8))
        #expect(big.value == .max)
        #expect(throws: DecodingError.self) {
            try decoder.decode(DataConnectWire.Int64Value.self, from: Data(#""9223372036854775808""#.utf8))
        }
    }

    @Test func anyValueKeepsWhateverJSONItHolds() throws {
        let text = #"{"a":[1,2.5,"x",true,null],"b":{"c":-3}}"#
        let value = try JSONDecoder().decode(AnyValue.self, from: Data(text.utf8))
        let again = try JSONDecoder().decode(AnyValue.self, from: JSONEncoder().encode(value))
        // Codable containers do not keep member order, so compare member by member.
        #expect(again.json["a"] == value.json["a"])
        #expect(again.json["b"] == value.json["b"])
        #expect(value.json["a"]?.arrayValue?.count == 5)
        #expect(value.json["b"]?["c"] == .number(JSONNumber(text: "-3")))
    }

    // MARK: LocalDate: exactly YYYY-MM-DD, proleptic Gregorian

    @Test(arguments: ["1600-02-29", "2000-02-29", "1582-10-10", "1582-10-04", "0004-02-29", "1500-02-28"])
    func localDatesFollowTheProlepticGregorianCalendar(text: String) throws {
        let date = try #require(LocalDate(text))
        #expect(date.description == text)
    }

    @Test(arguments: [
        "1500-02-29", "1900-02-29", "+202-01-01", "-202-01-01", "2024-+1-01", "2024-01-+1", "2024-1-01", "2024-01-1",
        "2024-02-30", "2024-04-31", "2024-00-10", "2024-01-00", "0000-01-01", "10000-01-01", "2024/01/01",
        " 2024-01-01",
    ])
    func datesOutsideStrictYYYYMMDDOrTheCalendarAreRejected(text: String) {
        #expect(LocalDate(text) == nil)
    }

    @Test func localDatePartsAreCheckedByArithmetic() {
        #expect(LocalDate(year: 1500, month: 2, day: 29) == nil)
        #expect(LocalDate(year: 1900, month: 2, day: 29) == nil)
        #expect(LocalDate(year: 2000, month: 2, day: 29)?.description == "2000-02-29")
        #expect(LocalDate(year: 1582, month: 10, day: 10)?.description == "1582-10-10")
        #expect(LocalDate(year: 0, month: 1, day: 1) == nil)
        #expect(LocalDate(year: 10_000, month: 1, day: 1) == nil)
        #expect(LocalDate(year: 2024, month: 13, day: 1) == nil)
        #expect(LocalDate(year: 2024, month: 0, day: 1) == nil)
        #expect(LocalDate(year: 2024, month: 4, day: 31) == nil)
        #expect(LocalDate(year: 2024, month: 1, day: 0) == nil)
        // Timestamps count days in the same calendar: 1500 has no February 29.
        #expect(Timestamp("1500-02-28T23:59:59-00:01")?.description == "1500-03-01T00:00:59Z")
        #expect(Timestamp("1582-10-10T00:00:00Z")?.description == "1582-10-10T00:00:00Z")
    }

    // MARK: Timestamp: normalized, and always writable as RFC 3339

    @Test func timestampInitCarriesWholeSecondsOutOfTheFraction() {
        let carried = Timestamp(seconds: 0, nanoseconds: 1_500_000_000)
        #expect(carried.seconds == 1)
        #expect(carried.nanoseconds == 500_000_000)
        #expect(carried.description == "1970-01-01T00:00:01.5Z")
        let borrowed = Timestamp(seconds: 0, nanoseconds: -1)
        #expect(borrowed.seconds == -1)
        #expect(borrowed.nanoseconds == 999_999_999)
        #expect(borrowed.description == "1969-12-31T23:59:59.999999999Z")
        #expect(Timestamp(seconds: 10, nanoseconds: .min).description == "1970-01-01T00:00:07.852516352Z")
        #expect(Timestamp(seconds: 0, nanoseconds: .max).description == "1970-01-01T00:00:02.147483647Z")
        #expect(Timestamp(seconds: 5, nanoseconds: -1_000_000_000) == Timestamp(seconds: 4))
    }

    @Test func timestampsClampToWhatRFC3339CanWrite() {
        let latest = "9999-12-31T23:59:59.999999999Z"
        let earliest = "0001-01-01T00:00:00Z"
        #expect(Timestamp(seconds: .max).description == latest)
        #expect(Timestamp(seconds: .max, nanoseconds: .max).description == latest)
        #expect(Timestamp(seconds: .max, nanoseconds: .min).description == latest)
        #expect(Timestamp(seconds: .min).description == earliest)
        #expect(Timestamp(seconds: .min, nanoseconds: .min).description == earliest)
        #expect(Timestamp(seconds: .min, nanoseconds: .max).description == earliest)
        #expect(Timestamp(seconds: 253_402_300_799, nanoseconds: 999_999_999).description == latest)
        #expect(Timestamp(seconds: 253_402_300_799, nanoseconds: 1_000_000_000).description == latest)
        #expect(Timestamp(seconds: -62_135_596_800, nanoseconds: -1).description == earliest)
        // The carry comes before the clamp: one second before the range plus a whole second is its first instant.
        #expect(Timestamp(seconds: -62_135_596_801, nanoseconds: 1_000_000_000) == Timestamp(seconds: -62_135_596_800))
        // The fields are settable: description normalizes what it is given too.
        var edited = Timestamp(seconds: 0)
        edited.seconds = .min
        edited.nanoseconds = .max
        #expect(edited.description == earliest)
        edited.seconds = .max
        #expect(edited.description == latest)
        // What the ends print reads back.
        for stamp in [Timestamp(seconds: .max, nanoseconds: .max), Timestamp(seconds: .min, nanoseconds: .min)] {
            #expect(Timestamp(stamp.description) == stamp)
        }
    }

    @Test func offsetsThatLeaveYears0001Through9999AreRejected() {
        #expect(Timestamp("0001-01-01T00:00:00+01:00") == nil)
        #expect(Timestamp("9999-12-31T23:59:59-01:00") == nil)
        #expect(Timestamp("9999-12-31T23:30:00-00:30") == nil)
        // Just inside, the same offsets read, and print as text that reads back.
        #expect(Timestamp("0001-01-01T01:00:00+01:00")?.description == "0001-01-01T00:00:00Z")
        #expect(Timestamp("9999-12-31T22:59:59.999999999-01:00")?.description == "9999-12-31T23:59:59.999999999Z")
        #expect(
            decodingFailure(Timestamp.self, #""0001-01-01T00:00:00+01:00""#)
                == "'0001-01-01T00:00:00+01:00' is outside years 0001 through 9999 in UTC")
        #expect(
            decodingFailure(Timestamp.self, #""9999-12-31T23:59:59-01:00""#)
                == "'9999-12-31T23:59:59-01:00' is outside years 0001 through 9999 in UTC")
        #expect(
            decodingFailure(Timestamp.self, #""2024-05-01T25:00:00Z""#)
                == "'2024-05-01T25:00:00Z' is not an RFC 3339 timestamp")
        #expect(decodingFailure(Timestamp.self, #""0001-01-01T01:00:00+01:00""#) == nil)
    }

    // MARK: AnyValue: numbers keep their value

    @Test(arguments: [
        "18446744073709551615", "-9223372036854775808", "9223372036854775808", "123456789012345678901234567890",
        "3.141592653589793238",
    ])
    func anyValueRoundTripsNumbersExactlyThroughFoundation(text: String) throws {
        // JSONDecoder keeps no number text: past Int64 and UInt64 these come through Decimal, which holds them.
        let value = try JSONDecoder().decode(AnyValue.self, from: Data(text.utf8))
        #expect(value.json == .number(JSONNumber(text: text)))
        let written = try JSONEncoder().encode(value)
        #expect(String(decoding: written, as: UTF8.self) == text)
        let ours = try JSONModelDecoder().decode(AnyValue.self, from: Array(text.utf8))
        #expect(ours.json == .number(JSONNumber(text: text)))
    }

    @Test func anyValueKeepsEveryNumberAsWrittenThroughJSONModelDecoder() throws {
        let text = #"{"huge":1e400,"tiny":-1e-400,"long":123456789012345678901234567890123456789012345,"exact":1.50}"#
        let value = try JSONModelDecoder().decode(AnyValue.self, from: Array(text.utf8))
        #expect(value.json["huge"] == .number(JSONNumber(text: "1e400")))
        #expect(value.json["tiny"] == .number(JSONNumber(text: "-1e-400")))
        #expect(value.json["long"] == .number(JSONNumber(text: "123456789012345678901234567890123456789012345")))
        #expect(value.json["exact"] == .number(JSONNumber(text: "1.50")))
        let alone = try JSONModelDecoder().decode(AnyValue.self, from: Array("1e400".utf8))
        #expect(alone.json == .number(JSONNumber(text: "1e400")))
        // JSONDecoder hands over no text and no type it offers holds 1e400, so there it stays an error.
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(AnyValue.self, from: Data("1e400".utf8)) }
    }

    @Test func anyValueWritesANumberItCannotCarryAsAnErrorNotAnotherNumber() throws {
        func written(_ text: String) throws -> String {
            try String(decoding: JSONEncoder().encode(AnyValue(.number(JSONNumber(text: text)))), as: UTF8.self)
        }
        #expect(try written("0.1") == "0.1")
        #expect(try written("1.50") == "1.5")
        #expect(try written("-42") == "-42")
        for text in [
            "1e400", "-1e400", "1e-400", "123456789012345678901234567890123456789012345", "abc", "", "01", "1.",
        ] {
            #expect(throws: EncodingError.self) { try JSONEncoder().encode(AnyValue(.number(JSONNumber(text: text)))) }
        }
    }

    /// The description of the `dataCorrupted` error decoding `json` throws, or `nil` when it decodes.
    private func decodingFailure<T: Decodable>(_ type: T.Type, _ json: String) -> String? {
        do {
            _ = try JSONDecoder().decode(type, from: Data(json.utf8))
            return nil
        } catch DecodingError.dataCorrupted(let context) {
            return context.debugDescription
        } catch {
            return "\(error)"
        }
    }
}
