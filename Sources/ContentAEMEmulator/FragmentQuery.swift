internal import ContentAEM
internal import ContentJSON
internal import Foundation
internal import GraphQL
internal import OrderedCollections

/// The `_assetTransform` argument: how `_dynamicUrl` should render images.
struct AssetTransform: Sendable {
    var format: String?
    var seoName: String?
    var width: Int?
    var quality: Int?
    var preferWebp: Bool?

    init(_ map: Map) {
        format = map["format"].string
        seoName = map["seoName"].string
        width = map["width"].int
        quality = map["quality"].int
        preferWebp = map["preferWebp"].bool
    }
}

/// Evaluates an AEM filter (`{field: {_logOp, _expressions: [{value, _operator, _ignoreCase}]}}`).
///
/// Field filters combine with AND unless the filter's `_logOp` says OR; a field's expressions combine
/// the same way. A fragment-reference field takes the referenced model's filter.
struct FragmentFilter {
    let engine: AEMGraphQLEngine

    func matches(_ fragment: AEMWorkspace.Fragment, model: ContentFragmentModel, filter: Map, depth: Int) throws -> Bool
    {
        guard case .dictionary(let entries) = filter else { return true }
        guard depth < 4 else { return false }
        let useOr = filter["_logOp"].string == "OR"
        var results: [Bool] = []
        for (key, condition) in entries where key != "_logOp" {
            if key == "_path" {
                results.append(try expressions(condition, value: .string(fragment.path), type: .text))
                continue
            }
            guard let field = model.fields.first(where: { $0.name == key }) else { continue }
            let value = fragment.values[key] ?? .null
            if field.type == .fragmentReference {
                guard let target = field.model.flatMap({ engine.models[$0] }) else { continue }
                let paths = value.arrayValue?.compactMap(\.stringValue) ?? value.stringValue.map { [$0] } ?? []
                var any = false
                for path in paths {
                    if let referenced = try engine.store.fragment(path: path),
                        try matches(referenced, model: target, filter: condition, depth: depth + 1)
                    {
                        any = true
                        break
                    }
                }
                results.append(any)
            } else {
                results.append(try expressions(condition, value: value, type: field.type))
            }
        }
        return useOr ? results.contains(true) || results.isEmpty : !results.contains(false)
    }

    private func expressions(_ condition: Map, value: JSONValue, type: ContentFragmentModel.FieldType) throws -> Bool {
        guard case .array(let list) = condition["_expressions"] else { return true }
        let useOr = condition["_logOp"].string == "OR"
        let outcomes = try list.map { try evaluate($0, value: value, type: type) }
        return useOr ? outcomes.contains(true) : !outcomes.contains(false)
    }

    private func evaluate(_ expression: Map, value: JSONValue, type: ContentFragmentModel.FieldType) throws -> Bool {
        let operation = expression["_operator"].string ?? "EQUALS"
        // A list field (tags) matches when any element does.
        if case .array(let elements) = value {
            return try elements.contains { try evaluate(expression, value: $0, type: type) }
        }
        switch type {
        case .number, .integer:
            guard let actual = value.numberValue, let expected = expression["value"].double else { return false }
            switch operation {
            case "EQUALS": return actual == expected
            case "EQUALS_NOT": return actual != expected
            case "GREATER": return actual > expected
            case "GREATER_EQUAL": return actual >= expected
            case "LOWER": return actual < expected
            case "LOWER_EQUAL": return actual <= expected
            default: throw ResolverFailure("unknown number operator \(operation)")
            }
        case .boolean:
            guard case .bool(let actual) = value, let expected = expression["value"].bool else { return false }
            return operation == "EQUALS_NOT" ? actual != expected : actual == expected
        case .datetime, .date:
            guard let actual = value.stringValue, let expected = expression["value"].string else { return false }
            switch operation {
            case "EQUALS": return actual == expected
            case "EQUALS_NOT": return actual != expected
            case "BEFORE": return actual < expected
            case "AT_OR_BEFORE": return actual <= expected
            case "AFTER": return actual > expected
            case "AT_OR_AFTER": return actual >= expected
            default: throw ResolverFailure("unknown calendar operator \(operation)")
            }
        default:
            guard var actual = value.stringValue, var expected = expression["value"].string else { return false }
            if expression["_ignoreCase"].bool == true {
                actual = actual.lowercased()
                expected = expected.lowercased()
            }
            switch operation {
            case "EQUALS": return actual == expected
            case "EQUALS_NOT": return actual != expected
            case "CONTAINS": return actual.contains(expected)
            case "CONTAINS_NOT": return !actual.contains(expected)
            case "STARTS_WITH": return actual.hasPrefix(expected)
            default: throw ResolverFailure("unknown string operator \(operation)")
            }
        }
    }
}

/// An AEM `sort` argument: `"price DESC, title"` — fields in order, each ASC (default) or DESC.
struct FragmentSort {
    struct Key {
        var field: String
        var descending: Bool
    }

    let keys: [Key]

    init(_ text: String, model: ContentFragmentModel) throws {
        var keys: [Key] = []
        for part in text.split(separator: ",") {
            let words = part.split(separator: " ").map(String.init)
            guard let field = words.first else { continue }
            guard field == "_path" || model.fields.contains(where: { $0.name == field }) else {
                throw ResolverFailure(
                    "cannot sort by '\(field)': the \(model.name) model has no such field"
                )
            }
            let direction = words.dropFirst().first?.uppercased() ?? "ASC"
            guard direction == "ASC" || direction == "DESC", words.count <= 2 else {
                throw ResolverFailure("sort expects 'field [ASC|DESC], …', found '\(part)'")
            }
            keys.append(Key(field: field, descending: direction == "DESC"))
        }
        self.keys = keys
    }

    func sorted(_ fragments: [AEMWorkspace.Fragment]) -> [AEMWorkspace.Fragment] {
        fragments.enumerated().sorted { left, right in
            for key in keys {
                let a = key.field == "_path" ? .string(left.element.path) : left.element.values[key.field] ?? .null
                let b = key.field == "_path" ? .string(right.element.path) : right.element.values[key.field] ?? .null
                let order = Self.compare(a, b)
                if order != 0 { return key.descending ? order > 0 : order < 0 }
            }
            return left.offset < right.offset
        }.map(\.element)
    }

    /// Numbers by value, strings case-insensitively, nulls last.
    static func compare(_ a: JSONValue, _ b: JSONValue) -> Int {
        switch (a, b) {
        case (.null, .null): return 0
        case (.null, _): return 1
        case (_, .null): return -1
        case (.number, .number):
            let x = a.numberValue ?? 0
            let y = b.numberValue ?? 0
            return x < y ? -1 : (x > y ? 1 : 0)
        default:
            let x = (a.stringValue ?? a.jsonText).lowercased()
            let y = (b.stringValue ?? b.jsonText).lowercased()
            return x < y ? -1 : (x > y ? 1 : 0)
        }
    }
}

extension JSONValue {
    var numberValue: Double? {
        if case .number(let number) = self { return number.doubleValue }
        return nil
    }
}

/// A resolver's failure; the executor places it at the field's path, so the message reads as-is.
struct ResolverFailure: Error, CustomStringConvertible {
    let description: String

    init(_ description: String) {
        self.description = description
    }
}
