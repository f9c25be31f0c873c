internal import ArgumentParser
internal import ContentCore
internal import Dispatch
internal import Foundation

/// Runs a command so that Ctrl-C cancels it instead of killing the process.
///
/// The first SIGINT cancels the work: requests stop, output rendered so far is flushed, and the
/// command exits 130. A second SIGINT exits 130 at once, for work that does not notice cancellation.
///
/// - Parameter body: The command's work.
/// - Throws: What `body` throws; after an interrupt, the interrupted exit code, which prints nothing.
public func runInterruptibly(_ body: sending @escaping @isolated(any) () async throws -> Void) async throws {
    let task = Task(operation: body)
    let interrupts = InterruptCount()
    signal(SIGINT, SIG_IGN)
    let source = DispatchSource.makeSignalSource(signal: SIGINT, queue: DispatchQueue(label: "content.interrupt"))
    source.setEventHandler {
        if interrupts.increment() > 1 { exit(130) }
        task.cancel()
    }
    source.resume()
    defer {
        source.cancel()
        signal(SIGINT, SIG_DFL)
    }
    try await task.value
    if interrupts.value > 0 { throw ExitCode(ExitStatus.code(for: .interrupted)) }
}

/// How many interrupts have arrived; touched from the signal queue and the main task.
private final class InterruptCount: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0

    func increment() -> Int {
        lock.withLock {
            count += 1
            return count
        }
    }

    var value: Int { lock.withLock { count } }
}
