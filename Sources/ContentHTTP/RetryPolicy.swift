public import Foundation

/// When and how long to wait before retrying: exponential backoff with full jitter, honouring `Retry-After`.
///
/// Only requests marked retryable (idempotent methods, unless a backend says otherwise) are ever retried.
public struct RetryPolicy: Sendable, Hashable {
    /// How many retries after the first attempt.
    public var maxRetries: Int
    /// The first backoff's ceiling; each retry doubles it.
    public var baseDelay: Duration
    /// The largest wait between attempts, whatever `Retry-After` asks.
    public var maxDelay: Duration

    /// Creates a policy.
    ///
    /// - Parameters:
    ///   - maxRetries: Retries after the first attempt.
    ///   - baseDelay: The first backoff's ceiling.
    ///   - maxDelay: The largest wait.
    public init(maxRetries: Int = 2, baseDelay: Duration = .milliseconds(250), maxDelay: Duration = .seconds(30)) {
        self.maxRetries = maxRetries
        self.baseDelay = baseDelay
        self.maxDelay = maxDelay
    }

    /// Statuses that mean "try again later": 408, 429, 502, 503, 504.
    ///
    /// - Parameter status: The status code.
    /// - Returns: Whether a retry may succeed.
    public static func isRetryableStatus(_ status: Int) -> Bool {
        [408, 429, 502, 503, 504].contains(status)
    }

    /// How long to wait before retry number `attempt` (from 1).
    ///
    /// - Parameters:
    ///   - attempt: The retry about to happen, from 1.
    ///   - retryAfter: The response's `Retry-After`, if any.
    ///   - now: The current time, for `Retry-After` dates.
    ///   - random: A number in 0..<1 for jitter.
    /// - Returns: The wait.
    public func delay(
        beforeRetry attempt: Int,
        retryAfter: String?,
        now: Date = Date(),
        random: Double = Double.random(in: 0..<1)
    ) -> Duration {
        if let retryAfter, let requested = Self.parseRetryAfter(retryAfter, now: now) {
            return min(requested, maxDelay)
        }
        let ceiling = baseDelay * (1 << min(attempt - 1, 20))
        return min(ceiling, maxDelay) * random
    }

    /// Reads `Retry-After` as delay-seconds or an HTTP-date (RFC 9110 §10.2.3).
    ///
    /// - Parameters:
    ///   - value: The header value.
    ///   - now: The current time.
    /// - Returns: The wait, never negative, or `nil` when the value is neither form.
    public static func parseRetryAfter(_ value: String, now: Date = Date()) -> Duration? {
        let trimmed = value.trimmingCharacters(in: .whitespaces)
        if let seconds = Int(trimmed), seconds >= 0 { return .seconds(seconds) }
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss zzz"
        guard let date = formatter.date(from: trimmed) else { return nil }
        let interval = max(0, date.timeIntervalSince(now))
        return .milliseconds(Int64(interval * 1000))
    }
}
