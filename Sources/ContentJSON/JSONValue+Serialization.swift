extension JSONValue {
    /// The value as compact JSON text: no spaces, keys in order, number text unchanged.
    ///
    /// - Returns: UTF-8 JSON.
    public func serialized() -> [UInt8] {
        var output: [UInt8] = []
        output.reserveCapacity(256)
        write(to: &output)
        return output
    }

    /// The value as compact JSON text.
    public var jsonText: String { String(decoding: serialized(), as: UTF8.self) }

    /// Appends the value as compact JSON to `output`.
    ///
    /// - Parameter output: The buffer to append to.
    public func write(to output: inout [UInt8]) {
        switch self {
        case .null: output.append(contentsOf: "null".utf8)
        case .bool(let value): output.append(contentsOf: (value ? "true" : "false").utf8)
        case .number(let number): output.append(contentsOf: number.text.utf8)
        case .string(let string): Self.writeString(string, to: &output)
        case .array(let elements):
            output.append(UInt8(ascii: "["))
            for (position, element) in elements.enumerated() {
                if position > 0 { output.append(UInt8(ascii: ",")) }
                element.write(to: &output)
            }
            output.append(UInt8(ascii: "]"))
        case .object(let object):
            output.append(UInt8(ascii: "{"))
            for (position, member) in object.members.enumerated() {
                if position > 0 { output.append(UInt8(ascii: ",")) }
                Self.writeString(member.key, to: &output)
                output.append(UInt8(ascii: ":"))
                member.value.write(to: &output)
            }
            output.append(UInt8(ascii: "}"))
        }
    }

    /// Appends a JSON string literal, escaping quotes, backslashes and control characters.
    ///
    /// - Parameters:
    ///   - string: The string.
    ///   - output: The buffer to append to.
    public static func writeString(_ string: String, to output: inout [UInt8]) {
        output.append(UInt8(ascii: "\""))
        var string = string
        string.withUTF8 { utf8 in
            guard let base = UnsafeRawPointer(utf8.baseAddress) else { return }
            // Most text needs no escape: it goes over in runs, not byte by byte.
            var runStart = 0
            var index = JSONBytes.firstByteToEscape(base, from: 0, to: utf8.count)
            while index < utf8.count {
                output.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart..<index]))
                let byte = utf8[index]
                switch byte {
                case UInt8(ascii: "\""): output.append(contentsOf: #"\""#.utf8)
                case UInt8(ascii: "\\"): output.append(contentsOf: #"\\"#.utf8)
                case 0x0A: output.append(contentsOf: #"\n"#.utf8)
                case 0x0D: output.append(contentsOf: #"\r"#.utf8)
                case 0x09: output.append(contentsOf: #"\t"#.utf8)
                case 0x08: output.append(contentsOf: #"\b"#.utf8)
                case 0x0C: output.append(contentsOf: #"\f"#.utf8)
                default:
                    output.append(contentsOf: #"\u00"#.utf8)
                    output.append(hexDigit(byte >> 4))
                    output.append(hexDigit(byte & 0x0F))
                }
                runStart = index + 1
                index = JSONBytes.firstByteToEscape(base, from: runStart, to: utf8.count)
            }
            output.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart...]))
        }
        output.append(UInt8(ascii: "\""))
    }

    private static func hexDigit(_ nibble: UInt8) -> UInt8 {
        nibble < 10 ? UInt8(ascii: "0") + nibble : UInt8(ascii: "a") + nibble - 10
    }
}
