public import ContentCore

/// A word single-quoted for a POSIX shell, for the curl commands `--dry-run` prints.
///
/// - Parameter word: Any text.
/// - Returns: The text in single quotes, each `'` inside written as `'\''`.
public func shellQuoted(_ word: String) -> String {
    "'" + word.replacing("'", with: "'\\''") + "'"
}

/// The start of every curl command `--dry-run` prints: `curl -sS`, and `--compressed` when the request does not set
/// its own `Accept-Encoding`, since the transport then asks for gzip or deflate and decodes the answer as curl does
/// with that flag.
///
/// - Parameter headers: The request's header fields.
/// - Returns: The words.
public func dryRunCurlPrefix(headers: HeaderFields) -> [String] {
    headers["Accept-Encoding"] == nil ? ["curl", "-sS", "--compressed"] : ["curl", "-sS"]
}

/// A URL as a shell word for the curl commands `--dry-run` prints, holding no secret: a password in the user info
/// becomes `$URL_PASSWORD` (a lone user, which may itself be a token, `$URL_USER`), credential-named query
/// parameters are masked, and `$VARIABLE` placeholders already in the URL are left for the shell to expand.
///
/// - Parameters:
///   - url: The URL a request goes to.
///   - redactor: The backend's known secrets, masked wherever else they appear.
/// - Returns: Single-quoted segments around double-quoted variables: `'http://admin:'"$URL_PASSWORD"'@host/'`.
public func dryRunURL(_ url: String, redactor: Redactor = Redactor()) -> String {
    var segments: [(text: String, isVariable: Bool)] = []
    var rest = Substring(url)
    if let schemeEnd = rest.firstRange(of: "://") {
        let authorityEnd = rest[schemeEnd.upperBound...].firstIndex { "/?#".contains($0) } ?? rest.endIndex
        if let at = rest[schemeEnd.upperBound..<authorityEnd].lastIndex(of: "@") {
            let userInfo = rest[schemeEnd.upperBound..<at]
            if let colon = userInfo.firstIndex(of: ":") {
                segments.append((String(rest[...colon]), false))
                segments.append(("URL_PASSWORD", true))
            } else {
                segments.append((String(rest[..<schemeEnd.upperBound]), false))
                segments.append(("URL_USER", true))
            }
            rest = rest[at...]
        }
    }
    // Only the query and fragment are left to mask; a `$NAME` placeholder a backend put there stays a variable.
    let masked = Redactor().redact(url: String(rest), keepingPlaceholders: true)
    var text = Substring(masked)
    while let dollar = text.firstIndex(of: "$") {
        let name = text[text.index(after: dollar)...].prefix { $0.isLetter || $0.isNumber || $0 == "_" }
        guard let first = name.first, first.isUppercase else {
            segments.append((String(text[...dollar]), false))
            text = text[text.index(after: dollar)...]
            continue
        }
        segments.append((String(text[..<dollar]), false))
        segments.append((String(name), true))
        text = text[name.endIndex...]
    }
    segments.append((String(text), false))
    return segments.filter { $0.isVariable || !$0.text.isEmpty }
        .map { $0.isVariable ? "\"$\($0.text)\"" : shellQuoted(redactor.redact($0.text)) }
        .joined()
}
