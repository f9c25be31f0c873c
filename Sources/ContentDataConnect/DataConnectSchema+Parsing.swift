internal import ContentJSON
internal import GraphQL

extension DataConnectSchema {
    /// Reads the `@table` types of a schema's `.gql` files.
    ///
    /// - Parameter files: Each file's path and text.
    /// - Returns: The schema, with foreign keys, keys and relation fields derived as Data Connect does.
    /// - Throws: ``DataConnectWorkspaceError`` at the first malformed declaration, with its position.
    package static func parse(files: [(path: String, text: String)]) throws(DataConnectWorkspaceError)
        -> DataConnectSchema
    {
        var declarations: [(ObjectTypeDefinition, String)] = []
        var enums: [String: [String]] = [:]
        for file in files {
            for definition in try GraphQLText.definitions(file.text, path: file.path) {
                if let object = definition as? ObjectTypeDefinition,
                    object.directives.contains(where: { ["table", "view"].contains($0.name.value) })
                {
                    declarations.append((object, file.path))
                } else if let enumeration = definition as? EnumTypeDefinition {
                    enums[enumeration.name.value] = enumeration.values.map(\.name.value)
                }
            }
        }
        var builder = Builder(declarations: declarations, enums: enums)
        return DataConnectSchema(tables: try builder.build(), enums: enums)
    }

    /// A table as declared, before references are resolved into foreign keys.
    private struct Declared {
        var table: Table
        var referenceFields:
            [(
                field: String, target: String, isRequired: Bool, isUnique: Bool,
                localNames: [String]?, targetNames: [String]?, position: SourcePosition
            )]
        var declaredKey: [String]?
        var tableUniques: [[String]]
        var tableIndexes: [[String]] = []
        /// Fields whose types cannot be stored, found while reading the declaration.
        var problems: [DataConnectWorkspaceError] = []
    }

    private struct Builder {
        var declared: [String: Declared] = [:]
        var order: [String] = []
        var resolvedKeys: [String: [Column]] = [:]
        var resolving: Set<String> = []
        let enums: [String: [String]]

        init(declarations: [(ObjectTypeDefinition, String)], enums: [String: [String]]) {
            self.enums = enums
            let tableNames = Set(declarations.map { $0.0.name.value })
            for (object, path) in declarations {
                order.append(object.name.value)
                declared[object.name.value] = Self.declare(object, path: path, tableNames: tableNames, enums: enums)
            }
        }

        mutating func build() throws(DataConnectWorkspaceError) -> [Table] {
            for name in order {
                guard let entry = declared[name] else { continue }
                if let problem = entry.table.columns.first(where: { $0.sqlName.isEmpty }) {
                    throw DataConnectWorkspaceError(
                        file: entry.table.position.file, line: entry.table.position.line,
                        column: entry.table.position.column, "\(name).\(problem.field) has an empty column name")
                }
            }
            // Unknown field types are found as the declarations are read; report the first one.
            for name in order {
                if let problem = declared[name]?.problems.first { throw problem }
            }
            var tables: [Table] = []
            for name in order {
                tables.append(try resolve(name))
            }
            // One SQL name per type: a view would hide a table of its name, and the emulator keeps a few for itself.
            var taken: [String: String] = ["_content_dataconnect": "the emulator"]
            for table in tables {
                for sqlName in [table.sqlName] + (table.searchableColumns.isEmpty ? [] : [table.sqlName + "__search"]) {
                    if let other = taken[sqlName.lowercased()] {
                        let at = table.position
                        throw DataConnectWorkspaceError(
                            file: at.file, line: at.line, column: at.column,
                            "\(table.typeName) is stored as \(sqlName), which \(other) already uses; give one of them "
                                + "another name (@table(name:) or @view(name:))")
                    }
                    taken[sqlName.lowercased()] = table.typeName
                }
            }
            addRelations(&tables)
            return tables
        }

        /// The table with its references turned into foreign-key columns and its key into columns.
        mutating func resolve(_ name: String) throws(DataConnectWorkspaceError) -> Table {
            guard var entry = declared[name] else {
                throw DataConnectWorkspaceError("no @table type is named \(name)")
            }
            var table = entry.table
            for reference in entry.referenceFields {
                if declared[reference.target]?.table.isView == true {
                    throw DataConnectWorkspaceError(
                        file: reference.position.file, line: reference.position.line,
                        column: reference.position.column,
                        "\(name).\(reference.field) refers to \(reference.target), a @view; a view has no key, so "
                            + "nothing can refer to it (refer to the table it reads instead)")
                }
                let targetKey = try keyColumns(reference.target, from: reference.position)
                let targetNames = reference.targetNames ?? targetKey.map(\.field)
                guard let targetTable = declared[reference.target]?.table else { continue }
                let localNames =
                    reference.localNames
                    ?? targetNames.map { reference.field + $0.prefix(1).uppercased() + $0.dropFirst() }
                guard localNames.count == targetNames.count else {
                    throw DataConnectWorkspaceError(
                        file: reference.position.file, line: reference.position.line,
                        column: reference.position.column,
                        "@ref on \(name).\(reference.field) names \(localNames.count) fields for "
                            + "\(targetNames.count) referenced ones")
                }
                var pairs: [(local: String, target: String)] = []
                for (local, targetName) in zip(localNames, targetNames) {
                    let targetColumn =
                        targetKey.first { $0.field == targetName }
                        ?? targetTable.column(targetName)
                    guard let targetColumn else {
                        throw DataConnectWorkspaceError(
                            file: reference.position.file, line: reference.position.line,
                            column: reference.position.column,
                            "\(reference.target) has no field \(targetName) for \(name).\(reference.field) to reference"
                        )
                    }
                    if let index = table.columns.firstIndex(where: { $0.field == local }) {
                        table.columns[index].foreignKeyOf = reference.field
                    } else {
                        let position = table.columns.firstIndex { $0.field == reference.field } ?? table.columns.count
                        table.columns.insert(
                            Column(
                                field: local, sqlName: DataConnectNaming.snakeCase(local), type: targetColumn.type,
                                isList: false, isRequired: reference.isRequired, defaultValue: nil,
                                foreignKeyOf: reference.field),
                            at: position)
                    }
                    pairs.append((local, targetName))
                }
                table.references.append(
                    Reference(
                        field: reference.field, target: reference.target, isRequired: reference.isRequired,
                        isUnique: reference.isUnique, columns: pairs))
            }
            // The placeholder entries that kept reference positions are not columns.
            table.columns.removeAll { column in table.references.contains { $0.field == column.field } }
            table.key = try keyColumns(name, from: table.position).map(\.field)
            table.uniques = entry.tableUniques.map { fields in
                fields.flatMap { field in
                    table.reference(field)?.columns.map(\.local) ?? [field]
                }
            }
            for index in table.references.indices {
                let columns = table.references[index].columns.map(\.local)
                // A reference that is the whole key, or alone under a unique constraint, is one-to-one.
                if columns == table.key || table.uniques.contains(columns) {
                    table.references[index].isUnique = true
                }
            }
            table.indexes = entry.tableIndexes.map { fields in
                fields.flatMap { field in table.reference(field)?.columns.map(\.local) ?? [field] }
            }
            for reference in table.references where reference.isUnique {
                let columns = reference.columns.map(\.local)
                if !table.uniques.contains(columns) { table.uniques.append(columns) }
            }
            entry.table = table
            declared[name] = entry
            return table
        }

        /// A table's key as columns, resolving key fields that are references (recursively).
        mutating func keyColumns(_ typeName: String, from position: SourcePosition) throws(DataConnectWorkspaceError)
            -> [Column]
        {
            if let known = resolvedKeys[typeName] { return known }
            guard let entry = declared[typeName] else {
                throw DataConnectWorkspaceError(
                    file: position.file, line: position.line, column: position.column,
                    "no @table type is named \(typeName)")
            }
            guard resolving.insert(typeName).inserted else {
                throw DataConnectWorkspaceError(
                    file: position.file, line: position.line, column: position.column,
                    "the key of \(typeName) refers back to itself through references")
            }
            defer { resolving.remove(typeName) }
            var columns: [Column] = []
            for field in entry.declaredKey ?? ["id"] {
                if let column = entry.table.column(field), !entry.referenceFields.contains(where: { $0.field == field })
                {
                    columns.append(column)
                } else if let reference = entry.referenceFields.first(where: { $0.field == field }) {
                    let targetKey = try keyColumns(reference.target, from: reference.position)
                    let targetNames = reference.targetNames ?? targetKey.map(\.field)
                    let localNames =
                        reference.localNames
                        ?? targetNames.map { reference.field + $0.prefix(1).uppercased() + $0.dropFirst() }
                    for (local, targetName) in zip(localNames, targetNames) {
                        let type = targetKey.first { $0.field == targetName }?.type ?? .uuid
                        columns.append(
                            Column(
                                field: local, sqlName: DataConnectNaming.snakeCase(local), type: type, isList: false,
                                isRequired: true, defaultValue: nil, foreignKeyOf: field))
                    }
                } else {
                    let at = entry.table.position
                    throw DataConnectWorkspaceError(
                        file: at.file, line: at.line, column: at.column,
                        "@table(key:) of \(typeName) names \(field), which is not a field of \(typeName)")
                }
            }
            resolvedKeys[typeName] = columns
            return columns
        }

        func addRelations(_ tables: inout [Table]) {
            for source in tables {
                for reference in source.references {
                    guard let index = tables.firstIndex(where: { $0.typeName == reference.target }) else { continue }
                    let name = (reference.isUnique ? source.singular : source.plural) + "_on_" + reference.field
                    tables[index].relations.append(
                        Relation(
                            name: name,
                            kind: .backReference(
                                source: source.typeName, field: reference.field, isSingle: reference.isUnique)
                        ))
                }
                // A join table: its key is exactly the foreign keys of two references.
                let keyReferences = source.references.filter { reference in
                    reference.columns.allSatisfy { source.key.contains($0.local) }
                }
                guard keyReferences.count == 2,
                    keyReferences.flatMap({ $0.columns.map(\.local) }).sorted() == source.key.sorted()
                else { continue }
                // Both references to one table (people following people) make two lists on it, told apart by the
                // far field, as the service names them: `…_via_Follow_on_followee` lists the followees.
                let suffix = { (far: Reference) in
                    keyReferences[0].target == keyReferences[1].target ? "_on_" + far.field : ""
                }
                for (near, far) in [(keyReferences[0], keyReferences[1]), (keyReferences[1], keyReferences[0])] {
                    guard let index = tables.firstIndex(where: { $0.typeName == near.target }),
                        let farTable = tables.first(where: { $0.typeName == far.target })
                    else { continue }
                    tables[index].relations.append(
                        Relation(
                            name: farTable.plural + "_via_" + source.typeName + suffix(far),
                            kind: .manyToMany(
                                join: source.typeName, near: near.field, far: far.field, target: far.target)
                        ))
                }
            }
        }

        /// A type's declaration read as written.
        static func declare(
            _ object: ObjectTypeDefinition, path: String, tableNames: Set<String>, enums: [String: [String]]
        ) -> Declared {
            let typeName = object.name.value
            let viewDirective = object.directives.first { $0.name.value == "view" }
            let tableDirective = object.directives.first { $0.name.value == "table" } ?? viewDirective
            let singular =
                GraphQLText.string(tableDirective, "singular") ?? DataConnectNaming.singular(typeName)
            var table = Table(
                typeName: typeName,
                sqlName: GraphQLText.string(tableDirective, "name") ?? DataConnectNaming.snakeCase(typeName),
                singular: singular,
                plural: GraphQLText.string(tableDirective, "plural") ?? DataConnectNaming.plural(singular),
                columns: [], references: [], key: [], uniques: [], relations: [],
                position: GraphQLText.position(object.loc, path: path)
            )
            var references: [(String, String, Bool, Bool, [String]?, [String]?, SourcePosition)] = []
            var tableUniques: [[String]] = []
            var tableIndexes: [[String]] = []
            var problems: [DataConnectWorkspaceError] = []
            if let viewDirective {
                let position = table.position
                let sql = GraphQLText.string(viewDirective, "sql")
                if object.directives.contains(where: { $0.name.value == "table" }) {
                    problems.append(
                        DataConnectWorkspaceError(
                            file: path, line: position.line, column: position.column,
                            "\(typeName) is both a @table and a @view; keep one"))
                } else if sql != nil, GraphQLText.string(viewDirective, "name") != nil {
                    problems.append(
                        DataConnectWorkspaceError(
                            file: path, line: position.line, column: position.column,
                            "@view on \(typeName) gives both name and sql; give one: sql for a SELECT, name for a view "
                                + "the database has"))
                }
                table.view = sql.map(ViewSource.sql) ?? .named(table.sqlName)
            }
            for directive in object.directives where directive.name.value == "unique" {
                if let fields = GraphQLText.strings(directive, "fields") { tableUniques.append(fields) }
            }
            for directive in object.directives where directive.name.value == "index" {
                if let fields = GraphQLText.strings(directive, "fields") { tableIndexes.append(fields) }
            }
            for field in object.fields {
                let (named, isList, isRequired) = GraphQLText.unwrap(field.type)
                let name = field.name.value
                let directive = { (name: String) in field.directives.first { $0.name.value == name } }
                let position = GraphQLText.position(field.loc, path: path)
                if viewDirective != nil, isRequired {
                    // The service's documentation of `@view`: a field whose column the SELECT lacks is null.
                    problems.append(
                        DataConnectWorkspaceError(
                            file: path, line: position.line, column: position.column,
                            "\(typeName).\(name) is non-null, but the fields of a @view must be nullable (a column "
                                + "its SELECT does not give is null): drop the !"))
                }
                if directive("index") != nil { tableIndexes.append([name]) }
                if tableNames.contains(named) && !isList {
                    let ref = directive("ref")
                    references.append(
                        (
                            name, named, isRequired, directive("unique") != nil, GraphQLText.strings(ref, "fields"),
                            GraphQLText.strings(ref, "references"), position
                        ))
                    // Keeps the reference's place so its foreign key lands where it was declared.
                    table.columns.append(
                        Column(
                            field: name, sqlName: name, type: .uuid, isList: false, isRequired: isRequired,
                            defaultValue: nil, foreignKeyOf: nil))
                    continue
                }
                guard let type = ScalarType(builtIn: named) ?? (enums[named] != nil ? .enumeration(named) : nil) else {
                    let message =
                        tableNames.contains(named)
                        ? "\(typeName).\(name) is a list of \(named); a table refers to another by a single field "
                            + "(\(named)!), and the list appears on \(named) as a relation field"
                        : "\(typeName).\(name) has type \(named), which is neither a scalar, an enum nor a @table type"
                    problems.append(
                        DataConnectWorkspaceError(
                            file: path, line: position.line, column: position.column, message))
                    continue
                }
                var defaultValue: ColumnDefault?
                if let value = directive("default") {
                    if let expression = GraphQLText.string(value, "expr") {
                        defaultValue = .expression(expression)
                    } else if let sql = GraphQLText.string(value, "sql") {
                        defaultValue = .sql(sql)
                    } else if let constant = value.arguments.first(where: { $0.name.value == "value" }) {
                        defaultValue = .value(GraphQLText.json(constant.value) ?? .null)
                    }
                }
                if directive("unique") != nil { tableUniques.append([name]) }
                let size = (directive("col")?.arguments.first { $0.name.value == "size" }?.value as? IntValue)
                    .flatMap { Int($0.value) }
                let sqlName = GraphQLText.string(directive("col"), "name") ?? DataConnectNaming.snakeCase(name)
                var searchLanguage: String?
                if let searchable = directive("searchable") {
                    let language = GraphQLText.string(searchable, "language") ?? "english"
                    if viewDirective != nil {
                        problems.append(
                            DataConnectWorkspaceError(
                                file: path, line: position.line, column: position.column,
                                "\(typeName).\(name) is a field of a @view, which has no full-text index: put "
                                    + "@searchable on the field of the @table the view reads"))
                    } else if ["rank", "rowid"].contains(sqlName.lowercased()) {
                        problems.append(
                            DataConnectWorkspaceError(
                                file: path, line: position.line, column: position.column,
                                "\(typeName).\(name) is stored as the column \(sqlName), a name the emulator's "
                                    + "full-text index (SQLite FTS5) keeps for itself; name the column otherwise with "
                                    + "@col(name:)"))
                    } else if type != .string || isList {
                        problems.append(
                            DataConnectWorkspaceError(
                                file: path, line: position.line, column: position.column,
                                "\(typeName).\(name) is \(isList ? "a list" : "a \(type)"); @searchable goes on String "
                                    + "fields, which the full-text index holds"))
                    } else if !DataConnectNaming.textSearchLanguages.contains(language) {
                        problems.append(
                            DataConnectWorkspaceError(
                                file: path, line: position.line, column: position.column,
                                "\(typeName).\(name): @searchable(language: \"\(language)\") is not a text-search "
                                    + "language; use one of "
                                    + DataConnectNaming.textSearchLanguages.sorted().joined(separator: ", ")))
                    } else if let other = table.columns.first(where: { $0.searchLanguage != nil }),
                        other.searchLanguage != language
                    {
                        // The service's documentation: columns searched together must all use one language.
                        problems.append(
                            DataConnectWorkspaceError(
                                file: path, line: position.line, column: position.column,
                                "\(typeName).\(name) is searched in \(language) but \(other.field) in "
                                    + "\(other.searchLanguage ?? ""); the @searchable fields of a type share one language"
                            ))
                    } else {
                        searchLanguage = language
                    }
                }
                table.columns.append(
                    Column(
                        field: name, sqlName: sqlName, type: type, isList: isList, isRequired: isRequired,
                        defaultValue: defaultValue, foreignKeyOf: nil, size: type == .vector ? size : nil,
                        searchLanguage: searchLanguage))
            }
            var declaredKey = GraphQLText.strings(tableDirective, "key")
            // A view has no key: its rows are listed, never looked up, changed or referred to.
            if viewDirective != nil { declaredKey = [] }
            if declaredKey == nil {
                declaredKey = ["id"]
                if !object.fields.contains(where: { $0.name.value == "id" }) {
                    table.columns.insert(
                        Column(
                            field: "id", sqlName: "id", type: .uuid, isList: false, isRequired: true,
                            defaultValue: .expression("uuidV4()"), foreignKeyOf: nil),
                        at: 0)
                }
            }
            return Declared(
                table: table,
                referenceFields: references.map {
                    (
                        field: $0.0, target: $0.1, isRequired: $0.2, isUnique: $0.3, localNames: $0.4,
                        targetNames: $0.5,
                        position: $0.6
                    )
                },
                declaredKey: declaredKey,
                tableUniques: tableUniques,
                tableIndexes: tableIndexes,
                problems: problems
            )
        }
    }
}
