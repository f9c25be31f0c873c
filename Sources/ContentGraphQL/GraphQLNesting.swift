/// A guard against GraphQL text nested deeply enough to exhaust the stack of a recursive-descent parser.
///
/// GraphQLSwift's parser recurses once per `{`, `(` or `[`; text from a request or a workspace file is
/// measured with this first, and refused when it nests deeper than ``limit``.
package enum GraphQLNesting {
    /// The deepest nesting accepted; real operations stay far below it.
    package static let limit = 64

    /// The deepest `{`/`(`/`[` nesting outside strings and comments, or `nil` when it is within ``limit``.
    ///
    /// - Parameter text: GraphQL text.
    /// - Returns: The depth when it is too deep.
    package static func depth(_ text: String) -> Int? {
        var depth = 0
        var deepest = 0
        var inString = false
        var inComment = false
        var previous: UInt8 = 0
        for byte in text.utf8 {
            if inComment {
                if byte == 0x0A { inComment = false }
            } else if inString {
                if byte == UInt8(ascii: "\"") && previous != UInt8(ascii: "\\") { inString = false }
            } else {
                switch byte {
                case UInt8(ascii: "#"): inComment = true
                case UInt8(ascii: "\""): inString = true
                case UInt8(ascii: "{"), UInt8(ascii: "("), UInt8(ascii: "["):
                    depth += 1
                    deepest = max(deepest, depth)
                case UInt8(ascii: "}"), UInt8(ascii: ")"), UInt8(ascii: "]"): depth -= 1
                default: break
                }
            }
            previous = byte
        }
        return deepest > limit ? deepest : nil
    }
}
