import Foundation
import Hummingbird
import Logging
import NIOCore

/// A Hummingbird server on 127.0.0.1 and a port the system picks, alive for the duration of `body`.
enum LoopbackServer {
    struct NoPortError: Error {}

    static func run<Result: Sendable>(
        _ router: Router<BasicRequestContext>,
        _ body: @Sendable (_ port: Int) async throws -> Result
    ) async throws -> Result {
        let (ports, continuation) = AsyncStream.makeStream(of: Int.self)
        let app = Application(
            router: router,
            configuration: .init(address: .hostname("127.0.0.1", port: 0)),
            onServerRunning: { channel in
                continuation.yield(channel.localAddress?.port ?? 0)
                continuation.finish()
            },
            logger: Logger(label: "test-server") { _ in SwiftLogNoOpLogHandler() }
        )
        return try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { try await app.run() }
            var iterator = ports.makeAsyncIterator()
            guard let port = await iterator.next(), port > 0 else {
                group.cancelAll()
                throw NoPortError()
            }
            do {
                let result = try await body(port)
                group.cancelAll()
                return result
            } catch {
                group.cancelAll()
                throw error
            }
        }
    }
}

/// Counts requests across the server's tasks.
actor Counter {
    private(set) var value = 0
    func next() -> Int {
        value += 1
        return value
    }
}

/// Collects what a test's fake sleep or log handler receives.
final class Recorder<Element: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var storage: [Element] = []

    func append(_ element: Element) {
        lock.withLock { storage.append(element) }
    }

    var elements: [Element] { lock.withLock { storage } }
}

/// A log handler that records every message, so tests can look for leaked secrets.
struct RecordingLogHandler: LogHandler {
    let recorder: Recorder<String>
    var logLevel: Logger.Level = .trace
    var metadata: Logger.Metadata = [:]

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        recorder.append("\(event.message)")
    }
}
