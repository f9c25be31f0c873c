import ContentJSON
import Testing

struct JavaScriptArrayLiteralTests {
    @Test(arguments: [
        (#"["a", 2]"#, [JSONValue.string("a"), .number(JSONNumber(2))]),
        ("['value1', 'value2']", [.string("value1"), .string("value2")]),
        (
            #"['it\'s', "x", 'say "hi"', 'tab\there']"#,
            [.string("it's"), .string("x"), .string(#"say "hi""#), .string("tab\there")]
        ),
        ("[1, ['nested'], true, null]", [.number(JSONNumber(1)), .array([.string("nested")]), .bool(true), .null]),
        ("[]", []),
    ])
    func arraysInEitherQuotingAreRead(text: String, expected: [JSONValue]) {
        #expect(JavaScriptArrayLiteral.parse(text) == expected, "\(text)")
    }

    @Test(arguments: [#"{"a": 1}"#, "'a'", "['open", #"["open"#, "[1,", "['a' 'b']", ""])
    func anythingElseIsNotAnArray(text: String) {
        #expect(JavaScriptArrayLiteral.parse(text) == nil, "\(text)")
    }
}
