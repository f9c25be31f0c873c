/// The kinds of failure `content` tells apart; each maps to one documented exit code in the CLI.
public enum FailureCategory: String, Sendable, Hashable, CaseIterable {
    /// A mistake in the command line.
    case usage
    /// A problem in the configuration: a missing file, bad YAML, an unknown backend type.
    case configuration
    /// The request never got an HTTP answer: DNS, connect, TLS, timeout.
    case transport
    /// The server answered with an HTTP error status.
    case httpStatus
    /// The server answered, but the operation failed (GraphQL `errors`, partial data).
    case operationFailed
    /// A JSON or NDJSON file or stream given to the tool is malformed.
    case malformedInput
    /// The output could not be written: a full disk, a closed or unwritable stdout.
    case output
    /// The user interrupted the run.
    case interrupted
    /// Anything else: a bug, or a state nobody planned for.
    case unexpected
}

/// An error that knows which ``FailureCategory`` it belongs to.
///
/// Every error type of `content` conforms; anything that does not counts as ``FailureCategory/unexpected``.
/// Its `description` is the message the user sees: what failed, where, and what to do.
public protocol ContentFailure: Error, CustomStringConvertible {
    /// The kind of failure, which decides the exit code.
    var category: FailureCategory { get }
}

extension Error {
    /// The category of any error: its own when it is a ``ContentFailure``, else ``FailureCategory/unexpected``.
    public var failureCategory: FailureCategory {
        (self as? any ContentFailure)?.category ?? .unexpected
    }
}
