internal import ContentJSON

/// Writes JSON values compactly or indented like jq, optionally coloured like jq.
struct JSONWriter {
    var pretty: Bool
    var color: Bool

    /// Writes `value` as it would stand `level` levels deep: the lines after its first are indented to match.
    func write(_ value: JSONValue, level: Int = 0, to output: inout [UInt8]) {
        if !pretty && !color {
            value.write(to: &output)
        } else {
            write(value, indent: level, to: &output)
        }
    }

    private func write(_ value: JSONValue, indent: Int, to output: inout [UInt8]) {
        switch value {
        case .null, .bool, .number:
            styled(.literal, to: &output) { value.write(to: &$0) }
        case .string(let string):
            styled(.string, to: &output) { JSONValue.writeString(string, to: &$0) }
        case .array(let elements):
            guard !elements.isEmpty else { return punctuation("[]", to: &output) }
            punctuation("[", to: &output)
            for (position, element) in elements.enumerated() {
                if position > 0 { punctuation(",", to: &output) }
                newline(indent + 1, to: &output)
                write(element, indent: indent + 1, to: &output)
            }
            newline(indent, to: &output)
            punctuation("]", to: &output)
        case .object(let object):
            guard !object.members.isEmpty else { return punctuation("{}", to: &output) }
            punctuation("{", to: &output)
            for (position, member) in object.members.enumerated() {
                if position > 0 { punctuation(",", to: &output) }
                newline(indent + 1, to: &output)
                styled(.key, to: &output) { JSONValue.writeString(member.key, to: &$0) }
                punctuation(":", to: &output)
                if pretty { output.append(UInt8(ascii: " ")) }
                write(member.value, indent: indent + 1, to: &output)
            }
            newline(indent, to: &output)
            punctuation("}", to: &output)
        }
    }

    private func newline(_ indent: Int, to output: inout [UInt8]) {
        guard pretty else { return }
        output.append(UInt8(ascii: "\n"))
        output.append(contentsOf: repeatElement(UInt8(ascii: " "), count: indent * 2))
    }

    private func punctuation(_ text: String, to output: inout [UInt8]) {
        styled(.punctuation, to: &output) { $0.append(contentsOf: text.utf8) }
    }

    private func styled(_ style: ANSIStyle, to output: inout [UInt8], _ body: (inout [UInt8]) -> Void) {
        guard color else { return body(&output) }
        output.append(contentsOf: "\u{1B}[\(style.rawValue)m".utf8)
        body(&output)
        output.append(contentsOf: "\u{1B}[0m".utf8)
    }
}
