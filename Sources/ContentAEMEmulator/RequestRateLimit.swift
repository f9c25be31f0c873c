internal import NIOConcurrencyHelpers

/// How many requests a period allows: `RequestRate(requests: 200, per: .seconds(1))` is Content Fragment Delivery's.
public struct RequestRate: Sendable, Equatable {
    /// Requests allowed in a period, and the most in one burst.
    public var requests: Int
    /// The period.
    public var period: Duration

    /// Creates a rate.
    ///
    /// - Parameters:
    ///   - requests: Requests allowed in a period, at least 1.
    ///   - period: The period; one second unless given.
    public init(requests: Int, per period: Duration = .seconds(1)) {
        self.requests = max(1, requests)
        self.period = period > .zero ? period : .seconds(1)
    }
}

extension RequestRate {
    /// `a second`, or `every 3600 s`.
    var periodText: String {
        period == .seconds(1) ? "a second" : "every \(period.components.seconds) s"
    }
}

/// A token bucket: up to `requests` in a burst, refilled at `requests` a period, shared by every connection.
///
/// Content Fragment Delivery allows 200 requests a second and answers 429 with `Retry-After` past it (Adobe's
/// documentation, as the corpus README gives it); `content serve --delivery-rate-limit` plays that limit.
struct RequestRateLimit: Sendable {
    let rate: RequestRate
    private let state: NIOLockedValueBox<(tokens: Double, refilled: ContinuousClock.Instant)>

    /// Creates a full bucket.
    ///
    /// - Parameter rate: The rate.
    init(rate: RequestRate) {
        self.rate = rate
        state = NIOLockedValueBox((Double(rate.requests), .now))
    }

    /// Takes one request's token.
    ///
    /// - Parameter now: The time of the request.
    /// - Returns: `nil` when the request may go on, else the whole seconds to wait (at least 1) for `Retry-After`.
    func take(now: ContinuousClock.Instant = .now) -> Int? {
        let capacity = Double(rate.requests)
        let period = Self.seconds(rate.period)
        return state.withLockedValue { bucket in
            let elapsed = max(0, Self.seconds(bucket.refilled.duration(to: now)))
            bucket.tokens = min(capacity, bucket.tokens + elapsed / period * capacity)
            bucket.refilled = now
            guard bucket.tokens < 1 else {
                bucket.tokens -= 1
                return nil
            }
            let wait = (1 - bucket.tokens) / capacity * period
            return wait < 1e9 ? max(1, Int(wait.rounded(.up))) : 1_000_000_000
        }
    }

    private static func seconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    }
}
