/// Builds Swift source text line by line with indentation, so every generator writes the same layout.
struct SwiftSourceWriter {
    private(set) var text = ""
    private var depth = 0

    /// Writes one line at the current indentation; an empty line stays empty.
    mutating func line(_ content: String = "") {
        text += content.isEmpty ? "\n" : String(repeating: "    ", count: depth) + content + "\n"
    }

    /// Writes `opening {`, the body one level in, then `}`.
    mutating func block(_ opening: String, _ body: (inout SwiftSourceWriter) -> Void) {
        line(opening + " {")
        depth += 1
        body(&self)
        depth -= 1
        line("}")
    }

    /// Writes a `///` doc comment, one line per line of `text`.
    mutating func documentation(_ text: String) {
        // Any line break ends a `///` line, so CRLF or CR input must not leave one inside.
        for part in text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline) {
            line(part.isEmpty ? "///" : "/// " + part)
        }
    }
}

/// Spelling GraphQL names as Swift names.
enum SwiftName {
    private static let keywords: Set<String> = [
        "associatedtype", "class", "deinit", "enum", "extension", "fileprivate", "func", "import", "init", "inout",
        "internal", "let", "open", "operator", "private", "precedencegroup", "protocol", "public", "rethrows",
        "static", "struct", "subscript", "typealias", "var", "break", "case", "catch", "continue", "default",
        "defer", "do", "else", "fallthrough", "for", "guard", "if", "in", "repeat", "return", "throw", "switch",
        "where", "while", "Any", "as", "await", "false", "is", "nil", "self", "Self", "super", "throws", "true",
        "try", "Type", "Protocol",
    ]

    /// Type names a generated struct must not take: Swift's own, and those generated code refers to, which a
    /// nested struct of the same name would shadow (a field `string` selecting an object would hide `String`).
    private static let reservedTypes: Set<String> = [
        "Type", "Protocol", "Self", "Any", "String", "Int", "Int64", "Double", "Bool", "UUID", "Date", "Data",
        "LocalDate", "Timestamp", "AnyValue", "DataConnectWire", "ContentClient", "CodingKeys", "Decoder",
        "Encoder", "Optional", "Array", "Sendable", "Hashable", "Codable", "Decodable", "Encodable",
        "Identifiable", "Variables", "Ref", "DataConnect", "AEM", "ConnectorConfig", "OperationResult", "DataSource",
        "QueryFetchPolicy", "QueryRef", "QueryRefObservableObject", "MutationRef", "NoVariables", "MainActor",
    ]

    /// A property or case name: the GraphQL name itself, in backticks when it is a keyword.
    static func member(_ name: String) -> String {
        keywords.contains(name) ? "`\(name)`" : name
    }

    /// An argument label in a call: only `inout`, `var` and `let` need backticks there.
    static func label(_ name: String) -> String {
        ["inout", "var", "let"].contains(name) ? "`\(name)`" : name
    }

    /// A type name: the first letter upper-cased; names Swift reserves get a trailing underscore.
    ///
    /// Leading underscores go (`_metadata` → `Metadata`): upper-casing would leave `_metadata` as it is, and a
    /// nested type named like the property that holds it is ambiguous to Swift.
    static func type(_ name: String) -> String {
        let trimmed = name.drop { $0 == "_" }
        let upper: String
        if trimmed.count == name.count {
            upper = upperFirst(name)
        } else if trimmed.first?.isLetter == true {
            upper = upperFirst(String(trimmed))
        } else {
            upper = name + "Type"
        }
        return reservedTypes.contains(upper) ? upper + "_" : upper
    }

    /// The name with its first letter upper-cased, nothing else changed.
    static func upperFirst(_ name: String) -> String {
        (name.first.map { String($0).uppercased() } ?? "") + name.dropFirst()
    }

    /// An upper-camel-case type name from an id such as `friendly-flix` (`FriendlyFlix`).
    static func words(_ id: String) -> String {
        let parts = id.split { !($0.isLetter || $0.isNumber) }
        let joined = parts.map { $0.prefix(1).uppercased() + $0.dropFirst() }.joined()
        return joined.first.map { $0.isLetter } ?? false ? joined : "_" + joined
    }

    /// The name with its first letter lower-cased, nothing else changed: `InsertMultiplePeople` →
    /// `insertMultiplePeople`, as Firebase's generator names the property of an operation.
    static func lowerFirst(_ name: String) -> String {
        (name.first.map { String($0).lowercased() } ?? "") + name.dropFirst()
    }

    /// A lower-camel-case member name from a file name such as `adventure-by-slug` (`adventureBySlug`).
    static func lowerWords(_ id: String) -> String {
        let upper = words(id)
        let lowered = upper.hasPrefix("_") ? upper : upper.prefix(1).lowercased() + upper.dropFirst()
        return lowered
    }

    /// Members every generated enum already has (from `RawRepresentable`, `CaseIterable` and `Hashable`), and
    /// `self`, which a case would make ambiguous with the metatype.
    private static let enumMembers: Set<String> = ["allCases", "rawValue", "hashValue", "hash", "init", "self"]

    /// Lower-camel-case names for an enum's values such as `SCI_FI` (`sciFi`), one per value and all distinct:
    /// values that spell the same (`A_B`, `a_b`) or take a member the enum already has get underscores.
    static func enumCases(_ values: [String]) -> [String] {
        var taken = enumMembers
        return values.map { value in
            let parts = value.split(separator: "_").map { $0.lowercased() }
            var name =
                parts.first.map { first in
                    first + parts.dropFirst().map { $0.prefix(1).uppercased() + $0.dropFirst() }.joined()
                } ?? "_"
            if !(name.first.map { $0.isLetter || $0 == "_" } ?? false) || name == "_" { name = "_" + name }
            while taken.contains(name) { name += "_" }
            taken.insert(name)
            return member(name)
        }
    }

    /// A Swift string literal for any text.
    static func literal(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            default:
                if scalar.value < 0x20 || scalar.value == 0x7F {
                    out += "\\u{\(String(scalar.value, radix: 16))}"
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        return out + "\""
    }
}
