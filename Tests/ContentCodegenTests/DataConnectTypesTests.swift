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
}
