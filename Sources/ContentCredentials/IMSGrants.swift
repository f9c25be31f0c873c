public import ContentCore
public import ContentJSON

/// Adobe IMS's OAuth server-to-server credential: `POST {ims}/ims/token/v3` with
/// `grant_type=client_credentials&client_id&client_secret&scope`, answered `{ access_token, token_type: "bearer",
/// expires_in }` in seconds (Adobe Developer Console, "OAuth Server-to-Server credential API Reference").
public struct IMSServerToServerGrant: TokenGrant {
    /// The IMS origin, such as `https://ims-na1.adobelogin.com`.
    public var imsURL: String
    /// The credential's client id, which also goes out as `X-Api-Key`.
    public var clientID: String
    /// The credential's client secret.
    public var clientSecret: String
    /// The scopes to ask for, sent comma-separated as IMS takes them.
    public var scopes: [String]

    /// Creates a grant.
    ///
    /// - Parameters:
    ///   - imsURL: The IMS origin; Adobe's production IMS when `nil`.
    ///   - clientID: The client id.
    ///   - clientSecret: The client secret.
    ///   - scopes: The scopes.
    public init(imsURL: String?, clientID: String, clientSecret: String, scopes: [String]) {
        self.imsURL = imsURL ?? IMS.production
        self.clientID = clientID
        self.clientSecret = clientSecret
        self.scopes = scopes
    }

    /// `{ims}/ims/token/v3`.
    public var tokenURL: String { Self.tokenURL(imsURL: imsURL) }

    /// `{ims}/ims/token/v3` on an IMS origin.
    ///
    /// - Parameter imsURL: The origin; Adobe's production IMS when `nil`.
    /// - Returns: The endpoint.
    public static func tokenURL(imsURL: String?) -> String {
        IMS.endpoint(imsURL ?? IMS.production, "/ims/token/v3")
    }
    /// The endpoint, client, scopes and secret.
    public var cacheKey: String { "\(tokenURL)\n\(clientID)\n\(scopes.joined(separator: ","))\n\(clientSecret)" }
    /// The client secret.
    public var secrets: [String] { [clientSecret] }
    /// The settings that make the grant.
    public var refusalHint: String {
        "check auth.clientId, auth.clientSecret and auth.scopes against the credential in the Developer Console"
    }

    /// The form IMS documents, every parameter in the body (never the query, which servers log).
    ///
    /// - Returns: The request.
    public func tokenRequest() -> HTTPTransportRequest {
        Self.formRequest(
            url: tokenURL,
            [
                (name: "grant_type", value: "client_credentials"), (name: "client_id", value: clientID),
                (name: "client_secret", value: clientSecret), (name: "scope", value: scopes.joined(separator: ",")),
            ])
    }
}

/// AEM service credentials exchanged at Adobe IMS: an RS256 JWT signed with the credentials' private key, POSTed
/// with the client id and secret to `{ims}/ims/exchange/jwt`, answered `{ access_token, expires_in }` with
/// `expires_in` in MILLISECONDS (unlike `/ims/token/v3`; Adobe's aio-lib-ims treats it so, and the sample
/// answers in Adobe's JWT guide hold values such as 86399958).
public struct IMSServiceCredentialsGrant: TokenGrant {
    /// The credentials.
    public var credentials: ServiceCredentials
    /// The IMS origin: `https://` and the credentials' `imsEndpoint` unless configured otherwise.
    public var imsURL: String

    /// Creates a grant.
    ///
    /// - Parameters:
    ///   - credentials: The service credentials.
    ///   - imsURL: Another IMS origin than the credentials name, such as an emulator's.
    public init(credentials: ServiceCredentials, imsURL: String? = nil) {
        self.credentials = credentials
        let endpoint = credentials.imsEndpoint
        self.imsURL = imsURL ?? (endpoint.contains("://") ? endpoint : "https://\(endpoint)")
    }

    /// `{ims}/ims/exchange/jwt`.
    public var tokenURL: String { Self.tokenURL(imsURL: imsURL) }

    /// `{ims}/ims/exchange/jwt` on an IMS origin.
    ///
    /// - Parameter imsURL: The origin.
    /// - Returns: The endpoint.
    public static func tokenURL(imsURL: String) -> String {
        IMS.endpoint(imsURL, "/ims/exchange/jwt")
    }
    /// The endpoint, the technical account and its secret and key.
    public var cacheKey: String {
        "\(tokenURL)\n\(credentials.clientID)\n\(credentials.technicalAccountID)\n\(credentials.clientSecret)\n"
            + credentials.privateKeyPEM
    }
    /// The client secret and the private key.
    public var secrets: [String] { [credentials.clientSecret, credentials.privateKeyPEM] }
    /// The file that makes the grant.
    public var refusalHint: String {
        "check that the service credentials are current (Developer Console → Integrations) and not revoked"
    }

    /// `client_id`, `client_secret` and a freshly signed `jwt_token`.
    ///
    /// - Returns: The request.
    /// - Throws: ``TokenEndpointError`` when the key cannot sign.
    public func tokenRequest() throws(TokenEndpointError) -> HTTPTransportRequest {
        Self.formRequest(
            url: tokenURL,
            [
                (name: "client_id", value: credentials.clientID),
                (name: "client_secret", value: credentials.clientSecret),
                (name: "jwt_token", value: try credentials.signedJWT()),
            ])
    }

    /// `expires_in` in milliseconds, as seconds.
    ///
    /// - Parameter answer: The token endpoint's JSON answer.
    /// - Returns: The lifetime in seconds, or `nil` when the answer does not say.
    public func lifetime(of answer: JSONValue) -> Double? {
        answer["expires_in"].flatMap(Self.number).map { $0 / 1000 }
    }
}

/// Where IMS's endpoints are.
enum IMS {
    /// The default IMS origin.
    static let production = "https://ims-na1.adobelogin.com"

    /// An endpoint on an IMS origin given with or without a trailing slash.
    static func endpoint(_ origin: String, _ path: String) -> String {
        (origin.hasSuffix("/") ? String(origin.dropLast()) : origin) + path
    }
}
