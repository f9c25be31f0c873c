public import ContentCore
internal import ContentJSON
internal import Crypto
internal import Foundation

/// Access tokens from a token endpoint, kept until they expire.
///
/// An actor because one token is shared by every request a backend sends, and a renewal must happen once
/// however many requests see the 401. Tokens are also kept in `$XDG_CACHE_HOME/content/oauth/` (mode 0600, in a
/// 0700 folder), so consecutive commands reuse one until it expires.
public actor AccessTokenSource {
    private nonisolated let grant: any TokenGrant
    private let transport: any HTTPTransport
    private let cacheFile: URL?
    private nonisolated let redactor: Redactor
    private var token: (value: String, expires: Date)?

    /// A name for the grant that holds no secret but differs whenever the token would: the SHA-256 of its key.
    public nonisolated let identity: String

    /// Creates a source.
    ///
    /// - Parameters:
    ///   - grant: How to ask for a token.
    ///   - transport: What sends the token request.
    ///   - redactor: Masks secrets in messages; the grant's own are added.
    ///   - environment: Where the cache folder comes from (`XDG_CACHE_HOME`, else `HOME`).
    public init(grant: any TokenGrant, transport: any HTTPTransport, redactor: Redactor, environment: [String: String])
    {
        self.grant = grant
        self.transport = transport
        self.redactor = redactor.adding(grant.secrets)
        let cacheRoot: URL? =
            environment["XDG_CACHE_HOME"].flatMap { $0.hasPrefix("/") ? URL(fileURLWithPath: $0) : nil }
            ?? environment["HOME"].map { URL(fileURLWithPath: $0).appendingPathComponent(".cache") }
        // The secret is part of the key, so a wrong secret never gets the token a right one fetched; SHA-256
        // because the name is visible to anyone who can list the folder, and must not help guess the secret.
        identity = SHA256.hash(data: Data(grant.cacheKey.utf8)).map { String(format: "%02x", $0) }.joined()
        cacheFile = cacheRoot?.appendingPathComponent("content/oauth/\(identity).json")
    }

    /// The token endpoint, for messages, with any secret in it masked.
    public nonisolated var tokenURL: String { redactor.redact(url: grant.tokenURL) }

    /// A token that has not expired: the one in hand, the cached one, or a new one.
    ///
    /// - Parameter stale: A token the server refused; a different one is fetched rather than reused.
    /// - Returns: The access token.
    /// - Throws: ``TokenEndpointError``, or a transport failure.
    public func accessToken(replacing stale: String? = nil) async throws -> String {
        if stale != nil, token?.value == stale { token = nil }
        if let token, token.expires > Date() { return token.value }
        if let cached = readCache(), cached.expires > Date(), cached.value != stale {
            token = cached
            return cached.value
        }
        let fresh = try await fetch()
        token = fresh
        writeCache(fresh)
        return fresh.value
    }

    private func fetch() async throws -> (value: String, expires: Date) {
        let response = try await transport.send(try grant.tokenRequest())
        let url = redactor.redact(url: grant.tokenURL)
        guard response.isSuccess else {
            let detail = redactor.redact(
                String(decoding: response.body.prefix(300), as: UTF8.self).split(separator: "\n").first.map(String.init)
                    ?? "")
            throw TokenEndpointError(
                kind: .refused,
                description: "the token endpoint \(url) answered HTTP \(response.status): \(detail); "
                    + grant.refusalHint,
                status: response.status)
        }
        guard let body = try? JSONParser().parse(response.body), let value = body["access_token"]?.stringValue,
            !value.isEmpty
        else {
            throw TokenEndpointError(kind: .refused, description: "the token endpoint \(url) answered no access_token")
        }
        let lifetime = grant.lifetime(of: body) ?? 3600
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
        // A cache that cannot be written only costs a token request next time.
        _ = FileManager.default.createFile(
            atPath: cacheFile.path, contents: Data(json.serialized()), attributes: [.posixPermissions: 0o600])
    }
}
