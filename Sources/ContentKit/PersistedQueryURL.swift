public import ContentCore
public import ContentJSON

/// Builds `…/graphql/execute.json/{config}/{name}` URLs the way Adobe's JS client does.
///
/// With variables, the whole `;k1=v1;k2=v2` string is percent-encoded as JavaScript's
/// `encodeURIComponent` encodes, then one raw `;` is appended. Strings go as they are, other values as
/// compact JSON. A value holding `;` or `=` cannot be told from a separator, so it is refused; POST
/// carries such values instead.
public enum PersistedQueryURL {
    /// The URL for a persisted query.
    ///
    /// - Parameters:
    ///   - base: Scheme, host and port, without a trailing slash.
    ///   - configuration: The persisted-query configuration.
    ///   - name: The query's name.
    ///   - variables: The variables, in order.
    /// - Returns: The URL.
    /// - Throws: ``UnencodableVariable`` for a name or value holding `;` or `=`.
    public static func make(
        base: String, configuration: String, name: String, variables: JSONObject
    ) throws(UnencodableVariable)
        -> String
    {
        let path = "\(base)/graphql/execute.json/\(encodeSegment(configuration))/\(encodeSegment(name))"
        guard !variables.members.isEmpty else { return path }
        var joined = ""
        for member in variables.members {
            let text: String
            if case .string(let string) = member.value { text = string } else { text = member.value.jsonText }
            if text.contains(";") || text.contains("=") || member.key.contains(";") || member.key.contains("=") {
                throw UnencodableVariable(name: member.key)
            }
            joined += ";\(member.key)=\(text)"
        }
        return path + encodeURIComponent(joined) + ";"
    }

    /// JavaScript's `encodeURIComponent`: everything but `A-Z a-z 0-9 - _ . ! ~ * ' ( )` as UTF-8 `%XX`.
    ///
    /// - Parameter text: The text.
    /// - Returns: The encoded text.
    public static func encodeURIComponent(_ text: String) -> String {
        var result = ""
        for byte in text.utf8 {
            let character = Character(Unicode.Scalar(byte))
            if byte < 0x80, character.isLetter || character.isNumber || "-_.!~*'()".contains(character) {
                result.append(character)
            } else {
                result +=
                    "%" + String(byte >> 4, radix: 16, uppercase: true)
                    + String(byte & 0x0F, radix: 16, uppercase: true)
            }
        }
        return result
    }

    private static func encodeSegment(_ segment: String) -> String {
        encodeURIComponent(segment)
    }

    /// A variable a GET URL cannot carry: its name or value holds `;` or `=`.
    public struct UnencodableVariable: ContentFailure, Equatable {
        /// The variable's name.
        public let name: String

        /// A usage mistake: the same query can be sent with POST.
        public var category: FailureCategory { .usage }

        /// What failed.
        public var description: String {
            "the value of \(name) holds ';' or '=', which AEM cannot tell from a separator in a GET URL"
        }
    }
}
