internal import ContentJSON
internal import Foundation
internal import OrderedCollections

/// A first-come, first-served async lock: one Data Connect operation touches the database at a time, so
/// each runs in its own transaction without interleaving with another request's statements.
actor SerialLock {
    private var isHeld = false
    private var waiters: [CheckedContinuation<Void, Never>] = []

    /// Runs `body` holding the lock.
    func withLock<T: Sendable>(_ body: @Sendable () async throws -> T) async rethrows -> T {
        await acquire()
        defer { release() }
        return try await body()
    }

    /// How many wait for the lock.
    var waiting: Int { waiters.count }

    private func acquire() async {
        guard isHeld else {
            isHeld = true
            return
        }
        await withCheckedContinuation { waiters.append($0) }
    }

    private func release() {
        if waiters.isEmpty {
            isHeld = false
        } else {
            // Ownership passes straight to the next waiter.
            waiters.removeFirst().resume()
        }
    }
}
