public import ContentJSON

/// How a value reads inside one cell of a table, CSV, TSV or Markdown row.
public enum CellText {
    /// The cell's plain text: strings as they are, numbers and booleans bare, null empty, arrays and
    /// objects as compact JSON.
    ///
    /// - Parameter value: The value, or `nil` for a missing one.
    /// - Returns: The text.
    public static func plain(_ value: JSONValue?) -> String {
        switch value {
        case .none, .some(.null): return ""
        case .some(.bool(let flag)): return flag ? "true" : "false"
        case .some(.number(let number)): return number.text
        case .some(.string(let string)): return string
        case .some(.array), .some(.object): return value?.jsonText ?? ""
        }
    }

    /// Whether a value is a number, which tables align right.
    ///
    /// - Parameter value: The value.
    /// - Returns: Whether it is a number.
    public static func isNumber(_ value: JSONValue?) -> Bool {
        if case .some(.number) = value { return true }
        return false
    }

    /// Text with control characters (including the ESC of ANSI sequences) shown as escapes, so a value
    /// can never move the cursor, change colours or break a row.
    ///
    /// - Parameter text: The text.
    /// - Returns: The text, safe for a terminal.
    public static func escapingControls(_ text: String) -> String {
        guard !isPrintableASCII(text) else { return text }
        var text = text
        let escaped = text.withUTF8 { bytes -> String? in
            // Over the UTF-8 bytes, copying the runs between controls whole: a string built scalar by scalar
            // made long rich-text cells the slowest part of a table.
            var result: [UInt8] = []
            var runStart = 0
            var index = 0
            while index < bytes.count {
                guard let (scalar, length) = controlScalar(in: bytes, at: index) else {
                    index += 1
                    continue
                }
                result.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart..<index]))
                appendEscape(ofControl: scalar, to: &result)
                index += length
                runStart = index
            }
            guard runStart > 0 else { return nil }
            result.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart...]))
            return String(decoding: result, as: UTF8.self)
        }
        return escaped ?? text
    }

    /// How a control character is shown: `\n`, `\r`, `\t`, or `\u` and four hex digits.
    static func appendEscape(ofControl scalar: UInt32, to result: inout [UInt8]) {
        switch scalar {
        case 0x0A: result.append(contentsOf: #"\n"#.utf8)
        case 0x0D: result.append(contentsOf: #"\r"#.utf8)
        case 0x09: result.append(contentsOf: #"\t"#.utf8)
        default:
            let hex = String(scalar, radix: 16, uppercase: true)
            result.append(contentsOf: "\\u\(String(repeating: "0", count: max(0, 4 - hex.count)))\(hex)".utf8)
        }
    }

    /// The control character whose UTF-8 encoding starts at `index`, and its length in bytes: C0 controls,
    /// DEL, C1 controls (U+0080–U+009F) and the line and paragraph separators (U+2028, U+2029).
    static func controlScalar(in bytes: UnsafeBufferPointer<UInt8>, at index: Int) -> (UInt32, Int)? {
        let byte = bytes[index]
        if byte < 0x20 || byte == 0x7F { return (UInt32(byte), 1) }
        if byte == 0xC2, index + 1 < bytes.count, (0x80...0x9F).contains(bytes[index + 1]) {
            return (UInt32(bytes[index + 1]), 2)
        }
        // Line and paragraph separators, and the bidirectional overrides and isolates (U+202A–U+202E,
        // U+2066–U+2069) that make a terminal show text in another order than it is.
        if byte == 0xE2, index + 2 < bytes.count, bytes[index + 1] == 0x80, (0xA8...0xAE).contains(bytes[index + 2]) {
            return (0x2000 | UInt32(bytes[index + 2] & 0x3F), 3)
        }
        if byte == 0xE2, index + 2 < bytes.count, bytes[index + 1] == 0x81, (0xA6...0xA9).contains(bytes[index + 2]) {
            return (0x2040 | UInt32(bytes[index + 2] & 0x3F), 3)
        }
        return nil
    }

    /// Whether every byte of `text` is printable ASCII (0x20–0x7E), as most cells are.
    ///
    /// Such text has nothing to escape and is one terminal cell a byte: a test of its bytes settles both, far
    /// cheaper than walking its scalars or grapheme clusters.
    static func isPrintableASCII(_ text: String) -> Bool {
        // Over the contiguous bytes (native strings have them) the loop vectorizes; over the view it does not.
        text.utf8.withContiguousStorageIfAvailable { $0.allSatisfy { $0 &- 0x20 < 0x5F } }
            ?? text.utf8.allSatisfy { $0 &- 0x20 < 0x5F }
    }
}

/// How many terminal cells text takes: East Asian wide characters and emoji count 2, combining
/// marks and zero-width characters 0.
public enum DisplayWidth {
    /// The width of a string.
    ///
    /// - Parameter text: Text without control characters.
    /// - Returns: Its width in terminal cells.
    public static func of(_ text: String) -> Int {
        if CellText.isPrintableASCII(text) { return text.utf8.count }
        var text = text
        return text.withUTF8 { bytes in
            // An ASCII character between two others is a grapheme cluster of its own, one cell wide; only the
            // stretches around other bytes (with the ASCII character on each side, which may join a cluster
            // with them) need walking cluster by cluster.
            var width = 0
            var index = 0
            while index < bytes.count {
                var stretch = index
                while stretch < bytes.count, bytes[stretch] < 0x80 { stretch += 1 }
                guard stretch < bytes.count else { return width + stretch - index }
                if stretch > index { stretch -= 1 }
                width += stretch - index
                var end = stretch + 1
                while end < bytes.count {
                    if bytes[end] >= 0x80 || (end + 1 < bytes.count && bytes[end + 1] >= 0x80) {
                        end += 1
                        continue
                    }
                    end += 1
                    break
                }
                for character in String(decoding: UnsafeBufferPointer(rebasing: bytes[stretch..<end]), as: UTF8.self) {
                    width += of(character)
                }
                index = end
            }
            return width
        }
    }

    /// The width of one grapheme cluster.
    ///
    /// - Parameter character: The character.
    /// - Returns: 0, 1 or 2.
    public static func of(_ character: Character) -> Int {
        if character.isASCII { return 1 }
        let scalars = character.unicodeScalars
        var visible = false
        for scalar in scalars {
            if scalar.properties.isEmojiPresentation || isWide(scalar.value) { return 2 }
            if scalar.value == 0xFE0F, scalars.count > 1 { return 2 }
            if !isZeroWidth(scalar) { visible = true }
        }
        return visible ? 1 : 0
    }

    private static func isZeroWidth(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.properties.generalCategory {
        case .nonspacingMark, .enclosingMark, .format: return true
        default: return scalar.value == 0x200B || (0xFE00...0xFE0F).contains(scalar.value)
        }
    }

    /// East Asian Wide and Fullwidth ranges (Unicode 15, UAX #11).
    private static func isWide(_ value: UInt32) -> Bool {
        switch value {
        case 0x1100...0x115F, 0x231A...0x231B, 0x2329...0x232A, 0x2E80...0x303E, 0x3041...0x33FF,
            0x3400...0x4DBF, 0x4E00...0x9FFF, 0xA000...0xA4CF, 0xA960...0xA97F, 0xAC00...0xD7A3,
            0xF900...0xFAFF, 0xFE10...0xFE19, 0xFE30...0xFE6F, 0xFF00...0xFF60, 0xFFE0...0xFFE6,
            0x1F300...0x1F64F, 0x1F900...0x1F9FF, 0x20000...0x2FFFD, 0x30000...0x3FFFD:
            return true
        default:
            return false
        }
    }

    /// The longest prefix of `text` that fits in `width` cells once `…` is appended.
    ///
    /// - Parameters:
    ///   - text: The text.
    ///   - width: The cells available, at least 1.
    /// - Returns: The text itself when it fits, else a prefix ending in `…`.
    public static func truncate(_ text: String, toWidth width: Int) -> String {
        guard of(text) > width else { return text }
        var result = ""
        var used = 0
        for character in text {
            let next = of(character)
            if used + next > width - 1 { break }
            result.append(character)
            used += next
        }
        return result + "…"
    }
}
