internal import ContentDataConnect
internal import ContentJSON
internal import GRDB
internal import GraphQL
internal import OrderedCollections

/// Aggregate fields of a table type, as the service generates them: `_count`, `<field>_count(distinct:)` for
/// every column, `_sum` and `_avg` for numbers, `_min` and `_max` for numbers, dates, timestamps and `Any`.
///
/// A list that selects any of them is answered per group: the other fields it selects (columns only) are the
/// group, all rows when there are none, as SQL's `GROUP BY`; `having` filters the groups and `orderBy` may name
/// aggregates.
enum Aggregates {
    /// One aggregate a selection asks for.
    struct Selected: Sendable {
        /// The response key its value goes under.
        let key: String
        let column: DataConnectSchema.Column?
        let function: String
        let distinct: Bool

        /// The SQL expression over `alias`.
        func expression(_ alias: String) -> String {
            Aggregates.expression(function, column: column, distinct: distinct, alias: alias)
        }
    }

    /// What aggregate a field name is, on a table: `(column, function)`, the column `nil` for `_count`.
    static func parse(_ name: String, table: DataConnectSchema.Table) -> (DataConnectSchema.Column?, String)? {
        if name == "_count" { return (nil, "count") }
        for function in ["count", "sum", "avg", "min", "max"] where name.hasSuffix("_" + function) {
            guard let column = table.column(String(name.dropLast(function.count + 1))), !column.isList,
                column.aggregateFunctions.contains(function)
            else { continue }
            return (column, function)
        }
        return nil
    }

    /// The SQL of an aggregate over a table alias.
    static func expression(_ function: String, column: DataConnectSchema.Column?, distinct: Bool, alias: String)
        -> String
    {
        guard let column else { return "COUNT(*)" }
        let value = RowQuery.column(alias, column)
        switch function {
        case "count", "sum", "avg":
            return "\(function.uppercased())(\(distinct ? "DISTINCT " : "")\(value))"
        default: return "\(function.uppercased())(\(value))"
        }
    }

    /// Whether `@skip(if: true)` or `@include(if: false)` leaves a selection out.
    static func isLeftOut(_ directives: [Directive], info: GraphQLResolveInfo) -> Bool {
        func condition(_ directive: Directive) -> Bool? {
            guard let value = directive.arguments.first(where: { $0.name.value == "if" })?.value else { return nil }
            if let variable = value as? Variable {
                let given = info.variableValues[variable.name.value]
                return (given as? Map)?.bool ?? (given as? Bool)
            }
            return (value as? BooleanValue)?.value
        }
        for directive in directives {
            switch directive.name.value {
            case "skip" where condition(directive) == true: return true
            case "include" where condition(directive) == false: return true
            default: continue
            }
        }
        return false
    }

    /// The aggregates and the group columns a list field selects, or `nil` when it selects no aggregate.
    ///
    /// - Throws: ``FieldFailure`` when an aggregate sits beside a relation, which has no group to follow.
    static func selection(of info: GraphQLResolveInfo, table: DataConnectSchema.Table) throws
        -> (aggregates: [Selected], groups: [DataConnectSchema.Column])?
    {
        var aggregates: [Selected] = []
        var groups: [DataConnectSchema.Column] = []
        var others: [String] = []
        func visit(_ selectionSet: SelectionSet?, seen: Set<String>) {
            for selection in selectionSet?.selections ?? [] {
                switch selection {
                case let field as Field:
                    let name = field.name.value
                    if isLeftOut(field.directives, info: info) { continue }
                    if let (column, function) = parse(name, table: table) {
                        let distinct =
                            field.arguments.first { $0.name.value == "distinct" }.map { argument -> Bool in
                                if let variable = argument.value as? Variable {
                                    let value = info.variableValues[variable.name.value]
                                    return (value as? Map)?.bool == true || (value as? Bool) == true
                                }
                                return (argument.value as? BooleanValue)?.value == true
                            } ?? false
                        aggregates.append(
                            Selected(
                                key: field.alias?.value ?? name, column: column, function: function, distinct: distinct)
                        )
                    } else if let column = table.column(name) {
                        if !groups.contains(where: { $0.field == column.field }) { groups.append(column) }
                    } else if !name.hasPrefix("__") {
                        others.append(name)
                    }
                case let inline as InlineFragment:
                    if isLeftOut(inline.directives, info: info) { continue }
                    visit(inline.selectionSet, seen: seen)
                case let spread as FragmentSpread:
                    if isLeftOut(spread.directives, info: info) { continue }
                    let name = spread.name.value
                    guard !seen.contains(name), let fragment = info.fragments[name] else { continue }
                    visit(fragment.selectionSet, seen: seen.union([name]))
                default:
                    break
                }
            }
        }
        for node in info.fieldASTs { visit(node.selectionSet, seen: []) }
        guard !aggregates.isEmpty else { return nil }
        if let other = others.first {
            throw FieldFailure(
                description: "\(other) cannot be selected beside aggregates: a group has columns and aggregates only")
        }
        return (aggregates, groups)
    }
}

extension RowQuery {
    /// `SELECT group columns, aggregates FROM table alias WHERE … GROUP BY … HAVING … ORDER BY … LIMIT … OFFSET …`.
    mutating func aggregate(
        _ table: DataConnectSchema.Table, alias: String, arguments: Map, extra: ((String) -> SQLFragment)?,
        aggregates: [Aggregates.Selected], groups: [DataConnectSchema.Column]
    ) throws -> SQLFragment {
        isGrouping = true
        defer { isGrouping = false }
        var condition = try filter(arguments["where"], table: table, alias: alias)
        if let extra { condition = SQLFragment.joined([condition, extra(alias)], by: "AND") }
        let groupColumns = groups.map { Self.column(alias, $0) }
        let selected =
            groups.map { "\(Self.column(alias, $0)) AS \(DataConnectStore.quote($0.sqlName))" }
            + aggregates.enumerated().map { "\($1.expression(alias)) AS \"__aggregate\($0)\"" }
        var sql = SQLFragment(
            text: "SELECT \(selected.joined(separator: ", ")) FROM \(DataConnectStore.quote(table.sqlName)) \(alias) "
                + "WHERE \(condition.text)",
            arguments: condition.arguments)
        if !groupColumns.isEmpty { sql.text += " GROUP BY " + groupColumns.joined(separator: ", ") }
        let having = try self.having(arguments["having"], table: table, alias: alias)
        if having.text != SQLFragment.always.text {
            sql.text += " HAVING \(having.text)"
            sql.arguments += having.arguments
        }
        let order = try self.order(arguments["orderBy"], table: table, alias: alias)
        let terms = order.map(\.text) + groupColumns
        if !terms.isEmpty {
            sql.text += " ORDER BY " + terms.joined(separator: ", ")
            sql.arguments += order.flatMap(\.arguments)
        }
        let limit = arguments["limit"].int
        let offset = arguments["offset"].int
        if let limit, limit < 0 { throw Failure(description: "limit must not be negative, was \(limit)") }
        if let offset, offset < 0 { throw Failure(description: "offset must not be negative, was \(offset)") }
        if limit != nil || offset != nil { sql.text += dialect.limit(limit, offset: offset) }
        return sql
    }

    /// A `T_Having` as a condition on the aggregates of `alias`.
    mutating func having(_ input: Map, table: DataConnectSchema.Table, alias: String) throws -> SQLFragment {
        guard case .dictionary(let members) = input else { return .always }
        var parts: [SQLFragment] = []
        for (key, value) in members where !value.isAbsent {
            switch key {
            case "_and", "_or":
                let each = try (value.array ?? [value]).map { try having($0, table: table, alias: alias) }
                if !each.isEmpty { parts.append(.joined(each, by: key == "_and" ? "AND" : "OR")) }
            case "_not":
                let inner = try having(value, table: table, alias: alias)
                parts.append(SQLFragment(text: "NOT (\(inner.text))", arguments: inner.arguments))
            case "_distinct":
                guard value.bool != true else {
                    throw Failure(description: "\(table.typeName)_Having _distinct is not emulated")
                }
            default:
                guard let (column, function) = Aggregates.parse(key, table: table) else {
                    throw Failure(description: "\(table.typeName)_Having has no field \(key)")
                }
                let expression = Aggregates.expression(function, column: column, distinct: false, alias: alias)
                let type: ScalarType =
                    function == "count" ? .int : function == "avg" ? .float : column?.type ?? .int
                parts.append(try scalarCondition(value, type: type, expression: expression))
            }
        }
        return parts.isEmpty ? .always : .joined(parts, by: "AND")
    }
}
