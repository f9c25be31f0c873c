/// Settings every backend shares, from the configuration's `defaults:` and the command line.
public struct BackendDefaults: Sendable, Hashable {
    /// The longest a whole operation may take, retries included.
    public var timeout: Duration
    /// How many times an idempotent request is retried after a retryable failure.
    public var retries: Int
    /// The largest response body accepted, in bytes.
    public var maxResponseBytes: Int

    /// Creates defaults.
    ///
    /// - Parameters:
    ///   - timeout: The longest an operation may take.
    ///   - retries: Retries for idempotent requests.
    ///   - maxResponseBytes: The largest response body accepted.
    public init(timeout: Duration = .seconds(30), retries: Int = 2, maxResponseBytes: Int = 256 << 20) {
        self.timeout = timeout
        self.retries = retries
        self.maxResponseBytes = maxResponseBytes
    }
}
