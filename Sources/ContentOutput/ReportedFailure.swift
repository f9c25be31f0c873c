public import ContentCore

/// A failure already told to the user on stderr: the command only has to exit with its category's code.
///
/// ``printResult(_:settings:)`` throws it when the data is out and the GraphQL errors beside it are on stderr.
public struct ReportedFailure: ContentFailure, Equatable {
    /// What kind of failure it was, for the exit code.
    public let category: FailureCategory

    /// Creates the failure.
    ///
    /// - Parameter category: What kind of failure was reported.
    public init(category: FailureCategory) {
        self.category = category
    }

    /// Empty: the failure has been reported already.
    public var description: String { "" }
}
