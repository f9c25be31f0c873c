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
        try await withTaskExecutorPreference(EventLoopAffineExecutor.shared) {
            // Completed on the loop: the task goes on there, and stays for the next wait on it.
            try await loop.submit {}.get()
            #expect(loop.inEventLoop)
            try await loop.scheduleTask(in: .milliseconds(1)) {}.futureResult.get()
            #expect(loop.inEventLoop)
            // Resumed from a dispatch queue, as a database's queue resumes it: on the global pool, off every loop.
            await withCheckedContinuation { continuation in
                DispatchQueue.global().async { continuation.resume() }
            }
            #expect(MultiThreadedEventLoopGroup.currentEventLoop == nil)
            // The other loop of the group takes it when it is the one that wakes it.
            try await other.submit {}.get()
            #expect(other.inEventLoop)
            #expect(!loop.inEventLoop)
        }
        try await group.shutdownGracefully()
    }
}
