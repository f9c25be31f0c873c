internal import Foundation

/// A short queue from one producing thread to one consuming thread: how both read-ahead helpers work.
///
/// The producer waits while `capacity` elements are waiting, so memory stays bounded however far ahead it could
/// run; the consumer waits while none are. The end, or a failure, comes out after every element put before it.
/// Used-up elements can be handed back for the producer to fill again instead of allocating. Every field is
/// used with `condition` locked, hence `@unchecked Sendable`.
final class ThreadHandoff<Element, Failure: Error>: @unchecked Sendable {
    private let condition = NSCondition()
    private let capacity: Int
    private var waiting: [Element] = []
    private var spare: [Element] = []
    private var failure: Failure?
    private var finished = false
    private var abandoned = false

    /// A queue that holds at most `capacity` elements.
    init(capacity: Int) {
        self.capacity = capacity
    }

    /// Producer: puts an element once there is room, and with `finishing` says no more will come.
    ///
    /// - Parameters:
    ///   - element: The element, or `nil` to put none.
    ///   - finishing: Whether this is the last put.
    ///   - failure: Why the producer stopped, given out once everything before it has been taken.
    /// - Returns: `false` when the consumer is gone, so the producer should stop.
    func put(_ element: Element?, finishing: Bool = false, failure: Failure? = nil) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        while waiting.count >= capacity, !abandoned { condition.wait() }
        guard !abandoned else { return false }
        if let element { waiting.append(element) }
        if finishing {
            finished = true
            self.failure = failure
        }
        condition.broadcast()
        return true
    }

    /// Producer: an element the consumer handed back, to fill again.
    func takeSpare() -> Element? {
        condition.lock()
        defer { condition.unlock() }
        return spare.popLast()
    }

    /// Consumer: the next element, waiting for one; `nil` after the last.
    ///
    /// - Parameter used: An element the consumer is done with, for ``takeSpare()``.
    /// - Returns: The element, or `nil` once the producer has finished and everything has been taken.
    /// - Throws: The producer's failure, once, after every element put before it.
    func take(handingBack used: Element? = nil) throws(Failure) -> Element? {
        condition.lock()
        if let used { spare.append(used) }
        while waiting.isEmpty, !finished { condition.wait() }
        guard waiting.isEmpty else {
            let element = waiting.removeFirst()
            condition.broadcast()
            condition.unlock()
            return element
        }
        let failure = failure
        self.failure = nil
        condition.unlock()
        if let failure { throw failure }
        return nil
    }

    /// Consumer: gives up, waking a producer that waits for room so it can stop.
    func abandon() {
        condition.lock()
        abandoned = true
        condition.broadcast()
        condition.unlock()
    }
}
