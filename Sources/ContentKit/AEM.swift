public import ContentCore
public import ContentHTTP
internal import ContentJSON

/// One AEM persisted-query configuration as an app talks to it, in the style of ``DataConnect``: where the
/// instance is and how to sign in, one HTTP client whose connections every call reuses, and a cache of results.
///
/// Generated code makes one per configuration (`AEM.wkndSharedQueries.aem`), which lives as long as the process:
///
/// ```swift
/// let queries = AEM.wkndSharedQueries
/// queries.aem.settings = AEMSettings(url: "https://publish-p123-e456.adobeaemcloud.com")
/// let adventures = try await queries.adventuresAllQuery.execute()
/// ```
///
/// An instance made by hand and used owns an HTTP client: call ``shutdown()`` before letting it go.
public final class AEM: QueryExecuting {
    /// Where a local instance is unless told otherwise: the AEM SDK's publish tier, which `content serve` also
    /// takes.
    public enum EmulatorDefaults {
        /// `127.0.0.1`.
        public static let host = "127.0.0.1"
        /// `4503`.
        public static let port = 4503
    }

    /// The persisted-query configuration, such as `wknd-shared`.
    public let configuration: String
    /// Query results by query and variables.
    public var cache: EntityCache { connection.cache }

    private let connection: ServiceConnection<AEMSettings>

    /// A configuration whose calls go through an HTTP client of its own, made at the first call.
    ///
    /// - Parameters:
    ///   - configuration: The persisted-query configuration.
    ///   - settings: The instance; a local publish tier (``EmulatorDefaults``) unless set.
    ///   - http: Timeouts, retries, proxies and the response-size cap.
    public init(
        configuration: String,
        settings: AEMSettings = AEMSettings(url: "http://\(EmulatorDefaults.host):\(EmulatorDefaults.port)"),
        http: HTTPSettings = HTTPSettings()
    ) {
        self.configuration = configuration
        connection = ServiceConnection(settings: settings, http: http, transport: nil)
    }

    /// A configuration whose calls go through a transport the caller owns and shuts down.
    ///
    /// - Parameters:
    ///   - configuration: The persisted-query configuration.
    ///   - settings: The instance.
    ///   - transport: Where requests go.
    public init(configuration: String, settings: AEMSettings, transport: any HTTPTransport) {
        self.configuration = configuration
        connection = ServiceConnection(settings: settings, http: HTTPSettings(), transport: transport)
    }

    /// Where the instance is, how to sign in and which headers to add; read at every call.
    public var settings: AEMSettings {
        get { connection.settings }
        set { connection.settings = newValue }
    }

    /// How old a cached result `.preferCache` may answer with; zero (the default) means always ask the instance.
    public var cacheMaxAge: Duration {
        get { connection.cacheMaxAge }
        set { connection.cacheMaxAge = newValue }
    }

    /// Sends every later call to a local instance over plain HTTP, such as `content serve` or the AEM SDK, keeping
    /// the sign-in and headers.
    ///
    /// - Parameters:
    ///   - host: Its host; `127.0.0.1` by default.
    ///   - port: Its port; `4503` by default.
    public func useEmulator(host: String = EmulatorDefaults.host, port: Int = EmulatorDefaults.port) {
        connection.updateSettings { settings in
            settings = AEMSettings(
                url: emulatorURL(host: host, port: port), authentication: settings.authentication,
                headers: settings.headers)
        }
    }

    /// Closes the connections of the client this configuration made; calls afterwards make a new one.
    ///
    /// - Throws: What the HTTP client reports.
    public func shutdown() async throws {
        try await connection.shutdown()
    }

    /// AEM has no realtime stream: the stream ends at once with ``ContentClientError/notSubscribable(operation:)``.
    ///
    /// - Parameters:
    ///   - name: The query's name.
    ///   - variables: Its variables.
    ///   - type: The generated type.
    /// - Returns: A stream that fails.
    public func subscribe<ResultData: Decodable & Sendable>(
        _ name: String, variables: some Encodable & Sendable, as type: ResultData.Type
    ) -> AsyncThrowingStream<OperationResult<ResultData>, any Error> {
        let path = AEMPersistedQuery(configuration: configuration, name: name).path
        return AsyncThrowingStream { throw ContentClientError.notSubscribable(operation: path) }
    }

    /// Runs a persisted query by the fetch policy, and keeps the instance's answer in the cache.
    ///
    /// - Parameters:
    ///   - name: The query's name within the configuration.
    ///   - variables: Its variables.
    ///   - type: The generated type its `data` decodes to.
    ///   - fetchPolicy: Where to look.
    /// - Returns: The data and its source.
    /// - Throws: ``ContentClientError``, ``PersistedQueryURL/UnencodableVariable``, or a transport failure.
    public func executeQuery<ResultData: Decodable & Sendable>(
        _ name: String, variables: some Encodable & Sendable, as type: ResultData.Type,
        fetchPolicy: QueryFetchPolicy
    ) async throws -> OperationResult<ResultData> {
        let query = AEMPersistedQuery(configuration: configuration, name: name)
        let json = try ContentVariables.object(variables)
        var settings = settings
        // Who signs in is part of the key: an author instance answers each user with what they may see.
        var caller = ""
        switch settings.authentication {
        case .none:
            break
        case .basic(let username, _):
            caller = "basic:" + username
        case .bearer(let provider):
            let token = try await provider()
            settings.authentication = .bearer({ token })
            caller = token.map(CallerIdentity.uid(ofIDToken:)) ?? ""
        }
        let callSettings = settings
        return try await cache.fetch(
            key: EntityCache.key(operation: "\(settings.url) \(caller)\n\(query.path)", variables: json),
            operation: query.path, as: type, policy: fetchPolicy, maxAge: cacheMaxAge
        ) { [self] in
            try await connection.client.response(for: query, variables: json, settings: callSettings)
        }
    }
}
