public import ContentGraphQL
public import Foundation
public import Hummingbird
public import Logging

/// One local service `content serve` runs: where its part of a workspace is, how it loads, and the routes it answers.
///
/// Each emulated service is a module of its own that conforms one type; ``EmulatorServer`` runs any set of them in
/// one process, each on its own port, and ``EmulatorServer/withInProcess(_:workspace:options:_:)`` runs one on a
/// free loopback port for a command's built-in sample or a test. Adding a service is its module and one line in the
/// executable's registry.
///
/// ```swift
/// public struct ChangelogEmulator: EmulatedService {
///     public static let name = "changelog"
///     public static let defaultPort = 4600
///     public static func isPresent(in workspace: URL) -> Bool { … }
///     public static func load(workspace: URL, context: EmulatorContext<NoEmulatorOptions>) async throws -> Self { … }
///     public func addRoutes(to router: Router<BasicRequestContext>) { … }
/// }
/// ```
public protocol EmulatedService: Sendable {
    /// What the service's settings look like; ``NoEmulatorOptions`` when it has none.
    associatedtype Options: EmulatorOptions

    /// The name in `content serve`'s lines and errors, and in `--port NAME=PORT`: `aem`, `dataconnect`.
    static var name: String { get }
    /// The backend type whose commands use this service as their built-in sample (`aem`); `nil` for none.
    static var sampleBackendType: String? { get }
    /// The port it listens on unless told otherwise.
    static var defaultPort: Int { get }
    /// The flag of `content serve` that moves it, for errors about the port.
    static var portFlag: String { get }
    /// What a workspace holds for this service, for the error when a workspace holds nothing at all.
    static var workspaceDescription: String { get }
    /// How its router treats `HEAD`: generated from `GET` routes, or not.
    static var routerOptions: RouterOptions { get }

    /// Whether `workspace` holds this service's part.
    ///
    /// - Parameter workspace: The workspace folder.
    /// - Returns: `true` when the service should start.
    static func isPresent(in workspace: URL) -> Bool

    /// The folder a backend pointed at this service reads, such as the Data Connect workspace with its `.gql`
    /// files; the workspace itself when the backend reads nothing.
    ///
    /// - Parameter workspace: The workspace folder.
    /// - Returns: The folder.
    static func backendFolder(in workspace: URL) -> URL

    /// Loads the service from a workspace.
    ///
    /// - Parameters:
    ///   - workspace: The workspace folder.
    ///   - context: Its settings, the base URL it answers on and the database file, if any.
    /// - Returns: The service, ready to route.
    /// - Throws: ``EmulatorError`` or the service's own errors for a workspace it cannot serve.
    static func load(workspace: URL, context: EmulatorContext<Options>) async throws -> Self

    /// Lines `content serve` prints after the service's URL.
    var notes: [String] { get }

    /// Adds the service's routes.
    ///
    /// - Parameter router: The router of the service's own server.
    func addRoutes(to router: Router<BasicRequestContext>)

    /// A server for the HTTP/2 connections of the service's port (gRPC), run beside its routes; `nil` for none.
    ///
    /// - Parameter logger: Where the companion logs.
    /// - Returns: The companion.
    func companion(logger: Logger) -> (any EmulatorCompanion)?

    /// The stream the service serves over WebSocket on its port, if it has one; `nil` by default.
    ///
    /// - Parameter logger: Where the endpoint logs.
    /// - Returns: The endpoint, or `nil`.
    func webSocketEndpoint(logger: Logger) -> (any EmulatorWebSocketEndpoint)?

    /// Releases what the service holds (a database, its files) once its server has answered its last request.
    func shutDown() async
}

extension EmulatedService {
    /// No built-in sample.
    public static var sampleBackendType: String? { nil }
    /// `--<name>-port`.
    public static var portFlag: String { "--\(name)-port" }
    /// `HEAD` is answered only where a route says so.
    public static var routerOptions: RouterOptions { [] }
    /// The workspace itself.
    ///
    /// - Parameter workspace: The workspace folder.
    /// - Returns: `workspace`.
    public static func backendFolder(in workspace: URL) -> URL { workspace }
    /// Nothing to add.
    public var notes: [String] { [] }
    /// No HTTP/2 companion: the port speaks HTTP/1.1 only.
    ///
    /// - Parameter logger: Unused.
    /// - Returns: `nil`.
    public func companion(logger: Logger) -> (any EmulatorCompanion)? { nil }
    /// No WebSocket stream.
    ///
    /// - Parameter logger: Unused.
    /// - Returns: `nil`.
    public func webSocketEndpoint(logger: Logger) -> (any EmulatorWebSocketEndpoint)? { nil }
    /// Nothing to release.
    public func shutDown() async {}

    /// Runs `body`, then ``shutDown()``, whether `body` returned or threw.
    ///
    /// - Parameter body: What serves the service.
    /// - Returns: What `body` returns.
    /// - Throws: What `body` throws.
    package func shuttingDown<Result: Sendable>(after body: () async throws -> Result) async throws -> Result {
        let result: Result
        do {
            result = try await body()
        } catch {
            await shutDown()
            throw error
        }
        await shutDown()
        return result
    }

    /// A router with the service's options and routes: what every server of it, live or in process, answers with.
    ///
    /// - Returns: The router.
    package func router() -> Router<BasicRequestContext> {
        let router = Router(options: Self.routerOptions)
        addRoutes(to: router)
        return router
    }
}

/// Settings of one emulated service, made by `content serve` from its flags; the defaults are what an in-process
/// sample runs with.
public protocol EmulatorOptions: Sendable {
    /// The defaults.
    init()
}

/// The settings of a service that has none.
public struct NoEmulatorOptions: EmulatorOptions {
    /// No settings.
    public init() {}
}

/// What a service is loaded with.
public struct EmulatorContext<Options: EmulatorOptions>: Sendable {
    /// Its own settings.
    public var options: Options
    /// The base URL it answers on, such as `http://127.0.0.1:4503`; without a port when the system picks one later.
    public var baseURL: String
    /// A SQLite file to keep its content in, or `nil` for memory.
    public var dataFile: String?
    /// What one GraphQL request may ask.
    public var limits: GraphQLLimits

    /// Creates a context.
    ///
    /// - Parameters:
    ///   - options: The service's settings.
    ///   - baseURL: The base URL it answers on.
    ///   - dataFile: A SQLite file, or `nil`.
    ///   - limits: What one GraphQL request may ask.
    public init(
        options: Options = Options(), baseURL: String, dataFile: String? = nil, limits: GraphQLLimits = GraphQLLimits()
    ) {
        self.options = options
        self.baseURL = baseURL
        self.dataFile = dataFile
        self.limits = limits
    }
}
