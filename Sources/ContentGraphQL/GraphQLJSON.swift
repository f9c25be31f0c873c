package import ContentJSON
internal import Foundation
package import GraphQL
internal import OrderedCollections

/// Converting between the project's JSON documents and GraphQLSwift's `Map`, for every emulator.
package enum GraphQLJSON {
    /// A request's variables as GraphQL values, by name.
    package static func variables(_ object: JSONObject) -> [String: Map] {
        var values: [String: Map] = [:]
        for member in object.members { values[member.key] = map(member.value) }
        return values
    }

    package static func map(_ value: JSONValue) -> Map {
        switch value {
        case .null: return .null
        case .bool(let flag): return .bool(flag)
        case .number(let number):
            if let integer = Int(number.text) { return .int(integer) }
            if let big = bigInteger(number.text) { return .number(big) }
            return .double(number.doubleValue ?? 0)
        case .string(let string): return .string(string)
        case .array(let elements): return .array(elements.map(map))
        case .object(let object):
            var dictionary = OrderedDictionary<String, Map>()
            for member in object.members { dictionary[member.key] = map(member.value) }
            return .dictionary(dictionary)
        }
    }

    package static func json(_ map: Map) -> JSONValue {
        switch map {
        case .undefined, .null: return .null
        case .bool(let flag): return .bool(flag)
        case .number(var number):
            switch number.storageType {
            case .int: return .number(JSONNumber(number.intValue))
            case .unknown where number.number is NSDecimalNumber:
                return .number(JSONNumber(text: number.number.stringValue))
            default:
                let value = number.doubleValue
                return value.isFinite ? .number(JSONNumber(text: "\(value)")) : .null
            }
        case .string(let string): return .string(string)
        case .array(let elements): return .array(elements.map(json))
        case .dictionary(let dictionary):
            return .object(JSONObject(dictionary.map { JSONMember($0.key, json($0.value)) }))
        }
    }

    /// An integer too long for `Int`, kept digit for digit (as a decimal number) instead of rounded to a `Double`:
    /// JSON, and the service's `Any`, keep every digit of `12345678901234567890`.
    ///
    /// - Parameter text: A number's text.
    /// - Returns: The number, or `nil` when the text is not a whole number.
    package static func bigInteger(_ text: String) -> Number? {
        let digits = text.hasPrefix("-") ? text.dropFirst() : Substring(text)
        guard !digits.isEmpty, digits.count <= 1000, digits.allSatisfy({ $0.isASCII && $0.isNumber }) else {
            return nil
        }
        return Number(NSDecimalNumber(string: text))
    }

    package static func json(_ error: GraphQLError) -> JSONValue {
        var object: JSONObject = ["message": .string(error.message)]
        if !error.locations.isEmpty {
            object["locations"] = .array(
                error.locations.map {
                    .object(["line": .number(JSONNumber($0.line)), "column": .number(JSONNumber($0.column))])
                }
            )
        }
        if !error.path.elements.isEmpty {
            object["path"] = .array(
                error.path.elements.map { element in
                    switch element {
                    case .index(let index): return .number(JSONNumber(index))
                    case .key(let key): return .string(key)
                    }
                }
            )
        }
        return .object(object)
    }

    /// A constant literal of a document as JSON; `nil` when it holds a variable.
    package static func literal(_ value: any Value) -> JSONValue? {
        switch value {
        case let string as StringValue: return .string(string.value)
        case let integer as IntValue: return .number(JSONNumber(text: integer.value))
        case let float as FloatValue: return .number(JSONNumber(text: float.value))
        case let boolean as BooleanValue: return .bool(boolean.value)
        case is NullValue: return .null
        case let enumeration as EnumValue: return .string(enumeration.value)
        case let list as ListValue:
            var elements: [JSONValue] = []
            for element in list.values {
                guard let converted = literal(element) else { return nil }
                elements.append(converted)
            }
            return .array(elements)
        case let object as ObjectValue:
            var members = JSONObject()
            for field in object.fields {
                guard let converted = literal(field.value) else { return nil }
                members[field.name.value] = converted
            }
            return .object(members)
        default:
            return nil
        }
    }
}
