internal import NIOConcurrencyHelpers

/// A token bucket: up to `rate` requests in a burst, refilled at `rate` a second, shared by every connection.
///
/// Content Fragment Delivery allows 200 requests a second and answers 429 with `Retry-After` past it (Adobe's
/// documentation, as the corpus README gives it); `content serve --delivery-rate-limit` plays that limit.
struct RequestRateLimit: Sendable {
    /// Requests a second.
    let rate: Int
    private let state: NIOLockedValueBox<(tokens: Double, refilled: ContinuousClock.Instant)>

    /// Creates a full bucket.
    ///
    /// - Parameter rate: Requests a second, at least 1.
    init(rate: Int) {
        self.rate = max(1, rate)
        state = NIOLockedValueBox((Double(self.rate), .now))
    }

    /// Takes one request's token.
    ///
    /// - Parameter now: The time of the request.
    /// - Returns: `nil` when the request may go on, else the whole seconds to wait (at least 1) for `Retry-After`.
    func take(now: ContinuousClock.Instant = .now) -> Int? {
        state.withLockedValue { bucket in
            let elapsed = bucket.refilled.duration(to: now)
            let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
            bucket.tokens = min(Double(rate), bucket.tokens + max(0, seconds) * Double(rate))
            bucket.refilled = now
            guard bucket.tokens < 1 else {
                bucket.tokens -= 1
                return nil
            }
            return max(1, Int(((1 - bucket.tokens) / Double(rate)).rounded(.up)))
        }
    }
}
