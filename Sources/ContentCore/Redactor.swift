/// Removes credentials from text that is about to be shown: logs, errors, `--dry-run` output.
///
/// Three layers, so that a secret is hidden however it travels:
/// - header values under credential-bearing names (`Authorization`, `Cookie`, `X-Api-Key`, …) are
///   masked, keeping an auth scheme such as `Bearer` visible;
/// - URL passwords and query parameters with credential names (`key`, `token`, `access_token`, …)
///   are masked;
/// - every known secret value (from configuration) is masked wherever it appears.
public struct Redactor: Sendable, Hashable {
    /// What stands in for a secret.
    public static let mask = "<redacted>"

    /// Header names whose values are credentials, lower-cased.
    public static let sensitiveHeaderNames: Set<String> = [
        "authorization", "proxy-authorization", "cookie", "set-cookie", "x-api-key", "api-key", "x-auth-token",
        "x-firebase-auth-token", "x-firebase-appcheck", "x-goog-api-key", "x-csrf-token",
    ]

    /// Query parameter names whose values are credentials, lower-cased.
    public static let sensitiveQueryNames: Set<String> = [
        "key", "api_key", "apikey", "api-key", "access_token", "id_token", "refresh_token", "token", "password",
        "passwd", "secret", "client_secret", "signature", "sig", "code", "auth",
    ]

    /// Secret values to mask wherever they appear, longest first so that overlapping secrets mask fully.
    public private(set) var secrets: [String]

    /// Creates a redactor.
    ///
    /// - Parameter secrets: Values to mask wherever they appear. Values shorter than 4 characters are
    ///   ignored: masking every `a` would destroy the text and reveal more than it hides.
    public init(secrets: some Sequence<String> = []) {
        self.secrets = Array(Set(secrets.filter { $0.count >= 4 })).sorted { ($0.count, $0) > ($1.count, $1) }
    }

    /// A redactor that also masks `more`.
    ///
    /// - Parameter more: Additional secret values.
    /// - Returns: The combined redactor.
    public func adding(_ more: some Sequence<String>) -> Redactor {
        Redactor(secrets: secrets + Array(more))
    }

    /// Whether a header's value is a credential.
    ///
    /// - Parameter name: The header name, in any case.
    /// - Returns: Whether to mask its value.
    public static func isSensitiveHeader(_ name: String) -> Bool {
        sensitiveHeaderNames.contains(name.lowercased())
    }

    /// Masks every known secret in free text.
    ///
    /// - Parameter text: Text that may hold a secret.
    /// - Returns: The text with secrets masked.
    public func redact(_ text: String) -> String {
        var result = text
        for secret in secrets where result.contains(secret) {
            result = result.replacing(secret, with: Self.mask)
        }
        return result
    }

    /// Masks a header value when the header carries credentials, keeping the auth scheme.
    ///
    /// - Parameters:
    ///   - name: The header name.
    ///   - value: The header value.
    /// - Returns: The value safe to show.
    public func redactHeader(name: String, value: String) -> String {
        guard Self.isSensitiveHeader(name) else { return redact(value) }
        if let space = value.firstIndex(of: " ") {
            let scheme = value[..<space]
            if ["bearer", "basic", "token", "digest", "negotiate"].contains(scheme.lowercased()) {
                return "\(scheme) \(Self.mask)"
            }
        }
        return Self.mask
    }

    /// Masks the password in a URL's user info and credential-named query parameters.
    ///
    /// The URL is treated as text so that even a malformed one is redacted rather than passed through.
    ///
    /// - Parameters:
    ///   - url: A URL.
    ///   - keepingPlaceholders: Leave a value that is a shell variable (`key=$FIREBASE_API_KEY`) as it is, for the
    ///     commands `--dry-run` prints.
    /// - Returns: The URL safe to show.
    public func redact(url: String, keepingPlaceholders: Bool = false) -> String {
        var result = url
        if let schemeEnd = result.firstRange(of: "://") {
            let authorityEnd = result[schemeEnd.upperBound...].firstIndex { "/?#".contains($0) } ?? result.endIndex
            let authority = result[schemeEnd.upperBound..<authorityEnd]
            if let at = authority.lastIndex(of: "@") {
                let userInfo = authority[..<at]
                // A user with a password keeps the user; a lone user may itself be a token.
                let parts = userInfo.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false)
                let shown = parts.count == 2 ? "\(parts[0]):\(Self.mask)" : Self.mask
                result.replaceSubrange(userInfo.startIndex..<at, with: shown)
            }
        }
        // The query and an OAuth-style fragment (`#access_token=…`) both carry name=value pairs.
        if let query = result.firstIndex(of: "?") {
            let end = result[query...].firstIndex(of: "#") ?? result.endIndex
            result.replaceSubrange(
                result.index(after: query)..<end,
                with: Self.maskPairs(result[result.index(after: query)..<end], keepingPlaceholders: keepingPlaceholders)
            )
        }
        if let fragment = result.firstIndex(of: "#") {
            let start = result.index(after: fragment)
            result.replaceSubrange(
                start..., with: Self.maskPairs(result[start...], keepingPlaceholders: keepingPlaceholders))
        }
        return redact(result)
    }
}

extension Redactor {
    /// `a=1&token=x` with credential-named values masked.
    fileprivate static func maskPairs(_ pairs: Substring, keepingPlaceholders: Bool) -> String {
        pairs.split(separator: "&", omittingEmptySubsequences: false).map { pair -> String in
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let name = (parts.first.map(String.init) ?? "").removingPercentEncodingLossy().lowercased()
            guard parts.count == 2, sensitiveQueryNames.contains(name) else { return String(pair) }
            if keepingPlaceholders, parts[1].hasPrefix("$") { return String(pair) }
            return "\(parts[0])=\(mask)"
        }.joined(separator: "&")
    }
}

extension String {
    /// Decodes `%XX` escapes, leaving malformed ones as they are; enough to compare parameter names.
    fileprivate func removingPercentEncodingLossy() -> String {
        var bytes: [UInt8] = []
        var utf8 = Array(self.utf8)[...]
        while let byte = utf8.popFirst() {
            if byte == UInt8(ascii: "%"), utf8.count >= 2,
                let value = UInt8(String(decoding: utf8.prefix(2), as: UTF8.self), radix: 16)
            {
                bytes.append(value)
                utf8 = utf8.dropFirst(2)
            } else {
                bytes.append(byte)
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
