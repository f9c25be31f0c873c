public import ContentCore

/// A failure running a Data Connect operation: what failed, where (the URL, redacted), and what to do.
public struct DataConnectError: ContentFailure, Equatable {
    /// The kinds of failure.
    public enum Kind: Sendable, Equatable {
        /// A connector, operation, flag or variable the command line got wrong.
        case usage
        /// The workspace or configuration cannot work.
        case configuration
        /// The service answered with an error status.
        case httpStatus(Int)
        /// The operation ran and failed: `errors` and no `data`.
        case operationFailed
        /// The service answered something that is not the JSON it should.
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

    /// Usage mistakes exit 2, configuration 3, statuses 5, failed operations 6, malformed responses 7.
    public var category: FailureCategory {
        switch kind {
        case .usage: return .usage
        case .configuration: return .configuration
        case .httpStatus: return .httpStatus
        case .operationFailed: return .operationFailed
        case .malformedResponse: return .malformedInput
        }
    }
}
