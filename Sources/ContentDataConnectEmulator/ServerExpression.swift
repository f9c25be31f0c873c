internal import ContentJSON
internal import Foundation
internal import OrderedCollections

/// The subset of CEL that `@auth(expr:)`, `@default(expr:)` and `_expr` inputs use: literals, `auth`,
/// `vars` and `request` paths, `!`, comparisons, `in`, `&&`, `||`, parentheses and `size()`.
///
/// Missing members read as `null` instead of failing, so `auth.token.admin == true` is simply false for a
/// token without that claim.
struct ServerExpression: Sendable {
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    private enum Token: Equatable {
        case identifier(String)
        case string(String)
        case number(Double)
        case symbol(String)
    }

    private let tokens: [Token]
    let text: String

    /// Tokenises an expression.
    ///
    /// - Parameter text: The expression.
    /// - Throws: ``Failure`` for characters CEL does not have.
    init(_ text: String) throws {
        self.text = text
        var tokens: [Token] = []
        let characters = Array(text)
        var index = 0
        while index < characters.count {
            let character = characters[index]
            if character.isWhitespace {
                index += 1
            } else if character.isLetter || character == "_" {
                var name = ""
                while index < characters.count,
                    characters[index].isLetter || characters[index].isNumber
                        || characters[index] == "_"
                {
                    name.append(characters[index])
                    index += 1
                }
                tokens.append(.identifier(name))
            } else if character.isNumber {
                var number = ""
                while index < characters.count, characters[index].isNumber || characters[index] == "." {
                    number.append(characters[index])
                    index += 1
                }
                tokens.append(.number(Double(number) ?? 0))
            } else if character == "'" || character == "\"" {
                var literal = ""
                index += 1
                while index < characters.count, characters[index] != character {
                    if characters[index] == "\\", index + 1 < characters.count { index += 1 }
                    literal.append(characters[index])
                    index += 1
                }
                guard index < characters.count else { throw Failure(description: "unterminated string in \(text)") }
                index += 1
                tokens.append(.string(literal))
            } else {
                let two = index + 1 < characters.count ? String(characters[index...index + 1]) : ""
                if ["==", "!=", "<=", ">=", "&&", "||"].contains(two) {
                    tokens.append(.symbol(two))
                    index += 2
                } else if "!<>().[],".contains(character) {
                    tokens.append(.symbol(String(character)))
                    index += 1
                } else {
                    throw Failure(description: "unexpected '\(character)' in \(text)")
                }
            }
        }
        self.tokens = tokens
    }

    /// Evaluates against named values (`auth`, `vars`, `request`).
    ///
    /// - Parameter environment: The top-level names.
    /// - Returns: The value.
    /// - Throws: ``Failure`` for malformed expressions.
    func evaluate(_ environment: [String: JSONValue]) throws -> JSONValue {
        var parser = Parser(tokens: tokens, environment: environment, text: text)
        let value = try parser.or()
        guard parser.index == tokens.count else {
            throw Failure(description: "unexpected text after position \(parser.index) in \(text)")
        }
        return value
    }

    private struct Parser {
        let tokens: [Token]
        let environment: [String: JSONValue]
        let text: String
        var index = 0

        mutating func or() throws -> JSONValue {
            var value = try and()
            while accept("||") {
                let right = try and()
                value = .bool(value == .bool(true) || right == .bool(true))
            }
            return value
        }

        mutating func and() throws -> JSONValue {
            var value = try comparison()
            while accept("&&") {
                let right = try comparison()
                value = .bool(value == .bool(true) && right == .bool(true))
            }
            return value
        }

        mutating func comparison() throws -> JSONValue {
            let left = try unary()
            for symbol in ["==", "!=", "<=", ">=", "<", ">"] where accept(symbol) {
                let right = try unary()
                switch symbol {
                case "==": return .bool(Self.equal(left, right))
                case "!=": return .bool(!Self.equal(left, right))
                default:
                    guard let order = Self.compare(left, right) else { return .bool(false) }
                    switch symbol {
                    case "<": return .bool(order < 0)
                    case "<=": return .bool(order <= 0)
                    case ">": return .bool(order > 0)
                    default: return .bool(order >= 0)
                    }
                }
            }
            if case .identifier("in")? = peek {
                index += 1
                let right = try unary()
                return .bool(right.arrayValue?.contains { Self.equal($0, left) } ?? false)
            }
            return left
        }

        mutating func unary() throws -> JSONValue {
            if accept("!") { return .bool(try unary() != .bool(true)) }
            return try postfix()
        }

        mutating func postfix() throws -> JSONValue {
            var value = try primary()
            while true {
                if accept(".") {
                    guard case .identifier(let name)? = peek else { throw failure("a name after '.'") }
                    index += 1
                    value = value.objectValue?[name] ?? .null
                } else if accept("[") {
                    let key = try or()
                    guard accept("]") else { throw failure("']'") }
                    if case .string(let name) = key {
                        value = value.objectValue?[name] ?? .null
                    } else if case .number(let number) = key, let position = Int(number.text),
                        let elements = value.arrayValue, elements.indices.contains(position)
                    {
                        value = elements[position]
                    } else {
                        value = .null
                    }
                } else {
                    return value
                }
            }
        }

        mutating func primary() throws -> JSONValue {
            guard let token = peek else { throw failure("a value") }
            index += 1
            switch token {
            case .string(let text): return .string(text)
            case .number(let number):
                // Whole numbers print without a fraction; those beyond Int64 keep Double's text.
                return .number(JSONNumber(text: Int64(exactly: number).map { String($0) } ?? String(number)))
            case .symbol("("):
                let value = try or()
                guard accept(")") else { throw failure("')'") }
                return value
            case .symbol("["):
                var elements: [JSONValue] = []
                while !accept("]") {
                    elements.append(try or())
                    _ = accept(",")
                }
                return .array(elements)
            case .identifier("true"): return .bool(true)
            case .identifier("false"): return .bool(false)
            case .identifier("null"), .identifier("nil"): return .null
            case .identifier("size"):
                guard accept("(") else { throw failure("'(' after size") }
                let value = try or()
                guard accept(")") else { throw failure("')'") }
                let count = value.arrayValue?.count ?? value.stringValue?.count ?? value.objectValue?.count ?? 0
                return .number(JSONNumber(count))
            case .identifier(let name):
                return environment[name] ?? .null
            default:
                throw failure("a value")
            }
        }

        var peek: Token? { index < tokens.count ? tokens[index] : nil }

        mutating func accept(_ symbol: String) -> Bool {
            guard peek == .symbol(symbol) else { return false }
            index += 1
            return true
        }

        func failure(_ expected: String) -> Failure {
            Failure(description: "expected \(expected) at token \(index + 1) of \(text)")
        }

        static func equal(_ left: JSONValue, _ right: JSONValue) -> Bool {
            if case .number(let a) = left, case .number(let b) = right { return a.doubleValue == b.doubleValue }
            return left == right
        }

        static func compare(_ left: JSONValue, _ right: JSONValue) -> Int? {
            switch (left, right) {
            case (.number(let a), .number(let b)):
                guard let x = a.doubleValue, let y = b.doubleValue else { return nil }
                return x < y ? -1 : (x > y ? 1 : 0)
            case (.string(let a), .string(let b)):
                return a < b ? -1 : (a > b ? 1 : 0)
            default:
                return nil
            }
        }
    }
}
