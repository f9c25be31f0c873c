internal import ContentJSON
internal import ContentOutput
internal import Foundation

/// Reads items on a thread of its own while the caller renders the ones before them, so turning a large file
/// into rows uses two cores: one parses, one renders and writes.
///
/// Items come in batches through a short queue, so memory stays bounded however far ahead reading could run.
/// Only for regular files: from a pipe an item must come out as soon as it is read, not when a batch fills.
/// A failure comes out after every item read before it, as it would without reading ahead.
final class ReadAheadItemReader: ItemReader {
    /// The queue between the two threads; every field is read and written with `condition` locked.
    private final class Queue: @unchecked Sendable {
        let condition = NSCondition()
        var batches: [[JSONValue]] = []
        var failure: (any Error)?
        var finished = false
        /// The consumer is gone: the reading thread stops at its next batch.
        var abandoned = false
    }

    /// Hands the reader to the reading thread, the only place it is used after `init`.
    private final class Handover: @unchecked Sendable {
        var reader: any ItemReader

        init(_ reader: any ItemReader) {
            self.reader = reader
        }
    }

    static let batchSize = 256
    /// Batches waiting at most: enough to ride out a slow write, few enough to keep memory flat.
    static let queueLength = 4

    private let queue = Queue()
    private var current: [JSONValue] = []
    private var position = 0

    init(_ reader: some ItemReader) {
        let queue = queue
        let handover = Handover(reader)
        Thread.detachNewThread {
            // Named, so a profile tells reading from rendering.
            Thread.current.name = "content-read"
            Self.produce(from: handover, into: queue)
        }
    }

    deinit {
        queue.condition.lock()
        queue.abandoned = true
        queue.condition.broadcast()
        queue.condition.unlock()
    }

    func next() throws -> JSONValue? {
        if position < current.count {
            position += 1
            return current[position - 1]
        }
        queue.condition.lock()
        while queue.batches.isEmpty, !queue.finished { queue.condition.wait() }
        if queue.batches.isEmpty {
            let failure = queue.failure
            queue.failure = nil
            queue.condition.unlock()
            if let failure { throw failure }
            return nil
        }
        current = queue.batches.removeFirst()
        queue.condition.broadcast()
        queue.condition.unlock()
        position = 1
        return current[0]
    }

    private static func produce(from handover: Handover, into queue: Queue) {
        var batch: [JSONValue] = []
        batch.reserveCapacity(batchSize)
        var failure: (any Error)?
        var done = false
        while !done {
            do {
                if let item = try handover.reader.next() { batch.append(item) } else { done = true }
            } catch {
                failure = error
                done = true
            }
            guard batch.count == batchSize || done else { continue }
            queue.condition.lock()
            while queue.batches.count >= queueLength, !queue.abandoned { queue.condition.wait() }
            if queue.abandoned {
                queue.condition.unlock()
                return
            }
            if !batch.isEmpty { queue.batches.append(batch) }
            if done {
                queue.finished = true
                queue.failure = failure
            }
            queue.condition.broadcast()
            queue.condition.unlock()
            batch = []
            batch.reserveCapacity(batchSize)
        }
    }
}
