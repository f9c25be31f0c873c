internal import ContentCore
public import ContentGraphQL
public import Foundation
package import Hummingbird
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

/// Runs the emulated services of a workspace over HTTP, each on its own port, in one process: `content serve`.
///
/// A service whose part of the workspace is absent is not started. Ctrl-C (task cancellation) and SIGTERM shut
/// every server down gracefully.
public struct EmulatorServer: Sendable {
    /// Where and how to serve.
    public struct Options: Sendable {
        /// The workspace folder.
        public var workspace: URL
        /// The services that may run, in the order they start and print.
        public var services: [any EmulatedService.Type]
        /// The address to listen on; loopback by default.
        public var host: String
        /// Ports by service name; a service not named listens on its default port, and 0 lets the system pick.
        public var ports: [String: Int]
        /// A database file to keep content in, or `nil` for memory.
        public var dataFile: String?
        /// What one GraphQL request may ask of any service.
        public var limits = GraphQLLimits()
        /// Timeouts, the connection limit, and which hosts and origins are served.
        public var connections = EmulatorConnectionPolicy()
        private var serviceOptions: [ObjectIdentifier: any Sendable] = [:]

        /// Creates options.
        ///
        /// - Parameters:
        ///   - workspace: The workspace folder.
        ///   - services: The services that may run.
        ///   - host: The address to listen on.
        ///   - ports: Ports by service name.
        ///   - dataFile: A database file, or `nil`.
        public init(
            workspace: URL, services: [any EmulatedService.Type], host: String = "127.0.0.1",
            ports: [String: Int] = [:], dataFile: String? = nil
        ) {
            self.workspace = workspace
            self.services = services
            self.host = host
            self.ports = ports
            self.dataFile = dataFile
        }

        /// Sets one service's own settings.
        ///
        /// - Parameters:
        ///   - options: The settings.
        ///   - service: The service they are for.
        public mutating func set<Service: EmulatedService>(_ options: Service.Options, for service: Service.Type) {
            serviceOptions[ObjectIdentifier(service)] = options
        }

        /// One service's own settings: as set, else its defaults.
        ///
        /// - Parameter service: The service.
        /// - Returns: Its settings.
        public func options<Service: EmulatedService>(for service: Service.Type) -> Service.Options {
            serviceOptions[ObjectIdentifier(service)] as? Service.Options ?? Service.Options()
        }

        /// The port a service listens on.
        ///
        /// - Parameter service: The service.
        /// - Returns: Its port.
        public func port(for service: any EmulatedService.Type) -> Int {
            ports[service.name] ?? service.defaultPort
        }
    }

    /// The options.
    public let options: Options

    /// Creates a server.
    ///
    /// - Parameter options: Where and how to serve.
    public init(options: Options) {
        self.options = options
    }

    /// Runs every service the workspace has until cancelled or sent SIGTERM.
    ///
    /// - Parameters:
    ///   - logger: Where requests are logged (at `info`).
    ///   - onRunning: Called with each service's name, base URL and notes once it listens.
    /// - Throws: ``EmulatorError`` when the workspace holds no service, a port cannot be bound, or a service
    ///   fails to load.
    public func run(
        logger: Logger,
        onRunning: @escaping @Sendable (_ service: String, _ url: String, _ notes: [String]) async -> Void
    ) async throws {
        var services: [EmulatorHTTPService] = []
        for service in options.services where service.isPresent(in: options.workspace) {
            services.append(try await httpService(service, logger: logger, onRunning))
        }
        guard !services.isEmpty else {
            throw EmulatorError.workspace(
                "\(options.workspace.path) has \(Self.neither(options.services.map { $0.workspaceDescription })); "
                    + "point --workspace at a folder holding one")
        }
        // A server that is cancelled drops its connections and logs an error for each listener, so every way
        // of stopping (Ctrl-C cancels this task, SIGTERM reaches the group, one service failing) is a graceful
        // shutdown instead. The group runs outside this task so that its cancellation does not reach the
        // servers directly.
        var configuration = ServiceGroupConfiguration(
            services: services.map {
                .init(
                    service: $0, successTerminationBehavior: .gracefullyShutdownGroup,
                    failureTerminationBehavior: .gracefullyShutdownGroup)
            },
            gracefulShutdownSignals: [.sigterm],
            logger: logger
        )
        // A client that never reads can hold a connection's last write forever; past this, the servers are
        // cancelled instead, which drops what is left.
        configuration.maximumGracefulShutdownDuration = Self.gracefulShutdownLimit
        let group = ServiceGroup(configuration: configuration)
        let running = Task { try await group.run() }
        do {
            try await withTaskCancellationHandler {
                try await running.value
            } onCancel: {
                Task { await group.triggerGracefulShutdown() }
            }
        } catch let error as EmulatorError {
            throw error
        } catch is CancellationError {
            // A shutdown that ran past its limit and was cancelled: stopped all the same.
            logger.warning("stopping took longer than \(Self.gracefulShutdownLimit); open connections were dropped")
        } catch {
            throw EmulatorError.startFailed("\(error)")
        }
    }

    /// How long a graceful shutdown may take before the servers are cancelled.
    static let gracefulShutdownLimit = Duration.seconds(10)

    /// "neither aem/, resource/ nor a Data Connect workspace (…)": folders first, then the rest, in registry order.
    private static func neither(_ parts: [String]) -> String {
        let ordered = parts.filter { $0.hasSuffix("/") } + parts.filter { !$0.hasSuffix("/") }
        guard let last = ordered.last else { return "no services to look for" }
        guard ordered.count > 1 else { return "no \(last)" }
        return "neither \(ordered.dropLast().joined(separator: ", ")) nor \(last)"
    }

    /// Loads one service and makes its server.
    private func httpService<Service: EmulatedService>(
        _ type: Service.Type, logger: Logger,
        _ onRunning: @escaping @Sendable (String, String, [String]) async -> Void
    ) async throws -> EmulatorHTTPService {
        let port = options.port(for: type)
        // The base URL is only known once the port is; with a fixed port it is known now.
        let context = EmulatorContext(
            options: options.options(for: type), baseURL: "http://\(urlHost):\(port)", dataFile: options.dataFile,
            limits: options.limits)
        let service = try await Service.load(workspace: options.workspace, context: context)
        let router = Self.guardedRouter(
            service, host: options.host, policy: options.connections, log: RequestLogMiddleware(logger: logger))
        let host = urlHost
        let notes = service.notes
        let handover = service.companion(logger: logger).map { HTTP2Handover(companion: $0) }
        let webSocket = service.webSocketEndpoint(logger: logger)
        return EmulatorHTTPService(
            name: Service.name, address: "\(host):\(port)", portFlag: Service.portFlag, handover: handover,
            service: service,
            application: options.connections.application(
                router: router, address: .hostname(options.host, port: port), logger: logger, handover: handover,
                webSocket: webSocket, host: options.host,
                onServerRunning: { channel in
                    // With port 0 the base URL is only known once the system has picked the port.
                    await onRunning(Service.name, "http://\(host):\(channel.localAddress?.port ?? port)", notes)
                }))
    }

    /// A service's routes behind the request log (when given) and the guard that keeps web pages out: what every
    /// server of `content serve` and every in-process sample answers with.
    private static func guardedRouter<Service: EmulatedService>(
        _ service: Service, host: String, policy: EmulatorConnectionPolicy, log: RequestLogMiddleware? = nil
    ) -> Router<BasicRequestContext> {
        let router = Router(options: Service.routerOptions)
        if let log { router.middlewares.add(log) }
        router.middlewares.add(LocalRequestGuard(host: host, policy: policy))
        service.addRoutes(to: router)
        return router
    }

    private var urlHost: String { options.host.contains(":") ? "[\(options.host)]" : options.host }

    /// The server of one service, which reports its base URL and notes through `onRunning` once it listens.
}

/// One emulator's HTTP server, whose failure to listen names the service, its address and the flag to change.
struct EmulatorHTTPService: Service {
    let name: String
    let address: String
    let portFlag: String
    /// What answers the port's HTTP/2 connections, started first so that the port speaks both from its first
    /// connection.
    var handover: HTTP2Handover?
    /// Shut down once the server and its companion have both finished.
    let service: any EmulatedService
    let application: EmulatorApplication

    func run() async throws {
        try await service.shuttingDown { try await serve() }
    }

    private func serve() async throws {
        guard let handover else { return try await runApplication() }
        let companion = handover.companion
        try await withThrowingTaskGroup(of: Void.self) { group in
            await handover.start(in: &group)
            guard handover.isReady else {
                try await group.next()
                throw EmulatorError.startFailed("\(name): the HTTP/2 (gRPC) server did not start")
            }
            defer { companion.beginGracefulShutdown() }
            // The companion stops with the first word of a shutdown, not after the HTTP server: its streams are on
            // connections the HTTP server would otherwise wait for.
            try await withGracefulShutdownHandler {
                try await runApplication()
            } onGracefulShutdown: {
                companion.beginGracefulShutdown()
            }
        }
    }

    private func runApplication() async throws {
        do {
            try await application.run()
        } catch let error as IOError {
            let reason = SystemError.reason(error.errnoCode)
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
    /// Runs one service inside this process on a free loopback port for the duration of `body`: how commands
    /// answer from the built-in sample when nothing is configured, and how tests reach a service over HTTP.
    ///
    /// ```swift
    /// try await EmulatorServer.withInProcess(AEMEmulator.self, workspace: examples) { baseURL in … }
    /// ```
    ///
    /// - Parameters:
    ///   - service: The service.
    ///   - workspace: The workspace folder holding the service's part.
    ///   - options: The service's settings; its defaults when left out (a new Data Connect database, seeded
    ///     afresh).
    ///   - body: What to do with the service's base URL.
    /// - Returns: What `body` returns.
    /// - Throws: ``EmulatorError``, the service's load errors, or what `body` throws.
    public static func withInProcess<Service: EmulatedService, Result: Sendable>(
        _ service: Service.Type, workspace: URL, options: Service.Options = Service.Options(),
        _ body: @Sendable (_ baseURL: String) async throws -> Result
    ) async throws -> Result {
        // The port is not known until the server listens; services that write absolute URLs take the host alone.
        let context = EmulatorContext(options: options, baseURL: "http://127.0.0.1")
        let loaded = try await Service.load(workspace: workspace, context: context)
        let router = guardedRouter(loaded, host: "127.0.0.1", policy: EmulatorConnectionPolicy())
        let quiet = Logger(label: "content.embedded") { _ in SwiftLogNoOpLogHandler() }
        return try await loaded.shuttingDown {
            try await withInProcess(
                router: router, companion: loaded.companion(logger: quiet),
                webSocket: loaded.webSocketEndpoint(logger: quiet),
                body)
        }
    }

    /// Serves a router on a free loopback port for the duration of `body`.
    ///
    /// - Parameters:
    ///   - router: The routes.
    ///   - companion: The server the port's HTTP/2 connections are handed to, if the service has one.
    ///   - webSocket: The service's WebSocket stream, if it has one.
    ///   - body: What to do with the base URL.
    /// - Returns: What `body` returns.
    /// - Throws: ``EmulatorError/startFailed(_:)``, or what `body` throws.
    package static func withInProcess<Result: Sendable>(
        router: Router<BasicRequestContext>, companion: (any EmulatorCompanion)? = nil,
        webSocket: (any EmulatorWebSocketEndpoint)? = nil,
        _ body: @Sendable (_ baseURL: String) async throws -> Result
    ) async throws -> Result {
        let (ports, continuation) = AsyncStream.makeStream(of: Int.self)
        let handover = companion.map { HTTP2Handover(companion: $0) }
        let app = EmulatorConnectionPolicy().application(
            router: router, address: .hostname("127.0.0.1", port: 0),
            logger: Logger(label: "content.embedded") { _ in SwiftLogNoOpLogHandler() }, handover: handover,
            webSocket: webSocket,
            onServerRunning: { channel in
                continuation.yield(channel.localAddress?.port ?? 0)
                continuation.finish()
            })
        return try await withThrowingTaskGroup(of: Void.self) { group in
            // The port speaks HTTP/2 too from its first connection, as content serve's does.
            if let handover { await handover.start(in: &group) }
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
