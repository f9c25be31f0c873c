import ContentDataConnectWire
import ContentJSON
import GRPCCore
import SwiftProtobuf
import Testing

@testable import ContentDataConnectEmulator

/// The data of a gRPC answer written straight from JSON: swift-protobuf's decoder, an implementation of its own,
/// reads it back as the `Struct` that swift-protobuf's builder makes of the same JSON.
struct StructWireWriterTests {
    /// Writes `object` as field 1 of a message whose field 1 is a `Struct`, and decodes that message.
    private func decoded(_ object: JSONObject, capacity: Int = 512, depthLimit: Int = 100) throws
        -> Google_Firebase_Dataconnect_V1_ExecuteQueryResponse
    {
        var writer = StructWireWriter(capacity: capacity)
        writer.prependStruct(object, field: 1)
        let bytes = writer.withBytes { [UInt8]($0) }
        #expect(bytes.count == writer.count)
        var options = BinaryDecodingOptions()
        options.messageDepthLimit = depthLimit
        return try Google_Firebase_Dataconnect_V1_ExecuteQueryResponse(serializedBytes: bytes, options: options)
    }

    @Test func everyKindOfValueDecodesAsTheBuiltStruct() throws {
        let object: JSONObject = [
            "null": .null, "yes": .bool(true), "no": .bool(false), "zero": .number(JSONNumber(0)),
            "negative": .number(JSONNumber(-42)), "fraction": .number(JSONNumber(text: "8.4")),
            "large": .number(JSONNumber(text: "1e300")), "int64": .string("9007199254740993"),
            "empty": .string(""), "text": .string("Orbit of Glass — ünïcödé 🚀"),
            "list": .array([.number(JSONNumber(1)), .null, .string("x"), .array([]), .object([:])]),
            "nested": .object([
                "movies": .array([.object(["id": .string("a"), "rating": .number(JSONNumber(text: "6.5"))])])
            ]),
            "emptyObject": .object([:]), "emptyList": .array([]), "ключ 🔑": .string("unicode key"),
        ]
        let response = try decoded(object)
        #expect(response.hasData)
        #expect(response.data == ProtobufJSON.structValue(object))
    }

    @Test func theBytesAreSwiftProtobufsForMembersInKeyOrder() throws {
        // swift-protobuf writes a map in key order when asked for deterministic output, and a oneof member even
        // when it holds its default, as the writer does: for sorted, unique keys the bytes are the same.
        let object: JSONObject = [
            "a": .null, "b": .bool(false), "c": .number(JSONNumber(0)), "d": .number(JSONNumber(text: "-0")),
            "e": .string(""), "f": .array([.object([:]), .array([])]), "g": .object(["h": .number(JSONNumber(-1))]),
        ]
        var writer = StructWireWriter()
        writer.prependStruct(object, field: 1)
        var expected = Google_Firebase_Dataconnect_V1_ExecuteQueryResponse()
        expected.data = ProtobufJSON.structValue(object)
        var options = BinaryEncodingOptions()
        options.useDeterministicOrdering = true
        #expect(writer.withBytes { [UInt8]($0) } == (try expected.serializedBytes(options: options) as [UInt8]))
    }

    @Test func aFieldNumberOf16OrMoreTakesATwoByteTag() throws {
        // Field 16, wire type 2: the varint 130, two bytes. Then the length (9) and the one entry: its tag and length,
        // the key (tag, length, "k") and the value (tag, length, and bool_value's tag and 1).
        var writer = StructWireWriter()
        writer.prependStruct(["k": .bool(true)], field: 16)
        let bytes = writer.withBytes { [UInt8]($0) }
        #expect(bytes.prefix(2) == [0x82, 0x01])
        #expect(bytes == [0x82, 0x01, 9, 0x0A, 7, 0x0A, 1, UInt8(ascii: "k"), 0x12, 2, 0x20, 1])
    }

    @Test func anEmptyObjectIsAnEmptyStructThatIsSet() throws {
        let response = try decoded([:])
        #expect(response.hasData)
        #expect(response.data.fields.isEmpty)
    }

    @Test func aRepeatedMemberNameKeepsTheLastValueAsTheBuilderDoes() throws {
        let object = JSONObject([JSONMember("a", .string("first")), JSONMember("a", .string("last"))])
        let response = try decoded(object)
        #expect(response.data == ProtobufJSON.structValue(object))
        #expect(response.data.fields["a"] == Google_Protobuf_Value(stringValue: "last"))
    }

    @Test func lengthsOfSeveralVarintBytesAndGrowingPastTheBuffer() throws {
        // 127 and 128 bytes straddle one and two bytes of length, 16,383 and 16,384 two and three, and 3,000,000
        // needs four; the writer starts with 16 bytes here, so it grows several times on the way.
        var object = JSONObject()
        for length in [127, 128, 16_383, 16_384, 20_000, 3_000_000] {
            object["s\(length)"] = .string(String(repeating: "x", count: length))
        }
        object["many"] = .array((0..<5_000).map { .object(["n": .number(JSONNumber($0))]) })
        let response = try decoded(object, capacity: 0)
        #expect(response.data == ProtobufJSON.structValue(object))
    }

    @Test func deepNestingIsWritten() throws {
        var value = JSONValue.string("deep")
        for depth in 0..<400 { value = depth.isMultiple(of: 2) ? .array([value]) : .object(["k": value]) }
        // Past swift-protobuf's default limit of 100 messages deep, which a client would refuse to decode; the
        // writer has no limit of its own (the engine's answers nest as deep as their query).
        let response = try decoded(["root": value], depthLimit: 2_000)
        #expect(response.data == ProtobufJSON.structValue(["root": value]))
    }

    @Test func theAnswerCarriesDataErrorsAndExtensionsAsTheGeneratedMessagesDo() throws {
        let document = JSONValue.object([
            "data": .object([
                "movie": .object(["id": .string("0b5c"), "title": .string("Orbit of Glass")]), "other": .null,
            ]),
            "errors": .array([
                .object(["message": .string("denied"), "path": .array([.string("other"), .number(JSONNumber(0))])])
            ]),
            "extensions": .object([
                "dataConnect": .array([
                    .object([
                        "path": .array([.string("movie")]), "entityId": .string("TW92aWU="), "action": .string("GET"),
                    ])
                ])
            ]),
        ])
        let data = try #require(document["data"]?.objectValue)
        let errors = (document["errors"]?.arrayValue ?? []).map(ProtobufJSON.graphQLError)
        let extensions = try #require(document["extensions"].map(ProtobufJSON.responseExtensions))
        let answer = try ExecuteResponse(data: data, errors: errors, extensions: extensions)
        let bytes: [UInt8] = try ExecuteResponseSerializer().serialize(answer)
        #expect(bytes.count == answer.byteCount)

        var expected = Google_Firebase_Dataconnect_V1_ExecuteQueryResponse()
        expected.data = ProtobufJSON.structValue(data)
        expected.errors = errors
        expected.extensions = extensions
        #expect(try Google_Firebase_Dataconnect_V1_ExecuteQueryResponse(serializedBytes: bytes) == expected)
        // ExecuteMutationResponse has the same fields under the same numbers.
        let mutation = try Google_Firebase_Dataconnect_V1_ExecuteMutationResponse(serializedBytes: bytes)
        #expect(mutation.data == expected.data && mutation.errors == expected.errors)
        #expect(mutation.extensions == expected.extensions)
    }

    @Test func extensionsWithoutErrorsAreWritten() throws {
        // The usual answer of a query: data and the entities it read, no errors.
        let extensions = ProtobufJSON.responseExtensions(
            .object([
                "dataConnect": .array([
                    .object(["path": .array([.string("movies")]), "entityIds": .array([]), "action": .string("LIST")])
                ])
            ]))
        let answer = try ExecuteResponse(data: ["movies": .array([])], errors: [], extensions: extensions)
        let bytes: [UInt8] = try ExecuteResponseSerializer().serialize(answer)
        let decoded = try Google_Firebase_Dataconnect_V1_ExecuteQueryResponse(serializedBytes: bytes)
        #expect(decoded.hasExtensions && decoded.extensions == extensions)
        #expect(decoded.data == ProtobufJSON.structValue(["movies": .array([])]))
        #expect(decoded.errors.isEmpty)
    }

    @Test func errorsLongerThanTheWritersBufferAreWritten() throws {
        let data: JSONObject = ["a": .string(String(repeating: "d", count: 700))]
        let errors = (0..<50).map { index in
            ProtobufJSON.graphQLError(
                .object(["message": .string("error \(index) " + String(repeating: "e", count: 40))]))
        }
        let answer = try ExecuteResponse(data: data, errors: errors, extensions: nil)
        let bytes: [UInt8] = try ExecuteResponseSerializer().serialize(answer)
        let decoded = try Google_Firebase_Dataconnect_V1_ExecuteQueryResponse(serializedBytes: bytes)
        #expect(decoded.errors == errors)
        #expect(decoded.data == ProtobufJSON.structValue(data))
    }

    @Test func noDataLeavesTheFieldUnset() throws {
        let answer = try ExecuteResponse(
            data: nil, errors: [ProtobufJSON.graphQLError(.object(["message": .string("failed")]))], extensions: nil)
        let bytes: [UInt8] = try ExecuteResponseSerializer().serialize(answer)
        let decoded = try Google_Firebase_Dataconnect_V1_ExecuteQueryResponse(serializedBytes: bytes)
        #expect(!decoded.hasData)
        #expect(decoded.errors.map(\.message) == ["failed"])
        // Nothing at all is an empty message, as swift-protobuf writes it.
        let empty: [UInt8] = try ExecuteResponseSerializer().serialize(
            ExecuteResponse(data: nil, errors: [], extensions: nil))
        #expect(empty.isEmpty)
    }
}
