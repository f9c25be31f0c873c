public import ContentCore
public import ContentJSON
internal import Foundation

/// One way of asking a token endpoint for an access token: what to send, how long the answer lasts, and what to
/// check when the endpoint refuses.
///
/// Grants are values; ``AccessTokenSource`` sends them, caches what they get and renews it.
public protocol TokenGrant: Sendable {
    /// The token endpoint, for messages and the cache key.
    var tokenURL: String { get }
    /// Everything that decides which token the endpoint gives, secrets included: two grants with the same key
    /// share a cached token, so a wrong secret never gets the token a right one fetched.
    var cacheKey: String { get }
    /// The secrets the grant sends, masked in any message about it.
    var secrets: [String] { get }
    /// What to check when the endpoint refuses, such as `check auth.clientId and auth.clientSecret`.
    var refusalHint: String { get }

    /// The request that asks for a token, made fresh for each ask (a signed assertion expires).
    ///
    /// - Returns: The request.
    /// - Throws: ``TokenEndpointError`` when the grant cannot be made, such as a key that cannot sign.
    func tokenRequest() throws(TokenEndpointError) -> HTTPTransportRequest

    /// How long the answered token lasts, in seconds, from the answer's body.
    ///
    /// - Parameter answer: The token endpoint's JSON answer.
    /// - Returns: The lifetime in seconds, or `nil` when the answer does not say.
    func lifetime(of answer: JSONValue) -> Double?
}

extension TokenGrant {
    /// `expires_in` as OAuth 2.0 (RFC 6749 §5.1) gives it: seconds, as a number or a numeric string.
    ///
    /// - Parameter answer: The token endpoint's JSON answer.
    /// - Returns: The lifetime in seconds, or `nil` when the answer does not say.
    public func lifetime(of answer: JSONValue) -> Double? {
        answer["expires_in"].flatMap(Self.number)
    }

    /// A JSON number, or a string holding one.
    static func number(_ value: JSONValue) -> Double? {
        if case .number(let number) = value { return number.doubleValue }
        return value.stringValue.flatMap(Double.init)
    }

    /// A form-encoded POST, as every token endpoint here takes it.
    static func formRequest(
        url: String, _ form: [(name: String, value: String)], headers: HeaderFields = [:]
    ) -> HTTPTransportRequest {
        var headers = headers
        headers["Content-Type"] = "application/x-www-form-urlencoded"
        headers["Accept"] = "application/json"
        // Retrying is safe: asking twice gives two tokens, and only the last is kept.
        return HTTPTransportRequest(
            method: .post, url: url, headers: headers, body: Array(PercentEncoding.pairs(form).utf8),
            isRetryable: true)
    }
}

/// OAuth 2.0 client credentials (RFC 6749 §4.4) with the client authenticated by HTTP Basic, as MobileFirst's
/// `/mfp/api/az/v1/token` takes them.
public struct ClientCredentialsGrant: TokenGrant {
    /// The token endpoint.
    public var tokenURL: String
    /// The confidential client's id.
    public var clientID: String
    /// The confidential client's secret.
    public var clientSecret: String
    /// The scope to ask for.
    public var scope: String?

    /// Creates a grant.
    ///
    /// - Parameters:
    ///   - tokenURL: The token endpoint.
    ///   - clientID: The client's id.
    ///   - clientSecret: The client's secret.
    ///   - scope: The scope to ask for.
    public init(tokenURL: String, clientID: String, clientSecret: String, scope: String?) {
        self.tokenURL = tokenURL
        self.clientID = clientID
        self.clientSecret = clientSecret
        self.scope = scope
    }

    /// The endpoint, client, scope and secret.
    public var cacheKey: String { "\(tokenURL)\n\(clientID)\n\(scope ?? "")\n\(clientSecret)" }
    /// The client secret.
    public var secrets: [String] { [clientSecret] }
    /// The settings that make the grant.
    public var refusalHint: String { "check auth.clientId, auth.clientSecret and auth.scope" }

    /// `grant_type=client_credentials&scope=…` with the client in `Authorization: Basic`.
    ///
    /// - Returns: The request.
    public func tokenRequest() -> HTTPTransportRequest {
        var form = [(name: "grant_type", value: "client_credentials")]
        if let scope { form.append((name: "scope", value: scope)) }
        let credentials = Data("\(clientID):\(clientSecret)".utf8).base64EncodedString()
        return Self.formRequest(url: tokenURL, form, headers: ["Authorization": "Basic \(credentials)"])
    }
}
