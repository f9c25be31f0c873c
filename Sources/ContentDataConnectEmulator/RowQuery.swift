internal import ContentDataConnect
internal import ContentJSON
internal import Foundation
internal import GRDB
internal import GraphQL
internal import OrderedCollections

/// A piece of SQL and the values its `?` placeholders stand for.
struct SQLFragment: Sendable {
    var text: String
    var arguments: [DatabaseValue] = []
    /// Whether the text already numbers its arguments as PostgreSQL does (`$1`), as native SQL is written; then a `?`
    /// in it is an operator (jsonb's), not an argument.
    var isNumbered = false

    // Comparisons, not the integers SQLite takes for truth: PostgreSQL's WHERE wants a boolean.
    static let always = SQLFragment(text: "1 = 1")
    static let never = SQLFragment(text: "1 = 0")

    static func joined(_ parts: [SQLFragment], by separator: String) -> SQLFragment {
        SQLFragment(
            text: parts.map { "(\($0.text))" }.joined(separator: " \(separator) "),
            arguments: parts.flatMap(\.arguments))
    }
}

/// Turns `where`, `orderBy`, `limit` and `offset` arguments into SQL over one table and the tables its
/// references and relation fields reach.
///
/// Conditions whose value is null are dropped, as the service does: an optional variable left out
/// removes its condition instead of matching nulls.
struct RowQuery {
    let schema: DataConnectSchema
    let values: ServerValues
    let dialect: SQLDialect
    private var aliasCount = 0

    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    init(schema: DataConnectSchema, values: ServerValues, dialect: SQLDialect) {
        self.schema = schema
        self.values = values
        self.dialect = dialect
    }

    /// Whether the statement being built groups rows, so that `orderBy` may name aggregates.
    var isGrouping = false

    /// What a search ranks rows by: selected as `__score`, and ordered by after `orderBy`.
    struct Ranking {
        /// The score of the row on an alias.
        var score: (String) -> SQLFragment
        /// Whether a higher score comes first (relevance) rather than a lower one (distance).
        var descending: Bool
    }

    mutating func alias() -> String {
        aliasCount += 1
        return "t\(aliasCount)"
    }

    /// Whether a table the statements reach besides their own is a `@view`, whose SELECT may call a function that
    /// writes (see ``PostgresStore/read(_:readsView:)``).
    private(set) var readsView = false

    /// The table of this name, noted in ``readsView``.
    mutating func table(_ name: String) throws -> DataConnectSchema.Table {
        guard let table = schema.table(name) else { throw Failure(description: "no table \(name)") }
        if table.isView { readsView = true }
        return table
    }

    static func column(_ alias: String, _ column: DataConnectSchema.Column) -> String {
        "\(alias).\(DataConnectStore.quote(column.sqlName))"
    }

    /// `SELECT alias.rowid, alias.* FROM table alias WHERE … ORDER BY … LIMIT … OFFSET …`.
    ///
    /// - Parameters:
    ///   - table: The table.
    ///   - alias: Its alias.
    ///   - arguments: `where`, `orderBy`, `limit`, `offset`.
    ///   - extra: A further condition, made for whichever alias it must apply to.
    ///   - distinct: Columns whose values must differ between rows; the first row of each set is kept,
    ///     before ordering and paging.
    ///   - ranking: A search's score, selected and ordered by.
    /// - Returns: The statement and its arguments.
    /// - Throws: ``Failure`` for filters and orders the table does not have, or a negative limit or offset.
    mutating func select(
        _ table: DataConnectSchema.Table, alias: String, arguments: Map,
        extra: ((String) -> SQLFragment)? = nil, distinct: [DataConnectSchema.Column] = [], ranking: Ranking? = nil
    ) throws -> SQLFragment {
        var condition = try filter(arguments["where"], table: table, alias: alias)
        if let extra { condition = SQLFragment.joined([condition, extra(alias)], by: "AND") }
        if !distinct.isEmpty {
            let inner = self.alias()
            var innerCondition = try filter(arguments["where"], table: table, alias: inner)
            if let extra { innerCondition = SQLFragment.joined([innerCondition, extra(inner)], by: "AND") }
            let groups = distinct.map { Self.column(inner, $0) }.joined(separator: ", ")
            let firsts = SQLFragment(
                text:
                    "\(dialect.rowIdentity(alias, table: table)) IN (SELECT MIN(\(dialect.rowIdentity(inner, table: table))) "
                    + "FROM \(DataConnectStore.quote(table.sqlName)) "
                    + "\(inner) WHERE \(innerCondition.text) GROUP BY \(groups))",
                arguments: innerCondition.arguments)
            condition = SQLFragment.joined([condition, firsts], by: "AND")
        }
        let score = ranking.map { $0.score(alias) }
        var sql = SQLFragment(
            text: "SELECT \(dialect.rowIdentity(alias, table: table)) AS \"__rowid\", \(alias).*"
                + (score.map { ", (\($0.text)) AS \"__score\"" } ?? "")
                + " FROM \(DataConnectStore.quote(table.sqlName)) \(alias) WHERE \(condition.text)",
            arguments: (score?.arguments ?? []) + condition.arguments)
        var order = try self.order(arguments["orderBy"], table: table, alias: alias)
        if let ranking, let score {
            // Nulls last, as PostgreSQL sorts them ascending. SQLite orders by the selected score, computed once per
            // row; PostgreSQL takes an output column's name alone in ORDER BY, never inside an expression.
            let term = dialect == .sqlite ? SQLFragment(text: "\"__score\"") : score
            order += [
                SQLFragment(text: "(\(term.text)) IS NULL", arguments: term.arguments),
                SQLFragment(text: "(\(term.text)) \(ranking.descending ? "DESC" : "ASC")", arguments: term.arguments),
            ]
        }
        sql.text +=
            " ORDER BY " + (order.map(\.text) + [dialect.rowIdentity(alias, table: table)]).joined(separator: ", ")
        sql.arguments += order.flatMap(\.arguments)
        let limit = arguments["limit"].int
        let offset = arguments["offset"].int
        if let limit, limit < 0 { throw Failure(description: "limit must not be negative, was \(limit)") }
        if let offset, offset < 0 { throw Failure(description: "offset must not be negative, was \(offset)") }
        if limit != nil || offset != nil {
            sql.text += dialect.limit(limit, offset: offset)
        }
        return sql
    }

    // MARK: - Filters

    /// A `T_Filter` as a condition on `alias`.
    mutating func filter(_ input: Map, table: DataConnectSchema.Table, alias: String) throws -> SQLFragment {
        guard case .dictionary(let members) = input else { return .always }
        var parts: [SQLFragment] = []
        for (key, value) in members {
            if value == .null || value == .undefined { continue }
            switch key {
            case "_and":
                let each = try (value.array ?? [value]).map { try filter($0, table: table, alias: alias) }
                if !each.isEmpty { parts.append(.joined(each, by: "AND")) }
            case "_or":
                let each = try (value.array ?? [value]).map { try filter($0, table: table, alias: alias) }
                if !each.isEmpty { parts.append(.joined(each, by: "OR")) }
            case "_not":
                let inner = try filter(value, table: table, alias: alias)
                parts.append(SQLFragment(text: "NOT (\(inner.text))", arguments: inner.arguments))
            default:
                if let column = table.column(key) {
                    let expression = Self.column(alias, column)
                    parts.append(
                        column.isList
                            ? try listCondition(value, column: column, expression: expression)
                            : try scalarCondition(value, type: column.type, expression: expression))
                } else if let reference = table.reference(key) {
                    let target = try self.table(reference.target)
                    let inner = self.alias()
                    let join = reference.columns.map { pair in
                        "\(inner).\(DataConnectStore.quote(target.column(pair.target)?.sqlName ?? pair.target)) = "
                            + "\(alias).\(DataConnectStore.quote(table.column(pair.local)?.sqlName ?? pair.local))"
                    }
                    let condition = try filter(value, table: target, alias: inner)
                    parts.append(
                        SQLFragment(
                            text: "EXISTS (SELECT 1 FROM \(DataConnectStore.quote(target.sqlName)) \(inner) WHERE "
                                + join.joined(separator: " AND ") + " AND (\(condition.text)))",
                            arguments: condition.arguments))
                } else if let relation = table.relations.first(where: { $0.name == key }) {
                    parts.append(try relationCondition(value, relation: relation, table: table, alias: alias))
                } else {
                    throw Failure(description: "\(table.typeName)_Filter has no field \(key)")
                }
            }
        }
        return parts.isEmpty ? .always : .joined(parts, by: "AND")
    }

    /// Rows of a relation field, correlated with the outer row: `FROM related r [JOIN …] WHERE r… = outer…`.
    mutating func relationSource(
        _ relation: DataConnectSchema.Relation, table: DataConnectSchema.Table, outer: String, inner: String
    ) throws -> (from: String, correlation: String, target: DataConnectSchema.Table) {
        switch relation.kind {
        case .backReference(let sourceName, let field, _):
            let source = try self.table(sourceName)
            guard let reference = source.reference(field) else { throw Failure(description: "no reference \(field)") }
            let correlation = reference.columns.map { pair in
                "\(inner).\(DataConnectStore.quote(source.column(pair.local)?.sqlName ?? pair.local)) = "
                    + "\(outer).\(DataConnectStore.quote(table.column(pair.target)?.sqlName ?? pair.target))"
            }
            return (
                "\(DataConnectStore.quote(source.sqlName)) \(inner)", correlation.joined(separator: " AND "), source
            )
        case .manyToMany(let joinName, let near, let far, let targetName):
            let join = try self.table(joinName)
            let target = try self.table(targetName)
            guard let nearReference = join.reference(near), let farReference = join.reference(far) else {
                throw Failure(description: "no join references on \(joinName)")
            }
            let joinAlias = alias()
            let onFar = farReference.columns.map { pair in
                "\(joinAlias).\(DataConnectStore.quote(join.column(pair.local)?.sqlName ?? pair.local)) = "
                    + "\(inner).\(DataConnectStore.quote(target.column(pair.target)?.sqlName ?? pair.target))"
            }
            let onNear = nearReference.columns.map { pair in
                "\(joinAlias).\(DataConnectStore.quote(join.column(pair.local)?.sqlName ?? pair.local)) = "
                    + "\(outer).\(DataConnectStore.quote(table.column(pair.target)?.sqlName ?? pair.target))"
            }
            return (
                "\(DataConnectStore.quote(target.sqlName)) \(inner) JOIN \(DataConnectStore.quote(join.sqlName)) "
                    + "\(joinAlias) ON " + onFar.joined(separator: " AND "),
                onNear.joined(separator: " AND "), target
            )
        }
    }

    private mutating func relationCondition(
        _ value: Map, relation: DataConnectSchema.Relation, table: DataConnectSchema.Table, alias: String
    ) throws -> SQLFragment {
        let inner = self.alias()
        let source = try relationSource(relation, table: table, outer: alias, inner: inner)
        if case .backReference(_, _, isSingle: true) = relation.kind {
            let condition = try filter(value, table: source.target, alias: inner)
            return SQLFragment(
                text: "EXISTS (SELECT 1 FROM \(source.from) WHERE \(source.correlation) AND (\(condition.text)))",
                arguments: condition.arguments)
        }
        var parts: [SQLFragment] = []
        let exist = value["exist"]
        if exist != .null && exist != .undefined {
            let condition = try filter(exist, table: source.target, alias: inner)
            parts.append(
                SQLFragment(
                    text: "EXISTS (SELECT 1 FROM \(source.from) WHERE \(source.correlation) AND (\(condition.text)))",
                    arguments: condition.arguments))
        }
        let count = value["count"]
        if count != .null && count != .undefined {
            let counted = "(SELECT COUNT(*) FROM \(source.from) WHERE \(source.correlation))"
            parts.append(try scalarCondition(count, type: .int, expression: counted))
        }
        return parts.isEmpty ? .always : .joined(parts, by: "AND")
    }

    /// One scalar column's `S_Filter`.
    func scalarCondition(_ input: Map, type: ScalarType, expression: String) throws -> SQLFragment {
        guard case .dictionary(let members) = input else { return .always }
        var parts: [SQLFragment] = []
        func compare(_ op: String, _ value: DatabaseValue) {
            parts.append(SQLFragment(text: "\(expression) \(op) ?", arguments: [value]))
        }
        let operators = ["eq": "=", "ne": "!=", "gt": ">", "ge": ">=", "lt": "<", "le": "<="]
        for (key, value) in members {
            if value == .null || value == .undefined { continue }
            if let op = operators[key] {
                compare(op, try StoredValue.storage(value, as: type))
                continue
            }
            if key.hasSuffix("_expr"), let op = operators[String(key.dropLast(5))], case .string(let text) = value {
                compare(op, try values.evaluate(text, as: type))
                continue
            }
            if key.hasSuffix("_date"), let op = operators[String(key.dropLast(5))] {
                compare(op, try values.relativeDate(value).databaseValue)
                continue
            }
            if key.hasSuffix("_time"), let op = operators[String(key.dropLast(5))] {
                compare(op, try values.relativeTimestamp(value).databaseValue)
                continue
            }
            switch key {
            case "isNull":
                parts.append(SQLFragment(text: "\(expression) IS \(value.bool == true ? "" : "NOT ")NULL"))
            case "in", "nin":
                let elements = try (value.array ?? []).map { try StoredValue.storage($0, as: type) }
                if elements.isEmpty {
                    parts.append(key == "in" ? .never : .always)
                } else {
                    let marks = Array(repeating: "?", count: elements.count).joined(separator: ", ")
                    parts.append(
                        SQLFragment(
                            text: key == "in"
                                ? "\(expression) IN (\(marks))"
                                : "(\(expression) IS NULL OR \(expression) NOT IN (\(marks)))",
                            arguments: elements))
                }
            case "contains":
                parts.append(SQLFragment(text: dialect.contains(expression), arguments: [try text(value)]))
            case "startsWith":
                let prefix = try text(value)
                parts.append(
                    SQLFragment(text: dialect.startsWith(expression), arguments: [prefix, prefix]))
            case "endsWith":
                let suffix = try text(value)
                parts.append(
                    SQLFragment(
                        text: dialect.endsWith(expression),
                        arguments: [suffix, suffix, suffix]))
            case "pattern":
                parts.append(try pattern(value, expression: expression))
            default:
                throw Failure(description: "\(type)_Filter has no operator \(key)")
            }
        }
        return parts.isEmpty ? .always : .joined(parts, by: "AND")
    }

    private func text(_ value: Map) throws -> DatabaseValue {
        guard case .string(let text) = value else { throw Failure(description: "expected a string") }
        return text.databaseValue
    }

    private func pattern(_ value: Map, expression: String) throws -> SQLFragment {
        let ignoreCase = value["ignoreCase"].bool == true
        if case .string(let like) = value["like"] {
            return ignoreCase
                ? SQLFragment(text: "lower(\(expression)) LIKE lower(?)", arguments: [like.databaseValue])
                : SQLFragment(text: "\(expression) LIKE ?", arguments: [like.databaseValue])
        }
        if case .string(let regex) = value["regex"] {
            return SQLFragment(
                text: dialect.regex(expression, ignoreCase: ignoreCase),
                arguments: dialect == .sqlite
                    ? [regex.databaseValue, (ignoreCase ? 1 : 0).databaseValue] : [regex.databaseValue])
        }
        return .always
    }

    /// A list column's `S_ListFilter`, over its JSON array.
    func listCondition(_ input: Map, column: DataConnectSchema.Column, expression: String) throws -> SQLFragment {
        guard case .dictionary(let members) = input else { return .always }
        var parts: [SQLFragment] = []
        let member = dialect.listHolds(expression)
        for (key, value) in members {
            if value == .null || value == .undefined { continue }
            switch key {
            case "includes", "excludes":
                let test = key == "includes" ? member : "NOT \(member)"
                parts.append(SQLFragment(text: test, arguments: [try StoredValue.storage(value, as: column.type)]))
            case "includes_expr", "excludes_expr":
                guard case .string(let text) = value else { throw Failure(description: "\(key) takes a CEL text") }
                let test = key == "includes_expr" ? member : "NOT \(member)"
                parts.append(SQLFragment(text: test, arguments: [try values.evaluate(text, as: column.type)]))
            case "includes_date", "excludes_date":
                let test = key == "includes_date" ? member : "NOT \(member)"
                parts.append(SQLFragment(text: test, arguments: [try values.relativeDate(value).databaseValue]))
            case "includes_time", "excludes_time":
                let test = key == "includes_time" ? member : "NOT \(member)"
                parts.append(SQLFragment(text: test, arguments: [try values.relativeTimestamp(value).databaseValue]))
            case "includesAll", "excludesAll":
                for element in value.array ?? [] {
                    parts.append(
                        SQLFragment(
                            text: key == "includesAll" ? member : "NOT \(member)",
                            arguments: [try StoredValue.storage(element, as: column.type)]))
                }
            default:
                throw Failure(description: "\(column.type)_ListFilter has no operator \(key)")
            }
        }
        return parts.isEmpty ? .always : .joined(parts, by: "AND")
    }

    // MARK: - Order

    /// `orderBy` as ORDER BY terms; nulls sort last ascending and first descending, as in Postgres.
    mutating func order(_ input: Map, table: DataConnectSchema.Table, alias: String) throws -> [SQLFragment] {
        var terms: [SQLFragment] = []
        for entry in input.array ?? (input == .null || input == .undefined ? [] : [input]) {
            guard case .dictionary(let members) = entry else { continue }
            for (key, value) in members {
                if value == .null || value == .undefined { continue }
                terms += try orderTerms(key: key, value: value, table: table, alias: alias, path: [])
            }
        }
        return terms
    }

    private mutating func orderTerms(
        key: String, value: Map, table: DataConnectSchema.Table, alias: String, path: [String]
    ) throws -> [SQLFragment] {
        if table.column(key) == nil, path.isEmpty, let (column, function) = Aggregates.parse(key, table: table) {
            guard isGrouping else {
                throw Failure(
                    description: "orderBy \(key) orders groups: select an aggregate such as _count in the list")
            }
            guard case .string(let direction) = value else { return [] }
            let sql = Aggregates.expression(function, column: column, distinct: false, alias: alias)
            return direction == "DESC"
                ? [SQLFragment(text: "\(sql) IS NULL DESC"), SQLFragment(text: "\(sql) DESC")]
                : [SQLFragment(text: "\(sql) IS NULL"), SQLFragment(text: "\(sql) ASC")]
        }
        if let column = table.column(key) {
            guard case .string(let direction) = value else { return [] }
            let expression = Self.column(alias, column)
            let sql = wrap(expression, path: path)
            return direction == "DESC"
                ? [SQLFragment(text: "\(sql) IS NULL DESC"), SQLFragment(text: "\(sql) DESC")]
                : [SQLFragment(text: "\(sql) IS NULL"), SQLFragment(text: "\(sql) ASC")]
        }
        guard let reference = table.reference(key), case .dictionary(let members) = value else {
            throw Failure(description: "\(table.typeName)_Order has no field \(key)")
        }
        let target = try self.table(reference.target)
        let inner = self.alias()
        let join = reference.columns.map { pair in
            "\(inner).\(DataConnectStore.quote(target.column(pair.target)?.sqlName ?? pair.target)) = "
                + "\(alias).\(DataConnectStore.quote(table.column(pair.local)?.sqlName ?? pair.local))"
        }
        let hop = "FROM \(DataConnectStore.quote(target.sqlName)) \(inner) WHERE " + join.joined(separator: " AND ")
        var terms: [SQLFragment] = []
        for (nestedKey, nestedValue) in members where nestedValue != .null && nestedValue != .undefined {
            terms += try orderTerms(key: nestedKey, value: nestedValue, table: target, alias: inner, path: path + [hop])
        }
        return terms
    }

    /// A column reached through references, as nested scalar subqueries.
    private func wrap(_ expression: String, path: [String]) -> String {
        path.reversed().reduce(expression) { inner, hop in "(SELECT \(inner) \(hop))" }
    }
}
