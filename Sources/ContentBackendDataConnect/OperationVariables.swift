public import ContentDataConnect
public import ContentJSON
internal import ContentYAML
internal import Foundation

/// Command-line flags turned into an operation's variables, typed by its own declarations.
///
/// `--genre Sci-Fi` fills `$genre: String!`; numbers, booleans, UUIDs, dates, timestamps, Int64 and enums
/// are checked and normalised; a list variable takes its flag repeatedly; input objects and `Any` take
/// JSON. Everything is checked before anything is sent, and every message shows the operation's signature.
public struct OperationVariables: Sendable {
    /// The operation the flags are for.
    public let operation: ConnectorOperation
    /// The schema's enums, to check enum values.
    public let enums: [String: [String]]

    /// Creates a parser for one operation.
    ///
    /// - Parameters:
    ///   - operation: The operation.
    ///   - enums: The schema's enums by name.
    public init(operation: ConnectorOperation, enums: [String: [String]]) {
        self.operation = operation
        self.enums = enums.merging(Self.builtInEnums) { mine, _ in mine }
    }

    package static let builtInEnums = ["OrderDirection": ["ASC", "DESC"]]

    /// Parses `--name value` / `--name=value` flags over a base object (from `--vars`), then applies
    /// declared defaults and checks required variables.
    ///
    /// - Parameters:
    ///   - flags: The flags after the operation name, as typed.
    ///   - base: Variables given as JSON, which flags override.
    /// - Returns: The variables in declaration order.
    /// - Throws: ``DataConnectError`` of kind `usage`.
    public func parse(_ flags: [String], base: JSONObject = JSONObject()) throws -> JSONObject {
        var given: [String: [String]] = [:]
        var index = 0
        while index < flags.count {
            let flag = flags[index]
            index += 1
            guard flag.hasPrefix("--"), flag.count > 2 else {
                throw usage("unexpected argument '\(flag)'; variables are given as --name value")
            }
            var name = String(flag.dropFirst(2))
            var value: String?
            if let equals = name.firstIndex(of: "=") {
                value = String(name[name.index(after: equals)...])
                name = String(name[..<equals])
            }
            guard let variable = variable(named: name) else {
                let names = operation.variables.map(\.name)
                let suggestion = closestMatch(to: name, in: names).map { " (did you mean --\($0)?)" } ?? ""
                throw usage("unknown flag --\(name)\(suggestion)")
            }
            if value == nil {
                let isBoolean = variable.type.namedType == "Boolean"
                if index < flags.count, flags[index].hasPrefix("--"), !isBoolean {
                    throw usage(
                        "--\(name) needs a value of type \(variable.type) (use --\(name)=VALUE for one starting with --)"
                    )
                }
                if index < flags.count, !(isBoolean && flags[index].hasPrefix("--")) {
                    value = flags[index]
                    index += 1
                } else if isBoolean {
                    value = "true"
                } else {
                    throw usage("--\(name) needs a value of type \(variable.type)")
                }
            }
            given[variable.name, default: []].append(value ?? "")
        }
        var result = JSONObject()
        for variable in operation.variables {
            if let values = given[variable.name] {
                result[variable.name] = try coerce(values, as: variable.type, name: variable.name)
            } else if let value = base[variable.name] {
                result[variable.name] = try checkJSON(value, as: variable.type, name: variable.name)
            } else if let defaultValue = variable.defaultValue {
                result[variable.name] = defaultValue
            } else if variable.type.isRequired {
                throw usage("missing required --\(variable.name) (\(variable.type))")
            }
        }
        for member in base.members where !operation.variables.contains(where: { $0.name == member.key }) {
            throw usage("--vars has \(member.key), which \(operation.name) does not declare")
        }
        return result
    }

    /// The variable a flag names: as declared (`--releaseYear`) or in kebab case (`--release-year`).
    package func variable(named flag: String) -> ConnectorOperation.Variable? {
        if let exact = operation.variables.first(where: { $0.name == flag }) { return exact }
        let parts = flag.split(separator: "-")
        guard parts.count > 1 else { return nil }
        let camel = parts[0] + parts.dropFirst().map { $0.prefix(1).uppercased() + $0.dropFirst() }.joined()
        return operation.variables.first { $0.name == camel }
    }

    private func usage(_ message: String) -> DataConnectError {
        DataConnectError(kind: .usage, description: "\(message)\n  \(operation.signature)")
    }

    /// The values of one flag as the declared type: lists take every value, others exactly one.
    package func coerce(_ values: [String], as type: TypeReference, name: String) throws -> JSONValue {
        switch type {
        case .nonNull(let inner):
            return try coerce(values, as: inner, name: name)
        case .list(let element):
            // One JSON array is accepted too: --tags '["a","b"]'.
            if values.count == 1, values[0].hasPrefix("["), case .array(let array)? = try? JSONParser().parse(values[0])
            {
                return .array(try array.map { try check($0, as: element, name: name) })
            }
            return .array(try values.map { try coerce([$0], as: element, name: name) })
        case .named(let typeName):
            guard values.count == 1, let text = values.first else {
                throw usage("--\(name) is a single \(typeName), but was given \(values.count) times")
            }
            return try scalar(text, typeName: typeName, name: name)
        }
    }

    /// A value from `--vars`, checked against the declared type as strictly as a flag would be.
    package func checkJSON(_ value: JSONValue, as type: TypeReference, name: String) throws -> JSONValue {
        switch type {
        case .nonNull(let inner):
            guard value != .null else { throw usage("--vars: \(name) is \(type) and cannot be null") }
            return try checkJSON(value, as: inner, name: name)
        case .list(let element):
            if value == .null { return value }
            guard let elements = value.arrayValue else { throw usage("--vars: \(name) is \(type), not a list") }
            return .array(try elements.map { try checkJSON($0, as: element, name: name) })
        case .named(let typeName):
            if value == .null { return value }
            switch (typeName, value) {
            case ("Any", _): return value
            case ("String", .string): return value
            case (_, .object) where enums[typeName] == nil && ScalarType(builtIn: typeName) == nil: return value
            case (_, .string(let text)): return try scalar(text, typeName: typeName, name: name)
            case ("String", _): throw usage("--vars: \(name) is String, got \(value.jsonText)")
            default: return try scalar(value.jsonText, typeName: typeName, name: name)
            }
        }
    }

    /// A JSON element of a list flag, checked against the element type.
    private func check(_ value: JSONValue, as type: TypeReference, name: String) throws -> JSONValue {
        if case .string(let text) = value, type.namedType != "Any" {
            return try scalar(text, typeName: type.namedType, name: name)
        }
        if value == .null { return value }
        return try scalar(value.jsonText, typeName: type.namedType, name: name)
    }

    /// One value as a named type.
    package func scalar(_ text: String, typeName: String, name: String) throws -> JSONValue {
        func bad(_ expected: String) -> DataConnectError {
            usage("--\(name) takes \(expected), got '\(text)'")
        }
        switch typeName {
        case "String":
            return .string(text)
        case "Int":
            guard let number = Int32(text) else { throw bad("an Int (a 32-bit integer)") }
            return .number(JSONNumber(Int(number)))
        case "Int64":
            guard let number = Int64(text) else { throw bad("an Int64 (a 64-bit integer)") }
            // Int64 travels as a JSON string so no client loses precision.
            return .string(String(number))
        case "Float":
            guard let number = Double(text), number.isFinite else { throw bad("a Float") }
            return .number(JSONNumber(text: Self.jsonNumberText(text, number)))
        case "Boolean":
            guard text == "true" || text == "false" else { throw bad("true or false") }
            return .bool(text == "true")
        case "UUID":
            guard let uuid = WireScalars.uuid(text) else { throw bad("a UUID (32 hex digits, dashes allowed)") }
            return .string(uuid)
        case "Date":
            guard WireScalars.isDate(text) else { throw bad("a Date as YYYY-MM-DD") }
            return .string(text)
        case "Timestamp":
            guard WireScalars.isTimestamp(text) else {
                throw bad("a Timestamp in RFC 3339, such as 2024-05-01T12:00:00Z")
            }
            return .string(text)
        case "Any":
            guard let value = try? JSONParser().parse(text) else { throw bad("JSON (quote strings: '\"text\"')") }
            return value
        default:
            if let values = enums[typeName] {
                guard values.contains(text) else { throw bad("one of \(values.joined(separator: ", "))") }
                return .string(text)
            }
            // Input objects (`Movie_Key`, filters) are given as JSON.
            guard let value = try? JSONParser().parse(text), value.objectValue != nil else {
                throw bad("a JSON object for \(typeName), such as '{\"id\":\"…\"}'")
            }
            return value
        }
    }

    /// JSON number text for a parsed Float (`.5` and `5.` become `0.5` and `5.0`).
    package static func jsonNumberText(_ text: String, _ number: Double) -> String {
        (try? JSONParser().parse(text)).flatMap { value -> String? in
            if case .number(let parsed) = value { return parsed.text }
            return nil
        } ?? "\(number)"
    }
}

/// The wire forms of Data Connect's scalars, checked on the client side.
package enum WireScalars {
    /// 32 lowercase hex digits from hex or dashed input.
    package static func uuid(_ text: String) -> String? {
        let digits: String
        if text.count == 36 {
            let parts = text.split(separator: "-", omittingEmptySubsequences: false)
            guard parts.map(\.count) == [8, 4, 4, 4, 12] else { return nil }
            digits = parts.joined()
        } else {
            digits = text
        }
        guard digits.count == 32, digits.allSatisfy(\.isHexDigit) else { return nil }
        return digits.lowercased()
    }

    /// `YYYY-MM-DD`, a real calendar day.
    package static func isDate(_ text: String) -> Bool {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0].count == 4, parts[1].count == 2, parts[2].count == 2,
            let year = Int(parts[0]), let month = Int(parts[1]), let day = Int(parts[2]), (1...12).contains(month)
        else { return false }
        let leap = (year % 4 == 0 && year % 100 != 0) || year % 400 == 0
        let lengths = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]
        return (1...lengths[month - 1]).contains(day)
    }

    /// RFC 3339 date-time with 0 to 9 fractional digits and `Z` or an offset.
    package static func isTimestamp(_ text: String) -> Bool {
        let pattern =
            #"^\d{4}-\d{2}-\d{2}[Tt]([01]\d|2[0-3]):[0-5]\d:([0-5]\d|60)(\.\d{1,9})?([Zz]|[+-]([01]\d|2[0-3]):[0-5]\d)$"#
        guard text.range(of: pattern, options: .regularExpression) != nil else { return false }
        return isDate(String(text.prefix(10)))
    }
}
