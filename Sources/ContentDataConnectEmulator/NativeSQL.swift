internal import ContentDataConnect
internal import ContentGraphQL
internal import ContentJSON
internal import Foundation
internal import GRDB
internal import GraphQL

/// `_select`, `_selectFirst`, `_execute`, `_executeReturning` and `_executeReturningFirst`: SQL written in the
/// operation, run as written.
///
/// As the service's prelude requires: the statement is a string literal of the operation (never a variable),
/// `_select` takes a query (`SELECT`, `WITH`, `VALUES`, `TABLE`) and `_execute…` a data change (`INSERT`, `UPDATE`,
/// `DELETE`), one statement each, with `$1`, `$2`, … bound to `params` in order (a param may be
/// `{_expr: "auth.uid"}`). The service runs PostgreSQL; here SQLite runs the text, so a statement only PostgreSQL
/// understands is answered with an error that names it. Rows come back as SQLite stores them.
///
/// `_select` and `_selectFirst` run read-only, on both engines, in a mutation too: a statement that starts as a query
/// may still write (`WITH gone AS (DELETE … RETURNING *) SELECT …`), and Firebase's emulator 3.4.17 "Fixed
/// unenforced read-only isolation for Native SQL queries" (firebase-tools CHANGELOG, #10894).
struct NativeSQL {
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    enum Kind {
        case query, mutation
    }

    /// The statement, checked; on SQLite with `$n` turned into its `?n`, on PostgreSQL as written.
    let statement: String
    /// Whether its first word is a query's (`WITH` counts as one), so that PostgreSQL is not asked to count changes.
    let startsAsQuery: Bool
    /// Whether the field is `_select` or `_selectFirst`, whose statement must not write.
    let isReadOnly: Bool
    /// The field, for the refusal of a statement that writes.
    let fieldName: String

    init(field info: GraphQLResolveInfo, kind: Kind, dialect: SQLDialect) throws {
        let argument = info.fieldASTs.first?.arguments.first { $0.name.value == "sql" }?.value
        guard let literal = argument as? StringValue else {
            throw Failure(
                description: "\(info.fieldName) takes its sql as a string literal written in the operation, "
                    + "never a variable, as the service requires")
        }
        let scanned = try Self.scan(literal.value, placeholder: dialect == .sqlite ? "?" : "$")
        let keyword = scanned.firstWord.uppercased()
        let queries = ["SELECT", "WITH", "VALUES", "TABLE"]
        startsAsQuery = queries.contains(keyword)
        isReadOnly = kind == .query
        fieldName = info.fieldName
        let allowed = kind == .query ? queries : ["INSERT", "UPDATE", "DELETE", "WITH"]
        guard allowed.contains(keyword) else {
            throw Failure(
                description: "\(info.fieldName) runs "
                    + (kind == .query
                        ? "queries (SELECT, WITH, VALUES, TABLE)" : "data changes (INSERT, UPDATE, DELETE)")
                    + ", not \(keyword.isEmpty ? "an empty statement" : keyword)")
        }
        // PostgreSQL's `TABLE name` is `SELECT * FROM name`.
        statement = keyword == "TABLE" ? "SELECT * FROM " + scanned.text.dropFirst(5) : scanned.text
    }

    /// The statement with `$n` placeholders as `?n`, its first word, and a refusal of a second statement.
    static func scan(_ sql: String, placeholder: String = "?") throws -> (text: String, firstWord: String) {
        var output = ""
        let characters = Array(sql)
        var index = 0
        var ended = false
        while index < characters.count {
            let character = characters[index]
            switch character {
            case "'", "\"":
                // A quoted literal or identifier; a doubled quote stays inside.
                var end = index + 1
                while end < characters.count {
                    if characters[end] == character {
                        if end + 1 < characters.count, characters[end + 1] == character {
                            end += 2
                            continue
                        }
                        break
                    }
                    end += 1
                }
                output += String(characters[index...min(end, characters.count - 1)])
                index = end + 1
                continue
            case "-" where index + 1 < characters.count && characters[index + 1] == "-":
                while index < characters.count, characters[index] != "\n" { index += 1 }
                continue
            case "$" where index + 1 < characters.count && characters[index + 1].isNumber:
                output += placeholder
                index += 1
                continue
            case ";":
                ended = true
                index += 1
                continue
            default:
                if ended, !character.isWhitespace {
                    throw Failure(description: "one statement at a time: the sql holds more after ';'")
                }
            }
            output.append(character)
            index += 1
        }
        let text = output.trimmingCharacters(in: .whitespacesAndNewlines)
        return (text, String(text.prefix { $0.isLetter }))
    }

    /// The values bound to `?1`, `?2`, …: literals as they are, `{_expr: "…"}` evaluated.
    static func parameters(_ params: Map, values: ServerValues) throws -> [DatabaseValue] {
        let list: [Map]
        switch params {
        case .undefined, .null: list = []
        case .array(let elements): list = elements
        default: list = [params]
        }
        return try list.map { param in
            let value = GraphQLJSON.json(param)
            if case .object(let object) = value, object.count == 1, case .string(let expression)? = object["_expr"] {
                do {
                    return StoredValue.databaseValue(try ServerExpression(expression).evaluate(values.environment))
                } catch {
                    throw Failure(description: "params: cannot evaluate \(expression): \(error)")
                }
            }
            return StoredValue.databaseValue(value)
        }
    }

    /// Runs the statement: the rows it returns as objects, and how many rows it changed.
    func run(_ parameters: [DatabaseValue], in transaction: any SQLTransaction) async throws -> (
        rows: [Map], changes: Int
    ) {
        guard let sqlite = transaction as? SQLiteTransaction else {
            return try await runOnPostgres(parameters, in: transaction)
        }
        let statement = self.statement
        let isReadOnly = self.isReadOnly
        let readOnlyRefusal = self.readOnlyRefusal
        do {
            return try await sqlite.store.access { db in
                let prepared = try db.makeStatement(sql: statement)
                if isReadOnly, !prepared.isReadonly { throw readOnlyRefusal }
                let rows = try Row.fetchAll(prepared, arguments: StatementArguments(parameters))
                let mapped = rows.map { row -> Map in
                    var object = JSONObject()
                    for (column, value) in row { object[column] = Self.json(value) }
                    return GraphQLJSON.map(.object(object))
                }
                // A read leaves the count of the connection's last change, which is not its own.
                return (mapped, prepared.isReadonly ? 0 : db.changesCount)
            }
        } catch let error as DatabaseError {
            throw Failure(
                description: "SQLite cannot run \(statement): \(error.message ?? "\(error)"); the embedded engine "
                    + "runs SQLite, while the service (and content serve --postgres) runs PostgreSQL")
        }
    }

    /// What a `_select` whose statement writes is answered.
    private var readOnlyRefusal: Failure {
        Failure(
            description: "\(fieldName) runs read-only, as the service runs native SQL queries, and this statement "
                + "writes: \(statement); write with _execute, _executeReturning or _executeReturningFirst in a mutation"
        )
    }

    /// PostgreSQL runs the text as written; a data change without `RETURNING` is counted by returning a 1 per row.
    ///
    /// A `_select` runs in a read-only window (``PostgresTransaction/readOnly(_:)``).
    private func runOnPostgres(_ parameters: [DatabaseValue], in transaction: any SQLTransaction) async throws -> (
        rows: [Map], changes: Int
    ) {
        let isQuery = startsAsQuery
        let counting = !isQuery && !statement.uppercased().contains("RETURNING")
        let text = statement + (counting ? " RETURNING 1" : "")
        do {
            let fragment = SQLFragment(text: text, arguments: parameters, isNumbered: true)
            let records: [SQLRecord]
            if isReadOnly, let postgres = transaction as? PostgresTransaction {
                do {
                    records = try await postgres.readOnly { try await postgres.rows(fragment) }
                } catch let failure as SQLFailure where failure.kind == .readOnly {
                    throw readOnlyRefusal
                }
            } else {
                records = try await transaction.rows(fragment)
            }
            if counting { return ([], records.count) }
            let mapped = records.map { record -> Map in
                var object = JSONObject()
                for (column, value) in zip(record.columns, record.values) { object[column] = Self.json(value) }
                return GraphQLJSON.map(.object(object))
            }
            return (mapped, isQuery ? 0 : records.count)
        } catch let failure as SQLFailure {
            throw Failure(description: "PostgreSQL cannot run \(statement): \(failure.message)")
        }
    }

    private static func json(_ value: DatabaseValue) -> JSONValue {
        switch value.storage {
        case .null: return .null
        case .int64(let number): return .number(JSONNumber(text: String(number)))
        case .double(let number): return .number(JSONNumber(text: "\(number)"))
        case .string(let text): return .string(text)
        case .blob(let data): return .string(data.base64EncodedString())
        }
    }
}
