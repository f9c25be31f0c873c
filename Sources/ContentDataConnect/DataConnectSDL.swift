/// The GraphQL schema a Data Connect service serves, as SDL: the built-in scalars, directives and filter
/// inputs, and for each table its object type, `_Key`, `_Filter`, `_Order` and `_Data` inputs, query fields
/// and mutation fields.
///
/// The emulator executes against it and clients validate operations with it, so both sides agree on what
/// a connector may say.
package enum DataConnectSDL {
    /// The SDL for a schema.
    ///
    /// - Parameters:
    ///   - schema: The tables.
    ///   - forExecution: Whether the text is for executing mutations rather than for what clients read. The
    ///     service declares `_insert`, `_upsert`, their `Many` forms and the `Many` counts non-null, yet answers
    ///     each root field of a mutation without `@transaction` on its own, a failed one `null` beside the
    ///     others (the `@transaction` documentation of its prelude; the iOS SDK's `testDuplicatePrimaryKeys`).
    ///     GraphQL's null propagation would turn that into `"data": null`, so the executed schema declares those
    ///     fields nullable; validation is the same either way.
    /// - Returns: SDL text that `buildSchema` accepts.
    package static func make(_ schema: DataConnectSchema, forExecution: Bool = false) -> String {
        let required = forExecution ? "" : "!"
        var out = prelude
        let scalarTypes: [ScalarType] =
            [.string, .uuid, .int, .int64, .float, .boolean, .date, .timestamp, .any, .vector]
            + schema.enums.keys.sorted().map(ScalarType.enumeration)
        for (name, values) in schema.enums.sorted(by: { $0.key < $1.key }) {
            out += "enum \(name) { \(values.joined(separator: " ")) }\n"
        }
        for scalar in scalarTypes { out += filterInputs(scalar) }
        for scalar in [ScalarType.string, .uuid, .int, .int64, .float, .boolean, .date, .timestamp, .any] {
            out += updateInputs(scalar)
        }
        var queryFields: [String] = []
        var mutationFields: [String] = []
        for table in schema.tables {
            out += tableTypes(table, in: schema)
            let listArguments = listArguments(table.typeName)
            if table.isView {
                // The service's `@view` documentation: no key, so no lookup, and "a view cannot be mutated".
                queryFields.append("\(table.plural)(\(listArguments)): [\(table.typeName)!]!")
                continue
            }
            let keyArguments = singleRowArguments(table)
            queryFields.append("\(table.singular)(\(keyArguments)): \(table.typeName)")
            queryFields.append("\(table.plural)(\(listArguments)): [\(table.typeName)!]!")
            if !table.searchableColumns.isEmpty {
                // The arguments as the service's reference lists them (`firebase.google.com/docs/reference/
                // data-connect/gql/query`); its guide calls the order argument `order`, the reference `orderBy`.
                queryFields.append(
                    "\(table.plural)_search(\(listArguments), query: String, relevanceThreshold: Float, "
                        + "queryFormat: Search_QueryFormat = QUERY): [\(table.typeName)!]!")
            }
            for column in table.columns where column.type == .vector && !column.isList {
                // `offset` is not in the generated schemas published so far; the service's changelog added it
                // (emulator 3.3.0: "Vector similarity search now supports `offset` as well as `limit`").
                queryFields.append(
                    "\(table.plural)_\(column.field)_similarity(compare: Vector, compare_embed: Vector_Embed, "
                        + "method: VectorSimilarityMethod = INNER_PRODUCT, within: Float, "
                        + "where: \(table.typeName)_Filter, limit: Int = 100, offset: Int): [\(table.typeName)!]!")
            }
            let name = table.singular
            let data = "\(table.typeName)_Data"
            let output = "\(table.typeName)_KeyOutput"
            // Typed as the service types them: what inserts and counts is never null, so a failed one nulls
            // `data` (GraphQL's null propagation), while a single-row update or delete may find nothing.
            mutationFields += [
                "\(name)_insert(data: \(data)!): \(output)\(required)",
                "\(name)_insertMany(data: [\(data)!]!): [\(output)!]\(required)",
                "\(name)_upsert(data: \(data)!): \(output)\(required)",
                "\(name)_upsertMany(data: [\(data)!]!): [\(output)!]\(required)",
                "\(name)_update(\(keyArguments), data: \(data)!): \(output)",
                "\(name)_updateMany(where: \(table.typeName)_Filter, all: Boolean = false, data: \(data)!): Int\(required)",
                "\(name)_delete(\(keyArguments)): \(output)",
                "\(name)_deleteMany(where: \(table.typeName)_Filter, all: Boolean = false): Int\(required)",
            ]
        }
        queryFields += [
            "_service: _Service!", "_select(sql: SQL_Query!, params: SQL_Params): [Any]",
            "_selectFirst(sql: SQL_Query!, params: SQL_Params): Any",
        ]
        // Reads inside a mutation see its writes so far.
        mutationFields += [
            "query: Query", "_execute(sql: SQL_Mutation!, params: SQL_Params): Int",
            "_executeReturning(sql: SQL_Mutation!, params: SQL_Params): [Any]",
            "_executeReturningFirst(sql: SQL_Mutation!, params: SQL_Params): Any",
        ]
        out += "type Query {\n" + queryFields.map { "  \($0)\n" }.joined() + "}\n"
        out += "type Mutation {\n" + mutationFields.map { "  \($0)\n" }.joined() + "}\n"
        return out
    }

    /// Whether a scalar has a server-expression form (`id_expr: "auth.uid"`): every built-in one but `Vector`.
    package static func hasExpression(_ type: ScalarType) -> Bool {
        switch type {
        case .vector, .enumeration: return false
        default: return true
        }
    }

    /// The arguments that pick one row: `id` when the key is `id` (a server value goes through `key`), else
    /// `key`, or the first row.
    static func singleRowArguments(_ table: DataConnectSchema.Table) -> String {
        var arguments: [String] = []
        if table.key == ["id"], let id = table.column("id") {
            arguments.append("id: \(id.type)")
            // Sources disagree: the schema Firebase's emulator generated for a UUID key has no `id_expr` here
            // (the FlutterFire example's `.dataconnect/schema`), while FriendlyFlix, an official example, calls
            // `user(id_expr: "auth.uid")` on a String key. Both are kept: `id_expr` for keys that are not UUIDs.
            if id.type != .uuid, hasExpression(id.type) { arguments.append("id_expr: \(id.type)_Expr") }
        }
        arguments.append("key: \(table.typeName)_Key")
        arguments.append("first: \(table.typeName)_FirstRow")
        return arguments.joined(separator: ", ")
    }

    /// `where`, `orderBy`, `offset`, `limit` (100 unless given, as the service defaults), `distinct` and `having`.
    static func listArguments(_ typeName: String) -> String {
        "where: \(typeName)_Filter, orderBy: [\(typeName)_Order!], offset: Int, limit: Int = 100, "
            + "distinct: Boolean = false, having: \(typeName)_Having"
    }

    static func outputType(_ column: DataConnectSchema.Column) -> String {
        let base = column.isList ? "[\(column.type)]" : "\(column.type)"
        return column.isRequired ? base + "!" : base
    }

    static func tableTypes(_ table: DataConnectSchema.Table, in schema: DataConnectSchema) -> String {
        let name = table.typeName
        var object: [String] = table.columns.map { "\($0.field): \(outputType($0))" } + ["_metadata: _Metadata"]
        var filter = ["_and: [\(name)_Filter!]", "_or: [\(name)_Filter!]", "_not: \(name)_Filter"]
        // Aggregates, computed by the list that holds the rows, and the `having` and `orderBy` that name them.
        object.append("_count: Int!")
        var having = [
            "_and: [\(name)_Having!]", "_or: [\(name)_Having!]", "_not: \(name)_Having", "_distinct: Boolean",
            "_count: Int_Filter",
        ]
        var order: [String] = ["_count: OrderDirection"]
        // Entity id: the SDKs' cache key for the row (`@fdc_generated(from: "Movie.id", purpose: ENTITY_ID)`),
        // made from the key, which a view does not have.
        if !table.isView { object.append("_id: ID!") }
        for column in table.columns where !column.isList {
            for function in column.aggregateFunctions {
                let field = "\(column.field)_\(function)"
                let type = column.aggregateType(function)
                let distinct = ["count", "sum", "avg"].contains(function) ? "(distinct: Boolean = false)" : ""
                object.append("\(field)\(distinct): \(type)")
                having.append("\(field): \(type.prefix { $0 != "!" })_Filter")
                order.append("\(field): OrderDirection")
            }
        }
        var data: [String] = []
        for column in table.columns {
            filter.append("\(column.field): \(column.type)_\(column.isList ? "ListFilter" : "Filter")")
            if !column.isList { order.append("\(column.field): OrderDirection") }
            data.append("\(column.field): \(column.isList ? "[\(column.type)]" : "\(column.type)")")
            if hasExpression(column.type) && !column.isList { data.append("\(column.field)_expr: \(column.type)_Expr") }
            if let update = updateInput(column) { data.append("\(column.field)_update: [\(update)!]") }
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
            // Nested inserts: the rows that point at this one, inserted with it.
            if case .backReference(_, _, isSingle: false) = relation.kind, schema.table(target)?.isView != true {
                data.append("\(relation.name): [\(target)_Data!]")
            }
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
        if table.isView {
            return block("type", name, object)
                + block("input", "\(name)_Having", having)
                + block("input", "\(name)_Filter", filter)
                + block("input", "\(name)_ListFilter", ["count: Int_Filter", "exist: \(name)_Filter"])
                + block("input", "\(name)_Order", order)
        }
        return block("type", name, object)
            + block("input", "\(name)_Having", having)
            + block("input", "\(name)_Key", key)
            + "scalar \(name)_KeyOutput\n"
            + block("input", "\(name)_Filter", filter)
            + block("input", "\(name)_ListFilter", ["count: Int_Filter", "exist: \(name)_Filter"])
            + block("input", "\(name)_Order", order)
            + block("input", "\(name)_Data", data)
            + block("input", "\(name)_FirstRow", ["where: \(name)_Filter", "orderBy: [\(name)_Order!]"])
    }

    /// The `_update` input of a column, when its type has one: `Int_Update`, `String_ListUpdate`.
    static func updateInput(_ column: DataConnectSchema.Column) -> String? {
        switch (column.type, column.isList) {
        case (.vector, _), (.enumeration, _): return nil
        case (_, true): return "\(column.type)_ListUpdate"
        case (.int, false), (.int64, false), (.float, false), (.date, false), (.timestamp, false):
            return "\(column.type)_Update"
        default: return nil
        }
    }

    /// `Int_Update { inc dec }` and the like; `T_ListUpdate { append prepend add remove }` for every list type.
    static func updateInputs(_ type: ScalarType) -> String {
        let name = "\(type)"
        var text = ""
        switch type {
        case .int, .int64, .float:
            text += "input \(name)_Update { inc: \(name), dec: \(name) }\n"
        case .date:
            text += "input Date_Update { inc: Date_Duration, dec: Date_Duration }\n"
        case .timestamp:
            text += "input Timestamp_Update { inc: Timestamp_Duration, dec: Timestamp_Duration }\n"
        default:
            break
        }
        if type != .vector {
            text +=
                "input \(name)_ListUpdate { append: [\(name)!], prepend: [\(name)!], add: [\(name)!], remove: [\(name)!] }\n"
        }
        return text
    }

    static func filterInputs(_ type: ScalarType) -> String {
        let name = "\(type)"
        let ordered: Bool
        switch type {
        case .boolean, .any, .vector, .uuid: ordered = false
        default: ordered = true
        }
        var fields = ["isNull: Boolean", "in: [\(name)!]", "nin: [\(name)!]"]
        for op in ordered ? ["eq", "ne", "gt", "ge", "lt", "le"] : ["eq", "ne"] {
            fields.append("\(op): \(name)")
            // Strings compare with server values for equality only, as the service generates them.
            if hasExpression(type), type != .string || op == "eq" || op == "ne" {
                fields.append("\(op)_expr: \(name)_Expr")
            }
            if type == .date { fields.append("\(op)_date: Date_Relative") }
            if type == .timestamp { fields.append("\(op)_time: Timestamp_Relative") }
        }
        if type == .string {
            fields += ["contains: String", "startsWith: String", "endsWith: String", "pattern: String_Pattern"]
        }
        var list = ["includesAll: [\(name)!]", "excludesAll: [\(name)!]"]
        for op in ["includes", "excludes"] {
            list.append("\(op): \(name)")
            if type == .date { list += ["\(op)_expr: Date_Expr", "\(op)_date: Date_Relative"] }
            if type == .timestamp { list += ["\(op)_expr: Timestamp_Expr", "\(op)_time: Timestamp_Relative"] }
        }
        return "input \(name)_Filter {\n" + fields.map { "  \($0)\n" }.joined() + "}\n"
            + "input \(name)_ListFilter {\n" + list.map { "  \($0)\n" }.joined() + "}\n"
    }

    /// The built-in scalars, enums, directives and helper inputs every service has.
    ///
    /// Their names, arguments and types are the service's (the `prelude.gql` Firebase's tools write); the
    /// directives that only schema files use are declared so that a schema coordinate means the same here.
    static let prelude = """
        scalar UUID
        scalar Int64
        scalar Date
        scalar Timestamp
        scalar Any
        scalar Vector
        scalar True
        scalar Void
        scalar String_Expr
        scalar UUID_Expr
        scalar Int_Expr
        scalar Int64_Expr
        scalar Float_Expr
        scalar Date_Expr
        scalar Timestamp_Expr
        scalar Boolean_Expr
        scalar Any_Expr
        scalar Any_SQL
        scalar SQL_Query
        scalar SQL_Mutation
        scalar SQL_Params
        scalar SchemaCoordinate
        scalar Vector_Embed_Model
        enum AccessLevel { PUBLIC USER_ANON USER USER_EMAIL_VERIFIED NO_ACCESS }
        enum OrderDirection { ASC DESC }
        enum Date_Interval { WEEK MONTH YEAR }
        enum Timestamp_Interval { SECOND MINUTE HOUR DAY WEEK MONTH YEAR }
        enum IndexFieldOrder { ASC DESC }
        enum IndexType { BTREE GIN HNSW IVFFLAT }
        enum VectorSimilarityMethod { L2 COSINE INNER_PRODUCT }
        enum Search_QueryFormat { QUERY PLAIN PHRASE ADVANCED }
        enum GeneratedPurpose {
          IMPLICIT_KEY_FIELD IMPLICIT_REF_FIELD METADATA_FIELD QUERY_MULTIPLE_ONE_TO_MANY QUERY_MULTIPLE_MANY_TO_MANY
          QUERY_COUNT QUERY_SUM QUERY_AVG QUERY_MIN QUERY_MAX QUERY_MULTIPLE_BY_FULL_TEXT_SEARCH QUERY_SINGLE
          QUERY_MULTIPLE QUERY_MULTIPLE_BY_SIMILARITY INSERT_SINGLE INSERT_MULTIPLE UPSERT_SINGLE UPSERT_MULTIPLE
          UPDATE_SINGLE UPDATE_MULTIPLE DELETE_SINGLE DELETE_MULTIPLE
        }
        directive @auth(level: AccessLevel, expr: Boolean_Expr, insecureReason: String) on QUERY | MUTATION
        directive @transaction on MUTATION
        directive @check(
          expr: Boolean_Expr! = "!(this in [null, []])", message: String! = "permission denied", optional: Boolean = false
        ) repeatable on QUERY | MUTATION | FIELD | FRAGMENT_DEFINITION | FRAGMENT_SPREAD | INLINE_FRAGMENT
        directive @redact on FIELD | FRAGMENT_SPREAD | INLINE_FRAGMENT
        directive @retired(reason: String) on QUERY | MUTATION | FIELD | VARIABLE_DEFINITION
        directive @allow(fields: String!, maxCount: Int! = 100) on VARIABLE_DEFINITION
        directive @refresh(every: Timestamp_Duration, onMutationExecuted: [OnMutationExecuted_Event!]) repeatable on QUERY
        directive @table(name: String, singular: String, plural: String, key: [String!]) on OBJECT
        directive @view(name: String, sql: String, singular: String, plural: String) on OBJECT
        directive @col(name: String, dataType: String, size: Int) on FIELD_DEFINITION
        directive @ref(constraintName: String, fields: [String!], references: [String!]) on FIELD_DEFINITION
        directive @default(value: Any, expr: Any_Expr, sql: Any_SQL) on FIELD_DEFINITION
        directive @index(
          name: String, fields: [String!], order: [IndexFieldOrder!], type: IndexType, vector_method: VectorSimilarityMethod
        ) repeatable on FIELD_DEFINITION | OBJECT
        directive @unique(indexName: String, fields: [String!]) repeatable on FIELD_DEFINITION | OBJECT
        directive @searchable(language: String = "english") on FIELD_DEFINITION
        directive @fdc_generated(from: SchemaCoordinate, purpose: GeneratedPurpose!) on
          | SCALAR | OBJECT | FIELD_DEFINITION | ARGUMENT_DEFINITION | INTERFACE | UNION | ENUM | ENUM_VALUE
          | INPUT_OBJECT | INPUT_FIELD_DEFINITION
        directive @fdc_celExpression(returnType: String) on SCALAR
        directive @fdc_sqlExpression(dataType: String) on SCALAR
        directive @fdc_forbiddenAsVariableType on SCALAR | OBJECT | INTERFACE | UNION | ENUM | INPUT_OBJECT
        directive @fdc_forbiddenInVariables on INPUT_FIELD_DEFINITION
        directive @fdc_forbiddenAsFieldType on SCALAR | OBJECT | INTERFACE | UNION | ENUM | INPUT_OBJECT
        directive @fdc_example(value: Any, description: String) repeatable on
          | SCALAR | OBJECT | FIELD_DEFINITION | ARGUMENT_DEFINITION | INTERFACE | UNION | ENUM | INPUT_OBJECT
          | INPUT_FIELD_DEFINITION
        directive @fdc_oneOf(group: String! = "", required: Boolean! = false) repeatable on
          FIELD_DEFINITION | ARGUMENT_DEFINITION | INPUT_FIELD_DEFINITION
        input OnMutationExecuted_Event { operation: String!, condition: Boolean_Expr }
        input String_Pattern { like: String, regex: String, ignoreCase: Boolean }
        input Date_Duration { days: Int! = 0, weeks: Int! = 0, months: Int! = 0, years: Int! = 0 }
        input Date_Relative { today: True, on: Date, add: Date_Duration, sub: Date_Duration, truncateTo: Date_Interval }
        input Timestamp_Duration {
          milliseconds: Int! = 0, seconds: Int! = 0, minutes: Int! = 0, hours: Int! = 0
          days: Int! = 0, weeks: Int! = 0, months: Int! = 0, years: Int! = 0
        }
        input Timestamp_Relative {
          now: True, at: Timestamp, add: Timestamp_Duration, sub: Timestamp_Duration, truncateTo: Timestamp_Interval
        }
        input Vector_Embed { model: Vector_Embed_Model!, text: String! }
        type _Service {
          sdl(omitBuiltin: Boolean = false, omitDescription: Boolean = false): String!
          schema: String!
          schemas: [_Schema!]!
          docs: [_Doc!]!
        }
        type _Schema { id: String!, source: String! }
        type _Doc { page: String!, markdown: String! }
        type _Metadata { distance: Float, relevance: Float }

        """
}

extension DataConnectSchema.Column {
    /// The aggregates the service generates for the column (`count` for all, `sum` and `avg` for numbers, `min`
    /// and `max` for numbers, dates, timestamps and `Any`); none for a list.
    package var aggregateFunctions: [String] {
        guard !isList else { return [] }
        switch type {
        case .int, .int64, .float: return ["count", "sum", "avg", "min", "max"]
        case .date, .timestamp, .any: return ["count", "min", "max"]
        default: return ["count"]
        }
    }

    /// The GraphQL type of one of its aggregates: `Int!` for a count, `Float` for an average, else its own type.
    package func aggregateType(_ function: String) -> String {
        switch function {
        case "count": return "Int!"
        case "avg": return "Float"
        default: return "\(type)"
        }
    }
}
