import ContentGraphQL
import ContentTesting
import Foundation
import GraphQL
import Testing

/// The scan made before GraphQLSwift's parser must see the text as that parser's lexer does.
///
/// The same tokens, the same strings and comments. Each hiding place the old text scan missed is here, with the trap the lexer itself
/// falls into.
struct GraphQLTextScanTests {
    static let deep = String(repeating: "a{", count: 3000) + "x" + String(repeating: "}", count: 3000)

    /// Text that hides the braces after it from a naive scan, and what GraphQLSwift's lexer makes of it.
    @Test(arguments: [
        "#\r{",  // a comment ends at a carriage return
        "{a(s: \"\\\\\")",  // an escaped backslash does not escape the closing quote
        "{a(s: \"\"\" a \" b \"\"\")",  // a lone quote inside a block string
        "{a(s: \"\"\" \\\"\"\" \"\"\")",  // an escaped triple quote inside a block string
    ])
    func bracesAfterAHidingPlaceAreCounted(prefix: String) {
        let scan = GraphQLTextScan(prefix + Self.deep + "}", maximumTokens: 100_000, maximumDepth: 64)
        #expect(scan.stop == .tooDeep)
        #expect(scan.deepest == 65)
    }

    @Test func aDeepDocumentIsRefusedBeforeTheParserRecurses() throws {
        for text in ["#\r{" + Self.deep + "}", "{a(s: \"\\\\\")" + Self.deep + "}"] {
            let error = try #require(throws: GraphQLSourceError.self) { try GraphQLSource.parse(text, path: "q") }
            #expect(error.limit == "depth")
            #expect(error.description.hasPrefix("q:"))
            #expect(error.message.contains("more than 64 levels"))
        }
    }

    /// GraphQLSwift's lexer reads past the end of the text for these; they must never reach it.
    @Test(arguments: ["{a(s: \"\\", "{a(s: \"\\u", "{a(s: \"\\u12", "{a(s: \"abc", "{a(s: \"\"\"abc", "{a(s: \"\n\")"])
    func aStringCutShortIsASyntaxErrorAtItsPosition(text: String) throws {
        let error = try #require(throws: GraphQLSourceError.self) { try GraphQLSource.parse(text, path: "q") }
        #expect(error.message.hasPrefix("GraphQL syntax:"), "\(error)")
        #expect(error.line == 1)
        #expect(error.column == 7)
    }

    @Test func tokensOverTheLimitStopTheScanWhereTheyPass() {
        let scan = GraphQLTextScan("{ a b c d }", maximumTokens: 4, maximumDepth: 64)
        #expect(scan.stop == .tooManyTokens)
        #expect(scan.column == 9)
    }

    @Test func commentsWhitespaceAndCommasAreNotTokens() {
        let scan = GraphQLTextScan("# comment\n{ a, b ,c }\r\n# more", maximumTokens: 100, maximumDepth: 64)
        #expect(scan.stop == nil)
        #expect(scan.tokens == 5)
    }

    /// The scan's token count against the parser's own token chain, for every document that parses: the corpus's
    /// files and the repository's examples, and generated ones full of strings, block strings and comments.
    @Test func theScanCountsTheTokensGraphQLSwiftsLexerReads() throws {
        var texts = Self.generatedDocuments()
        for file in TestLocations.graphQLFiles() { texts.append(try String(contentsOf: file, encoding: .utf8)) }
        #expect(texts.count > 60)
        for text in texts {
            guard let document = try? GraphQL.parse(source: Source(body: text)) else { continue }
            let scan = GraphQLTextScan(text, maximumTokens: .max, maximumDepth: .max)
            #expect(scan.stop == nil, "\(text)")
            #expect(scan.tokens == Self.lexerTokens(document), "\(text)")
        }
    }

    /// The non-comment tokens GraphQLSwift's lexer produced for a document, from its location's token chain.
    static func lexerTokens(_ document: Document) -> Int {
        var count = 0
        var token = document.loc?.startToken
        while let current = token {
            if current.kind != .sof && current.kind != .eof && current.kind != .comment { count += 1 }
            token = current.next
        }
        return count
    }

    /// Documents built from pieces that lexers disagree on, in a fixed pseudo-random order.
    static func generatedDocuments() -> [String] {
        let values = [
            "\"\\\\\"", "\"a\\\"b\"", "\"\"\" a \" b \"\"\"", "\"\"\"\\\"\"\"\"\"\"", "\"\\u00e9\"", "-1.5e3", "0",
            "[1, [2]]", "{k: \"}\"}", "\"#not a comment\"", "\"\"\"\r\n{\r\n\"\"\"", "null", "ENUM_VALUE",
        ]
        let ignored = [" ", "\n", "\r", "\r\n", ",", "\t", "# note\r", "# note\n", "#\r\n"]
        var seed: UInt64 = 0x2545_F491_4F6C_DD1D
        func next(_ bound: Int) -> Int {
            seed ^= seed << 13
            seed ^= seed >> 7
            seed ^= seed << 17
            return Int(seed % UInt64(bound))
        }
        return (0..<200).map { _ in
            var text = "query Q($v: [Int!] = [1]) @d {"
            for index in 0..<(1 + next(6)) {
                text += ignored[next(ignored.count)]
                text += "f\(index)(a: \(values[next(values.count)]))"
                if next(2) == 0 { text += " { g\(ignored[next(ignored.count)])h(b: \(values[next(values.count)])) }" }
            }
            return text + ignored[next(ignored.count)] + "}"
        }
    }
}
