public import ContentJSON
internal import Foundation

/// The tables a Data Connect schema declares, with everything Data Connect derives from them: columns,
/// foreign keys, keys, and the relation fields each table gains.
public struct DataConnectSchema: Sendable {
    /// The `@table` and `@view` types, in declaration order.
    public var tables: [Table]
    /// The `enum` types, by name, with their values.
    public var enums: [String: [String]]

    /// The table for a type name.
    ///
    /// - Parameter typeName: The GraphQL type name (`Movie`).
    /// - Returns: The table, or `nil`.
    public func table(_ typeName: String) -> Table? {
        tables.first { $0.typeName == typeName }
    }
}

/// The value types a column can hold.
public enum ScalarType: Sendable, Hashable, CustomStringConvertible {
    case string, int, int64, float, boolean, uuid, date, timestamp, any, vector
    /// A schema `enum`, stored as its value's name.
    case enumeration(String)

    /// The built-in scalar for a GraphQL name, or `nil`.
    ///
    /// - Parameter name: `String`, `UUID`, `Int64` and so on.
    public init?(builtIn name: String) {
        switch name {
        case "String": self = .string
        case "Int": self = .int
        case "Int64": self = .int64
        case "Float": self = .float
        case "Boolean": self = .boolean
        case "UUID": self = .uuid
        case "Date": self = .date
        case "Timestamp": self = .timestamp
        case "Any": self = .any
        case "Vector": self = .vector
        default: return nil
        }
    }

    /// The GraphQL type name.
    public var description: String {
        switch self {
        case .string: return "String"
        case .int: return "Int"
        case .int64: return "Int64"
        case .float: return "Float"
        case .boolean: return "Boolean"
        case .uuid: return "UUID"
        case .date: return "Date"
        case .timestamp: return "Timestamp"
        case .any: return "Any"
        case .vector: return "Vector"
        case .enumeration(let name): return name
        }
    }
}

/// How a column gets a value when an insert leaves it out.
public enum ColumnDefault: Sendable, Hashable {
    /// A constant (`@default(value:)`).
    case value(JSONValue)
    /// A server expression (`@default(expr:)`): `uuidV4()`, `request.time`, `auth.uid`.
    case expression(String)
    /// Raw SQL (`@default(sql:)`), which only PostgreSQL can evaluate.
    case sql(String)
}

/// Where a declaration is in its file.
public struct SourcePosition: Sendable, Hashable, CustomStringConvertible {
    /// The file path.
    public var file: String
    /// The 1-based line.
    public var line: Int
    /// The 1-based column.
    public var column: Int

    /// `file:line:column`.
    public var description: String { "\(file):\(line):\(column)" }
}

extension DataConnectSchema {
    /// One `@table` type.
    public struct Table: Sendable {
        /// The GraphQL type name (`Movie`).
        public var typeName: String
        /// The SQL table name (`movie`, or `@table(name:)`).
        public var sqlName: String
        /// The single-row query field (`movie`).
        public var singular: String
        /// The list query field (`movies`).
        public var plural: String
        /// Every stored column, foreign keys included, in declaration order.
        public var columns: [Column]
        /// The fields that point at other tables.
        public var references: [Reference]
        /// The primary key, as column field names (`["movieId", "userId"]`).
        public var key: [String]
        /// Unique constraints, as column field names.
        public var uniques: [[String]]
        /// Indexes (`@index` on fields and on the type), as column field names.
        public var indexes: [[String]] = []
        /// Relation fields other tables' references add to this one.
        public var relations: [Relation]
        /// Where the type is declared.
        public var position: SourcePosition
        /// Where a `@view` type's rows come from; `nil` for a `@table`.
        public var view: ViewSource?

        /// Whether the type is a `@view`: read-only, without a key, listed but not looked up.
        public var isView: Bool { view != nil }

        /// The SELECT of a `@view(sql:)`, without surrounding space or trailing semicolons, to wrap in other SQL.
        public var viewSelect: String? {
            guard case .sql(let sql)? = view else { return nil }
            var select = sql.trimmingCharacters(in: .whitespacesAndNewlines)
            while select.hasSuffix(";") {
                select = String(select.dropLast()).trimmingCharacters(in: .whitespacesAndNewlines)
            }
            return select
        }

        /// The column for a field name.
        ///
        /// - Parameter field: The field name (`releaseYear`, `movieId`).
        /// - Returns: The column, or `nil`.
        public func column(_ field: String) -> Column? {
            columns.first { $0.field == field }
        }

        /// The reference for a field name.
        ///
        /// - Parameter field: The field name (`movie`).
        /// - Returns: The reference, or `nil`.
        public func reference(_ field: String) -> Reference? {
            references.first { $0.field == field }
        }

        /// The key columns.
        public var keyColumns: [Column] { key.compactMap(column) }

        /// The `@searchable` columns, in the full-text index.
        public var searchableColumns: [Column] { columns.filter { $0.searchLanguage != nil } }
    }

    /// The rows of a `@view` type.
    public enum ViewSource: Sendable, Hashable {
        /// `@view(sql:)`: a `SELECT` the service runs as written.
        case sql(String)
        /// `@view(name:)` or a bare `@view`: a view the database already has, by name.
        case named(String)
    }

    /// A stored value.
    public struct Column: Sendable {
        /// The GraphQL field name (`releaseYear`, or `movieId` for a foreign key).
        public var field: String
        /// The SQL column name (`release_year`).
        public var sqlName: String
        /// The value type.
        public var type: ScalarType
        /// Whether it holds a list of values.
        public var isList: Bool
        /// Whether it must hold a value.
        public var isRequired: Bool
        /// What an insert that leaves it out stores.
        public var defaultValue: ColumnDefault?
        /// The reference field this column was made for, when it is a foreign key.
        public var foreignKeyOf: String?
        /// `@col(size:)`: how many numbers a `Vector` holds.
        public var size: Int?
        /// `@searchable(language:)`: the text-search language of a column in the full-text index.
        public var searchLanguage: String?
    }

    /// A field that points at a row of another table (`movie: Movie!`).
    public struct Reference: Sendable {
        /// The field name (`movie`).
        public var field: String
        /// The target type name (`Movie`).
        public var target: String
        /// Whether the reference must be set; a required one cascades deletes, an optional one is nulled.
        public var isRequired: Bool
        /// Whether at most one row may point at a given target (a one-to-one relation).
        public var isUnique: Bool
        /// The foreign key: this table's column field names, paired with the target's key column names.
        public var columns: [(local: String, target: String)]
    }

    /// A field one table gains from another's reference.
    public struct Relation: Sendable {
        /// The kind of relation.
        public enum Kind: Sendable {
            /// `reviews_on_movie`: rows of `source` whose `field` points here; one row when the reference is unique.
            case backReference(source: String, field: String, isSingle: Bool)
            /// `actors_via_MovieActor`: rows of `target` joined through `join`'s two references.
            case manyToMany(join: String, near: String, far: String, target: String)
        }

        /// The field name.
        public var name: String
        /// The kind of relation.
        public var kind: Kind
        /// The type of the rows the field returns.
        public var resultType: String {
            switch kind {
            case .backReference(let source, _, _): return source
            case .manyToMany(_, _, _, let target): return target
            }
        }
    }
}
