public import Foundation
internal import Hummingbird
public import Logging
internal import NIOCore
internal import ServiceLifecycle
internal import UnixSignals

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Runs the emulators of a workspace over HTTP: `content serve`.
///
/// A workspace folder holds one part per service: `aem/` for AEM, and a Data Connect workspace found
/// through `firebase.json`, `dataconnect.yaml` or `dataconnect/dataconnect.yaml`. A service whose part is
/// absent is not started. Each service listens on its own port.
public struct EmulatorServer: Sendable {
    /// Where and how to serve.
    public struct Options: Sendable {
        /// The workspace folder.
        public var workspace: URL
        /// The address to listen on; loopback by default.
        public var host: String
        /// The AEM port; 0 lets the system pick one.
        public var aemPort: Int
        /// The Data Connect port; 0 lets the system pick one.
        public var dataConnectPort: Int
        /// The sample adapters' port; 0 lets the system pick one.
        public var resourcePort: Int
        /// A database file to keep content in, or `nil` for memory.
        public var dataFile: String?
        /// The AEM tier and what it lets through.
        public var aem: AEMEmulator.Options
        /// Data Connect seeding and CORS.
        public var dataConnect: DataConnectEmulator.Options

        /// Creates options.
        ///
        /// - Parameters:
        ///   - workspace: The workspace folder.
        ///   - host: The address to listen on.
        ///   - aemPort: The AEM port.
        ///   - dataConnectPort: The Data Connect port.
        ///   - resourcePort: The sample adapters' port.
        ///   - dataFile: A database file, or `nil`.
        ///   - aem: The AEM tier and what it lets through.
        ///   - dataConnect: Data Connect seeding and CORS.
        public init(
            workspace: URL,
            host: String = "127.0.0.1",
            aemPort: Int = 4503,
            dataConnectPort: Int = 9399,
            resourcePort: Int = 10080,
            dataFile: String? = nil,
            aem: AEMEmulator.Options = AEMEmulator.Options(),
            dataConnect: DataConnectEmulator.Options = DataConnectEmulator.Options()
        ) {
            self.workspace = workspace
            self.host = host
            self.aemPort = aemPort
            self.dataConnectPort = dataConnectPort
            self.resourcePort = resourcePort
            self.dataFile = dataFile
            self.aem = aem
            self.dataConnect = dataConnect
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

    /// Serves until cancelled or until SIGTERM, then shuts down gracefully.
    ///
    /// - Parameters:
    ///   - logger: Where request lines go (at `info` with `-v`).
    ///   - onRunning: Called with each service's name and base URL once it listens, and with its notes.
    /// - Throws: ``EmulatorError``, or a workspace error naming file, line and column.
    public func run(
        logger: Logger,
        onRunning: @escaping @Sendable (_ service: String, _ url: String, _ notes: [String]) async -> Void
    ) async throws {
        var services: [EmulatorService] = []
        let aemDirectory = options.workspace.appendingPathComponent("aem")
        if FileManager.default.fileExists(atPath: aemDirectory.path) {
            // The base URL is only known once the port is; with a fixed port it is known now.
            let emulator = try AEMEmulator(
                directory: aemDirectory,
                dataFile: options.dataFile,
                publishBase: "http://\(urlHost):\(options.aemPort)",
                options: options.aem
            )
            let router = Router()
            router.middlewares.add(RequestLogMiddleware(logger: logger))
            emulator.addRoutes(to: router)
            services.append(
                service("aem", router, port: options.aemPort, portFlag: "--aem-port", logger: logger, onRunning))
        }
        if DataConnectEmulator.hasWorkspace(in: options.workspace) {
            let emulator = try await DataConnectEmulator(
                workspace: options.workspace, dataFile: options.dataFile, options: options.dataConnect)
            let router = Router()
            router.middlewares.add(RequestLogMiddleware(logger: logger))
            emulator.addRoutes(to: router)
            services.append(
                service(
                    "dataconnect", router, port: options.dataConnectPort, portFlag: "--dataconnect-port",
                    notes: [emulator.summary] + emulator.notes, logger: logger, onRunning))
        }
        let resourceDirectory = options.workspace.appendingPathComponent("resource")
        if FileManager.default.fileExists(atPath: resourceDirectory.path) {
            let emulator = try ResourceEmulator(directory: resourceDirectory)
            let router = Router(options: .autoGenerateHeadEndpoints)
            router.middlewares.add(RequestLogMiddleware(logger: logger))
            emulator.addRoutes(to: router)
            services.append(
                service(
                    "resource", router, port: options.resourcePort, portFlag: "--resource-port",
                    notes: ["sample adapters under /mfp/api"], logger: logger, onRunning))
        }
        guard !services.isEmpty else {
            throw EmulatorError.workspace(
                "\(options.workspace.path) has neither aem/, resource/ nor a Data Connect workspace (firebase.json, "
                    + "dataconnect.yaml or dataconnect/dataconnect.yaml); point --workspace at a folder holding one"
            )
        }
        // A server that is cancelled drops its connections and logs an error for each listener, so every way
        // of stopping (Ctrl-C cancels this task, SIGTERM reaches the group, one service failing) is a graceful
        // shutdown instead. The group runs outside this task so that its cancellation does not reach the
        // servers directly.
        let group = ServiceGroup(
            configuration: ServiceGroupConfiguration(
                services: services.map {
                    .init(
                        service: $0, successTerminationBehavior: .gracefullyShutdownGroup,
                        failureTerminationBehavior: .gracefullyShutdownGroup)
                },
                gracefulShutdownSignals: [.sigterm],
                logger: logger
            ))
        let running = Task { try await group.run() }
        do {
            try await withTaskCancellationHandler {
                try await running.value
            } onCancel: {
                Task { await group.triggerGracefulShutdown() }
            }
        } catch let error as EmulatorError {
            throw error
        } catch {
            throw EmulatorError.startFailed("\(error)")
        }
    }

    /// The listening address as a URL writes it: an IPv6 address in brackets.
    private var urlHost: String { options.host.contains(":") ? "[\(options.host)]" : options.host }

    /// The server of one service, which reports its base URL and notes through `onRunning` once it listens.
    private func service(
        _ name: String, _ router: Router<BasicRequestContext>, port: Int, portFlag: String, notes: [String] = [],
        logger: Logger, _ onRunning: @escaping @Sendable (String, String, [String]) async -> Void
    ) -> EmulatorService {
        let host = urlHost
        return EmulatorService(
            name: name, address: "\(host):\(port)", portFlag: portFlag,
            application: Application(
                router: router,
                configuration: .init(address: .hostname(options.host, port: port), serverName: "content-emulator"),
                onServerRunning: { channel in
                    // With port 0 the base URL is only known once the system has picked the port.
                    await onRunning(name, "http://\(host):\(channel.localAddress?.port ?? port)", notes)
                },
                logger: logger
            ))
    }
}

/// One emulator's HTTP server, whose failure to listen names the service, its address and the flag to change.
struct EmulatorService: Service {
    let name: String
    let address: String
    let portFlag: String
    let application: Application<RouterResponder<BasicRequestContext>>

    func run() async throws {
        do {
            try await application.run()
        } catch let error as IOError {
            let reason = String(cString: strerror(error.errnoCode)).lowercased()
            let advice: String
            switch error.errnoCode {
            case EADDRINUSE:
                advice =
                    "another process holds the port; stop it, or pick another with \(portFlag) (0 picks a free one)"
            case EACCES:
                advice = "ports below 1024 need privileges; pick another with \(portFlag)"
            case EADDRNOTAVAIL:
                advice = "no interface here has that address; check --host"
            default:
                advice = "check --host and \(portFlag)"
            }
            throw EmulatorError.cannotListen(service: name, address: address, reason: reason, advice: advice)
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
        try await withInProcess(router, body)
    }
}

extension EmulatorServer {
    /// Runs the Data Connect emulator inside this process on a free loopback port, with an in-memory
    /// database seeded afresh, for the duration of `body`.
    ///
    /// - Parameters:
    ///   - workspace: A folder that leads to a `dataconnect.yaml`.
    ///   - body: What to do with the emulator's base URL.
    /// - Throws: ``EmulatorError``, a workspace error, or what `body` throws.
    public static func withInProcessDataConnect(
        workspace: URL,
        _ body: @Sendable (_ baseURL: String) async throws -> Void
    ) async throws {
        let emulator = try await DataConnectEmulator(workspace: workspace)
        let router = Router()
        emulator.addRoutes(to: router)
        try await withInProcess(router, body)
    }

    /// Runs the sample adapters inside this process on a free loopback port for the duration of `body`.
    ///
    /// - Parameters:
    ///   - workspace: The workspace folder holding `resource/`.
    ///   - body: What to do with the server's base URL.
    /// - Throws: ``EmulatorError``, or what `body` throws.
    public static func withInProcessResource(
        workspace: URL,
        _ body: @Sendable (_ baseURL: String) async throws -> Void
    ) async throws {
        let emulator = try ResourceEmulator(directory: workspace.appendingPathComponent("resource"))
        let router = Router(options: .autoGenerateHeadEndpoints)
        emulator.addRoutes(to: router)
        try await withInProcess(router, body)
    }

    /// Serves a router on a free loopback port for the duration of `body`.
    static func withInProcess<Result: Sendable>(
        _ router: Router<BasicRequestContext>, _ body: @Sendable (_ baseURL: String) async throws -> Result
    ) async throws -> Result {
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
        return try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { try await app.run() }
            var iterator = ports.makeAsyncIterator()
            guard let port = await iterator.next(), port > 0 else {
                group.cancelAll()
                throw EmulatorError.startFailed("the embedded emulator did not start")
            }
            defer { group.cancelAll() }
            return try await body("http://127.0.0.1:\(port)")
        }
    }
}
