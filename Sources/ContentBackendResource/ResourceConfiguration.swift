public import ContentCore

/// A `resource` backend as configured.
///
/// Configuration keys:
/// - `url` (string, required): the base URL relative paths resolve against, such as
///   `https://mfp.example.com/mfp/api`.
/// - `timeout` (duration, optional): the longest one request may take, such as `30s`.
/// - `headers` (mapping, optional): headers sent with every request.
/// - `auth` (mapping, optional): `type` is `none` (default), `basic` (`username`, `password`), `bearer`
///   (`token`) or `oauth-client-credentials` (`tokenURL`, `clientId`, `clientSecret`, `scope`).
public struct ResourceConfiguration: Decodable, Sendable {
    /// How requests authenticate.
    public struct Auth: Decodable, Sendable {
        /// The scheme.
        public enum Kind: String, Decodable, Sendable, CaseIterable {
            case none, basic, bearer
            case oauthClientCredentials = "oauth-client-credentials"
        }

        /// The scheme.
        public var type: Kind
        /// Basic-auth user.
        public var username: String?
        /// Basic-auth password.
        public var password: Secret?
        /// Bearer token.
        public var token: Secret?
        /// The OAuth token endpoint, absolute or relative to `url`: under `https://host/mfp/api`, MobileFirst's
        /// `/az/v1/token`.
        public var tokenURL: String?
        /// The OAuth confidential client's id.
        public var clientId: String?
        /// The OAuth confidential client's secret.
        public var clientSecret: Secret?
        /// The OAuth scope to ask for; without it the server applies its default (`RegisteredClient`), and a 403
        /// naming the scope a resource needs fetches a token for that scope.
        public var scope: String?
    }

    /// The base URL.
    public var url: String
    /// The per-request timeout.
    public var timeout: ConfigDuration?
    /// Headers for every request.
    public var headers: [String: String]?
    /// Authentication.
    public var auth: Auth?
}
