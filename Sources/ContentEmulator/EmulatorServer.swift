public import Foundation
internal import Hummingbird
public import Logging
internal import NIOCore

/// Runs the emulators of a workspace over HTTP: `content serve`.
///
/// A workspace folder holds one folder per service (`aem/` today); a service whose folder is absent is
/// not started. Each service listens on its own port.
public struct EmulatorServer: Sendable {
    /// Where and how to serve.
    public struct Options: Sendable {
        /// The workspace folder (holding `aem/`).
        public var workspace: URL
        /// The address to listen on; loopback by default.
        public var host: String
        /// The AEM port; 0 lets the system pick one.
        public var aemPort: Int
        /// A database file to keep content in, or `nil` for memory.
        public var dataFile: String?
        /// The AEM tier and what it lets through.
        public var aem: AEMEmulator.Options

        /// Creates options.
        ///
        /// - Parameters:
        ///   - workspace: The workspace folder.
        ///   - host: The address to listen on.
        ///   - aemPort: The AEM port.
        ///   - dataFile: A database file, or `nil`.
        ///   - aem: The AEM tier and what it lets through.
        public init(
            workspace: URL,
            host: String = "127.0.0.1",
            aemPort: Int = 4503,
            dataFile: String? = nil,
            aem: AEMEmulator.Options = AEMEmulator.Options()
        ) {
            self.workspace = workspace
            self.host = host
            self.aemPort = aemPort
            self.dataFile = dataFile
            self.aem = aem
        }
    }

    /// The options.
    public let options: Options

    /// The sample workspace this build was made from (`examples/` in the source tree), when it is still
    /// there; `content serve` and the embedded default fall back to it outside the repository.
    public static var sampleWorkspace: URL? {
        let examples = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("examples")
        return FileManager.default.fileExists(atPath: examples.appendingPathComponent("aem").path) ? examples : nil
    }

    /// Creates a server.
    ///
    /// - Parameter options: Where and how to serve.
    public init(options: Options) {
        self.options = options
    }

    /// Serves until cancelled or until SIGINT/SIGTERM.
    ///
    /// - Parameters:
    ///   - logger: Where request lines go (at `info` with `-v`).
    ///   - onRunning: Called with each service's name and base URL once it listens.
    /// - Throws: ``EmulatorError``.
    public func run(logger: Logger, onRunning: @escaping @Sendable (String, String) async -> Void) async throws {
        let aemDirectory = options.workspace.appendingPathComponent("aem")
        guard FileManager.default.fileExists(atPath: aemDirectory.path) else {
            throw EmulatorError.workspace(
                "\(options.workspace.path) has no aem/ folder; point --workspace at a folder holding one"
            )
        }
        let host = options.host.contains(":") ? "[\(options.host)]" : options.host
        // The base URL is only known once the port is; with a fixed port it is known now.
        let emulator = try AEMEmulator(
            directory: aemDirectory,
            dataFile: options.dataFile,
            publishBase: "http://\(host):\(options.aemPort)",
            options: options.aem
        )
        let router = Router()
        router.middlewares.add(RequestLogMiddleware(logger: logger))
        emulator.addRoutes(to: router)
        let app = Application(
            router: router,
            configuration: .init(
                address: .hostname(options.host, port: options.aemPort), serverName: "content-emulator"),
            onServerRunning: { channel in
                await onRunning("aem", "http://\(host):\(channel.localAddress?.port ?? options.aemPort)")
            },
            logger: logger
        )
        do {
            try await app.runService()
        } catch {
            throw EmulatorError.startFailed("\(error)")
        }
    }
}

/// One line per request at `info`: method, path, status.
struct RequestLogMiddleware: RouterMiddleware {
    typealias Context = BasicRequestContext
    let logger: Logger

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws
        -> Response
    {
        let response = try await next(request, context)
        logger.info("\(request.method) \(request.uri) \(response.status.code)")
        return response
    }
}

extension EmulatorServer {
    /// Runs the AEM emulator inside this process on a free loopback port for the duration of `body`.
    ///
    /// This is how commands answer from the sample workspace when no configuration exists.
    ///
    /// - Parameters:
    ///   - workspace: The workspace folder holding `aem/`.
    ///   - body: What to do with the emulator's base URL.
    /// - Throws: ``EmulatorError``, or what `body` throws.
    public static func withInProcessAEM(
        workspace: URL,
        _ body: @Sendable (_ baseURL: String) async throws -> Void
    ) async throws {
        let emulator = try AEMEmulator(
            directory: workspace.appendingPathComponent("aem"), publishBase: "http://127.0.0.1")
        let router = Router()
        emulator.addRoutes(to: router)
        let (ports, continuation) = AsyncStream.makeStream(of: Int.self)
        let app = Application(
            router: router,
            configuration: .init(address: .hostname("127.0.0.1", port: 0), serverName: "content-emulator"),
            onServerRunning: { channel in
                continuation.yield(channel.localAddress?.port ?? 0)
                continuation.finish()
            },
            logger: Logger(label: "content.embedded") { _ in SwiftLogNoOpLogHandler() }
        )
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { try await app.run() }
            var iterator = ports.makeAsyncIterator()
            guard let port = await iterator.next(), port > 0 else {
                group.cancelAll()
                throw EmulatorError.startFailed("the embedded emulator did not start")
            }
            defer { group.cancelAll() }
            try await body("http://127.0.0.1:\(port)")
        }
    }
}
