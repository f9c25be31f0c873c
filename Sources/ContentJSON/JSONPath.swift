/// A path into a JSON document, such as `data.adventureList.items` or `data.movies[0].title`.
///
/// Written as dotted member names; `[N]` picks an array element. A member name holding `.` or `[`
/// is written in brackets and quotes: `data["odd.name"]`.
public struct JSONPath: Sendable, Hashable, CustomStringConvertible {
    /// One step of a path.
    public enum Component: Sendable, Hashable {
        /// An object member.
        case member(String)
        /// An array element.
        case index(Int)
    }

    /// The steps, outermost first.
    public var components: [Component]

    /// Creates a path from steps.
    ///
    /// - Parameter components: The steps.
    public init(_ components: [Component]) {
        self.components = components
    }

    /// Parses `a.b[0].c` or `a["x.y"]`.
    ///
    /// - Parameter text: The path text.
    /// - Throws: ``JSONPathError`` naming the offending character.
    public init(parsing text: String) throws(JSONPathError) {
        var components: [Component] = []
        let characters = Array(text)
        var position = 0
        var name = ""
        func flush() {
            if !name.isEmpty {
                components.append(.member(name))
                name = ""
            }
        }
        while position < characters.count {
            let character = characters[position]
            switch character {
            case ".":
                guard !name.isEmpty || components.last.map({ _ in position > 0 }) == true else {
                    throw JSONPathError(path: text, position: position, message: "empty member name")
                }
                flush()
                position += 1
            case "[":
                flush()
                guard let close = characters[position...].firstIndex(of: "]") else {
                    throw JSONPathError(path: text, position: position, message: "'[' without ']'")
                }
                let inner = String(characters[(position + 1)..<close])
                if let index = Int(inner), index >= 0 {
                    components.append(.index(index))
                } else if inner.count >= 2, inner.first == "\"", inner.last == "\"" {
                    components.append(.member(String(inner.dropFirst().dropLast())))
                } else {
                    throw JSONPathError(path: text, position: position, message: "expected [N] or [\"name\"]")
                }
                position = close + 1
            default:
                name.append(character)
                position += 1
            }
        }
        flush()
        self.components = components
    }

    /// The path as text, in the form ``init(parsing:)`` reads.
    public var description: String {
        var text = ""
        for component in components {
            switch component {
            case .member(let name) where name.contains(".") || name.contains("[") || name.isEmpty:
                text += "[\"\(name)\"]"
            case .member(let name):
                text += text.isEmpty ? name : "." + name
            case .index(let index):
                text += "[\(index)]"
            }
        }
        return text
    }
}

/// A path that could not be parsed.
public struct JSONPathError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The path as given.
    public var path: String
    /// The character position of the problem, from 0.
    public var position: Int
    /// What is wrong.
    public var message: String

    /// `invalid path 'a..b' at character 2: empty member name`.
    public var description: String { "invalid path '\(path)' at character \(position + 1): \(message)" }
}

extension JSONValue {
    /// The value a path leads to, or `nil` when a step is missing.
    ///
    /// - Parameter path: The path.
    /// - Returns: The value there.
    public func value(at path: JSONPath) -> JSONValue? {
        var current = self
        for component in path.components {
            switch component {
            case .member(let name):
                guard let next = current[name] else { return nil }
                current = next
            case .index(let index):
                guard case .array(let elements) = current, elements.indices.contains(index) else { return nil }
                current = elements[index]
            }
        }
        return current
    }
}
