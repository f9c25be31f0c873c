package import ContentCore
internal import ContentJSON
internal import Crypto
internal import Foundation

/// Access tokens from an OAuth client-credentials endpoint, kept until they expire.
///
/// An actor because one token is shared by every request a backend sends, and a refresh must happen
/// once however many requests see the 401. Tokens are also kept in `$XDG_CACHE_HOME/content/oauth/`
/// (mode 0600), so consecutive commands reuse one until it expires.
package actor OAuthTokenSource {
    package struct Settings: Sendable {
        var tokenURL: String
        var clientID: String
        var clientSecret: String
        var scope: String?
    }

    private let settings: Settings
    private let transport: any HTTPTransport
    private let cacheFile: URL?
    private let redactor: Redactor
    private var token: (value: String, expires: Date)?
    /// How many tokens this source fetched, for `-v`.
    private(set) var fetched = 0

    package init(settings: Settings, transport: any HTTPTransport, redactor: Redactor, environment: [String: String]) {
        self.settings = settings
        self.transport = transport
        self.redactor = redactor
        let cacheRoot: URL? =
            environment["XDG_CACHE_HOME"].flatMap { $0.hasPrefix("/") ? URL(fileURLWithPath: $0) : nil }
            ?? environment["HOME"].map { URL(fileURLWithPath: $0).appendingPathComponent(".cache") }
        // The secret is part of the key, so a wrong secret never gets the token a right one fetched; SHA-256
        // because the name is visible to anyone who can list the folder, and must not help guess the secret.
        let key = "\(settings.tokenURL)\n\(settings.clientID)\n\(settings.scope ?? "")\n\(settings.clientSecret)"
        let name = SHA256.hash(data: Data(key.utf8)).map { String(format: "%02x", $0) }.joined()
        cacheFile = cacheRoot?.appendingPathComponent("content/oauth/\(name).json")
    }

    /// A token that has not expired: the one in hand, the cached one, or a new one.
    ///
    /// - Parameter stale: A token the server refused; a different one is fetched rather than reused.
    /// - Returns: The access token.
    /// - Throws: ``ResourceError`` of kind `token`, or a transport failure.
    package func accessToken(replacing stale: String? = nil) async throws -> String {
        if stale != nil, token?.value == stale { token = nil }
        if let token, token.expires > Date() { return token.value }
        if stale == nil, let cached = readCache(), cached.expires > Date() {
            token = cached
            return cached.value
        }
        let fresh = try await fetch()
        token = fresh
        writeCache(fresh)
        return fresh.value
    }

    private func fetch() async throws -> (value: String, expires: Date) {
        var form = [("grant_type", "client_credentials")]
        if let scope = settings.scope { form.append(("scope", scope)) }
        let credentials = Data("\(settings.clientID):\(settings.clientSecret)".utf8).base64EncodedString()
        let request = HTTPTransportRequest(
            method: .post, url: settings.tokenURL,
            headers: [
                "Content-Type": "application/x-www-form-urlencoded", "Authorization": "Basic \(credentials)",
                "Accept": "application/json",
            ],
            body: Array(PercentEncoding.pairs(form.map { (name: $0.0, value: $0.1) }).utf8),
            isRetryable: true)
        let response = try await transport.send(request)
        let url = redactor.redact(url: settings.tokenURL)
        guard response.isSuccess else {
            let detail = redactor.redact(
                String(decoding: response.body.prefix(300), as: UTF8.self).split(separator: "\n").first.map(String.init)
                    ?? "")
            throw ResourceError(
                kind: .token,
                description:
                    "the token endpoint \(url) answered HTTP \(response.status): \(detail); check auth.clientId, "
                    + "auth.clientSecret and auth.scope")
        }
        guard let body = try? JSONParser().parse(response.body), let value = body["access_token"]?.stringValue,
            !value.isEmpty
        else {
            throw ResourceError(kind: .token, description: "the token endpoint \(url) answered no access_token")
        }
        fetched += 1
        let lifetime =
            body["expires_in"].flatMap { value -> Double? in
                if case .number(let number) = value { return number.doubleValue }
                return value.stringValue.flatMap(Double.init)
            } ?? 3600
        // Renew a little early so a token does not expire between the check and the request; keep no token
        // longer than a day, whatever the endpoint claims.
        let kept = lifetime.isFinite ? min(max(0, lifetime - 30), 86_400) : 0
        return (value, Date().addingTimeInterval(kept))
    }

    private func readCache() -> (value: String, expires: Date)? {
        guard let cacheFile, let data = FileManager.default.contents(atPath: cacheFile.path),
            let json = try? JSONParser().parse(Array(data)), let value = json["access_token"]?.stringValue,
            case .number(let expires)? = json["expires_at"], let seconds = expires.doubleValue
        else { return nil }
        return (value, Date(timeIntervalSince1970: seconds))
    }

    private func writeCache(_ token: (value: String, expires: Date)) {
        guard let cacheFile else { return }
        try? FileManager.default.createDirectory(
            at: cacheFile.deletingLastPathComponent(), withIntermediateDirectories: true,
            attributes: [.posixPermissions: 0o700])
        let json = JSONValue.object([
            "access_token": .string(token.value),
            "expires_at": .number(JSONNumber(text: String(Int(token.expires.timeIntervalSince1970)))),
        ])
        _ = FileManager.default.createFile(
            atPath: cacheFile.path, contents: Data(json.serialized()), attributes: [.posixPermissions: 0o600])
    }
}
