internal import Foundation
internal import GRDB
internal import GRDBSQLite

/// PostgreSQL's `ts_rank`, as an FTS5 auxiliary function: `content_ts_rank(index, mode)`.
///
/// The service ranks full-text matches with `ts_rank` (its prelude: "The `ts_rank` relevance score of the row
/// compared to the search query. You can use it to tune `relevanceThreshold`"), so the same numbers here let a
/// threshold tuned on one hold on the other. The function is PostgreSQL's `calc_rank` with its default weights and
/// no normalisation (`src/backend/utils/adt/tsrank.c`): every position of a plain `to_tsvector` has weight D
/// (0.1); a query whose top operator is AND or FOLLOWED BY is ranked by how near its words are to each other
/// (`calc_rank_and`), any other by how often and how early each word occurs (`calc_rank_or`). The query's words
/// are the MATCH expression's phrases, one word each, in order; positions count every token, stop words included,
/// across the searchable columns in order, as PostgreSQL numbers a document's words.
enum TextSearchRank {
    /// Registers the function on a connection.
    ///
    /// - Returns: Whether FTS5 is there to register it with.
    @discardableResult
    static func register(on db: Database) -> Bool {
        guard let api = fts5API(db.sqliteConnection), let create = api.pointee.xCreateFunction else { return false }
        return create(api, "content_ts_rank", nil, rankFunction, nil) == SQLITE_OK
            && create(api, "content_ts_phrase", nil, phraseFunction, nil) == SQLITE_OK
    }

    /// Whether the words stand as a phrase says: some position of the first word has each other word `offset`
    /// positions after it (PostgreSQL's `<N>`).
    ///
    /// - Parameters:
    ///   - positions: Each word's positions in the row.
    ///   - offsets: Each word's distance from the first.
    /// - Returns: Whether they do.
    static func standsAsPhrase(_ positions: [[Int]], offsets: [Int]) -> Bool {
        guard let first = positions.first, positions.count == offsets.count else { return false }
        let sets = positions.map(Set.init)
        return first.contains { start in
            offsets.indices.allSatisfy { sets[$0].contains(start + offsets[$0] - offsets[0]) }
        }
    }

    /// The connection's `fts5_api`, or `nil` when its SQLite has no FTS5 (sqlite.org/fts5.html#extending_fts5).
    private static func fts5API(_ connection: OpaquePointer?) -> UnsafeMutablePointer<fts5_api>? {
        var statement: OpaquePointer?
        guard sqlite3_prepare_v2(connection, "SELECT fts5(?1)", -1, &statement, nil) == SQLITE_OK else { return nil }
        defer { sqlite3_finalize(statement) }
        // SQLite keeps the type name for the statement's life, so it must be static text.
        let type: StaticString = "fts5_api_ptr"
        let typeName = UnsafeRawPointer(type.utf8Start).assumingMemoryBound(to: CChar.self)
        var api: UnsafeMutablePointer<fts5_api>?
        // The statement writes the pointer when it steps, so it steps while the pointer to `api` is valid.
        withUnsafeMutablePointer(to: &api) { pointer in
            guard sqlite3_bind_pointer(statement, 1, pointer, typeName, nil) == SQLITE_OK else { return }
            sqlite3_step(statement)
        }
        return api
    }

    /// The weight PostgreSQL gives a position without a label (D).
    static let weight: Float = 0.1

    /// `calc_rank_or`: for each query word, its positions weighted by 1/i², summed, scaled to the limit of that sum
    /// (π²/6), averaged over the words.
    static func rankOr(_ positions: [[Int]]) -> Float {
        guard !positions.isEmpty else { return 0 }
        var rank: Float = 0
        for word in positions where !word.isEmpty {
            var sum: Float = 0
            for index in word.indices {
                let order = Float(index + 1)
                sum += weight / (order * order)
            }
            // With one weight for every position, the heaviest is the first: (w + sum − w / 1²) / (π²/6).
            rank += (weight + sum - weight) / 1.64493406685
        }
        return rank / Float(positions.count)
    }

    /// `calc_rank_and`: every pair of positions of two different words adds its closeness; fewer than two words
    /// are ranked as `calc_rank_or` ranks them.
    static func rankAnd(_ positions: [[Int]]) -> Float {
        guard positions.count >= 2 else { return rankOr(positions) }
        var rank: Float = -1
        for i in positions.indices {
            for k in 0..<i {
                for left in positions[i] {
                    for right in positions[k] {
                        let distance = abs(left - right)
                        guard distance != 0 else { continue }
                        let closeness = (weight * weight * wordDistance(distance)).squareRoot()
                        rank = rank < 0 ? closeness : 1 - (1 - rank) * (1 - closeness)
                    }
                }
            }
        }
        return rank < 0 ? 1e-20 : rank
    }

    /// PostgreSQL's `word_distance`: how much two words this far apart count.
    static func wordDistance(_ distance: Int) -> Float {
        if distance > 100 { return 1e-30 }
        return 1 / (1.005 + 0.05 * exp(Float(distance) / 1.5 - 2))
    }
}

/// Where each phrase of the MATCH occurs in the current row, as positions from 1 across the columns in order.
///
/// Positions are kept as `to_tsvector` keeps them: any beyond 16,383 counts as 16,383, and a word keeps its first
/// 256. That also bounds the work of ranking a row.
private func phrasePositions(_ api: UnsafePointer<Fts5ExtensionApi>, _ fts: OpaquePointer) -> [[Int]] {
    let functions = api.pointee
    guard let phraseCount = functions.xPhraseCount, let columnCount = functions.xColumnCount,
        let columnSize = functions.xColumnSize, let instanceCount = functions.xInstCount,
        let instance = functions.xInst
    else { return [] }
    let phrases = Int(max(phraseCount(fts), 0))
    let columns = Int(max(columnCount(fts), 0))
    // Where each column starts in the document, as if the columns were one text.
    var starts: [Int] = []
    var start = 0
    for column in 0..<columns {
        starts.append(start)
        var size: Int32 = 0
        if columnSize(fts, Int32(column), &size) == SQLITE_OK { start += Int(max(size, 0)) }
    }
    var positions = [[Int]](repeating: [], count: phrases)
    var instances: Int32 = 0
    if instanceCount(fts, &instances) == SQLITE_OK {
        for index in 0..<max(instances, 0) {
            var phrase: Int32 = 0
            var column: Int32 = 0
            var offset: Int32 = 0
            guard instance(fts, index, &phrase, &column, &offset) == SQLITE_OK,
                positions.indices.contains(Int(phrase)), starts.indices.contains(Int(column))
            else { continue }
            positions[Int(phrase)].append(min(starts[Int(column)] + Int(offset) + 1, 16_383))
        }
    }
    return positions.map { word in
        var kept: [Int] = []
        for position in word.sorted() where kept.last != position {
            kept.append(position)
            if kept.count == 256 { break }
        }
        return kept
    }
}

/// The first argument after the table, as text.
private func textArgument(_ count: Int32, _ values: UnsafeMutablePointer<OpaquePointer?>?) -> String? {
    guard count > 0, let values, let text = sqlite3_value_text(values[0]) else { return nil }
    return String(cString: text)
}

/// `content_ts_rank(index, 'and' | 'or')`, called by FTS5 for each row.
private func rankFunction(
    api: UnsafePointer<Fts5ExtensionApi>?, fts: OpaquePointer?, context: OpaquePointer?, count: Int32,
    values: UnsafeMutablePointer<OpaquePointer?>?
) {
    guard let api, let fts, let context else { return }
    // Two words with one stem (`running`, `runs`) are one lexeme to PostgreSQL: the same positions, counted once.
    var positions: [[Int]] = []
    for word in phrasePositions(api, fts) where word.isEmpty || !positions.contains(word) {
        positions.append(word)
    }
    let isAnd = textArgument(count, values) == "and"
    let rank = isAnd ? TextSearchRank.rankAnd(positions) : TextSearchRank.rankOr(positions)
    sqlite3_result_double(context, Double(rank))
}

/// `content_ts_phrase(index, 'offset,offset,…')`, called by FTS5 for each row: 1 when the words stand so.
private func phraseFunction(
    api: UnsafePointer<Fts5ExtensionApi>?, fts: OpaquePointer?, context: OpaquePointer?, count: Int32,
    values: UnsafeMutablePointer<OpaquePointer?>?
) {
    guard let api, let fts, let context else { return }
    let offsets = (textArgument(count, values) ?? "").split(separator: ",").compactMap { Int($0) }
    let stands = TextSearchRank.standsAsPhrase(phrasePositions(api, fts), offsets: offsets)
    sqlite3_result_int(context, stands ? 1 : 0)
}
