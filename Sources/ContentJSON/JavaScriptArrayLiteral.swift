/// A JavaScript adapter's `params`: a JSON array, or the JavaScript array literal with single-quoted strings that
/// MobileFirst's own tutorials send (`['value1', 'value2']`, "a *string representation* of an array").
public enum JavaScriptArrayLiteral {
    /// The array a `params` value holds.
    ///
    /// - Parameter text: JSON, or the same with strings in single quotes (`\'` for a quote inside one).
    /// - Returns: The array, or `nil` when the text is neither, or not an array.
    public static func parse(_ text: String) -> [JSONValue]? {
        if let value = try? JSONParser().parse(text) { return value.arrayValue }
        guard let json = doubleQuoted(text), let value = try? JSONParser().parse(json) else { return nil }
        return value.arrayValue
    }

    /// The text with each single-quoted string written as a JSON string; `nil` for a string left open.
    static func doubleQuoted(_ text: String) -> String? {
        var out = ""
        out.reserveCapacity(text.utf8.count + 8)
        var characters = text.makeIterator()
        while let character = characters.next() {
            switch character {
            case "\"":
                // A JSON string, copied as it is.
                out.append(character)
                var closed = false
                while let inner = characters.next() {
                    out.append(inner)
                    if inner == "\\" {
                        guard let escaped = characters.next() else { return nil }
                        out.append(escaped)
                    } else if inner == "\"" {
                        closed = true
                        break
                    }
                }
                guard closed else { return nil }
            case "'":
                out.append("\"")
                var closed = false
                while let inner = characters.next() {
                    if inner == "'" {
                        closed = true
                        break
                    }
                    if inner == "\\" {
                        guard let escaped = characters.next() else { return nil }
                        // \' is a quote; any other escape means in JSON what it means in JavaScript.
                        out.append(escaped == "'" ? "'" : "\\\(escaped)")
                    } else if inner == "\"" {
                        out.append("\\\"")
                    } else {
                        out.append(inner)
                    }
                }
                guard closed else { return nil }
                out.append("\"")
            default:
                out.append(character)
            }
        }
        return out
    }
}
