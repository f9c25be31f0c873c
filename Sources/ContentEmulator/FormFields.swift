internal import Foundation

/// `application/x-www-form-urlencoded` text as name–value pairs, as the token endpoints and adapters read it.
public enum FormFields {
    /// Decodes form text: `+` is a space, `%XX` a byte; a pair without `=` has an empty value.
    ///
    /// - Parameter text: The form text.
    /// - Returns: The pairs, in order.
    public static func decode(_ text: String) -> [(name: String, value: String)] {
        text.split(separator: "&").map { pair in
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            func decode(_ part: Substring) -> String {
                part.replacingOccurrences(of: "+", with: " ").removingPercentEncoding ?? String(part)
            }
            return (decode(parts[0]), parts.count > 1 ? decode(parts[1]) : "")
        }
    }
}
