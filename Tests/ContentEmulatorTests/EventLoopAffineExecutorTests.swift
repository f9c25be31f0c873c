import ContentEmulator
import Foundation
import NIOCore
import NIOPosix
import Testing

/// Where a task that prefers ``EventLoopAffineExecutor`` runs after each kind of wait.
struct EventLoopAffineExecutorTests {
    @Test func aTaskWokenByAnEventLoopRunsOnItAndOneWokenElsewhereDoesNot() async throws {
        let group = MultiThreadedEventLoopGroup(numberOfThreads: 2)
        let loops = Array(group.makeIterator())
        let (loop, other) = (loops[0], loops[1])
        // Each wake-up comes 20 ms later, once the task has suspended: a wake-up that comes before is enqueued by
        // the suspending thread instead, which is the executor's "where it can".
        func wake(on loop: any EventLoop) async throws {
            try await loop.scheduleTask(in: .milliseconds(20)) {}.futureResult.get()
        }
        try await withTaskExecutorPreference(EventLoopAffineExecutor.shared) {
            // Completed on the loop: the task goes on there, and stays for the next wait on it.
            try await wake(on: loop)
            #expect(loop.inEventLoop)
            try await wake(on: loop)
            #expect(loop.inEventLoop)
            // Resumed from a dispatch queue, as a database's queue resumes it: on the global pool, off every loop.
            await withCheckedContinuation { continuation in
                DispatchQueue.global().asyncAfter(deadline: .now() + .milliseconds(20)) { continuation.resume() }
            }
            #expect(MultiThreadedEventLoopGroup.currentEventLoop == nil)
            // The other loop of the group takes it when it is the one that wakes it.
            try await wake(on: other)
            #expect(other.inEventLoop)
            #expect(!loop.inEventLoop)
        }
        try await group.shutdownGracefully()
    }
}
