internal import ContentJSON
internal import Foundation

/// Reads items on a thread of its own while the caller renders the ones before them, so turning a large file
/// into rows uses two cores: one parses, one renders and writes.
///
/// Items cross in ``JSONItemBatch``es, as compact JSON text the caller turns into values: the reading thread
/// then allocates almost nothing, and each value is built and freed on the same thread. The queue is short,
/// so memory stays bounded however far ahead reading could run. Only for regular files: from a pipe an item
/// must come out as soon as it is read, not when a batch fills. A failure comes out after every item read
/// before it, as it would without reading ahead.
final class ReadAheadItemReader: ItemTextReader {
    /// Hands the reader to the reading thread, the only place it is used after `init`.
    private final class Handover: @unchecked Sendable {
        var reader: JSONItemReader

        init(_ reader: JSONItemReader) {
            self.reader = reader
        }
    }

    static let batchSize = 256
    /// Batches waiting at most: enough to ride out a slow write, few enough to keep memory flat.
    static let queueLength = 4

    private let queue = ThreadHandoff<JSONItemBatch, any Error>(capacity: queueLength)
    private let failure: @Sendable (JSONItemReaderError) -> any Error
    private var current = JSONItemBatch()
    private var position = 0

    /// Starts reading `reader` (already past ``JSONItemReader/start()``) on a new thread.
    ///
    /// - Parameters:
    ///   - reader: The items to read.
    ///   - failure: What a reading failure becomes for the caller.
    init(_ reader: JSONItemReader, failure: @escaping @Sendable (JSONItemReaderError) -> any Error) {
        self.failure = failure
        let queue = queue
        let handover = Handover(reader)
        Thread.detachNewThread {
            // Named, so a profile tells reading from rendering.
            Thread.current.name = "content-read"
            Self.produce(from: handover, into: queue, failure: failure)
        }
    }

    deinit {
        queue.abandon()
    }

    func next() throws -> JSONValue? {
        guard try advance() else { return nil }
        do {
            return try current.item(at: position - 1)
        } catch {
            // The reading thread checked this text already, so this is only a safeguard.
            throw failure(.malformed(error))
        }
    }

    func nextText(_ body: (UnsafeRawBufferPointer) throws -> Void) throws -> Bool {
        guard try advance() else { return false }
        do {
            try current.withText(at: position - 1, body)
            return true
        } catch let error as JSONParseError {
            // As in next(): only text the reading thread did not check could get here.
            throw failure(.malformed(error))
        }
    }

    /// Moves to the next item, waiting for a batch when the current one is used up.
    ///
    /// - Returns: Whether there is an item (at `position - 1` of `current`); `false` after the last.
    private func advance() throws -> Bool {
        if position == current.count {
            guard let batch = try queue.take() else { return false }
            current = batch
            position = 0
        }
        position += 1
        return true
    }

    private static func produce(
        from handover: Handover, into queue: ThreadHandoff<JSONItemBatch, any Error>,
        failure: @Sendable (JSONItemReaderError) -> any Error
    ) {
        var done = false
        while !done {
            var batch = JSONItemBatch()
            var problem: (any Error)?
            do throws(JSONItemReaderError) {
                while batch.count < batchSize {
                    guard try batch.append(from: &handover.reader) else {
                        done = true
                        break
                    }
                }
            } catch {
                problem = failure(error)
                done = true
            }
            guard queue.put(batch.count > 0 ? batch : nil, finishing: done, failure: problem) else { return }
        }
    }
}
