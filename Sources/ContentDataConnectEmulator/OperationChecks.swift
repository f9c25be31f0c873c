internal import ContentGraphQL
internal import ContentJSON
internal import GraphQL

/// `@check` and `@redact` of one operation, applied to the result of each root field.
///
/// As the service's prelude documents them: `@check(expr, message, optional)` evaluates its CEL expression with
/// `this` bound to each occurrence of the field (its selected structure, descendants included), skips paths an
/// ancestor's `null` or `[]` cuts off, and fails when the field occurs nowhere unless `optional`; a failure replaces
/// the root field that holds it with an error carrying `message` ("permission denied" by default). `@redact`
/// removes a field (or a fragment's fields) from the response after the checks have seen it.
struct OperationChecks {
    /// One root field of the operation, by response key.
    struct RootField {
        let key: String
        let field: Field
    }

    private let fragments: [String: FragmentDefinition]
    /// The root fields in order, root fragments' fields included.
    let rootFields: [RootField]
    /// Whether any field or fragment of the operation has `@check`.
    let hasChecks: Bool
    /// Whether any has `@redact`.
    let hasRedactions: Bool

    init(operation: OperationDefinition, document: Document) {
        var fragments: [String: FragmentDefinition] = [:]
        for case let fragment as FragmentDefinition in document.definitions {
            fragments[fragment.name.value] = fragment
        }
        self.fragments = fragments
        var roots: [RootField] = []
        // Root fragments (`...F` on Mutation) add their fields as root fields.
        func collect(_ selectionSet: SelectionSet, seen: Set<String>) {
            for selection in selectionSet.selections {
                switch selection {
                case let field as Field:
                    let key = field.alias?.value ?? field.name.value
                    // GraphQL merges selections of one response key into one field, which runs once.
                    if !roots.contains(where: { $0.key == key }) { roots.append(RootField(key: key, field: field)) }
                case let inline as InlineFragment:
                    collect(inline.selectionSet, seen: seen)
                case let spread as FragmentSpread:
                    let name = spread.name.value
                    guard !seen.contains(name), let fragment = fragments[name] else { continue }
                    collect(fragment.selectionSet, seen: seen.union([name]))
                default:
                    break
                }
            }
        }
        collect(operation.selectionSet, seen: [])
        rootFields = roots
        var names = Set<String>()
        Self.directiveNames(in: operation.selectionSet, fragments: fragments, seen: [], into: &names)
        hasChecks = names.contains("check")
        hasRedactions = names.contains("redact")
    }

    private static func directiveNames(
        in selectionSet: SelectionSet?, fragments: [String: FragmentDefinition], seen: Set<String>,
        into names: inout Set<String>
    ) {
        for selection in selectionSet?.selections ?? [] {
            switch selection {
            case let field as Field:
                for directive in field.directives { names.insert(directive.name.value) }
                directiveNames(in: field.selectionSet, fragments: fragments, seen: seen, into: &names)
            case let inline as InlineFragment:
                for directive in inline.directives { names.insert(directive.name.value) }
                directiveNames(in: inline.selectionSet, fragments: fragments, seen: seen, into: &names)
            case let spread as FragmentSpread:
                for directive in spread.directives { names.insert(directive.name.value) }
                let name = spread.name.value
                guard !seen.contains(name), let fragment = fragments[name] else { continue }
                for directive in fragment.directives { names.insert(directive.name.value) }
                directiveNames(in: fragment.selectionSet, fragments: fragments, seen: seen.union([name]), into: &names)
            default:
                break
            }
        }
    }

    // MARK: - @check

    /// The message of the first `@check` that fails in one root field's result.
    ///
    /// - Parameters:
    ///   - root: The root field.
    ///   - value: Its value in the response.
    ///   - environment: `auth`, `request`, `vars` and `response` for the expressions.
    /// - Returns: The message, or `nil` when every check holds.
    func failure(of root: RootField, value: JSONValue, environment: [String: JSONValue]) -> String? {
        var walk = CheckWalk(fragments: fragments, environment: environment)
        walk.field(root.field, value: value)
        if let failure = walk.failure { return failure }
        // A checked field that no path reached fails unless it is optional.
        for (id, check) in walk.declared where walk.occurrences[id, default: 0] == 0 && !check.optional {
            return check.message
        }
        return nil
    }

    private struct Check {
        var expression: String
        var message: String
        var optional: Bool
    }

    private struct CheckWalk {
        let fragments: [String: FragmentDefinition]
        let environment: [String: JSONValue]
        var declared: [Int: Check] = [:]
        var occurrences: [Int: Int] = [:]
        var failure: String?

        /// Checks a field present with `value`, then the fields selected under it.
        mutating func field(_ field: Field, value: JSONValue) {
            let checks = Self.checks(of: field, variables: environment["vars"])
            let id = field.loc?.start ?? 0
            if let first = checks.first { declared[id] = first }
            for check in checks where failure == nil {
                occurrences[id, default: 0] += 1
                var scope = environment
                scope["this"] = value
                let holds = (try? ServerExpression(check.expression).evaluate(scope)) == .bool(true)
                if !holds { failure = check.message }
            }
            selections(field.selectionSet, parent: value, seen: [])
        }

        mutating func selections(_ selectionSet: SelectionSet?, parent: JSONValue, seen: Set<String>) {
            guard let selectionSet, failure == nil else { return }
            // Declared before any value is seen, so that a path cut off by null still counts as absent.
            for selection in selectionSet.selections {
                switch selection {
                case let field as Field:
                    if let check = Self.checks(of: field, variables: environment["vars"]).first {
                        let id = field.loc?.start ?? 0
                        declared[id] = declared[id] ?? check
                    }
                    switch parent {
                    case .array(let elements):
                        for element in elements { visit(field, in: element) }
                    default:
                        visit(field, in: parent)
                    }
                case let inline as InlineFragment:
                    fragmentChecks(inline.directives, at: inline.loc?.start ?? 0, parent: parent)
                    selections(inline.selectionSet, parent: parent, seen: seen)
                case let spread as FragmentSpread:
                    let name = spread.name.value
                    guard !seen.contains(name), let fragment = fragments[name] else { continue }
                    fragmentChecks(spread.directives, at: spread.loc?.start ?? 0, parent: parent)
                    fragmentChecks(fragment.directives, at: fragment.loc?.start ?? 0, parent: parent)
                    selections(fragment.selectionSet, parent: parent, seen: seen.union([name]))
                default:
                    break
                }
            }
        }

        /// `@check` on a fragment: `this` is each object the fragment applies to.
        private mutating func fragmentChecks(_ directives: [Directive], at id: Int, parent: JSONValue) {
            let checks = Self.checks(directives, variables: environment["vars"])
            guard let first = checks.first else { return }
            declared[id] = declared[id] ?? first
            let objects: [JSONValue]
            switch parent {
            case .array(let elements): objects = elements.filter { $0.objectValue != nil }
            case .object: objects = [parent]
            default: objects = []
            }
            for object in objects {
                for check in checks where failure == nil {
                    occurrences[id, default: 0] += 1
                    var scope = environment
                    scope["this"] = object
                    if (try? ServerExpression(check.expression).evaluate(scope)) != .bool(true) {
                        failure = check.message
                    }
                }
            }
        }

        private mutating func visit(_ field: Field, in parent: JSONValue) {
            guard case .object(let object) = parent, let value = object[field.alias?.value ?? field.name.value]
            else { return }
            self.field(field, value: value)
        }

        static func checks(of field: Field, variables: JSONValue?) -> [Check] {
            checks(field.directives, variables: variables)
        }

        static func checks(_ directives: [Directive], variables: JSONValue?) -> [Check] {
            directives.filter { $0.name.value == "check" }.map { directive in
                func argument(_ name: String) -> JSONValue? {
                    guard let value = directive.arguments.first(where: { $0.name.value == name })?.value else {
                        return nil
                    }
                    if let variable = value as? Variable { return variables?.objectValue?[variable.name.value] }
                    return GraphQLJSON.literal(value)
                }
                return Check(
                    expression: argument("expr")?.stringValue ?? "!(this in [null, []])",
                    message: argument("message")?.stringValue ?? "permission denied",
                    optional: argument("optional") == .bool(true))
            }
        }
    }

    // MARK: - @redact

    /// One root field's value without what `@redact` hides; `nil` when the root field itself is redacted.
    func redacted(_ root: RootField, value: JSONValue) -> JSONValue? {
        if root.field.directives.contains(where: { $0.name.value == "redact" }) { return nil }
        return strip(root.field.selectionSet, from: value, seen: [])
    }

    private func strip(_ selectionSet: SelectionSet?, from value: JSONValue, seen: Set<String>) -> JSONValue {
        guard let selectionSet else { return value }
        switch value {
        case .array(let elements):
            return .array(elements.map { strip(selectionSet, from: $0, seen: seen) })
        case .object(var object):
            strip(selectionSet, in: &object, seen: seen, hidden: false)
            return .object(object)
        default:
            return value
        }
    }

    private func strip(_ selectionSet: SelectionSet?, in object: inout JSONObject, seen: Set<String>, hidden: Bool) {
        for selection in selectionSet?.selections ?? [] {
            switch selection {
            case let field as Field:
                let key = field.alias?.value ?? field.name.value
                if hidden || field.directives.contains(where: { $0.name.value == "redact" }) {
                    object[key] = nil
                } else if let value = object[key] {
                    object[key] = strip(field.selectionSet, from: value, seen: seen)
                }
            case let inline as InlineFragment:
                let hides = hidden || inline.directives.contains { $0.name.value == "redact" }
                strip(inline.selectionSet, in: &object, seen: seen, hidden: hides)
            case let spread as FragmentSpread:
                let name = spread.name.value
                guard !seen.contains(name), let fragment = fragments[name] else { continue }
                let hides = hidden || spread.directives.contains { $0.name.value == "redact" }
                strip(fragment.selectionSet, in: &object, seen: seen.union([name]), hidden: hides)
            default:
                break
            }
        }
    }
}
