import Foundation
import Testing

@testable import ContentCore

struct ConfigDurationTests {
    @Test(arguments: [
        ("500ms", Duration.milliseconds(500)),
        ("30s", Duration.seconds(30)),
        ("2m", Duration.seconds(120)),
        ("1h", Duration.seconds(3600)),
        ("1.5s", Duration.milliseconds(1500)),
        ("10", Duration.seconds(10)),
        ("0.25", Duration.milliseconds(250)),
        ("0s", Duration.zero),
        (" 30s ", Duration.seconds(30)),
        ("1.5m", Duration.seconds(90)),
    ])
    func parsesEachForm(text: String, expected: Duration) throws {
        let parsed = try #require(ConfigDuration(parsing: text))
        #expect(parsed.duration == expected)
    }

    @Test(arguments: ["-1s", "abc", "10x", "", "s", "ms", "1.2.3s", "1e3s", "+5s", "10 s", "5sec", "١٠s"])
    func rejectsWhatIsNotADuration(text: String) {
        #expect(ConfigDuration(parsing: text) == nil)
    }

    @Test func rejectsDurationsTooLongToHold() {
        // A trillion milliseconds is the limit; a billion seconds is exactly that much.
        #expect(ConfigDuration(parsing: "1000000000s") == nil)
        #expect(ConfigDuration(parsing: "999999999s")?.duration == .seconds(999_999_999))
    }

    @Test(arguments: [
        (Duration.milliseconds(500), "500ms"),
        (Duration.seconds(30), "30s"),
        (Duration.seconds(120), "120s"),
        (Duration.milliseconds(1500), "1500ms"),
        (Duration.seconds(3600), "3600s"),
        (Duration.zero, "0s"),
        (Duration.milliseconds(2001), "2001ms"),
    ])
    func describesWholeSecondsInSecondsAndTheRestInMilliseconds(duration: Duration, expected: String) {
        #expect(ConfigDuration(duration).description == expected)
    }

    @Test(arguments: ["500ms", "30s", "2m", "1.5s", "1h", "10"])
    func descriptionParsesBackToTheSameDuration(text: String) throws {
        let parsed = try #require(ConfigDuration(parsing: text))
        #expect(ConfigDuration(parsing: parsed.description) == parsed)
    }

    @Test func decodesFromAStringAndNamesTheFormsWhenItCannot() throws {
        let decoded = try JSONDecoder().decode([ConfigDuration].self, from: Data(#"["45s","250ms"]"#.utf8))
        #expect(decoded.map(\.duration) == [.seconds(45), .milliseconds(250)])
        let error = #expect(throws: DecodingError.self) {
            try JSONDecoder().decode([ConfigDuration].self, from: Data(#"["soon"]"#.utf8))
        }
        guard case .dataCorrupted(let context) = error else {
            Issue.record("expected dataCorrupted, got \(String(describing: error))")
            return
        }
        #expect(context.debugDescription.contains("'soon'"))
        #expect(context.debugDescription.contains("30s"))
    }
}

struct ByteCountTests {
    @Test(arguments: [
        ("256MiB", 256 * 1024 * 1024),
        ("10MB", 10 * 1000 * 1000),
        ("1GiB", 1024 * 1024 * 1024),
        ("512KiB", 512 * 1024),
        ("1kB", 1000),
        ("2KB", 2000),
        ("3GB", 3 * 1000 * 1000 * 1000),
        ("4096", 4096),
        ("100B", 100),
        ("0", 0),
        ("10 MiB", 10 * 1024 * 1024),
        (" 7 ", 7),
    ])
    func parsesEachForm(text: String, expected: Int) throws {
        let parsed = try #require(ByteCount(parsing: text))
        #expect(parsed.bytes == expected)
    }

    @Test(arguments: [
        "-1", "1.5MB", "99999999999999GiB", "9223372036854775807KiB", "", "MiB", "abc", "10mb", "1TB", "10 M",
    ])
    func rejectsWhatIsNotASize(text: String) {
        #expect(ByteCount(parsing: text) == nil)
    }

    @Test func acceptsTheLargestCountThatFits() {
        // 8 GiB of GiB is 2^63 bytes, one more than Int.max; 8 GiB less one is the largest whole GiB count.
        #expect(ByteCount(parsing: "8589934592GiB") == nil)
        #expect(ByteCount(parsing: "8589934591GiB")?.bytes == 8_589_934_591 * 1_073_741_824)
        #expect(ByteCount(parsing: "9223372036854775807")?.bytes == Int.max)
    }

    @Test(arguments: [
        (256 * 1024 * 1024, "256MiB"),
        (1024 * 1024 * 1024, "1GiB"),
        (2048 * 1024 * 1024, "2GiB"),
        (512 * 1024, "512KiB"),
        (1536 * 1024, "1536KiB"),
        (4096, "4KiB"),
        (10 * 1000 * 1000, "10000000B"),
        (1000, "1000B"),
        (1, "1B"),
        (0, "0B"),
    ])
    func describesWithTheLargestBinaryUnitThatDivides(bytes: Int, expected: String) {
        #expect(ByteCount(bytes).description == expected)
    }

    @Test(arguments: ["256MiB", "10MB", "1GiB", "512KiB", "1kB", "4096"])
    func descriptionParsesBackToTheSameCount(text: String) throws {
        let parsed = try #require(ByteCount(parsing: text))
        #expect(ByteCount(parsing: parsed.description) == parsed)
    }
}
