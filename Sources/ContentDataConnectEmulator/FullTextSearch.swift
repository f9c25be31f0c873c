internal import ContentDataConnect
internal import Foundation
internal import GRDB
internal import GraphQL

/// `<plural>_search`: full-text search over a table's `@searchable` columns, on an SQLite FTS5 index.
///
/// The service runs PostgreSQL's text search: a `tsvector` of the columns in the `@searchable` language, matched
/// by `websearch_to_tsquery` (`QUERY`), `plainto_tsquery` (`PLAIN`), `phraseto_tsquery` (`PHRASE`) or
/// `to_tsquery` (`ADVANCED`), ranked by `ts_rank`. Here each table with `@searchable` columns has an FTS5 index kept
/// in step by triggers, with SQLite's Porter stemmer for English (PostgreSQL's `english` uses Snowball's English
/// stemmer, a revision of Porter's: most words stem alike, a few do not, such as `news`) and no stemming for other
/// languages. Each query format is parsed as PostgreSQL parses it: English stop
/// words are dropped and, inside a phrase, leave a gap of their length (`"man on fire"` is `man <2> fire`). Words
/// are matched by FTS5, phrases and `<N>` by where FTS5 finds their words (``TextSearchRank``), and relevance is
/// `ts_rank` computed from the same positions.
enum FullTextSearch {
    /// The FTS5 table of a table.
    static func indexName(_ table: DataConnectSchema.Table) -> String {
        table.sqlName + "__search"
    }

    /// The statements that create a table's index and the triggers that keep it in step; none without
    /// `@searchable` columns.
    static func statements(_ table: DataConnectSchema.Table) -> [String] {
        let columns = table.searchableColumns
        guard let language = columns.first?.searchLanguage else { return [] }
        let index = DataConnectStore.quote(indexName(table))
        let source = DataConnectStore.quote(table.sqlName)
        let names = columns.map { DataConnectStore.quote($0.sqlName) }
        let list = names.joined(separator: ", ")
        let new = names.map { "new.\($0)" }.joined(separator: ", ")
        let old = names.map { "old.\($0)" }.joined(separator: ", ")
        // PostgreSQL's configurations lower-case and keep accents; only `english` stems here. Combining marks are
        // part of a word (Devanagari's vowel signs), not separators, as PostgreSQL's parser reads them.
        let words = "unicode61 remove_diacritics 0 categories ''L* N* Co M*''"
        let tokenizer = language == "english" ? "porter \(words)" : words
        let trigger = { (name: String) in DataConnectStore.quote("\(table.sqlName)__search_\(name)") }
        return [
            "CREATE VIRTUAL TABLE \(index) USING fts5(\(list), content=\(source), content_rowid='rowid', "
                + "tokenize='\(tokenizer)')",
            "CREATE TRIGGER \(trigger("insert")) AFTER INSERT ON \(source) BEGIN "
                + "INSERT INTO \(index)(rowid, \(list)) VALUES (new.rowid, \(new)); END",
            "CREATE TRIGGER \(trigger("delete")) AFTER DELETE ON \(source) BEGIN "
                + "INSERT INTO \(index)(\(index), rowid, \(list)) VALUES ('delete', old.rowid, \(old)); END",
            "CREATE TRIGGER \(trigger("update")) AFTER UPDATE ON \(source) BEGIN "
                + "INSERT INTO \(index)(\(index), rowid, \(list)) VALUES ('delete', old.rowid, \(old)); "
                + "INSERT INTO \(index)(rowid, \(list)) VALUES (new.rowid, \(new)); END",
        ]
    }

    /// A parsed search query.
    indirect enum Query: Equatable, Sendable {
        /// A word, or a prefix of words (`run:*`).
        case term(String, prefix: Bool)
        /// Words at fixed distances from the first (`a <-> b` is `a` at 0, `b` at 1; `"man on fire"` skips `on`).
        case phrase([PhraseWord])
        case and([Query])
        case or([Query])
        case not(Query)
        /// A query without a word to look for (only stop words, or nothing): it matches no row.
        case nothing

        /// The query's words, each once, in order, those it excludes too: what PostgreSQL ranks a row by.
        var operands: [Query] { operands(atMost: .max) }

        /// The first `limit` and one more of ``operands``, so that counting a long query stops early.
        func operands(atMost limit: Int) -> [Query] {
            var seen: [Query] = []
            var known = Set<String>()
            func collect(_ query: Query) {
                guard seen.count <= limit else { return }
                switch query {
                case .term(let word, let prefix):
                    if known.insert((prefix ? "*" : "") + word).inserted { seen.append(query) }
                case .phrase(let words):
                    for word in words { collect(.term(word.word, prefix: word.prefix)) }
                case .and(let parts), .or(let parts):
                    parts.forEach(collect)
                case .not(let inner):
                    collect(inner)
                case .nothing:
                    break
                }
            }
            collect(self)
            return seen
        }

        /// Whether `ts_rank` ranks the query by how near its words are (an AND or a phrase at the top).
        var ranksByCloseness: Bool {
            switch self {
            case .and, .phrase: return true
            default: return false
            }
        }
    }

    /// A word of a phrase and how many positions after the phrase's first word it stands.
    struct PhraseWord: Equatable, Sendable {
        var word: String
        var prefix: Bool
        var offset: Int
    }

    /// The most a query may nest (parentheses and negations), so that no query exhausts the parser.
    static let maximumDepth = 64
    /// The most words a query may look for: each is a lookup in the index, and the statement grows with them.
    static let maximumWords = 256
    /// The longest query read, in bytes.
    static let maximumLength = 16_384

    /// Parses a query in one of the service's formats.
    ///
    /// - Parameters:
    ///   - text: The query.
    ///   - format: `QUERY`, `PLAIN`, `PHRASE` or `ADVANCED`.
    ///   - language: The columns' language; English drops its stop words.
    /// - Returns: The query.
    /// - Throws: ``FieldFailure`` (the field's error as it is) for an `ADVANCED` query that is not a valid `tsquery`, one nested too deeply, or one of
    ///   more than ``maximumWords`` words.
    static func parse(_ text: String, format: String, language: String) throws -> Query {
        guard text.utf8.count <= maximumLength else {
            throw FieldFailure(
                description: "the search query is \(text.utf8.count) bytes long; at most \(maximumLength) are searched")
        }
        let query = try parseUnchecked(text, format: format, language: language)
        guard query.operands(atMost: maximumWords).count <= maximumWords else {
            throw FieldFailure(
                description: "the search query looks for more than \(maximumWords) words; search for fewer")
        }
        return query
    }

    private static func parseUnchecked(_ text: String, format: String, language: String) throws -> Query {
        let stopWords = language == "english" ? englishStopWords : []
        func terms(_ words: [String]) -> [Query] {
            words.filter { !stopWords.contains($0) }.map { .term($0, prefix: false) }
        }
        switch format {
        case "PLAIN":
            return combine(terms(words(text)), and: true)
        case "PHRASE":
            return phrase(words(text), stopWords: stopWords)
        case "ADVANCED":
            var parser = AdvancedParser(text: text, stopWords: stopWords)
            return try parser.parse()
        default:
            return webSearch(text, stopWords: stopWords)
        }
    }

    /// `websearch_to_tsquery`: words are ANDed, `"quoted text"` is a phrase, `or` separates alternatives, and `-`
    /// before a word or a quote excludes it.
    static func webSearch(_ text: String, stopWords: Set<String>) -> Query {
        var alternatives: [[Query]] = [[]]
        var index = text.startIndex
        while index < text.endIndex {
            let character = text[index]
            if character.isWhitespace {
                index = text.index(after: index)
                continue
            }
            var negated = false
            if character == "-" {
                negated = true
                index = text.index(after: index)
                if index == text.endIndex { break }
            }
            var part: Query?
            if text[index] == "\"" {
                let start = text.index(after: index)
                let end = text[start...].firstIndex(of: "\"") ?? text.endIndex
                let inside = phrase(words(String(text[start..<end])), stopWords: stopWords)
                if inside != .nothing { part = inside }
                index = end < text.endIndex ? text.index(after: end) : end
            } else {
                let end = text[index...].firstIndex(where: { $0.isWhitespace || $0 == "\"" }) ?? text.endIndex
                let word = String(text[index..<end])
                index = end
                if !negated, word.lowercased() == "or" {
                    alternatives.append([])
                    continue
                }
                // A word the parser splits (`sci-fi`) is its parts one after another, as PostgreSQL reads it.
                part = phrase(words(word), stopWords: stopWords)
                if part == .nothing { part = nil }
            }
            if let part { alternatives[alternatives.count - 1].append(negated ? .not(part) : part) }
        }
        return combine(alternatives.filter { !$0.isEmpty }.map { combine($0, and: true) }, and: false)
    }

    /// `to_tsquery`: `&`, `|`, `!`, `<->` (followed by), `<N>`, parentheses, `'quoted'` text and `:*` prefixes.
    struct AdvancedParser {
        let characters: [Character]
        let stopWords: Set<String>
        var position = 0
        var depth = 0

        init(text: String, stopWords: Set<String>) {
            characters = Array(text)
            self.stopWords = stopWords
        }

        mutating func parse() throws -> Query {
            skipSpace()
            if position == characters.count { return .nothing }
            let query = try alternatives()
            skipSpace()
            if position < characters.count { throw syntaxError() }
            return query
        }

        private func syntaxError() -> FieldFailure {
            FieldFailure(
                description: "syntax error in tsquery at character \(position + 1): ADVANCED takes words joined by "
                    + "& (and), | (or), ! (not), <-> (followed by) and parentheses, such as 'fat & (rat | cat)'")
        }

        private mutating func skipSpace() {
            while position < characters.count, characters[position].isWhitespace { position += 1 }
        }

        /// Operands joined by `|`, each of operands joined by `&` (which binds tighter, as in PostgreSQL).
        private mutating func alternatives() throws -> Query {
            try joined(by: "|") { parser in try parser.joined(by: "&") { try $0.sequence() } }
        }

        /// One or more operands read by `operand`, separated by `symbol`: ANDed for `&`, else ORed.
        private mutating func joined(by symbol: Character, _ operand: (inout Self) throws -> Query) throws -> Query {
            var parts = [try operand(&self)]
            while true {
                skipSpace()
                guard position < characters.count, characters[position] == symbol else { break }
                position += 1
                parts.append(try operand(&self))
            }
            return FullTextSearch.combine(parts, and: symbol == "&")
        }

        /// Operands joined by `<->` or `<N>`: one phrase when each is a word or a phrase, else all of them (FTS5
        /// has no way to say how far apart two alternatives must be).
        private mutating func sequence() throws -> Query {
            var parts = [try unary()]
            var distances: [Int] = []
            while true {
                skipSpace()
                guard position < characters.count, characters[position] == "<" else { break }
                guard let close = characters[position...].firstIndex(of: ">") else { throw syntaxError() }
                let inside = String(characters[(position + 1)..<close])
                guard let distance = inside == "-" ? 1 : Int(inside), (0...16_384).contains(distance) else {
                    throw syntaxError()
                }
                distances.append(distance)
                position = close + 1
                parts.append(try unary())
            }
            if parts.count == 1 { return parts[0] }
            var words: [PhraseWord] = []
            var next = 0
            for (index, part) in parts.enumerated() {
                let start = index == 0 ? 0 : next + distances[index - 1]
                switch part {
                case .term(let word, let prefix):
                    words.append(PhraseWord(word: word, prefix: prefix, offset: start))
                    next = start
                case .phrase(let phrase):
                    words += phrase.map { PhraseWord(word: $0.word, prefix: $0.prefix, offset: start + $0.offset) }
                    next = start + (phrase.last?.offset ?? 0)
                case .nothing:
                    // A stop word: PostgreSQL drops it and keeps the distance to the next word.
                    next = start
                default:
                    return FullTextSearch.combine(parts, and: true)
                }
            }
            return FullTextSearch.positioned(words)
        }

        private mutating func unary() throws -> Query {
            skipSpace()
            guard position < characters.count else { throw syntaxError() }
            depth += 1
            defer { depth -= 1 }
            guard depth <= FullTextSearch.maximumDepth else {
                throw FieldFailure(description: "the search query nests more than \(FullTextSearch.maximumDepth) deep")
            }
            switch characters[position] {
            case "!":
                position += 1
                let inner = try unary()
                return inner == .nothing ? .nothing : .not(inner)
            case "(":
                position += 1
                let inner = try alternatives()
                skipSpace()
                guard position < characters.count, characters[position] == ")" else { throw syntaxError() }
                position += 1
                return inner
            case "'":
                let start = position + 1
                guard let end = characters[start...].firstIndex(of: "'") else { throw syntaxError() }
                position = end + 1
                let prefix = readWeights()
                return operand(FullTextSearch.words(String(characters[start..<end])), prefix: prefix)
            default:
                let start = position
                while position < characters.count,
                    !characters[position].isWhitespace, !"&|!()<:'".contains(characters[position])
                {
                    position += 1
                }
                guard position > start else { throw syntaxError() }
                let prefix = readWeights()
                return operand(FullTextSearch.words(String(characters[start..<position])), prefix: prefix)
            }
        }

        /// Skips `:*`, `:A`, `:AB*` after an operand; whether it asked for a prefix.
        private mutating func readWeights() -> Bool {
            guard position < characters.count, characters[position] == ":" else { return false }
            position += 1
            var prefix = false
            while position < characters.count, "*ABCDabcd".contains(characters[position]) {
                if characters[position] == "*" { prefix = true }
                position += 1
            }
            return prefix
        }

        private func operand(_ words: [String], prefix: Bool) -> Query {
            if words.count == 1 {
                return stopWords.contains(words[0]) ? .nothing : .term(words[0], prefix: prefix)
            }
            return FullTextSearch.phrase(words, stopWords: stopWords)
        }
    }

    /// The words of a text as the index splits it: runs of letters and digits, lower-cased.
    static func words(_ text: String) -> [String] {
        text.lowercased().split { !($0.isLetter || $0.isNumber) }.map(String.init)
    }

    /// Words in a row, as `phraseto_tsquery` reads them: stop words dropped, their places kept.
    static func phrase(_ words: [String], stopWords: Set<String>) -> Query {
        positioned(
            words.enumerated().compactMap { index, word in
                stopWords.contains(word) ? nil : PhraseWord(word: word, prefix: false, offset: index)
            })
    }

    /// Positioned words as a query: nothing, one word, or a phrase counted from its first word.
    static func positioned(_ words: [PhraseWord]) -> Query {
        guard let first = words.first else { return .nothing }
        if words.count == 1 { return .term(first.word, prefix: first.prefix) }
        return .phrase(words.map { PhraseWord(word: $0.word, prefix: $0.prefix, offset: $0.offset - first.offset) })
    }

    /// Joins parts with AND or OR; an AND with a part that matches nothing keeps the others, as PostgreSQL drops
    /// stop words from a query instead of failing it.
    static func combine(_ parts: [Query], and: Bool) -> Query {
        let kept = parts.filter { $0 != .nothing }
        if kept.isEmpty { return .nothing }
        if kept.count == 1 { return kept[0] }
        return and ? .and(kept) : .or(kept)
    }

    /// A word as an FTS5 query string: quoted, so FTS5 reads no operator in it.
    static func expression(_ word: String, prefix: Bool) -> String {
        "\"" + word.replacingOccurrences(of: "\"", with: "\"\"") + "\"" + (prefix ? " *" : "")
    }

    /// A word or every word of a phrase, for FTS5's MATCH.
    static func expression(_ query: Query) -> String {
        switch query {
        case .term(let word, let prefix): return expression(word, prefix: prefix)
        case .phrase(let words): return words.map { expression($0.word, prefix: $0.prefix) }.joined(separator: " AND ")
        default: return ""
        }
    }

    /// The condition that a row on `alias` matches the query.
    static func condition(_ query: Query, table: DataConnectSchema.Table, alias: String) -> SQLFragment {
        let index = DataConnectStore.quote(indexName(table))
        switch query {
        case .term:
            return SQLFragment(
                text: "\(alias).rowid IN (SELECT rowid FROM \(index) WHERE \(index) MATCH ?)",
                arguments: [expression(query).databaseValue])
        case .phrase(let words):
            // FTS5 finds the rows with every word; where the words stand decides.
            return SQLFragment(
                text: "\(alias).rowid IN (SELECT rowid FROM \(index) WHERE \(index) MATCH ? AND "
                    + "content_ts_phrase(\(index), ?))",
                arguments: [
                    expression(query).databaseValue,
                    words.map { "\($0.offset)" }.joined(separator: ",").databaseValue,
                ])
        case .and(let parts):
            return .joined(parts.map { condition($0, table: table, alias: alias) }, by: "AND")
        case .or(let parts):
            return .joined(parts.map { condition($0, table: table, alias: alias) }, by: "OR")
        case .not(let inner):
            let matched = condition(inner, table: table, alias: alias)
            return SQLFragment(text: "NOT (\(matched.text))", arguments: matched.arguments)
        case .nothing:
            return .never
        }
    }

    /// The relevance of a row on `alias`: PostgreSQL's `ts_rank` (``TextSearchRank``), over every word of the
    /// query; 0 for a row none of them is in.
    static func relevance(_ query: Query, table: DataConnectSchema.Table, alias: String) -> SQLFragment {
        let operands = query.operands
        guard !operands.isEmpty else { return SQLFragment(text: "0.0") }
        let index = DataConnectStore.quote(indexName(table))
        let mode = query.ranksByCloseness ? "and" : "or"
        return SQLFragment(
            text: "coalesce((SELECT content_ts_rank(\(index), '\(mode)') FROM \(index) WHERE \(index) MATCH ? AND "
                + "rowid = \(alias).rowid), 0.0)",
            arguments: [operands.map(expression).joined(separator: " OR ").databaseValue])
    }

    /// PostgreSQL's own full-text search, for the PostgreSQL engine: a `tsvector` of the `@searchable` columns in
    /// declaration order, matched (`@@`) against the query as the format's function reads it, ranked by `ts_rank`.
    struct Native: Sendable {
        let vector: @Sendable (String) -> String
        let query: String
        let text: String

        init(_ text: String, format: String, language: String, table: DataConnectSchema.Table) {
            let functions = [
                "QUERY": "websearch_to_tsquery", "PLAIN": "plainto_tsquery", "PHRASE": "phraseto_tsquery",
                "ADVANCED": "to_tsquery",
            ]
            let configuration = "'" + language.replacingOccurrences(of: "'", with: "''") + "'::regconfig"
            let columns = table.searchableColumns
            vector = { alias in
                let document = columns.map { "coalesce(\(RowQuery.column(alias, $0)), '')" }.joined(
                    separator: " || ' ' || ")
                return "to_tsvector(\(configuration), \(document))"
            }
            query = "\(functions[format] ?? "websearch_to_tsquery")(\(configuration), ?::text)"
            self.text = text
        }

        func condition(_ alias: String) -> SQLFragment {
            SQLFragment(text: "\(vector(alias)) @@ \(query)", arguments: [text.databaseValue])
        }

        func relevance(_ alias: String) -> SQLFragment {
            SQLFragment(text: "ts_rank(\(vector(alias)), \(query))", arguments: [text.databaseValue])
        }
    }

    /// PostgreSQL's English stop words (`english.stop`, Snowball's list), which its `english` configuration
    /// leaves out of documents and queries.
    static let englishStopWords: Set<String> = [
        "i", "me", "my", "myself", "we", "our", "ours", "ourselves", "you", "your", "yours", "yourself",
        "yourselves", "he", "him", "his", "himself", "she", "her", "hers", "herself", "it", "its", "itself", "they",
        "them", "their", "theirs", "themselves", "what", "which", "who", "whom", "this", "that", "these", "those",
        "am", "is", "are", "was", "were", "be", "been", "being", "have", "has", "had", "having", "do", "does", "did",
        "doing", "a", "an", "the", "and", "but", "if", "or", "because", "as", "until", "while", "of", "at", "by",
        "for", "with", "about", "against", "between", "into", "through", "during", "before", "after", "above",
        "below", "to", "from", "up", "down", "in", "out", "on", "off", "over", "under", "again", "further", "then",
        "once", "here", "there", "when", "where", "why", "how", "all", "any", "both", "each", "few", "more", "most",
        "other", "some", "such", "no", "nor", "not", "only", "own", "same", "so", "than", "too", "very", "s", "t",
        "can", "will", "just", "don", "should", "now",
    ]
}
