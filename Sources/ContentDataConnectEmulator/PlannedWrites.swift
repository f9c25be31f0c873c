internal import GRDB
internal import NIOConcurrencyHelpers

/// Planned writes waiting for SQLite's one writing connection, taken a batch at a time.
///
/// Each write on its own paid for a transaction: a lock handed from task to task (a thread switch each time) and a
/// commit that appends the changed pages to the WAL. The writes that arrive while one batch runs wait here, and the
/// next batch runs them in one transaction, each under a savepoint of its own: a write that fails is rolled back to
/// its savepoint and leaves nothing behind, the others go on, and every write is answered only once the batch has
/// committed, so an answered write is as durable and as visible as before. This is the group commit of PostgreSQL
/// and of most databases' logs; the order of writes that were waiting together is the order they arrived in.
final class PlannedWrites: Sendable {
    /// One write: its statements, and how its caller learns the outcome once the batch has committed (or failed).
    struct Job: Sendable {
        /// Runs the write in the batch's transaction; answers whether it succeeded.
        let run: @Sendable (any SQLTransaction) async -> Bool
        /// Answers the caller: `nil` once the batch has committed, else why the batch failed.
        let settle: @Sendable ((any Error)?) -> Void
    }

    private struct Waiting {
        var jobs: [Job] = []
        var draining = false
    }

    /// How many writes one transaction runs at most, so no caller waits behind an unbounded batch.
    static let batchLimit = 64
    private let waiting = NIOLockedValueBox(Waiting())

    /// Adds a write.
    ///
    /// - Parameter job: The write.
    /// - Returns: Whether the caller is to run the batches (no one is running them).
    func add(_ job: Job) -> Bool {
        waiting.withLockedValue { waiting in
            waiting.jobs.append(job)
            guard !waiting.draining else { return false }
            waiting.draining = true
            return true
        }
    }

    /// The next batch, or `nil` when none is waiting, after which the next ``add(_:)`` starts the batches again.
    func next() -> [Job]? {
        waiting.withLockedValue { waiting in
            guard !waiting.jobs.isEmpty else {
                waiting.draining = false
                return nil
            }
            let batch = Array(waiting.jobs.prefix(Self.batchLimit))
            waiting.jobs.removeFirst(batch.count)
            return batch
        }
    }
}

extension DataConnectStore {
    /// Runs a planned write in the next batch (see ``PlannedWrites``), answering once the batch has committed.
    ///
    /// - Parameters:
    ///   - isOneStatement: Not used: a batch has one `BEGIN` and `COMMIT` for all its writes.
    ///   - body: The write.
    /// - Returns: What `body` answers.
    /// - Throws: What `body` throws, or why the batch failed to commit.
    func plannedWrite<T: Sendable>(
        isOneStatement: Bool, _ body: @escaping @Sendable (any SQLTransaction) async throws -> T
    ) async throws -> T {
        // A write whose client has gone before its batch runs it is not run: its caller's task is cancelled.
        let abandoned = NIOLockedValueBox(false)
        return try await withTaskCancellationHandler {
            try await submit(body, abandoned: abandoned)
        } onCancel: {
            abandoned.withLockedValue { $0 = true }
        }
    }

    private func submit<T: Sendable>(
        _ body: @escaping @Sendable (any SQLTransaction) async throws -> T, abandoned: NIOLockedValueBox<Bool>
    ) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            let outcome = NIOLockedValueBox<Result<T, any Error>>(.failure(CancellationError()))
            let job = PlannedWrites.Job(
                run: { transaction in
                    guard !abandoned.withLockedValue({ $0 }) else { return false }
                    do {
                        let value = try await body(transaction)
                        outcome.withLockedValue { $0 = .success(value) }
                        return true
                    } catch {
                        outcome.withLockedValue { $0 = .failure(error) }
                        return false
                    }
                },
                settle: { failure in
                    if let failure {
                        continuation.resume(throwing: failure)
                    } else {
                        continuation.resume(with: outcome.withLockedValue { $0 })
                    }
                })
            // A task of its own runs the batches: a caller whose client leaves does not stop the others' writes.
            if plannedWrites.add(job) { Task { await runPlannedWrites() } }
        }
    }

    /// Runs batches until none is waiting.
    private func runPlannedWrites() async {
        while let batch = plannedWrites.next() {
            do {
                try await locked("BEGIN IMMEDIATE", runsHere: true) { transaction in
                    for job in batch {
                        try accessHere { try $0.cachedStatement(sql: "SAVEPOINT planned_write").execute() }
                        let succeeded = await job.run(transaction)
                        try accessHere { db in
                            if !succeeded { try db.cachedStatement(sql: "ROLLBACK TO planned_write").execute() }
                            try db.cachedStatement(sql: "RELEASE planned_write").execute()
                        }
                    }
                    return ((), commit: true)
                }
                for job in batch { job.settle(nil) }
            } catch {
                for job in batch { job.settle(error) }
            }
        }
    }
}
