public import ContentConfig
public import ContentCore
internal import ContentHTTP
internal import ContentYAML
public import Logging

/// Turns configuration into working backends: finds the plugin for each `type:`, decodes sections,
/// and gives every backend a transport whose lifetime the session scopes.
///
/// ```swift
/// let session = try ContentSession.load(configFlag: nil, environment: environment, registry: registry)
/// let result = try await session.withBackend(session.selectBackend(named: nil, type: "aem"), logger: logger) {
///     try await $0.execute(ContentRequest(operation: "wknd-shared/adventures-all"))
/// }
/// ```
public struct ContentSession: Sendable {
    /// The configuration read.
    public let configuration: ContentConfiguration
    /// The plugins available.
    public let registry: BackendRegistry
    /// The process environment (proxies, `${VAR}`).
    public let environment: [String: String]

    /// Creates a session.
    ///
    /// - Parameters:
    ///   - configuration: The configuration.
    ///   - registry: The plugins.
    ///   - environment: The process environment.
    public init(
        configuration: ContentConfiguration,
        registry: BackendRegistry,
        environment: [String: String]
    ) {
        self.configuration = configuration
        self.registry = registry
        self.environment = environment
    }

    /// Finds and reads the configuration file; with none anywhere, the session has no backends.
    ///
    /// - Parameters:
    ///   - configFlag: The `--config` value.
    ///   - environment: The process environment.
    ///   - registry: The plugins.
    /// - Returns: The session.
    /// - Throws: ``ConfigError``.
    public static func load(
        configFlag: String?,
        environment: [String: String],
        registry: BackendRegistry
    ) throws(ConfigError) -> ContentSession {
        let configuration: ContentConfiguration
        if let location = try ConfigLocation.find(flag: configFlag, environment: environment) {
            configuration = try ConfigLoader(environment: environment).load(location)
        } else {
            configuration = .empty
        }
        return ContentSession(configuration: configuration, registry: registry, environment: environment)
    }

    /// A session over one backend described in YAML, and that backend: how commands answer from a built-in sample.
    ///
    /// - Parameters:
    ///   - text: A `backends:` document with one backend of `type`.
    ///   - file: What errors call the text, such as `<built-in sample>`.
    ///   - type: The backend's type.
    ///   - registry: The plugins.
    ///   - environment: What `${VAR}` reads.
    /// - Returns: The session and its backend.
    /// - Throws: ``ConfigError``.
    public static func single(
        _ text: String, file: String, type: String, registry: BackendRegistry, environment: [String: String]
    ) throws(ConfigError) -> (session: ContentSession, backend: ConfiguredBackend) {
        let configuration = try ConfigLoader(environment: environment).load(text: text, file: file)
        let session = ContentSession(configuration: configuration, registry: registry, environment: environment)
        return (session, try session.selectBackend(named: nil, type: type))
    }

    /// The plugin for a configured backend.
    ///
    /// - Parameter backend: The backend.
    /// - Returns: Its plugin.
    /// - Throws: ``ConfigError`` at the `type:` value, with a did-you-mean hint or the list of types.
    public func plugin(for backend: ConfiguredBackend) throws(ConfigError) -> BackendRegistry.Entry {
        if let entry = registry.entry(forType: backend.typeName) { return entry }
        let known = registry.typeNames
        let hint =
            closestMatch(to: backend.typeName, in: known).map { "did you mean '\($0)'?" }
            ?? (known.isEmpty
                ? "this build has no backend plugins" : "built-in types: \(known.joined(separator: ", "))")
        throw .unknownBackendType(
            YAMLError(
                file: backend.section.file,
                mark: backend.typeMark,
                keyPath: "backends.\(backend.name).type",
                message: "unknown backend type '\(backend.typeName)'",
                hint: hint
            )
        )
    }

    /// Checks every backend: its type exists, its section decodes, and the backend can be made.
    ///
    /// - Returns: Every problem found, in file order; empty when the configuration is valid.
    public func validate() -> [any Error] {
        var problems: [any Error] = []
        for backend in configuration.backends {
            do {
                let entry = try plugin(for: backend)
                // Making the backend decodes its section and runs every check a command's would (URLs, token
                // files, workspaces), with a transport that sends nothing.
                let redactor = Redactor(secrets: backend.secrets)
                let context = BackendContext(
                    transport: NoSendingTransport(), defaults: configuration.defaults, redactor: redactor,
                    isOffline: true)
                _ = try entry.makeBackend(name: backend.name, section: backend.section, context: context)
                _ = try HTTPSettings(defaults: configuration.defaults, environment: environment, redactor: redactor)
            } catch {
                problems.append(error)
            }
        }
        return problems
    }

    /// The backend a command should use.
    ///
    /// - Parameters:
    ///   - name: The `--backend` value, if given.
    ///   - type: The plugin type the command belongs to.
    /// - Returns: The named backend, or the only one of that type.
    /// - Throws: ``ConfigError`` when the name is unknown, of another type, or the choice is ambiguous.
    public func selectBackend(named name: String?, type: String) throws(ConfigError) -> ConfiguredBackend {
        let file = configuration.location?.path
        if let name {
            let backend = try configuration.backend(named: name)
            guard backend.typeName == type else {
                throw .wrongBackendType(name, type: backend.typeName, expected: type)
            }
            return backend
        }
        let candidates = configuration.backends.filter { $0.typeName == type }
        guard let first = candidates.first else { throw .noBackend(type: type, file: file) }
        guard candidates.count == 1 else { throw .ambiguousBackend(type: type, candidates: candidates.map(\.name)) }
        return first
    }

    /// Makes a backend, runs `body` with it, and shuts its transport down afterwards.
    ///
    /// - Parameters:
    ///   - backend: The configured backend.
    ///   - logger: Where verbose output goes.
    ///   - body: What to do with the backend.
    /// - Returns: What `body` returns.
    /// - Throws: Configuration, transport and backend failures.
    public func withBackend<Result: Sendable>(
        _ backend: ConfiguredBackend,
        logger: Logger,
        _ body: (any ContentBackend) async throws -> Result
    ) async throws -> Result {
        let entry = try plugin(for: backend)
        let redactor = Redactor(secrets: backend.secrets)
        let settings = try HTTPSettings(defaults: configuration.defaults, environment: environment, redactor: redactor)
        let transport = AsyncHTTPTransport(settings: settings, logger: logger)
        let context = BackendContext(
            transport: transport, defaults: configuration.defaults, redactor: redactor, logger: logger)
        let outcome: Swift.Result<Result, any Error>
        do {
            let made = try entry.makeBackend(name: backend.name, section: backend.section, context: context)
            outcome = .success(try await body(made))
        } catch {
            outcome = .failure(error)
        }
        // A failure of the work says more than a failure to close after it; a failure to close after work that
        // succeeded is still reported.
        do {
            try await transport.shutdown()
        } catch {
            if case .success = outcome { throw error }
        }
        return try outcome.get()
    }
}

/// The transport of `config validate`: backends are made with it, and nothing is ever sent.
private struct NoSendingTransport: HTTPTransport {
    struct Refused: Error, CustomStringConvertible {
        var description: String { "config validate sends nothing" }
    }

    func send(_ request: HTTPTransportRequest) async throws -> HTTPTransportResponse { throw Refused() }
}
