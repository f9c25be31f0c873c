public import ContentCore

/// A failure getting an access token: what failed, where (the endpoint or the credentials file) and what to check.
public struct TokenEndpointError: ContentFailure, Equatable {
    /// The kinds of failure.
    public enum Kind: Sendable, Equatable {
        /// The token endpoint refused the client, or answered something unusable: exit 5.
        case refused
        /// The credentials cannot be used as configured, such as a service-credentials file that is not one: exit 3.
        case credentials
    }

    /// The kind.
    public var kind: Kind
    /// The message, complete with place and remedy; it never holds a secret.
    public var description: String
    /// The token endpoint's HTTP status, when it answered with a refusal.
    public var status: Int?

    /// Creates a failure.
    ///
    /// - Parameters:
    ///   - kind: The kind.
    ///   - description: The message.
    ///   - status: The token endpoint's HTTP status, when it refused.
    public init(kind: Kind, description: String, status: Int? = nil) {
        self.kind = kind
        self.description = description
        self.status = status
    }

    /// A refusal is an HTTP status; unusable credentials are configuration.
    public var category: FailureCategory { kind == .refused ? .httpStatus : .configuration }
}
