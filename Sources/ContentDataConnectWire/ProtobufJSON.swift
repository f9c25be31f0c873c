public import ContentJSON
internal import Foundation
public import SwiftProtobuf

/// JSON documents as protobuf's `Struct` and `Value` carry them, both ways, and GraphQL errors as the wire's
/// `GraphqlError`.
///
/// `Struct` numbers are doubles: a whole number is written back as an integer (`5`, not `5.0`) so that GraphQL's
/// `Int` takes it, and a non-finite number is refused as JSON cannot hold one. Int64 values travel as strings in
/// Data Connect, as the SDKs send them, so no precision is lost that JSON would keep.
public enum ProtobufJSON {
    /// Why a protobuf value has no JSON form.
    public struct Unrepresentable: Error, CustomStringConvertible {
        /// What cannot be represented.
        public var description: String
    }

    /// The most levels of nesting read, as the JSON parser allows.
    public static let maximumDepth = 512

    /// A `Struct` as a JSON object, its keys sorted.
    ///
    /// - Parameter value: The struct.
    /// - Returns: The object.
    /// - Throws: ``Unrepresentable`` for a non-finite number or nesting past ``maximumDepth``.
    public static func object(_ value: Google_Protobuf_Struct) throws -> JSONObject {
        try object(value, depth: 0)
    }

    private static func object(_ value: Google_Protobuf_Struct, depth: Int) throws -> JSONObject {
        var object = JSONObject()
        for key in value.fields.keys.sorted() {
            guard let field = value.fields[key] else { continue }
            object[key] = try json(field, depth: depth + 1)
        }
        return object
    }

    private static func json(_ value: Google_Protobuf_Value, depth: Int) throws -> JSONValue {
        guard depth < maximumDepth else { throw Unrepresentable(description: "nested deeper than \(maximumDepth)") }
        switch value.kind {
        case .nullValue, nil:
            return .null
        case .boolValue(let flag):
            return .bool(flag)
        case .stringValue(let text):
            return .string(text)
        case .numberValue(let number):
            guard number.isFinite else { throw Unrepresentable(description: "\(number) is not a JSON number") }
            if number == number.rounded(), abs(number) < 1e15 { return .number(JSONNumber(Int(number))) }
            return .number(JSONNumber(text: "\(number)"))
        case .listValue(let list):
            return .array(try list.values.map { try json($0, depth: depth + 1) })
        case .structValue(let nested):
            return .object(try object(nested, depth: depth))
        }
    }

    /// A JSON object as a `Struct`.
    ///
    /// - Parameter object: The object.
    /// - Returns: The struct.
    public static func structValue(_ object: JSONObject) -> Google_Protobuf_Struct {
        var value = Google_Protobuf_Struct()
        for member in object.members { value.fields[member.key] = protobuf(member.value) }
        return value
    }

    /// A JSON value as a `Value`.
    ///
    /// - Parameter value: The value.
    /// - Returns: The protobuf value.
    public static func protobuf(_ value: JSONValue) -> Google_Protobuf_Value {
        var result = Google_Protobuf_Value()
        switch value {
        case .null: result.nullValue = .nullValue
        case .bool(let flag): result.boolValue = flag
        case .string(let text): result.stringValue = text
        case .number(let number): result.numberValue = number.doubleValue ?? 0
        case .array(let items):
            var list = Google_Protobuf_ListValue()
            list.values = items.map(protobuf)
            result.listValue = list
        case .object(let object): result.structValue = structValue(object)
        }
        return result
    }

    /// A GraphQL error of a JSON response as the wire's `GraphqlError`.
    ///
    /// - Parameter error: The error object.
    /// - Returns: The wire error.
    public static func graphQLError(_ error: JSONValue) -> Google_Firebase_Dataconnect_V1_GraphqlError {
        var wire = Google_Firebase_Dataconnect_V1_GraphqlError()
        wire.message = error["message"]?.stringValue ?? error.jsonText
        wire.locations = (error["locations"]?.arrayValue ?? []).map { location in
            var source = Google_Firebase_Dataconnect_V1_SourceLocation()
            source.line = Int32(clamping: location["line"].flatMap(int) ?? 0)
            source.column = Int32(clamping: location["column"].flatMap(int) ?? 0)
            return source
        }
        if let path = error["path"]?.arrayValue {
            var list = Google_Protobuf_ListValue()
            list.values = path.map(protobuf)
            wire.path = list
        }
        return wire
    }

    /// A JSON response's `extensions` (`{ dataConnect: [{ path, entityId | entityIds, action }] }`) as the wire's
    /// `GraphqlResponseExtensions`.
    ///
    /// - Parameter extensions: The `extensions` object.
    /// - Returns: The wire extensions; entries it cannot read are left out.
    public static func responseExtensions(_ extensions: JSONValue)
        -> Google_Firebase_Dataconnect_V1_GraphqlResponseExtensions
    {
        var wire = Google_Firebase_Dataconnect_V1_GraphqlResponseExtensions()
        wire.dataConnect = (extensions["dataConnect"]?.arrayValue ?? []).map { entry in
            var properties = Google_Firebase_Dataconnect_V1_DataConnectProperties()
            var path = Google_Protobuf_ListValue()
            path.values = (entry["path"]?.arrayValue ?? []).map(protobuf)
            properties.path = path
            if let id = entry["entityId"]?.stringValue { properties.entityID = id }
            properties.entityIds = (entry["entityIds"]?.arrayValue ?? []).compactMap(\.stringValue)
            properties.action = entry["action"]?.stringValue.flatMap { actions[$0] } ?? .unspecified
            return properties
        }
        return wire
    }

    /// A wire `GraphqlResponseExtensions` as the `extensions` of a JSON response, the inverse of
    /// ``responseExtensions(_:)``.
    ///
    /// - Parameter extensions: The wire extensions.
    /// - Returns: `{ dataConnect: [{ path, entityId | entityIds, action }] }`.
    public static func json(_ extensions: Google_Firebase_Dataconnect_V1_GraphqlResponseExtensions) -> JSONValue {
        let names = Dictionary(uniqueKeysWithValues: actions.map { ($0.value, $0.key) })
        let entries: [JSONValue] = extensions.dataConnect.map { properties in
            var entry = JSONObject()
            let wrapped = Google_Protobuf_Struct(fields: ["path": Google_Protobuf_Value(listValue: properties.path)])
            entry["path"] = (try? object(wrapped))?["path"] ?? .array([])
            if !properties.entityID.isEmpty { entry["entityId"] = .string(properties.entityID) }
            if !properties.entityIds.isEmpty { entry["entityIds"] = .array(properties.entityIds.map(JSONValue.string)) }
            if let action = names[properties.action] { entry["action"] = .string(action) }
            return .object(entry)
        }
        return .object(["dataConnect": .array(entries)])
    }

    /// The `Action` enum by the names protobuf's JSON form gives its values.
    private static let actions: [String: Google_Firebase_Dataconnect_V1_Action] = [
        "GET": .get, "LIST": .list, "CREATE": .create, "UPDATE": .update, "UPSERT": .upsert, "DELETE": .delete,
    ]

    private static func int(_ value: JSONValue) -> Int? {
        guard case .number(let number) = value, let double = number.doubleValue, double.isFinite else { return nil }
        return Int(exactly: double.rounded())
    }
}

extension ProtobufJSON {
    /// A wire `GraphqlError` as the JSON object a REST response holds.
    ///
    /// - Parameter error: The wire error.
    /// - Returns: `{ message, locations?, path? }`.
    public static func json(_ error: Google_Firebase_Dataconnect_V1_GraphqlError) -> JSONValue {
        var fields: JSONObject = ["message": .string(error.message)]
        if !error.locations.isEmpty {
            fields["locations"] = .array(
                error.locations.map {
                    .object(["line": .number(JSONNumber(Int($0.line))), "column": .number(JSONNumber(Int($0.column)))])
                })
        }
        if error.hasPath {
            let wrapped = Google_Protobuf_Struct(fields: ["path": Google_Protobuf_Value(listValue: error.path)])
            if let path = (try? Self.object(wrapped))?["path"] { fields["path"] = path }
        }
        return .object(fields)
    }
}
