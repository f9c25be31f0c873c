internal import Foundation

/// The names Data Connect derives from a type name: `MovieActor` → table `movie_actor`, query field
/// `movieActor`, list field `movieActors`.
package enum DataConnectNaming {
    /// `imageUrl` → `image_url`, `MovieMetadata` → `movie_metadata`.
    package static func snakeCase(_ name: String) -> String {
        var result = ""
        let characters = Array(name)
        for (index, character) in characters.enumerated() {
            if character.isUppercase {
                let previous = index > 0 ? characters[index - 1] : nil
                let next = index + 1 < characters.count ? characters[index + 1] : nil
                // A boundary before an upper-case letter that follows a lower-case letter or digit, or that
                // ends an acronym (`URLPath` → `url_path`).
                if let previous, previous != "_",
                    previous.isLowercase || previous.isNumber || (previous.isUppercase && next?.isLowercase == true)
                {
                    result.append("_")
                }
                result.append(contentsOf: character.lowercased())
            } else {
                result.append(character)
            }
        }
        return result
    }

    /// The singular field name of a type: its first character lowered and nothing else, as the service names
    /// them (`MovieActor` → `movieActor`, `UUIDVariants` → `uUIDVariants`, as operations written against
    /// Firebase call it).
    package static func singular(_ typeName: String) -> String {
        guard let first = typeName.first else { return typeName }
        return first.lowercased() + typeName.dropFirst()
    }

    /// The plural field name of a singular one.
    ///
    /// Data Connect does not document its rule beyond "English plural pattern". The names it generates and
    /// the names operations written against it use (`people`, `directedBies`, `manyToManySelfChildren`,
    /// `manyToManyChildBS` for `ManyToManyChildB`, `zwda6x9zyys` for `Zwda6x9zyy`, `movieMetadatas` for
    /// `MovieMetadata`) are exactly those of the Go inflection rules most Go code uses (jinzhu/inflection: an
    /// upper-case last letter takes an upper-case `S`, a `y` after a vowel or another `y` takes `s`), with one
    /// addition: a plural equal to its singular (`metadata`, `series`) takes an `s`, so that the list field
    /// never collides with the single-row one.
    package static func plural(_ singular: String) -> String {
        let inflected = inflect(singular)
        return inflected == singular ? singular + "s" : inflected
    }

    /// The first inflection rule that matches, applied: uncountable words, irregular words, then the suffix rules
    /// from the most specific to the most general, each tried upper-cased, as written, and ignoring case.
    static func inflect(_ word: String) -> String {
        InflectionRules.shared.withCompiled { rules in inflect(word, rules: rules) }
    }

    private static func inflect(_ word: String, rules: [(Regex<AnyRegexOutput>, String)]) -> String {
        for (pattern, replacement) in rules {
            guard let match = word.firstMatch(of: pattern) else { continue }
            var replaced = ""
            var rest = Substring(replacement)
            // `${n}` is the n-th group, empty when it did not take part.
            while let open = rest.firstRange(of: "${") {
                replaced += rest[..<open.lowerBound]
                let afterOpen = rest[open.upperBound...]
                guard let close = afterOpen.firstIndex(of: "}"), let group = Int(afterOpen[..<close]) else {
                    replaced += "${"
                    rest = afterOpen
                    continue
                }
                if group < match.output.count, let text = match.output[group].substring { replaced += text }
                rest = afterOpen[afterOpen.index(after: close)...]
            }
            replaced += rest
            return String(word[..<match.range.lowerBound]) + replaced + word[match.range.upperBound...]
        }
        return word
    }

    /// The rules in the order they are tried, as text.
    static let inflectionRules: [(String, String)] = {
        let uncountable = [
            "equipment", "information", "rice", "money", "species", "series", "fish", "sheep", "jeans", "police",
        ]
        let irregular = [
            ("person", "people"), ("man", "men"), ("child", "children"), ("sex", "sexes"), ("move", "moves"),
            ("mombie", "mombies"),
        ]
        let suffixes = [
            ("([a-z])$", "${1}s"), ("s$", "s"), ("^(ax|test)is$", "${1}es"), ("(octop|vir)us$", "${1}i"),
            ("(octop|vir)i$", "${1}i"), ("(alias|status)$", "${1}es"), ("(bu)s$", "${1}ses"),
            ("(buffal|tomat)o$", "${1}oes"), ("([ti])um$", "${1}a"), ("([ti])a$", "${1}a"), ("sis$", "ses"),
            ("(?:([^f])fe|([lr])f)$", "${1}${2}ves"), ("(hive)$", "${1}s"), ("([^aeiouy]|qu)y$", "${1}ies"),
            ("(x|ch|ss|sh)$", "${1}es"), ("(matr|vert|ind)(?:ix|ex)$", "${1}ices"), ("^(m|l)ouse$", "${1}ice"),
            ("^(m|l)ice$", "${1}ice"), ("^(ox)$", "${1}en"), ("^(oxen)$", "${1}"), ("(quiz)$", "${1}zes"),
        ]
        var rules = uncountable.map { ("^(?i)(\($0))$", "${1}") }
        for (single, plural) in irregular {
            rules.append((single.uppercased() + "$", plural.uppercased()))
            rules.append(
                (
                    single.prefix(1).uppercased() + single.dropFirst() + "$",
                    plural.prefix(1).uppercased() + plural.dropFirst()
                ))
            rules.append((single + "$", plural))
        }
        for (find, replacement) in suffixes.reversed() {
            rules.append((find.uppercased(), replacement.uppercased()))
            rules.append((find, replacement))
            rules.append(("(?i)" + find, replacement))
        }
        return rules
    }()
}

/// The inflection rules, compiled once.
///
/// A `Regex` is not `Sendable`, so the compiled rules stay behind a lock and are only used while it is held; names
/// are inflected when a schema loads, never on a hot path.
private final class InflectionRules: @unchecked Sendable {
    static let shared = InflectionRules()

    private let lock = NSLock()
    private var compiled: [(Regex<AnyRegexOutput>, String)]?

    func withCompiled<T>(_ body: ([(Regex<AnyRegexOutput>, String)]) -> T) -> T {
        lock.lock()
        defer { lock.unlock() }
        let rules =
            compiled
            ?? DataConnectNaming.inflectionRules.compactMap { find, replacement in
                (try? Regex(find)).map { ($0, replacement) }
            }
        compiled = rules
        return body(rules)
    }
}

extension DataConnectNaming {
    /// The languages `@searchable(language:)` takes: PostgreSQL's built-in text-search configurations.
    package static let textSearchLanguages: Set<String> = [
        "simple", "arabic", "armenian", "basque", "catalan", "danish", "dutch", "english", "finnish", "french",
        "german", "greek", "hindi", "hungarian", "indonesian", "irish", "italian", "lithuanian", "nepali",
        "norwegian", "portuguese", "romanian", "russian", "serbian", "spanish", "swedish", "tamil", "turkish",
        "yiddish",
    ]
}
