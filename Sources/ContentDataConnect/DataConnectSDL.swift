/// The GraphQL schema a Data Connect service serves, as SDL: the built-in scalars, directives and filter
/// inputs, and for each table its object type, `_Key`, `_Filter`, `_Order` and `_Data` inputs, query fields
/// and mutation fields.
///
/// The emulator executes against it and clients validate operations with it, so both sides agree on what
/// a connector may say.
package enum DataConnectSDL {
    /// The SDL for a schema.
    ///
    /// - Parameter schema: The tables.
    /// - Returns: SDL text that `buildSchema` accepts.
    package static func make(_ schema: DataConnectSchema) -> String {
        var out = prelude
        let scalarTypes: [ScalarType] =
            [.string, .uuid, .int, .int64, .float, .boolean, .date, .timestamp, .any, .vector]
            + schema.enums.keys.sorted().map(ScalarType.enumeration)
        for (name, values) in schema.enums.sorted(by: { $0.key < $1.key }) {
            out += "enum \(name) { \(values.joined(separator: " ")) }\n"
        }
        for scalar in scalarTypes { out += filterInputs(scalar) }
        var queryFields: [String] = []
        var mutationFields: [String] = []
        for table in schema.tables {
            out += tableTypes(table, in: schema)
            let keyArguments = singleRowArguments(table)
            let listArguments = listArguments(table.typeName)
            queryFields.append("\(table.singular)(\(keyArguments)): \(table.typeName)")
            queryFields.append("\(table.plural)(\(listArguments)): [\(table.typeName)!]!")
            let name = table.singular
            let data = "\(table.typeName)_Data"
            let output = "\(table.typeName)_KeyOutput"
            // Results are nullable so that a failed root field is a partial error, not a null `data`: the
            // service answers mutations without @transaction field by field.
            mutationFields += [
                "\(name)_insert(data: \(data)!): \(output)",
                "\(name)_insertMany(data: [\(data)!]!): [\(output)!]",
                "\(name)_upsert(data: \(data)!): \(output)",
                "\(name)_upsertMany(data: [\(data)!]!): [\(output)!]",
                "\(name)_update(\(keyArguments), data: \(data)!): \(output)",
                "\(name)_updateMany(where: \(table.typeName)_Filter, all: Boolean = false, data: \(data)!): Int",
                "\(name)_delete(\(keyArguments)): \(output)",
                "\(name)_deleteMany(where: \(table.typeName)_Filter, all: Boolean = false): Int",
            ]
        }
        if queryFields.isEmpty { queryFields.append("_service: String") }
        if mutationFields.isEmpty { mutationFields.append("_service: String") }
        out += "type Query {\n" + queryFields.map { "  \($0)\n" }.joined() + "}\n"
        out += "type Mutation {\n" + mutationFields.map { "  \($0)\n" }.joined() + "}\n"
        return out
    }

    /// Whether a scalar has a server-expression form (`id_expr: "auth.uid"`).
    package static func hasExpression(_ type: ScalarType) -> Bool {
        switch type {
        case .string, .uuid, .date, .timestamp, .boolean, .int64, .any: return true
        default: return false
        }
    }

    /// The arguments that pick one row: `id`/`id_expr` when the key is `id`, else `key`, or the first row.
    static func singleRowArguments(_ table: DataConnectSchema.Table) -> String {
        var arguments: [String] = []
        if table.key == ["id"], let id = table.column("id") {
            arguments.append("id: \(id.type)")
            if hasExpression(id.type) { arguments.append("id_expr: \(id.type)_Expr") }
        }
        arguments.append("key: \(table.typeName)_Key")
        arguments.append("first: \(table.typeName)_FirstRow")
        return arguments.joined(separator: ", ")
    }

    /// `where`, `orderBy`, `offset`, `limit` (100 unless given, as the service defaults) and `distinct`.
    static func listArguments(_ typeName: String) -> String {
        "where: \(typeName)_Filter, orderBy: [\(typeName)_Order!], offset: Int, limit: Int = 100, distinct: Boolean"
    }

    static func outputType(_ column: DataConnectSchema.Column) -> String {
        let base = column.isList ? "[\(column.type)]" : "\(column.type)"
        return column.isRequired ? base + "!" : base
    }

    static func tableTypes(_ table: DataConnectSchema.Table, in schema: DataConnectSchema) -> String {
        let name = table.typeName
        var object: [String] = table.columns.map { "\($0.field): \(outputType($0))" }
        var filter = ["_and: [\(name)_Filter!]", "_or: [\(name)_Filter!]", "_not: \(name)_Filter"]
        var order: [String] = []
        var data: [String] = []
        for column in table.columns {
            filter.append("\(column.field): \(column.type)_\(column.isList ? "ListFilter" : "Filter")")
            if !column.isList { order.append("\(column.field): OrderDirection") }
            data.append("\(column.field): \(column.isList ? "[\(column.type)]" : "\(column.type)")")
            if hasExpression(column.type) && !column.isList { data.append("\(column.field)_expr: \(column.type)_Expr") }
            if column.type == .date && !column.isList { data.append("\(column.field)_date: Date_Relative") }
            if column.type == .timestamp && !column.isList {
                data.append("\(column.field)_time: Timestamp_Relative")
            }
        }
        for reference in table.references {
            object.append("\(reference.field): \(reference.target)\(reference.isRequired ? "!" : "")")
            filter.append("\(reference.field): \(reference.target)_Filter")
            order.append("\(reference.field): \(reference.target)_Order")
            data.append("\(reference.field): \(reference.target)_Key")
        }
        for relation in table.relations {
            let target = relation.resultType
            if case .backReference(_, _, isSingle: true) = relation.kind {
                object.append("\(relation.name): \(target)")
                filter.append("\(relation.name): \(target)_Filter")
            } else if case .manyToMany(let join, _, _, _) = relation.kind {
                // Filtered and ordered by the join table's rows (`where: {role: …}`), as the service does.
                object.append("\(relation.name)(\(listArguments(join))): [\(target)!]!")
                filter.append("\(relation.name): \(target)_ListFilter")
            } else {
                object.append("\(relation.name)(\(listArguments(target))): [\(target)!]!")
                filter.append("\(relation.name): \(target)_ListFilter")
            }
        }
        var key: [String] = []
        for column in table.keyColumns {
            key.append("\(column.field): \(column.type)")
            if hasExpression(column.type) { key.append("\(column.field)_expr: \(column.type)_Expr") }
        }
        if order.isEmpty { order.append("_unordered: OrderDirection") }
        if data.isEmpty { data.append("_empty: Boolean") }
        func block(_ kind: String, _ typeName: String, _ fields: [String]) -> String {
            "\(kind) \(typeName) {\n" + fields.map { "  \($0)\n" }.joined() + "}\n"
        }
        return block("type", name, object)
            + block("input", "\(name)_Key", key)
            + "scalar \(name)_KeyOutput\n"
            + block("input", "\(name)_Filter", filter)
            + block("input", "\(name)_ListFilter", ["count: Int_Filter", "exist: \(name)_Filter"])
            + block("input", "\(name)_Order", order)
            + block("input", "\(name)_Data", data)
            + block("input", "\(name)_FirstRow", ["where: \(name)_Filter", "orderBy: [\(name)_Order!]"])
    }

    static func filterInputs(_ type: ScalarType) -> String {
        let name = "\(type)"
        var fields = ["isNull: Boolean", "eq: \(name)", "ne: \(name)", "in: [\(name)!]", "nin: [\(name)!]"]
        if hasExpression(type) { fields += ["eq_expr: \(name)_Expr", "ne_expr: \(name)_Expr"] }
        switch type {
        case .boolean, .any, .vector: break
        default: fields += ["gt: \(name)", "ge: \(name)", "lt: \(name)", "le: \(name)"]
        }
        switch type {
        case .string:
            fields += ["contains: String", "startsWith: String", "endsWith: String", "pattern: String_Pattern"]
        case .date:
            fields += ["eq_date", "ne_date", "gt_date", "ge_date", "lt_date", "le_date"].map { "\($0): Date_Relative" }
        case .timestamp:
            fields += ["gt_expr", "ge_expr", "lt_expr", "le_expr"].map { "\($0): Timestamp_Expr" }
            fields += ["eq_time", "ne_time", "gt_time", "ge_time", "lt_time", "le_time"].map {
                "\($0): Timestamp_Relative"
            }
        default: break
        }
        let list = ["includes: \(name)", "excludes: \(name)", "includesAll: [\(name)!]", "excludesAll: [\(name)!]"]
        return "input \(name)_Filter {\n" + fields.map { "  \($0)\n" }.joined() + "}\n"
            + "input \(name)_ListFilter {\n" + list.map { "  \($0)\n" }.joined() + "}\n"
    }

    /// The built-in scalars, enums, directives and helper inputs every service has.
    static let prelude = """
        scalar UUID
        scalar Int64
        scalar Date
        scalar Timestamp
        scalar Any
        scalar Vector
        scalar True
        scalar String_Expr
        scalar UUID_Expr
        scalar Date_Expr
        scalar Timestamp_Expr
        scalar Boolean_Expr
        scalar Int64_Expr
        scalar Any_Expr
        enum AccessLevel { PUBLIC USER_ANON USER USER_EMAIL_VERIFIED NO_ACCESS }
        enum OrderDirection { ASC DESC }
        enum Date_Interval { WEEK MONTH YEAR }
        enum Timestamp_Interval { SECOND MINUTE HOUR DAY WEEK MONTH YEAR }
        directive @auth(level: AccessLevel, expr: Boolean_Expr, insecureReason: String) on QUERY | MUTATION
        directive @transaction on MUTATION
        directive @check(expr: Boolean_Expr!, message: String, optional: Boolean) repeatable on QUERY | MUTATION | FIELD
        directive @redact on FIELD
        directive @refresh(every: Refresh_Interval, onMutationExecuted: [Refresh_OnMutation!]) repeatable on QUERY
        input Refresh_Interval { milliseconds: Int, seconds: Int, minutes: Int, hours: Int, days: Int }
        input Refresh_OnMutation { operation: String!, condition: Boolean_Expr }
        input String_Pattern { like: String, regex: String, ignoreCase: Boolean, invert: Boolean }
        input Date_Duration { days: Int = 0, weeks: Int = 0, months: Int = 0, years: Int = 0 }
        input Date_Relative { today: True, on: Date, add: Date_Duration, sub: Date_Duration, truncateTo: Date_Interval }
        input Timestamp_Duration {
          milliseconds: Int = 0, seconds: Int = 0, minutes: Int = 0, hours: Int = 0
          days: Int = 0, weeks: Int = 0, months: Int = 0, years: Int = 0
        }
        input Timestamp_Relative {
          now: True, at: Timestamp, add: Timestamp_Duration, sub: Timestamp_Duration, truncateTo: Timestamp_Interval
        }

        """
}
