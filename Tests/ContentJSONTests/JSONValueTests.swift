import Foundation
import Testing

@testable import ContentJSON

/// A number value with the given text.
private func number(_ text: String) -> JSONValue {
    .number(JSONNumber(text: text))
}

struct JSONValueTests {
    // MARK: - Accessors

    @Test func accessorsAnswerOnlyForTheirOwnKind() {
        let object = JSONValue.object(["a": .null])
        let array = JSONValue.array([.null])
        let string = JSONValue.string("s")
        #expect(object.objectValue?.members == [JSONMember("a", .null)])
        #expect(object.arrayValue == nil)
        #expect(object.stringValue == nil)
        #expect(array.arrayValue == [.null])
        #expect(array.objectValue == nil)
        #expect(string.stringValue == "s")
        #expect(string.arrayValue == nil)
        #expect(JSONValue.null.stringValue == nil)
        #expect(number("1").stringValue == nil)
        #expect(JSONValue.bool(true).objectValue == nil)
    }

    @Test func memberSubscriptIsNilForMissingNamesAndNonObjects() {
        let object = JSONValue.object(["a": .string("x")])
        #expect(object["a"] == .string("x"))
        #expect(object["b"] == nil)
        #expect(object["A"] == nil)
        #expect(JSONValue.array([.object(["a": .null])])["a"] == nil)
        #expect(JSONValue.string("a")["a"] == nil)
        #expect(JSONValue.null["a"] == nil)
    }

    @Test func numberFromAnIntegerIsItsDecimalText() {
        #expect(JSONNumber(-42).text == "-42")
        #expect(JSONNumber(0).description == "0")
        #expect(JSONNumber(Int.max).int64Value == Int64.max)
    }

    // MARK: - JSONObject

    @Test func lookupFindsTheLastOfDuplicateNames() throws {
        let value = try JSONParser().parse(#"{"a":1,"b":2,"a":3}"#)
        let object = try #require(value.objectValue)
        #expect(object.members.count == 3)
        #expect(object.members.map(\.key) == ["a", "b", "a"])
        #expect(object["a"] == number("3"))
        #expect(value["a"] == number("3"))
        #expect(object["b"] == number("2"))
    }

    @Test func literalKeepsItsOrderAndActsAsACollection() {
        let object: JSONObject = ["b": number("1"), "a": number("2"), "c": .null]
        #expect(object.count == 3)
        #expect(object.map(\.key) == ["b", "a", "c"])
        #expect(object[1] == JSONMember("a", number("2")))
        #expect(object.first?.key == "b")
        #expect(object.last?.value == .null)
        #expect(JSONObject().isEmpty)
    }

    @Test func settingAnExistingNameReplacesItsValueInPlace() {
        var object: JSONObject = ["a": number("1"), "b": number("2"), "c": number("3")]
        object["b"] = .string("two")
        #expect(
            object.members == [
                JSONMember("a", number("1")), JSONMember("b", .string("two")), JSONMember("c", number("3")),
            ])
    }

    @Test func settingANewNameAppendsIt() {
        var object: JSONObject = ["b": number("1")]
        object["a"] = .bool(false)
        #expect(object.members.map(\.key) == ["b", "a"])
        #expect(object["a"] == .bool(false))
    }

    @Test func settingNilRemovesTheMember() {
        var object: JSONObject = ["a": number("1"), "b": number("2"), "c": number("3")]
        object["b"] = nil
        #expect(object.members.map(\.key) == ["a", "c"])
        #expect(object["b"] == nil)
        object["missing"] = nil
        #expect(object.members.map(\.key) == ["a", "c"])
    }

    @Test func settingADuplicatedNameChangesTheMemberLookupSees() throws {
        var object = try #require(try JSONParser().parse(#"{"a":1,"b":2,"a":3}"#).objectValue)
        object["a"] = number("9")
        #expect(object["a"] == number("9"))
        #expect(object.members.count == 3)
        #expect(object.members.last == JSONMember("a", number("9")))
    }

    // MARK: - Serialization

    @Test func serializesCompactlyInMemberOrder() throws {
        let value = try JSONParser().parse(
            """
            { "b" : [ 1 , true , null, false ] ,
              "a" : { } ,
              "c" : "x y" , "d": [ ] }
            """)
        #expect(value.jsonText == #"{"b":[1,true,null,false],"a":{},"c":"x y","d":[]}"#)
        #expect(value.serialized() == Array(value.jsonText.utf8))
    }

    @Test func serializesBuiltValues() {
        let value = JSONValue.object([
            "z": .array([]),
            "y": .object([:]),
            "x": .array([.null, .bool(false), number("-1.50"), .string("s")]),
        ])
        #expect(value.jsonText == #"{"z":[],"y":{},"x":[null,false,-1.50,"s"]}"#)
        #expect(JSONValue.null.jsonText == "null")
        #expect(JSONValue.bool(true).jsonText == "true")
        #expect(JSONValue.string("").jsonText == #""""#)
    }

    @Test func keepsNumberTextWhenSerializing() {
        let texts = ["152.59", "-0", "1e400", "1E-7", "9223372036854775807", "12345678901234567890123", "2.50"]
        let value = JSONValue.array(texts.map(number))
        #expect(value.jsonText == "[" + texts.joined(separator: ",") + "]")
    }

    @Test func escapesQuotesBackslashesAndControlCharacters() {
        let value = JSONValue.string("q\" b\\ n\n r\r t\t b\u{08} f\u{0C} z\u{00} o\u{01} u\u{1F} s/")
        // JSON allows either case in `\u` escapes, so compare without it (the input has no upper-case letters).
        #expect(value.jsonText.lowercased() == #""q\" b\\ n\n r\r t\t b\b f\f z\u0000 o\u0001 u\u001f s/""#)
        #expect(value.serialized().allSatisfy { $0 >= 0x20 })
    }

    @Test func escapesEveryASCIIByteAtEveryPositionOfALongString() throws {
        // Long strings are searched sixteen bytes at a time: each byte is tried in every lane of the first
        // chunks and in the tail after them, and Foundation must read back the very string.
        for byte in UInt8(0)...0x7F {
            for position in 0..<40 {
                // Forty bytes, then a two-byte "é", which passes through as it is.
                var bytes = Array(repeating: UInt8(ascii: "a"), count: 40) + [0xC3, 0xA9]
                bytes[position] = byte
                let text = String(decoding: bytes, as: UTF8.self)
                let serialized = JSONValue.string(text).serialized()
                let read = try JSONSerialization.jsonObject(with: Data(serialized), options: .fragmentsAllowed)
                #expect(read as? String == text, "byte 0x\(String(byte, radix: 16)) at \(position)")
                // Controls and DEL never come out raw; what needs no escape comes out as it went in.
                #expect(!serialized.contains { $0 < 0x20 || $0 == 0x7F })
                let needsEscape =
                    byte < 0x20 || byte == 0x7F || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\")
                if !needsEscape { #expect(serialized == [0x22] + bytes + [0x22]) }
            }
        }
    }

    @Test func escapesMemberNamesToo() {
        let value = JSONValue.object(["a\"b\n": number("1")])
        #expect(value.jsonText == #"{"a\"b\n":1}"#)
    }

    @Test func leavesNonASCIIAsUTF8() {
        let text = "é日本😀👍🏽\u{2028}"
        #expect(JSONValue.string(text).serialized() == [0x22] + Array(text.utf8) + [0x22])
        #expect(JSONValue.object([text: .null]).jsonText == "{\"\(text)\":null}")
    }

    @Test func writeAppendsToTheBuffer() {
        var buffer = Array("x=".utf8)
        JSONValue.array([number("1")]).write(to: &buffer)
        #expect(String(decoding: buffer, as: UTF8.self) == "x=[1]")
        var string: [UInt8] = []
        JSONValue.writeString(#"a"b"#, to: &string)
        #expect(String(decoding: string, as: UTF8.self) == #""a\"b""#)
    }

    @Test func parsingTheSerializationGivesTheSameValue() throws {
        let document = JSONValue.object(
            JSONObject([
                JSONMember(
                    "zeta",
                    .array([
                        .null, .bool(true), .bool(false), number("152.59"), number("-0"), number("1e400"),
                        number("1E-7"), number("12345678901234567890123"), number("0"),
                    ])),
                JSONMember("alpha", .string("q\" b\\ s/ n\n t\t z\u{00} d\u{7F} \u{1B}[0m é 日本 😀")),
                JSONMember(
                    "nested",
                    .object([
                        "empty": .object([:]),
                        "list": .array([]),
                        "deep": .array([.array([.object(["k": .string("")])])]),
                    ])),
                JSONMember("dup", number("1")),
                JSONMember("dup", number("2")),
                JSONMember("key \"quoted\"\n", .string("v")),
                JSONMember("", .string("empty name")),
            ]))
        let reparsed = try JSONParser().parse(document.serialized())
        #expect(reparsed == document)
        #expect(
            reparsed.objectValue?.members.map(\.key) == [
                "zeta", "alpha", "nested", "dup", "dup", "key \"quoted\"\n", "",
            ])
        // Serializing again is stable.
        #expect(reparsed.jsonText == document.jsonText)
    }

    @Test func compactTextSurvivesAParseAndSerializeUnchanged() throws {
        let text = #"{"id":9223372036854775807,"price":152.59,"tags":["a\"b","c\\d"],"ok":false,"x":null,"é":"日"}"#
        #expect(try JSONParser().parse(text).jsonText == text)
    }

    @Test func slashAndUnicodeEscapesComeOutInTheirShortestForm() throws {
        // `\/` and `\u00e9` are read as `/` and `é`; neither needs escaping on the way out.
        #expect(try JSONParser().parse(#"["a\/b","\u00e9","\u0041"]"#).jsonText == #"["a/b","é","A"]"#)
    }
}
