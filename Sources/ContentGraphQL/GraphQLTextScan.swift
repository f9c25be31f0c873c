/// One pass over GraphQL text with the token rules of GraphQLSwift's own lexer, made before that parser sees it.
///
/// GraphQLSwift's parser recurses once per `{`, `(` or `[` and builds a node per token, so depth and token count
/// must be known before it runs; and its lexer traps (reads past the end) on a string that ends in `\` or in a
/// short `\u` escape. This scan follows `Lexer.swift` of GraphQLSwift 4.3.0 rule by rule (ignored characters,
/// comments ended by any control character but tab, strings ended by `"` or a line break with `\` escaping one
/// character, block strings ended by `"""` with `\"""` escaped), so the braces it counts are the ones the parser
/// will see. Where the lexer would throw, the scan stops with the error instead, and the text never reaches the
/// parser: nothing after a point this scan did not measure is ever parsed.
package struct GraphQLTextScan: Sendable, Equatable {
    /// Why the scan stopped early.
    package enum Stop: Sendable, Equatable {
        /// The text is lexically invalid here, as GraphQLSwift's lexer would also find.
        case syntax(String)
        /// More tokens than the limit.
        case tooManyTokens
        /// Nested deeper than the limit.
        case tooDeep
    }

    /// The tokens read (comments excluded), up to where the scan stopped.
    package var tokens = 0
    /// The deepest `{`/`(`/`[` nesting read.
    package var deepest = 0
    /// Why it stopped, or `nil` when it read the whole text.
    package var stop: Stop?
    /// The 1-based line and column of the stop.
    package var line = 1
    /// The 1-based column of the stop.
    package var column = 1

    fileprivate init() {}

    /// Scans `text`, stopping at the first lexical error or as soon as a limit is passed.
    ///
    /// - Parameters:
    ///   - text: GraphQL text.
    ///   - maximumTokens: The most tokens accepted.
    ///   - maximumDepth: The deepest nesting accepted.
    package init(_ text: String, maximumTokens: Int, maximumDepth: Int) {
        var scanner = Scanner(bytes: Array(text.utf8))
        self = scanner.run(maximumTokens: maximumTokens, maximumDepth: maximumDepth)
    }
}

/// The byte-level state of one scan.
private struct Scanner {
    let bytes: [UInt8]
    var position = 0
    var line = 1
    var lineStart = 0

    init(bytes: [UInt8]) { self.bytes = bytes }

    func byte(at index: Int) -> UInt8? { index < bytes.count ? bytes[index] : nil }

    mutating func run(maximumTokens: Int, maximumDepth: Int) -> GraphQLTextScan {
        var result = GraphQLTextScan()
        var depth = 0
        while true {
            skipIgnored()
            guard let code = byte(at: position) else { return result }
            // Reported at the token's start, so a string cut short points at its opening quote.
            let (startLine, startColumn) = (line, position - lineStart + 1)
            func stop(_ reason: GraphQLTextScan.Stop) -> GraphQLTextScan {
                var stopped = result
                stopped.stop = reason
                stopped.line = startLine
                stopped.column = startColumn
                return stopped
            }
            if code == UInt8(ascii: "#") {
                skipComment()
                continue
            }
            result.tokens += 1
            if result.tokens > maximumTokens { return stop(.tooManyTokens) }
            switch code {
            case UInt8(ascii: "{"), UInt8(ascii: "("), UInt8(ascii: "["):
                depth += 1
                result.deepest = max(result.deepest, depth)
                if depth > maximumDepth { return stop(.tooDeep) }
                position += 1
            case UInt8(ascii: "}"), UInt8(ascii: ")"), UInt8(ascii: "]"):
                depth = max(0, depth - 1)
                position += 1
            case UInt8(ascii: "!"), UInt8(ascii: "$"), UInt8(ascii: "&"), UInt8(ascii: ":"), UInt8(ascii: "="),
                UInt8(ascii: "@"), UInt8(ascii: "|"):
                position += 1
            case UInt8(ascii: "."):
                guard byte(at: position + 1) == UInt8(ascii: "."), byte(at: position + 2) == UInt8(ascii: ".") else {
                    return stop(.syntax("Unexpected character \".\"."))
                }
                position += 3
            case UInt8(ascii: "\""):
                let isBlock =
                    byte(at: position + 1) == UInt8(ascii: "\"") && byte(at: position + 2) == UInt8(ascii: "\"")
                if let problem = isBlock ? skipBlockString() : skipString() {
                    return stop(.syntax(problem))
                }
            case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
                position += 1
                // Digits, a fraction and an exponent; GraphQLSwift's number reader judges the form, and no
                // character it could take opens or closes anything.
                while let next = byte(at: position), Self.isNumberPart(next) { position += 1 }
            case UInt8(ascii: "_"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"):
                position += 1
                while let next = byte(at: position), Self.isNamePart(next) { position += 1 }
            default:
                return stop(.syntax("Unexpected character \(Self.describe(code))."))
            }
        }
    }

    /// BOM, tab, space, comma and line terminators (`\r\n` counting as one line break).
    mutating func skipIgnored() {
        while let code = byte(at: position) {
            if code == 0xEF, byte(at: position + 1) == 0xBB, byte(at: position + 2) == 0xBF {
                position += 3
            } else if code == 9 || code == 32 || code == 44 {
                position += 1
            } else if code == 10 {
                position += 1
                newLine()
            } else if code == 13 {
                position += byte(at: position + 1) == 10 ? 2 : 1
                newLine()
            } else {
                return
            }
        }
    }

    /// `#` up to any control character other than tab, `\r` included.
    mutating func skipComment() {
        position += 1
        while let code = byte(at: position), code > 0x1F || code == 9 { position += 1 }
    }

    /// A `"…"` string; the problem when it does not lex.
    mutating func skipString() -> String? {
        position += 1
        while let code = byte(at: position) {
            if code == 10 || code == 13 { return "Unterminated string." }
            if code == UInt8(ascii: "\"") {
                position += 1
                return nil
            }
            if code < 0x20 && code != 9 { return "Invalid character within String: \(Self.describe(code))." }
            position += 1
            guard code == UInt8(ascii: "\\") else { continue }
            // GraphQLSwift reads the escaped character, and for `\u` four more, without checking the end.
            guard let escaped = byte(at: position) else { return "Unterminated string." }
            switch escaped {
            case UInt8(ascii: "\""), UInt8(ascii: "/"), UInt8(ascii: "\\"), UInt8(ascii: "b"), UInt8(ascii: "f"),
                UInt8(ascii: "n"), UInt8(ascii: "r"), UInt8(ascii: "t"):
                position += 1
            case UInt8(ascii: "u"):
                guard position + 4 < bytes.count,
                    bytes[(position + 1)...(position + 4)].allSatisfy(\.isHexadecimalDigit)
                else { return "Invalid character escape sequence: \\u." }
                position += 5
            default:
                return "Invalid character escape sequence: \\\(Self.describe(escaped))."
            }
        }
        return "Unterminated string."
    }

    /// A `"""…"""` block string; the problem when it does not lex.
    mutating func skipBlockString() -> String? {
        position += 3
        while let code = byte(at: position) {
            let remaining = bytes.count - position
            if code == UInt8(ascii: "\""), remaining > 2, byte(at: position + 1) == code, byte(at: position + 2) == code
            {
                position += 3
                return nil
            }
            if code < 0x20 && code != 9 && code != 10 && code != 13 {
                return "Invalid character within BlockString: \(Self.describe(code))."
            }
            if code == 10 {
                position += 1
                newLine()
            } else if code == 13 {
                position += byte(at: position + 1) == 10 ? 2 : 1
                newLine()
            } else if code == UInt8(ascii: "\\"), remaining > 4, byte(at: position + 1) == UInt8(ascii: "\""),
                byte(at: position + 2) == UInt8(ascii: "\""), byte(at: position + 3) == UInt8(ascii: "\"")
            {
                position += 4
            } else {
                position += 1
            }
        }
        return "Unterminated string."
    }

    mutating func newLine() {
        line += 1
        lineStart = position
    }

    static func isNamePart(_ code: UInt8) -> Bool {
        code == UInt8(ascii: "_") || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(code)
            || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(code)
            || (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(code)
    }

    static func isNumberPart(_ code: UInt8) -> Bool {
        (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(code) || code == UInt8(ascii: ".")
            || code == UInt8(ascii: "e") || code == UInt8(ascii: "E") || code == UInt8(ascii: "+")
            || code == UInt8(ascii: "-")
    }

    static func describe(_ code: UInt8) -> String {
        code >= 0x20 && code < 0x7F
            ? "\"\(Character(Unicode.Scalar(code)))\"" : "U+\(String(code, radix: 16, uppercase: true))"
    }
}

extension UInt8 {
    fileprivate var isHexadecimalDigit: Bool {
        (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(self) || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains(self)
            || (UInt8(ascii: "A")...UInt8(ascii: "F")).contains(self)
    }
}
