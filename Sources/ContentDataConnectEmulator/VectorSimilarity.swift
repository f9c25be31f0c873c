internal import ContentDataConnect
internal import ContentJSON
internal import Foundation
internal import GRDB
internal import GraphQL

/// `<plural>_<field>_similarity`: rows ordered by the distance between a `Vector` column and the one given, closest
/// first, as the service does with pgvector.
///
/// The service's documentation: "The result set is sorted in the ascending order of the distance", "only results
/// with distance less than the value of `within` will be included", and `_metadata.distance` holds it. The
/// distances are pgvector's operators, computed brute force over every row: `L2` is `<->` (Euclidean),
/// `COSINE` is `<=>` (1 − cosine similarity), `INNER_PRODUCT` is `<#>` (the inner product negated, so that
/// closer is smaller). Sums are accumulated in single precision, as pgvector's `float4` elements are.
struct VectorSimilarity {
    enum Method: String {
        case l2 = "L2"
        case cosine = "COSINE"
        case innerProduct = "INNER_PRODUCT"

        /// pgvector's operator for the distance.
        var `operator`: String {
            switch self {
            case .l2: return "<->"
            case .cosine: return "<=>"
            case .innerProduct: return "<#>"
            }
        }
    }

    let method: Method
    /// The vector to compare with, as JSON text (how vectors are stored).
    let compare: String
    let within: Double?

    /// Reads the field's arguments.
    ///
    /// - Throws: ``FieldFailure`` for `compare_embed` (it needs Vertex AI), a missing `compare`, a vector that is
    ///   not one of finite numbers, or one of another size than the column's `@col(size:)`.
    init(arguments: Map, column: DataConnectSchema.Column, table: DataConnectSchema.Table) throws {
        if !arguments["compare_embed"].isAbsent {
            throw FieldFailure(
                description: "compare_embed asks Vertex AI for an embedding of the text, which the service does in "
                    + "Google Cloud and the emulator cannot: pass compare with the vector itself (an embedding made "
                    + "by the same model)")
        }
        guard case .array(let elements) = arguments["compare"] else {
            throw FieldFailure(
                description: "\(table.plural)_\(column.field)_similarity needs compare: the Vector to compare "
                    + "\(column.field) with")
        }
        var numbers: [Float] = []
        numbers.reserveCapacity(elements.count)
        for element in elements {
            // Single precision, as pgvector stores them; a number beyond it is not finite there either.
            guard case .number(let number) = element, Float(number.doubleValue).isFinite else {
                throw FieldFailure(description: "compare must be a list of finite numbers")
            }
            numbers.append(Float(number.doubleValue))
        }
        if numbers.isEmpty { throw FieldFailure(description: "vector must have at least 1 dimension") }
        if let size = column.size, numbers.count != size {
            // pgvector's words for a vector of the wrong size.
            throw FieldFailure(description: "expected \(size) dimensions, not \(numbers.count)")
        }
        guard let method = Method(rawValue: arguments["method"].string ?? "INNER_PRODUCT") else {
            throw FieldFailure(description: "method is one of L2, COSINE, INNER_PRODUCT")
        }
        self.method = method
        compare = DataConnectVector.text(numbers)
        within = arguments["within"].double
    }

    /// The distance of the column on `alias` from ``compare``: pgvector's own operator on PostgreSQL, the engine's
    /// function on SQLite.
    func distance(_ column: DataConnectSchema.Column, alias: String, dialect: SQLDialect) -> SQLFragment {
        let stored = RowQuery.column(alias, column)
        switch dialect {
        case .sqlite:
            return SQLFragment(
                text: "content_vector_distance(?, \(stored), ?)",
                arguments: [method.rawValue.databaseValue, compare.databaseValue])
        case .postgres:
            let distance = "\(stored) \(method.operator) ?::vector"
            // pgvector's cosine distance from a vector of zeros is NaN, which a GraphQL Float cannot carry; SQLite
            // turns a function's NaN into NULL, and so does this, so both engines answer null and sort the row last.
            return SQLFragment(
                text: method == .cosine ? "NULLIF(\(distance), 'NaN'::float8)" : distance,
                arguments: [compare.databaseValue])
        }
    }

    /// `content_vector_distance(method, stored, compare)`: null when the stored vector is null.
    static let distanceFunction = DatabaseFunction("content_vector_distance", argumentCount: 3, pure: true) {
        values in
        guard let name = String.fromDatabaseValue(values[0]), let method = Method(rawValue: name),
            let stored = String.fromDatabaseValue(values[1]), let compare = String.fromDatabaseValue(values[2])
        else { return nil }
        let a = try numbers(stored)
        let b = try numbers(compare)
        guard a.count == b.count else {
            throw DatabaseError(message: "different vector dimensions \(a.count) and \(b.count)")
        }
        switch method {
        case .l2:
            var sum: Float = 0
            for index in a.indices {
                let difference = a[index] - b[index]
                sum += difference * difference
            }
            return Double(sum).squareRoot()
        case .innerProduct:
            var sum: Float = 0
            for index in a.indices { sum += a[index] * b[index] }
            return -Double(sum)
        case .cosine:
            var dot: Float = 0
            var normA: Float = 0
            var normB: Float = 0
            for index in a.indices {
                dot += a[index] * b[index]
                normA += a[index] * a[index]
                normB += b[index] * b[index]
            }
            // pgvector answers NaN when either vector is all zeros, and keeps the similarity within [-1, 1].
            let similarity = Double(dot) / (Double(normA) * Double(normB)).squareRoot()
            if similarity.isNaN { return Double.nan }
            return 1 - min(max(similarity, -1), 1)
        }
    }

    /// The numbers of a stored vector (JSON text).
    private static func numbers(_ text: String) throws -> [Float] {
        guard case .array(let elements) = try JSONParser().parse(text) else {
            throw DatabaseError(message: "a stored Vector is not a JSON array")
        }
        return elements.map { element in
            guard case .number(let number) = element else { return .nan }
            return Float(number.doubleValue ?? .nan)
        }
    }
}
