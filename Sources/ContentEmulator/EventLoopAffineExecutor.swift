internal import NIOCore
internal import NIOPosix

/// A task executor that runs each job on the event loop whose thread made it ready, and on the global pool when no
/// event loop did.
///
/// A server task that waits on a channel is made ready on that channel's event loop; run there, it reads what arrived
/// and writes its answer without crossing to another thread and back, which on a small machine is most of what a
/// short call costs beyond its own work. A job made ready elsewhere (a database queue, a timer) goes to the global
/// pool as it would without this executor, so nothing waits behind a busy loop that did not ask for it.
package final class EventLoopAffineExecutor: TaskExecutor {
    /// The one executor: it holds no state of its own.
    package static let shared = EventLoopAffineExecutor()

    private init() {}

    package func enqueue(_ job: consuming ExecutorJob) {
        guard let loop = MultiThreadedEventLoopGroup.currentEventLoop else {
            globalConcurrentExecutor.enqueue(job)
            return
        }
        let unowned = UnownedJob(job)
        let executor = asUnownedTaskExecutor()
        loop.execute { unowned.runSynchronously(on: executor) }
    }
}
