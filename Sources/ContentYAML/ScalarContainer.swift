/// A scalar, read as a string, number or boolean.
///
/// Numbers and booleans are read from the interpolated text whatever the quoting, so `port: "${PORT}"`
/// works; the text itself must still be a number or boolean, or the error says what was found.
struct ScalarContainer: SingleValueDecodingContainer {
    let decoder: NodeDecoder

    var codingPath: [any CodingKey] { decoder.codingPath }

    private func fail(_ expected: String) -> YAMLError {
        decoder.context.error(
            "expected \(expected), found \(decoder.node.kindDescription)", at: decoder.node, path: codingPath)
    }

    /// The scalar's text after `${…}` interpolation; single-quoted scalars are literal.
    func text() throws -> String {
        guard case .scalar(let scalar) = decoder.node.kind else { throw fail("a scalar") }
        guard scalar.style != .singleQuoted else { return scalar.value }
        do {
            return try interpolateEnvironment(scalar.value, environment: decoder.context.environment)
        } catch {
            throw decoder.context.error(error.message, at: decoder.node, path: codingPath, hint: error.hint)
        }
    }

    private func nonNullText(_ expected: String) throws -> String {
        if case .scalar(let scalar) = decoder.node.kind, scalar.isNull { throw fail(expected) }
        return try text()
    }

    func decodeNil() -> Bool {
        if case .scalar(let scalar) = decoder.node.kind { return scalar.isNull }
        return false
    }

    func decode(_ type: Bool.Type) throws -> Bool {
        switch try nonNullText("a boolean (true or false)") {
        case "true", "True", "TRUE": return true
        case "false", "False", "FALSE": return false
        default: throw fail("a boolean (true or false)")
        }
    }

    func decode(_ type: String.Type) throws -> String {
        try nonNullText("a string")
    }

    func decode(_ type: Double.Type) throws -> Double {
        let text = try nonNullText("a number")
        if let value = Self.parseFloat(text) { return value }
        throw fail("a number")
    }

    func decode(_ type: Float.Type) throws -> Float {
        Float(try decode(Double.self))
    }

    func decode(_ type: Int.Type) throws -> Int { try integer() }
    func decode(_ type: Int8.Type) throws -> Int8 { try integer() }
    func decode(_ type: Int16.Type) throws -> Int16 { try integer() }
    func decode(_ type: Int32.Type) throws -> Int32 { try integer() }
    func decode(_ type: Int64.Type) throws -> Int64 { try integer() }
    func decode(_ type: UInt.Type) throws -> UInt { try integer() }
    func decode(_ type: UInt8.Type) throws -> UInt8 { try integer() }
    func decode(_ type: UInt16.Type) throws -> UInt16 { try integer() }
    func decode(_ type: UInt32.Type) throws -> UInt32 { try integer() }
    func decode(_ type: UInt64.Type) throws -> UInt64 { try integer() }

    func decode<T: Decodable>(_ type: T.Type) throws -> T {
        try decoder.decodeValue(T.self)
    }

    private func integer<T: FixedWidthInteger>() throws -> T {
        let text = try nonNullText("an integer")
        guard let value = Self.parseInteger(text, as: T.self) else {
            if Self.parseInteger(text, as: Int64.self) != nil || Self.parseInteger(text, as: UInt64.self) != nil {
                throw fail("an integer from \(T.min) to \(T.max)")
            }
            throw fail("an integer")
        }
        return value
    }

    /// Decimal, `0x` hexadecimal and `0o` octal, as YAML 1.2's core schema reads them.
    static func parseInteger<T: FixedWidthInteger>(_ text: String, as type: T.Type) -> T? {
        var digits = Substring(text)
        var negative = false
        if let sign = digits.first, sign == "-" || sign == "+" {
            negative = sign == "-"
            digits = digits.dropFirst()
        }
        var radix = 10
        if digits.hasPrefix("0x") {
            radix = 16
            digits = digits.dropFirst(2)
        } else if digits.hasPrefix("0o") {
            radix = 8
            digits = digits.dropFirst(2)
        }
        guard !digits.isEmpty, digits.allSatisfy({ $0.isHexDigit }) else { return nil }
        return T(negative ? "-" + digits : String(digits), radix: radix)
    }

    /// Decimal and exponent forms plus YAML's `.inf`, `-.inf` and `.nan`.
    static func parseFloat(_ text: String) -> Double? {
        switch text {
        case ".inf", ".Inf", ".INF", "+.inf", "+.Inf", "+.INF": return .infinity
        case "-.inf", "-.Inf", "-.INF": return -.infinity
        case ".nan", ".NaN", ".NAN": return .nan
        default: break
        }
        let allowed = text.allSatisfy { $0.isASCII && ($0.isNumber || "+-.eE".contains($0)) }
        guard allowed, text.contains(where: \.isNumber) else { return nil }
        return Double(text)
    }
}
