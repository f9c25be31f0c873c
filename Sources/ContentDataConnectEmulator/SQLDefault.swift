internal import ContentDataConnect
internal import ContentJSON
internal import Foundation
internal import GRDB
internal import GraphQL

/// `@default(sql: "…")`: PostgreSQL evaluates the text when a row is inserted without the column.
///
/// The embedded engine evaluates the forms Firebase's examples and SDK tests use: a literal (`'text'`, `42`,
/// `true`, `null`, each with an optional `::type` cast), `'epoch'`, and the clock and UUID functions (`now()`,
/// `current_timestamp`, `current_date`, `gen_random_uuid()`). Anything else is refused when a row needs it,
/// with the text, rather than guessed at.
enum SQLDefault {
    struct Unsupported: Error, CustomStringConvertible {
        let description: String
    }

    /// The stored value of `sql` for a column type, with the request's clock.
    static func evaluate(_ sql: String, as type: ScalarType, values: ServerValues) throws -> DatabaseValue {
        var text = sql.trimmingCharacters(in: .whitespacesAndNewlines)
        // `('epoch'::timestamptz)`, `0::int8`: the cast is the column's type here; parentheses add nothing.
        while true {
            if let cast = text.range(of: "::", options: .backwards),
                text[cast.upperBound...].allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" || $0 == " " })
            {
                text = String(text[..<cast.lowerBound]).trimmingCharacters(in: .whitespaces)
            } else if text.count >= 2, text.hasPrefix("("), text.hasSuffix(")") {
                text = String(text.dropFirst().dropLast()).trimmingCharacters(in: .whitespaces)
            } else {
                break
            }
        }
        switch text.lowercased() {
        case "now()", "current_timestamp", "statement_timestamp()", "transaction_timestamp()", "clock_timestamp()",
            "localtimestamp", "current_date":
            return try values.evaluate("request.time", as: type)
        case "gen_random_uuid()", "uuid_generate_v4()":
            return try values.evaluate("uuidV4()", as: type)
        case "null":
            return .null
        case "true", "false":
            return try StoredValue.storage(.bool(text.lowercased() == "true"), as: type)
        case "'epoch'":
            return try StoredValue.storage(.string(type == .date ? "1970-01-01" : "1970-01-01T00:00:00Z"), as: type)
        default:
            break
        }
        if text.count >= 2, text.hasPrefix("'"), text.hasSuffix("'") {
            let body = text.dropFirst().dropLast()
            // A quote inside is written twice; a lone one means the text is not one literal.
            guard !body.replacingOccurrences(of: "''", with: "").contains("'") else {
                throw unsupported(sql)
            }
            let literal = body.replacingOccurrences(of: "''", with: "'")
            switch type {
            case .int64:
                guard let number = Int64(literal) else { throw unsupported(sql) }
                return try StoredValue.storage(.string(String(number)), as: type)
            case .int, .float:
                guard let number = Double(literal) else { throw unsupported(sql) }
                return try StoredValue.storage(.number(Number(number)), as: type)
            case .boolean:
                return try StoredValue.storage(
                    .bool(["t", "true", "yes", "on", "1"].contains(literal.lowercased())), as: type)
            default:
                return try StoredValue.storage(.string(literal), as: type)
            }
        }
        if let integer = Int64(text) {
            return try StoredValue.storage(type == .int64 ? .string(text) : .number(Number(integer)), as: type)
        }
        if let number = Double(text), text.contains(where: { $0 == "." || $0 == "e" || $0 == "E" }) {
            return try StoredValue.storage(.number(Number(number)), as: type)
        }
        throw unsupported(sql)
    }

    private static func unsupported(_ sql: String) -> Unsupported {
        Unsupported(
            description:
                "@default(sql: \"\(sql)\") is PostgreSQL the embedded engine does not evaluate; give the field a "
                + "value in the mutation, or use @default(value:) or @default(expr:)")
    }
}
