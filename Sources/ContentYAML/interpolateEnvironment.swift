/// Replaces `${NAME}` and `${NAME:-default}` in a scalar with values from the environment.
///
/// `${NAME:-default}` uses the default when the variable is unset or empty; `$$` stands for one `$`.
/// A bare `$` not followed by `{` or `$` is kept as written, so prices and regexes survive.
///
/// - Parameters:
///   - text: The scalar's text.
///   - environment: The variables to read.
/// - Returns: The text with every reference replaced.
/// - Throws: A message for an unset variable without a default, or an unterminated `${`.
func interpolateEnvironment(_ text: String, environment: [String: String]) throws(InterpolationError) -> String {
    guard text.contains("$") else { return text }
    var result = ""
    var rest = Substring(text)
    while let dollar = rest.firstIndex(of: "$") {
        result += rest[..<dollar]
        let afterDollar = rest.index(after: dollar)
        if rest[afterDollar...].hasPrefix("$") {
            result += "$"
            rest = rest[rest.index(after: afterDollar)...]
        } else if rest[afterDollar...].hasPrefix("{") {
            let nameStart = rest.index(after: afterDollar)
            guard let close = rest[nameStart...].firstIndex(of: "}") else {
                throw InterpolationError(
                    message: "unterminated `${` in \"\(text)\"; close it with `}` or write `$${` for a literal")
            }
            let body = rest[nameStart..<close]
            let name: Substring
            let fallback: Substring?
            if let separator = body.firstRange(of: ":-") {
                name = body[..<separator.lowerBound]
                fallback = body[separator.upperBound...]
            } else {
                name = body
                fallback = nil
            }
            guard isVariableName(name) else {
                throw InterpolationError(
                    message: "`${\(body)}` is not a variable reference; names are letters, digits and `_`")
            }
            if let value = environment[String(name)], !(fallback != nil && value.isEmpty) {
                result += value
            } else if let fallback {
                result += fallback
            } else {
                throw InterpolationError(
                    message: "environment variable \(name) is not set",
                    hint: "export \(name)=…, or write ${\(name):-default}"
                )
            }
            rest = rest[rest.index(after: close)...]
        } else {
            result += "$"
            rest = rest[afterDollar...]
        }
    }
    result += rest
    return result
}

private func isVariableName(_ name: Substring) -> Bool {
    guard let first = name.first, first == "_" || (first.isASCII && first.isLetter) else { return false }
    return name.allSatisfy { $0 == "_" || ($0.isASCII && ($0.isLetter || $0.isNumber)) }
}

/// Why a `${…}` reference could not be replaced.
struct InterpolationError: Error {
    var message: String
    var hint: String?
}
