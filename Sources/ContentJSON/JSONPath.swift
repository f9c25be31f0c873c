/// A path into a JSON document, such as `data.adventureList.items` or `data.movies[0].title`.
///
/// Written as dotted member names; `[N]` picks an array element and `[]` maps the rest of the path over
/// every element (`data.list.edges[].node`). A member name holding `.` or `[` is written in brackets
/// and quotes: `data["odd.name"]`.
public struct JSONPath: Sendable, Hashable, CustomStringConvertible {
    /// One step of a path.
    public enum Component: Sendable, Hashable {
        /// An object member.
        case member(String)
        /// An array element.
        case index(Int)
        /// Every element of an array, each followed along the rest of the path.
        case each
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
        // After a `.`, or at the start, a member name must follow; after `]` a `.` or `[` must.
        var expectingName = true
        while position < characters.count {
            let character = characters[position]
            switch character {
            case ".":
                if expectingName && name.isEmpty {
                    throw JSONPathError(path: text, position: position, message: "empty member name")
                }
                if !name.isEmpty { components.append(.member(name)) }
                name = ""
                expectingName = true
                position += 1
            case "[":
                if !name.isEmpty { components.append(.member(name)) }
                name = ""
                if position + 1 < characters.count, characters[position + 1] == "\"" {
                    guard let close = Self.closingQuote(in: characters, from: position + 2) else {
                        throw JSONPathError(path: text, position: position, message: "[\" without \"]")
                    }
                    components.append(.member(String(characters[(position + 2)..<close])))
                    position = close + 2
                } else if position + 1 < characters.count, characters[position + 1] == "]" {
                    components.append(.each)
                    position += 2
                } else {
                    guard let close = characters[position...].firstIndex(of: "]") else {
                        throw JSONPathError(path: text, position: position, message: "'[' without ']'")
                    }
                    guard let index = Int(String(characters[(position + 1)..<close])), index >= 0 else {
                        throw JSONPathError(path: text, position: position, message: "expected [N] or [\"name\"]")
                    }
                    components.append(.index(index))
                    position = close + 1
                }
                expectingName = false
                if position < characters.count, characters[position] != ".", characters[position] != "[" {
                    throw JSONPathError(path: text, position: position, message: "expected '.' or '[' after ']'")
                }
                if position < characters.count, characters[position] == "." {
                    expectingName = true
                    position += 1
                    if position == characters.count {
                        throw JSONPathError(path: text, position: position - 1, message: "empty member name")
                    }
                }
            default:
                name.append(character)
                position += 1
            }
        }
        if !name.isEmpty {
            components.append(.member(name))
        } else if expectingName && !characters.isEmpty {
            throw JSONPathError(path: text, position: max(0, characters.count - 1), message: "empty member name")
        }
        self.components = components
    }

    /// The index of the `"` that closes a bracketed name: the first one followed by `]`.
    private static func closingQuote(in characters: [Character], from start: Int) -> Int? {
        var position = start
        while position + 1 < characters.count {
            if characters[position] == "\"", characters[position + 1] == "]" { return position }
            position += 1
        }
        return nil
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
            case .each:
                text += "[]"
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
    /// The member names where a path stops matching: those of the deepest value along it that exists,
    /// to suggest a correct path.
    ///
    /// - Parameter path: The path.
    /// - Returns: The member names there, or none when that value is not an object.
    public func keys(deepestAlong path: JSONPath) -> [String] {
        var current = self
        for component in path.components {
            guard let next = current.value(at: JSONPath([component])) else { break }
            current = next
        }
        return current.objectValue?.members.map(\.key) ?? []
    }

    /// The value a path leads to, or `nil` when a step is missing.
    ///
    /// - Parameter path: The path.
    /// - Returns: The value there.
    public func value(at path: JSONPath) -> JSONValue? {
        var current = self
        for (position, component) in path.components.enumerated() {
            switch component {
            case .member(let name):
                // `items.0` reads as `items[0]` on an array, as people write it.
                if case .array(let elements) = current, let index = Int(name), elements.indices.contains(index) {
                    current = elements[index]
                    continue
                }
                guard let next = current[name] else { return nil }
                current = next
            case .index(let index):
                guard case .array(let elements) = current, elements.indices.contains(index) else { return nil }
                current = elements[index]
            case .each:
                guard case .array(let elements) = current else { return nil }
                let rest = JSONPath(Array(path.components[(position + 1)...]))
                return .array(elements.compactMap { $0.value(at: rest) })
            }
        }
        return current
    }
}
