/// A 128-bit FNV-1a-style hash of text, the same on every run and machine.
///
/// For names derived from content (cache files, emulator ids and ETags), not for security.
public enum StableHash {
    /// The hash as 32 lowercase hex digits.
    ///
    /// - Parameter text: The text.
    /// - Returns: 32 hex digits.
    public static func hex(_ text: String) -> String {
        var first: UInt64 = 0xcbf2_9ce4_8422_2325
        var second: UInt64 = 0x8422_2325_cbf2_9ce4
        for byte in text.utf8 {
            first = (first ^ UInt64(byte)) &* 0x100_0000_01b3
            second = (second ^ UInt64(byte)) &* 0x100_0000_01b3 &+ 0x9e37_79b9
        }
        return padded(first) + padded(second)
    }

    private static func padded(_ value: UInt64) -> String {
        let digits = String(value, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }
}
