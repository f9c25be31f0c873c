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

    /// `MovieActor` → `movieActor`; a leading acronym is lowered as a whole (`URLLink` → `urlLink`).
    package static func lowerCamelCase(_ name: String) -> String {
        let characters = Array(name)
        var upperRun = 0
        while upperRun < characters.count, characters[upperRun].isUppercase { upperRun += 1 }
        if upperRun == 0 { return name }
        // In `URLLink` the last capital of the run starts the next word.
        let lowered = upperRun > 1 && upperRun < characters.count ? upperRun - 1 : upperRun
        return String(characters[..<lowered]).lowercased() + String(characters[lowered...])
    }

    /// English plural of the last word: `movie` → `movies`, `category` → `categories`, `box` → `boxes`.
    package static func plural(_ word: String) -> String {
        let lower = word.lowercased()
        for (singular, plural) in irregular where lower.hasSuffix(singular) {
            let stem = word.dropLast(singular.count)
            let suffixStartsUpper = word.dropFirst(stem.count).first?.isUppercase == true
            let replacement = suffixStartsUpper ? plural.prefix(1).uppercased() + plural.dropFirst() : plural
            return stem + replacement
        }
        if lower.hasSuffix("s") || lower.hasSuffix("x") || lower.hasSuffix("z") || lower.hasSuffix("ch")
            || lower.hasSuffix("sh")
        {
            return word + "es"
        }
        if lower.hasSuffix("y"), let before = lower.dropLast().last, !"aeiou".contains(before) {
            return word.dropLast() + "ies"
        }
        return word + "s"
    }

    private static let irregular: [(String, String)] = [("person", "people"), ("child", "children")]
}
