package import ContentJSON
package import GraphQL

/// `@allow(fields:, maxCount:)` on a variable of a `_Data` input type: which fields a client may set through it, and
/// how many entities one value may hold.
///
/// As the service's prelude documents the directive (the `prelude.gql` Firebase's emulator writes): "When a `_Data`
/// input type is used as a variable in an operation, this directive is REQUIRED"; `fields` is "a space-separated
/// string mimicking a GraphQL selection set" (`"title genre releaseYear"`), and `maxCount` (default 100) limits the
/// items of a list and, for nested structures, the total number of entities. firebase-tools' changelog for emulator
/// 3.4.7 adds both ("`@allow(fields, maxCount)` to constraint the input JSON").
///
/// The prelude does not say how a nested input is written; here `reviews_on_movie { rating }` allows those fields
/// inside it, and a field named without braces allows its whole value.
package struct DataVariableAllowance: Sendable, Equatable {
    /// The fields allowed at one level, each with the fields allowed inside it, or `nil` for its whole value.
    package struct Fields: Sendable, Equatable {
        package var members: [String: Fields?]
    }

    /// The variable's name, without `$`.
    package var variable: String
    /// The `fields` text as written, for messages.
    package var fieldsText: String
    package var fields: Fields
    package var maxCount: Int

    /// Why a `fields` text is not a selection of names.
    package struct ParseFailure: Error, CustomStringConvertible, Equatable {
        package var description: String
    }

    /// The prelude's default `maxCount`.
    package static let defaultMaxCount = 100

    /// Reads `"title genre reviews_on_movie { rating }"`.
    ///
    /// - Parameter text: The `fields` argument.
    /// - Returns: The fields, or why the text is not a selection of names.
    package static func parse(_ text: String) -> Result<Fields, ParseFailure> {
        func failure(_ reason: String) -> Result<Fields, ParseFailure> { .failure(ParseFailure(description: reason)) }
        var tokens: [String] = []
        var name = ""
        for character in text {
            if character == "_" || character.isASCII && (character.isLetter || character.isNumber) {
                name.append(character)
                continue
            }
            if !name.isEmpty {
                tokens.append(name)
                name = ""
            }
            if character == "{" || character == "}" {
                tokens.append(String(character))
            } else if !(character.isWhitespace || character == ",") {
                return failure("'\(character)' is not part of a selection of field names")
            }
        }
        if !name.isEmpty { tokens.append(name) }
        var index = 0
        func level(depth: Int) -> Result<Fields, ParseFailure> {
            var members: [String: Fields?] = [:]
            var last: String?
            while index < tokens.count {
                let token = tokens[index]
                index += 1
                switch token {
                case "{":
                    guard let field = last else { return failure("'{' must follow a field name") }
                    // Deep enough for any schema's nesting, and no deeper, so a hostile text cannot exhaust the stack.
                    guard depth < 32 else { return failure("the selection nests more than 32 levels") }
                    switch level(depth: depth + 1) {
                    case .success(let inner): members[field] = .some(inner)
                    case .failure(let problem): return .failure(problem)
                    }
                    last = nil
                case "}":
                    guard depth > 0 else { return failure("'}' closes nothing") }
                    guard !members.isEmpty else { return failure("'{ }' selects no field") }
                    return .success(Fields(members: members))
                default:
                    guard token.first.map({ !$0.isNumber }) ?? false else {
                        return failure("\(token) is not a field name")
                    }
                    guard members[token] == nil else { return failure("\(token) is named twice") }
                    members[token] = .some(nil)
                    last = token
                }
            }
            guard depth == 0 else { return failure("a '{' is not closed") }
            guard !members.isEmpty else { return failure("it names no field") }
            return .success(Fields(members: members))
        }
        return level(depth: 0)
    }

    /// The allowances an operation declares, one per variable with a readable `@allow` (validation reports the
    /// others).
    ///
    /// - Parameter operation: The operation.
    /// - Returns: Its allowances, in declaration order.
    package static func allowances(of operation: OperationDefinition) -> [DataVariableAllowance] {
        operation.variableDefinitions.compactMap { definition in
            guard let allow = written(on: definition), let text = allow.fields as? StringValue,
                case .success(let fields) = parse(text.value)
            else { return nil }
            let count = allow.maxCount as? IntValue
            return DataVariableAllowance(
                variable: definition.variable.name.value, fieldsText: text.value, fields: fields,
                maxCount: count.flatMap { Int($0.value) } ?? defaultMaxCount)
        }
    }

    /// The `@allow` of a variable definition and its arguments as written, or `nil` when it has none.
    package static func written(on definition: VariableDefinition) -> (
        directive: Directive, fields: (any Value)?, maxCount: (any Value)?
    )? {
        guard let allow = definition.directives.first(where: { $0.name.value == "allow" }) else { return nil }
        func argument(_ name: String) -> (any Value)? { allow.arguments.first { $0.name.value == name }?.value }
        return (allow, argument("fields"), argument("maxCount"))
    }

    /// Why a value of the variable is refused, or `nil` when it fits.
    ///
    /// - Parameter value: The variable's value, as the request sent it.
    /// - Returns: The refusal, naming the field or the count.
    package func violation(of value: JSONValue) -> String? {
        var entities = 0
        // `fields` is nil inside a field allowed whole: its objects are counted, not checked.
        func check(_ value: JSONValue, against fields: Fields?, at path: String) -> String? {
            switch value {
            case .array(let items):
                for (offset, item) in items.enumerated() {
                    if let problem = check(item, against: fields, at: "\(path)[\(offset)]") { return problem }
                    if entities > maxCount { return nil }
                }
            case .object(let object):
                entities += 1
                if entities > maxCount { return nil }
                for member in object.members {
                    var inner: Fields?
                    if let fields {
                        guard let allowed = fields.members[member.key] else {
                            return "\(path).\(member.key) is not among the fields the @allow of $\(variable) lets a "
                                + "client set (\"\(fieldsText)\"); leave it out, or add it to the operation's "
                                + "@allow(fields:)"
                        }
                        inner = allowed
                    }
                    if let problem = check(member.value, against: inner, at: "\(path).\(member.key)") {
                        return problem
                    }
                    if entities > maxCount { return nil }
                }
            default:
                break
            }
            return nil
        }
        if let problem = check(value, against: fields, at: "$\(variable)") { return problem }
        guard entities <= maxCount else {
            return
                "variable $\(variable) holds more than \(maxCount) entities (nested ones count), the maxCount of its "
                + "@allow; send at most \(maxCount) in one request, or raise maxCount in the operation"
        }
        return nil
    }
}
