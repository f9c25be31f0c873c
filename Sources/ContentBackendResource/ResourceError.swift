public import ContentCore

/// A failure sending a resource request: what failed, where (the URL, redacted), and what to do.
public struct ResourceError: ContentFailure, Equatable {
    /// The kinds of failure.
    public enum Kind: Sendable, Equatable {
        /// A path, flag or body the command line got wrong.
        case usage
        /// The configuration cannot work.
        case configuration
        /// The server answered with an error status.
        case httpStatus(Int)
        /// The token endpoint refused the client or answered something unusable.
        case token
        /// A JSON response that does not parse.
        case malformedResponse
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

    /// Usage 2, configuration 3, statuses and token failures 5, malformed JSON 7.
    public var category: FailureCategory {
        switch kind {
        case .usage: return .usage
        case .configuration: return .configuration
        case .httpStatus, .token: return .httpStatus
        case .malformedResponse: return .malformedInput
        }
    }
}
