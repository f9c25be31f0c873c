public import ContentCore

/// A failure talking to AEM: what failed, where (the URL, redacted), and what to do.
public struct AEMError: ContentFailure, Equatable {
    /// The kinds of failure.
    public enum Kind: Sendable, Equatable {
        /// The persisted query does not exist on the server (404 `PersistenceError`).
        case queryNotFound
        /// The server wants credentials, or refused them (401/403).
        case unauthorized
        /// The server answered with another error status.
        case httpStatus(Int)
        /// The server answered HTML (a login page, a dispatcher error) where JSON was expected.
        case notJSON
        /// The server answered with malformed JSON.
        case malformedResponse
        /// A variable value that AEM's `;name=value` form cannot carry.
        case unencodableVariable
        /// A shortcut or argument the command line got wrong.
        case usage
        /// The backend's configuration cannot work: a URL without scheme or host, an unreadable token file.
        case configuration
    }

    /// The kind.
    public var kind: Kind
    /// The message, complete with place and remedy.
    public var description: String

    /// Creates a failure.
    ///
    /// - Parameters:
    ///   - kind: The kind.
    ///   - description: The message, complete with place and remedy.
    public init(kind: Kind, description: String) {
        self.kind = kind
        self.description = description
    }

    /// HTTP statuses exit 5, usage mistakes 2, configuration 3, the rest 5 as well.
    public var category: FailureCategory {
        switch kind {
        case .configuration: return .configuration
        case .usage, .unencodableVariable: return .usage
        default: return .httpStatus
        }
    }
}
