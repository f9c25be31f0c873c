/// UUIDs as Data Connect writes them: 32 lower-case hex digits without dashes.
package enum DataConnectUUID {
    private static let hexDigits = Array("0123456789abcdef".utf8)

    /// Bytes as lower-case hex digits, two to a byte.
    ///
    /// Written out directly: `String(format: "%02x")` for each byte was 9% of the server's samples under a query
    /// of three movies, and Foundation's `uuidString` with its dashes removed and lowercased most of the 5% that
    /// `uuidV4()` took under `createMovie` (`perf record`).
    ///
    /// - Parameter bytes: The bytes.
    /// - Returns: The digits.
    package static func hex(_ bytes: UnsafeRawBufferPointer) -> String {
        var digits: [UInt8] = []
        digits.reserveCapacity(bytes.count * 2)
        for byte in bytes {
            digits.append(hexDigits[Int(byte >> 4)])
            digits.append(hexDigits[Int(byte & 0x0f)])
        }
        return String(decoding: digits, as: UTF8.self)
    }

    /// A new random (version 4) UUID, as `uuidV4()` makes one.
    ///
    /// From the system's generator (`getrandom`) rather than Foundation's `UUID()`, which on Linux opens, reads and
    /// closes `/dev/urandom` for each one.
    package static func random() -> String {
        var generator = SystemRandomNumberGenerator()
        var words = (generator.next() as UInt64, generator.next() as UInt64)
        return withUnsafeMutableBytes(of: &words) { bytes in
            // RFC 9562: version 4 in the high nibble of byte 6, the variant's bits 10 at the top of byte 8.
            bytes[6] = bytes[6] & 0x0f | 0x40
            bytes[8] = bytes[8] & 0x3f | 0x80
            return hex(UnsafeRawBufferPointer(bytes))
        }
    }
}
