internal import Foundation

/// UUIDs as Data Connect writes them: 32 lower-case hex digits without dashes.
package enum DataConnectUUID {
    private static let hexDigits = Array("0123456789abcdef".utf8)

    /// Bytes as lower-case hex digits, two to a byte.
    ///
    /// Written out directly: `String(format: "%02x")` for each byte, and Foundation's dash removal and lowercasing of
    /// `uuidString`, each took a tenth of the server's CPU time or more on the operations that read or make UUIDs
    /// (`perf record`).
    ///
    /// - Parameter bytes: The bytes.
    /// - Returns: The digits.
    package static func hex(_ bytes: some Collection<UInt8>) -> String {
        var digits: [UInt8] = []
        digits.reserveCapacity(bytes.count * 2)
        for byte in bytes {
            digits.append(hexDigits[Int(byte >> 4)])
            digits.append(hexDigits[Int(byte & 0x0f)])
        }
        return String(decoding: digits, as: UTF8.self)
    }

    /// A new random (version 4) UUID, as `uuidV4()` makes one.
    package static func random() -> String {
        withUnsafeBytes(of: UUID().uuid) { hex($0) }
    }
}
