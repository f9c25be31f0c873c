import Foundation
import Testing

@testable import ContentDataConnect

struct DataConnectUUIDTests {
    @Test func bytesBecomeTwoLowerCaseHexDigitsEach() {
        #expect([UInt8]().withUnsafeBytes { DataConnectUUID.hex($0) } == "")
        #expect([UInt8]([0x00, 0x0f, 0xa0, 0xff, 0x5c]).withUnsafeBytes { DataConnectUUID.hex($0) } == "000fa0ff5c")
        // The same text as Foundation's, less its dashes and capitals.
        let uuid = UUID()
        let foundation = uuid.uuidString.replacingOccurrences(of: "-", with: "").lowercased()
        #expect(withUnsafeBytes(of: uuid.uuid) { DataConnectUUID.hex($0) } == foundation)
    }

    @Test func aRandomUUIDIsVersionFourInCanonicalForm() {
        let made = (0..<64).map { _ in DataConnectUUID.random() }
        for text in made {
            let digits = Array(text.utf8)
            #expect(digits.count == 32, "\(text)")
            #expect(digits.allSatisfy { (0x30...0x39).contains($0) || (0x61...0x66).contains($0) }, "\(text)")
            // RFC 9562: version 4 in the 13th digit, the variant's high bits 10 in the 17th (8, 9, a or b).
            #expect(digits[12] == UInt8(ascii: "4"), "\(text)")
            #expect("89ab".utf8.contains(digits[16]), "\(text)")
        }
        #expect(Set(made).count == made.count)
    }
}
