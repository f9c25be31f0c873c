import ContentDataConnectWire
import ContentJSON
import Foundation
import GraphQL
import SwiftProtobuf
import Testing

@testable import ContentDataConnectEmulator

/// JSON as protobuf's Struct carries it on the gRPC API, and `@refresh` read from an operation.
struct DataConnectWireTests {
    @Test func variablesBecomeJSONWithWholeNumbersKeptWhole() throws {
        var variables = Google_Protobuf_Struct()
        variables.fields["releaseYear"] = Google_Protobuf_Value(numberValue: 2019)
        variables.fields["rating"] = Google_Protobuf_Value(numberValue: 8.5)
        variables.fields["title"] = Google_Protobuf_Value(stringValue: "Orbit")
        variables.fields["tags"] = Google_Protobuf_Value(
            listValue: Google_Protobuf_ListValue(values: [
                Google_Protobuf_Value(boolValue: true), Google_Protobuf_Value(),
            ]))
        let json = try ProtobufJSON.object(variables)
        // Keys in order, GraphQL's Int takes 2019, not 2019.0.
        #expect(
            JSONValue.object(json).jsonText == #"{"rating":8.5,"releaseYear":2019,"tags":[true,null],"title":"Orbit"}"#)
        // And back: the same document.
        let again = ProtobufJSON.structValue(json)
        #expect(try ProtobufJSON.object(again) == json)
    }

    @Test func numbersJSONCannotHoldAreRefused() {
        for number in [Double.nan, .infinity, -.infinity] {
            var variables = Google_Protobuf_Struct()
            variables.fields["x"] = Google_Protobuf_Value(numberValue: number)
            #expect(throws: ProtobufJSON.Unrepresentable.self) { try ProtobufJSON.object(variables) }
        }
    }

    @Test func nestingPastTheParsersLimitIsRefused() {
        var value = Google_Protobuf_Value(stringValue: "deep")
        for _ in 0..<600 {
            value = Google_Protobuf_Value(listValue: Google_Protobuf_ListValue(values: [value]))
        }
        var variables = Google_Protobuf_Struct()
        variables.fields["x"] = value
        #expect(throws: ProtobufJSON.Unrepresentable.self) { try ProtobufJSON.object(variables) }
    }

    @Test func refreshDurationsAddUpTheirUnits() throws {
        func duration(_ text: String) throws -> Duration? {
            let document = try parse(source: "query q @refresh(every: \(text)) { a }")
            let operation = try #require(document.definitions.first as? OperationDefinition)
            let argument = try #require(operation.directives.first?.arguments.first)
            return RefreshPolicy.duration(argument.value)
        }
        #expect(try duration("{ seconds: 30 }") == .seconds(30))
        #expect(try duration("{ minutes: 1, seconds: 5 }") == .seconds(65))
        #expect(try duration("{ milliseconds: 250 }") == .milliseconds(250))
        // Nothing, or a count that overflows, polls never rather than in a tight loop.
        #expect(try duration("{ seconds: 0 }") == nil)
        #expect(try duration("{ weeks: 99999999999999999 }") == nil)
    }
}
