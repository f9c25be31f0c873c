internal import ContentAEM
internal import ContentJSON
internal import Foundation
internal import GraphQL
internal import OrderedCollections

/// The `_assetTransform` argument: how `_dynamicUrl` should render images.
///
/// Its fields are those Adobe documents for web-optimized image delivery (`format` required, `seoName`, `crop`,
/// `size`, `rotation`, `flip`, `quality`, `width`, `preferWebp`); the names of the nested input types are not in
/// the corpus's 2021 schema, which predates them.
struct AssetTransform: Sendable, Hashable {
    var format: String?
    var seoName: String?
    var width: Int?
    var quality: Int?
    var preferWebp: Bool?
    /// The Dynamic Media parameters of `crop`, `size`, `rotation` and `flip`, in that order.
    var geometry: [String] = []

    init(_ map: Map) {
        format = map["format"].string
        seoName = map["seoName"].string
        width = map["width"].int
        quality = map["quality"].int
        preferWebp = map["preferWebp"].bool
        // For a frame and a dimension, "if width or height is omitted then the height or width is used as the same
        // value" (Adobe, "GraphQL API for use with Content Fragments", Structure of the Transformation Request); the
        // schema requires a frame's origin.
        func square(_ value: Map) -> String {
            let width = value["width"].int ?? value["height"].int ?? 0
            return "\(width),\(value["height"].int ?? width)"
        }
        let crop = map["crop"]
        if case .dictionary = crop {
            geometry.append("crop=\(crop["xOrigin"].int ?? 0),\(crop["yOrigin"].int ?? 0)," + square(crop))
        }
        let size = map["size"]
        if case .dictionary = size { geometry.append("size=" + square(size)) }
        if let rotation = map["rotation"].string { geometry.append("rotate=" + rotation.dropFirst()) }
        switch map["flip"].string {
        case "HORIZONTAL": geometry.append("flip=h")
        case "VERTICAL": geometry.append("flip=v")
        case "HORIZONTAL_AND_VERTICAL": geometry.append("flip=hv")
        default: break
        }
    }
}

/// Evaluates an AEM filter, as AEM's generated filter inputs read.
///
/// A model filter (`XModelFilter`) holds one filter per field and `_logOp` (AND unless it says OR). A scalar field's
/// filter (`StringFilter`, `FloatFilter`, …) holds `_expressions`, combined by its own `_logOp`, each a `value`, an
/// `_operator` of that type (`EQUALS`, `EQUAL`, `AT`, …) and its options (`_ignoreCase`, `_sensitiveness`). A
/// multi-value field's `XArrayFilter` expressions compare each value with `value` and count the matches by `_apply`
/// (`AT_LEAST_ONCE` unless given, `ALL`, `ALL_OR_EMPTY`, `INSTANCES` with `_instances`), or the whole list with
/// `values`. `_path` takes an `IDFilter` (with `STARTS_WITH`), multi-line text a `MultiFormatStringFilter` over its
/// `html`, `markdown` and `plaintext`, a fragment reference the referenced model's filter, and a list of them, or of
/// multi-line texts, `{ _match, _apply }`. An expression whose `value` is null or left out is no condition, so that
/// an optional variable left out drops it.
struct FragmentFilter {
    let engine: AEMGraphQLEngine

    /// The kinds of value an expression compares, each with its operators.
    enum Kind {
        case string, id, float, int, boolean, time
    }

    func matches(_ fragment: AEMWorkspace.Fragment, model: ContentFragmentModel, filter: Map, depth: Int) throws -> Bool
    {
        guard case .dictionary(let entries) = filter else { return true }
        // The filter's own nesting bounds this; the query's depth limit keeps that far below this bound.
        guard depth < 64 else {
            throw ResolverFailure("the filter follows fragment references more than 64 deep; filter on fewer levels")
        }
        var results: [Bool] = []
        for (key, condition) in entries where key != "_logOp" && !condition.isNull {
            switch key {
            case "_path":
                results.append(try scalar(condition, value: .string(fragment.path), kind: .id))
                continue
            case "_variation":
                results.append(try scalar(condition, value: .string("master"), kind: .string))
                continue
            case "_variations", "_tags":
                results.append(try array(condition, values: [], kind: .string))
                continue
            default:
                break
            }
            guard let field = model.fields.first(where: { $0.name == key }) else {
                throw ResolverFailure("\(model.typeName)Filter has no field \(key)")
            }
            let value = fragment.values[key] ?? .null
            let several = field.multiple || field.type == .tags
            let elements = value.arrayValue ?? (value == .null ? [] : [value])
            switch field.type {
            case .fragmentReference:
                guard let target = field.model.flatMap({ engine.models[$0] }) else { continue }
                var referenced: [AEMWorkspace.Fragment] = []
                for path in elements.compactMap(\.stringValue) {
                    if let fragment = try engine.store.fragment(path: path) { referenced.append(fragment) }
                }
                if several {
                    let match = condition["_match"]
                    results.append(
                        try apply(condition["_apply"], instances: nil, to: referenced) {
                            try matches($0, model: target, filter: match, depth: depth + 1)
                        })
                } else {
                    results.append(
                        try referenced.first.map { try matches($0, model: target, filter: condition, depth: depth + 1) }
                            ?? false)
                }
            case .multiline:
                if several {
                    let match = condition["_match"]
                    results.append(
                        try apply(condition["_apply"], instances: nil, to: elements) { try richText(match, $0) })
                } else {
                    results.append(value == .null ? false : try richText(condition, value))
                }
            default:
                let kind = Self.kind(of: field.type)
                results.append(
                    several
                        ? try array(condition, values: elements, kind: kind)
                        : try scalar(condition, value: value, kind: kind))
            }
        }
        return Self.combine(results, or: filter["_logOp"].string == "OR")
    }

    /// The expression kind of a field type.
    static func kind(of type: ContentFragmentModel.FieldType) -> Kind {
        switch type {
        case .number: return .float
        case .integer: return .int
        case .boolean: return .boolean
        case .datetime, .date, .time: return .time
        default: return .string
        }
    }

    /// AND of the results, or OR; no condition at all holds.
    static func combine(_ results: [Bool], or: Bool) -> Bool {
        or ? results.isEmpty || results.contains(true) : !results.contains(false)
    }

    /// A `MultiFormatStringFilter` on one rich-text value: its `StringFilter`s on the formats the text renders to.
    private func richText(_ condition: Map, _ value: JSONValue) throws -> Bool {
        guard case .dictionary(let entries) = condition, let html = value.stringValue else { return true }
        let text = RichText(html: html)
        var results: [Bool] = []
        for (format, filter) in entries where format != "_logOp" && !filter.isNull {
            let rendered: String
            switch format {
            case "html": rendered = html
            case "markdown": rendered = text.markdown
            case "plaintext": rendered = text.plaintext
            default: throw ResolverFailure("MultiFormatStringFilter has no field \(format)")
            }
            results.append(try scalar(filter, value: .string(rendered), kind: .string))
        }
        return Self.combine(results, or: condition["_logOp"].string == "OR")
    }

    /// A scalar field's filter: its expressions, combined by its `_logOp`.
    private func scalar(_ condition: Map, value: JSONValue, kind: Kind) throws -> Bool {
        guard case .array(let list) = condition["_expressions"] else { return true }
        let outcomes = try list.map { expression in
            expression["value"].isNull ? true : try compare(value, expression["value"], expression, kind: kind)
        }
        return Self.combine(outcomes, or: condition["_logOp"].string == "OR")
    }

    /// A multi-value field's filter: each expression compares the values one by one, counted by `_apply`, or the
    /// whole list with `values`.
    private func array(_ condition: Map, values: [JSONValue], kind: Kind) throws -> Bool {
        guard case .array(let list) = condition["_expressions"] else { return true }
        let outcomes = try list.map { expression -> Bool in
            if case .array(let wanted) = expression["values"] {
                return try whole(values, wanted, expression, kind: kind)
            }
            let value = expression["value"]
            if value.isNull { return true }
            return try apply(expression["_apply"], instances: expression["_instances"].int, to: values) {
                try compare($0, value, expression, kind: kind)
            }
        }
        return Self.combine(outcomes, or: condition["_logOp"].string == "OR")
    }

    /// How many of the elements must pass: `AT_LEAST_ONCE` (the default), `ALL` (and at least one), `ALL_OR_EMPTY`,
    /// or exactly `_instances` of them for `INSTANCES`.
    private func apply<Element>(_ mode: Map, instances: Int?, to elements: [Element], _ test: (Element) throws -> Bool)
        throws -> Bool
    {
        switch mode.string ?? "AT_LEAST_ONCE" {
        case "ALL": return try !elements.isEmpty && elements.allSatisfy(test)
        case "ALL_OR_EMPTY": return try elements.allSatisfy(test)
        case "INSTANCES":
            guard let instances else { return try elements.contains(where: test) }
            return try elements.filter(test).count == instances
        default: return try elements.contains(where: test)
        }
    }

    /// `values`: the list as a whole, equal (in order) or not, or holding all or none of them.
    private func whole(_ values: [JSONValue], _ wanted: [Map], _ expression: Map, kind: Kind) throws -> Bool {
        let operation = expression["_operator"].string ?? Self.defaultOperator(kind)
        let holds = { (element: Map) in
            try values.contains { try compare($0, element, expression, kind: kind, operation: Self.equal(kind)) }
        }
        switch operation {
        case "EQUALS", "EQUAL", "AT":
            guard values.count == wanted.count else { return false }
            return try zip(values, wanted).allSatisfy {
                try compare($0, $1, expression, kind: kind, operation: Self.equal(kind))
            }
        case "EQUALS_NOT", "UNEQUAL", "NOT_AT":
            return try !whole(values, wanted, expression.with("_operator", Self.equal(kind)), kind: kind)
        case "CONTAINS": return try wanted.allSatisfy(holds)
        case "CONTAINS_NOT": return try !wanted.contains(where: holds)
        default:
            throw ResolverFailure(
                "values compares a whole list with \(Self.equal(kind)), its negation, CONTAINS or CONTAINS_NOT")
        }
    }

    /// An ISO 8601 date and time with an offset (`2021-05-01T10:00:00Z`, `…10:00:00.123+02:00`), as seconds since
    /// 1970; `nil` for anything else.
    static func instant(_ text: String) -> Double? {
        guard text.count >= 20, text.count <= 40, text.contains("T") else { return nil }
        let plain = Date.ISO8601FormatStyle()
        let fractional = Date.ISO8601FormatStyle(includingFractionalSeconds: true)
        let date = (try? plain.parse(text)) ?? (try? fractional.parse(text))
        return date?.timeIntervalSince1970
    }

    static func defaultOperator(_ kind: Kind) -> String {
        equal(kind)
    }

    static func equal(_ kind: Kind) -> String {
        switch kind {
        case .float, .int: return "EQUAL"
        case .time: return "AT"
        default: return "EQUALS"
        }
    }

    /// One value against an expression's: its operator, `_ignoreCase` for text, `_sensitiveness` for floats.
    private func compare(
        _ actual: JSONValue, _ expected: Map, _ expression: Map, kind: Kind, operation given: String? = nil
    ) throws -> Bool {
        let operation = given ?? expression["_operator"].string ?? Self.defaultOperator(kind)
        switch kind {
        case .float, .int:
            guard let actual = actual.numberValue, let expected = expected.double else { return false }
            let tolerance = kind == .float ? abs(expression["_sensitiveness"].double ?? 0) : 0
            switch operation {
            case "EQUAL": return abs(actual - expected) <= tolerance
            case "UNEQUAL": return abs(actual - expected) > tolerance
            case "GREATER": return actual > expected
            case "GREATER_EQUAL": return actual >= expected
            case "LOWER": return actual < expected
            case "LOWER_EQUAL": return actual <= expected
            default: throw ResolverFailure("unknown number operator \(operation)")
            }
        case .boolean:
            guard case .bool(let actual) = actual, let expected = expected.bool else { return false }
            return actual == expected
        case .time:
            guard let actualText = actual.stringValue, let expectedText = expected.string else { return false }
            // Instants compare as instants (`…10:00:00.000Z` is `…12:00:00+02:00`); dates and times of day, which
            // have one written form, as text.
            let order: Int
            if let a = Self.instant(actualText), let b = Self.instant(expectedText) {
                order = a < b ? -1 : (a > b ? 1 : 0)
            } else {
                order = actualText < expectedText ? -1 : (actualText > expectedText ? 1 : 0)
            }
            switch operation {
            case "AT": return order == 0
            case "NOT_AT": return order != 0
            case "BEFORE": return order < 0
            case "AT_OR_BEFORE": return order <= 0
            case "AFTER": return order > 0
            case "AT_OR_AFTER": return order >= 0
            default: throw ResolverFailure("unknown date and time operator \(operation)")
            }
        case .string, .id:
            guard var actual = actual.stringValue, var expected = expected.string else { return false }
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

extension Map {
    /// Whether the value is null or left out.
    var isNull: Bool {
        self == .null || self == .undefined
    }

    /// An input object with one member set.
    func with(_ key: String, _ value: String) -> Map {
        guard case .dictionary(var members) = self else { return self }
        members[key] = .string(value)
        return .dictionary(members)
    }
}

/// An AEM `sort` argument: `"price DESC, title"`: fields in order, each ASC (default) or DESC; a field of a
/// referenced fragment by its dotted path (`authorFragment.lastName`).
struct FragmentSort {
    struct Key {
        /// The field names from the sorted model to the value (`["authorFragment", "lastName"]`).
        var path: [String]
        var descending: Bool
    }

    let keys: [Key]

    init(_ text: String, model: ContentFragmentModel, models: [String: ContentFragmentModel]) throws {
        var keys: [Key] = []
        for part in text.split(separator: ",") {
            let words = part.split(separator: " ").map(String.init)
            guard let field = words.first else { continue }
            let path = field.split(separator: ".").map(String.init)
            var current: ContentFragmentModel? = model
            for (index, name) in path.enumerated() {
                guard let here = current else { break }
                let isLast = index == path.count - 1
                if isLast, name == "_path" { break }
                guard let found = here.fields.first(where: { $0.name == name }) else {
                    throw ResolverFailure("cannot sort by '\(field)': the \(here.name) model has no field \(name)")
                }
                if !isLast {
                    guard found.type == .fragmentReference, !found.multiple, let target = found.model else {
                        throw ResolverFailure(
                            "cannot sort by '\(field)': \(name) is not a single fragment reference to follow")
                    }
                    current = models[target]
                }
            }
            let direction = words.dropFirst().first?.uppercased() ?? "ASC"
            guard direction == "ASC" || direction == "DESC", words.count <= 2 else {
                throw ResolverFailure("sort expects 'field [ASC|DESC], …', found '\(part)'")
            }
            keys.append(Key(path: path, descending: direction == "DESC"))
        }
        self.keys = keys
    }

    /// The value a key path reaches from a fragment, following fragment references; null when it leads nowhere.
    static func value(of fragment: AEMWorkspace.Fragment, at path: [String], engine: AEMGraphQLEngine) throws
        -> JSONValue
    {
        var current = fragment
        for (index, name) in path.enumerated() {
            let value = name == "_path" ? JSONValue.string(current.path) : current.values[name] ?? .null
            if index == path.count - 1 { return value }
            guard let next = value.stringValue, let referenced = try engine.store.fragment(path: next) else {
                return .null
            }
            current = referenced
        }
        return .null
    }

    func sorted(_ fragments: [AEMWorkspace.Fragment], engine: AEMGraphQLEngine) throws -> [AEMWorkspace.Fragment] {
        // Each key's value once per fragment, then a stable sort.
        let values = try fragments.map { fragment in
            try keys.map { try Self.value(of: fragment, at: $0.path, engine: engine) }
        }
        return fragments.indices.sorted { left, right in
            for (index, key) in keys.enumerated() {
                let order = Self.compare(values[left][index], values[right][index])
                if order != 0 { return key.descending ? order > 0 : order < 0 }
            }
            return left < right
        }.map { fragments[$0] }
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
