public import ContentCore
public import ContentHTTP
internal import ContentJSON
internal import Foundation

/// One Data Connect connector as an app talks to it, in the shape of Firebase's Swift SDK: where the service is,
/// who calls it, one HTTP client whose connections every call reuses, and a cache of query results.
///
/// Generated code makes one per connector (`DataConnect.moviesConnector.dataConnect`), which lives as long as the
/// process. The location, service and connector come from the workspace when the client is generated; the app
/// sets the rest in code, or calls ``useEmulator(host:port:)``:
///
/// ```swift
/// let connector = DataConnect.moviesConnector
/// connector.useEmulator()                                   // 127.0.0.1:9399
/// connector.dataConnect.settings.idToken = { try await currentUser.idToken() }
/// ```
///
/// An instance made by hand and used owns an HTTP client: call ``shutdown()`` before letting it go.
public final class DataConnect: QueryExecuting {
    /// Where the emulator is unless told otherwise, as Firebase's `DataConnect.EmulatorDefaults` says.
    public enum EmulatorDefaults {
        /// `127.0.0.1`.
        public static let host = "127.0.0.1"
        /// `9399`.
        public static let port = 9399
    }

    /// The connector's service, location and id.
    public let connectorConfig: ConnectorConfig
    /// Query results by operation and variables, normalised by entity id.
    public var cache: EntityCache { connection.cache }

    private let connection: ServiceConnection<DataConnectSettings>

    /// A connector that sends through an HTTP client of its own, made at the first call.
    ///
    /// - Parameters:
    ///   - connectorConfig: The connector.
    ///   - projectID: The Firebase project; the emulator answers any.
    ///   - http: Timeouts, retries, proxies and the response-size cap.
    public init(connectorConfig: ConnectorConfig, projectID: String, http: HTTPSettings = HTTPSettings()) {
        self.connectorConfig = connectorConfig
        connection = ServiceConnection(
            settings: DataConnectSettings(endpoint: .production, project: projectID), http: http, transport: nil)
    }

    /// A connector that sends through a transport the caller owns and shuts down.
    ///
    /// - Parameters:
    ///   - connectorConfig: The connector.
    ///   - settings: Where the service is and who calls it.
    ///   - transport: Where requests go.
    public init(connectorConfig: ConnectorConfig, settings: DataConnectSettings, transport: any HTTPTransport) {
        self.connectorConfig = connectorConfig
        connection = ServiceConnection(settings: settings, http: HTTPSettings(), transport: transport)
    }

    /// Where the service is and who calls it: endpoint, project, API key, ID-token and App Check providers.
    ///
    /// Read at every call, so a change applies to the next one.
    public var settings: DataConnectSettings {
        get { connection.settings }
        set { connection.settings = newValue }
    }

    /// How old a cached result `.preferCache` may answer with; zero (the default, as Firebase's `CacheSettings`)
    /// means always ask the service, and keep its answer for `.cacheOnly`.
    public var cacheMaxAge: Duration {
        get { connection.cacheMaxAge }
        set { connection.cacheMaxAge = newValue }
    }

    /// Sends every later call to an emulator over plain HTTP, such as `content serve` or Firebase's own.
    ///
    /// - Parameters:
    ///   - host: Its host; `127.0.0.1` by default.
    ///   - port: Its port; `9399` by default.
    public func useEmulator(host: String = EmulatorDefaults.host, port: Int = EmulatorDefaults.port) {
        connection.updateSettings { $0.endpoint = .emulator(host: host, port: port) }
    }

    /// Closes the connections of the client this connector made; calls afterwards make a new one.
    ///
    /// - Throws: What the HTTP client reports.
    public func shutdown() async throws {
        try await connection.shutdown()
    }

    /// The operation as the service names it.
    ///
    /// - Parameters:
    ///   - name: The operation's name in its `.gql` file.
    ///   - kind: Query or mutation.
    /// - Returns: The operation.
    public func operation(_ name: String, kind: DataConnectOperation.Kind) -> DataConnectOperation {
        DataConnectOperation(
            location: connectorConfig.location, service: connectorConfig.serviceId,
            connector: connectorConfig.connector, name: name, kind: kind)
    }

    /// Runs a query by the fetch policy, and keeps the service's answer in the cache.
    ///
    /// - Parameters:
    ///   - name: The query's name.
    ///   - variables: Its variables.
    ///   - type: The generated type its `data` decodes to.
    ///   - fetchPolicy: Where to look.
    /// - Returns: The data and its source.
    /// - Throws: ``ContentClientError``, or a transport failure.
    public func executeQuery<ResultData: Decodable & Sendable>(
        _ name: String, variables: some Encodable & Sendable, as type: ResultData.Type,
        fetchPolicy: QueryFetchPolicy
    ) async throws -> OperationResult<ResultData> {
        let json = try ContentVariables.object(variables)
        let (settings, scope) = try await Self.callSettings(settings)
        return try await cache.fetch(
            key: cacheKey(name, variables: json, scope: scope),
            operation: name, as: type, policy: fetchPolicy, maxAge: cacheMaxAge, scope: scope
        ) { [self] in
            try await connection.client.response(
                for: operation(name, kind: .query), variables: json, settings: settings)
        }
    }

    /// The settings for one call, with the ID token asked for once, and the cache scope they make: the endpoint,
    /// the project and the caller (the token's `user_id`), so that one user's cached answers never reach another.
    private static func callSettings(_ settings: DataConnectSettings) async throws -> (DataConnectSettings, String) {
        var settings = settings
        let token = try await settings.idToken?()
        settings.idToken = { token }
        let caller = token.map(CallerIdentity.uid(ofIDToken:)) ?? ""
        return (settings, "\(settings.endpoint.baseURL) \(settings.project) \(caller)")
    }

    /// A query's cache key: the scope, the connector, the operation and its variables.
    private func cacheKey(_ name: String, variables: JSONObject, scope: String) -> String {
        EntityCache.key(operation: "\(scope)\n\(connectorConfig.connector)/\(name)", variables: variables)
    }

    /// Subscribes to a query over the realtime stream and yields every new result, which also refreshes the cache.
    ///
    /// - Parameters:
    ///   - name: The query's name.
    ///   - variables: Its variables.
    ///   - type: The generated type its `data` decodes to.
    /// - Returns: The results, from the first as subscribed, until the iterating task is cancelled or the
    ///   subscription fails (``ContentClientError``); a lost connection is opened again with backoff.
    public func subscribe<ResultData: Decodable & Sendable>(
        _ name: String, variables: some Encodable & Sendable, as type: ResultData.Type
    ) -> AsyncThrowingStream<OperationResult<ResultData>, any Error> {
        let (stream, continuation) = AsyncThrowingStream<OperationResult<ResultData>, any Error>.makeStream()
        let json: JSONObject
        do {
            json = try ContentVariables.object(variables)
        } catch {
            continuation.finish(throwing: error)
            return stream
        }
        let settings = settings
        let operation = operation(name, kind: .query)
        let cache = cache
        let redactor = connection.redactor
        let task = Task { [self] in
            do {
                let scope = try await Self.callSettings(settings).1
                let key = cacheKey(name, variables: json, scope: scope)
                var failedAttempts = 0
                for try await event in DataConnectSubscription.events(
                    of: operation, variables: json, settings: settings)
                {
                    switch event {
                    case .reconnecting(_, let reason):
                        // Before any result, a stream that cannot be opened is a wrong endpoint far more often than
                        // a passing outage: say so instead of waiting in silence. After one, keep reconnecting.
                        guard failedAttempts >= 0 else { continue }
                        failedAttempts += 1
                        if failedAttempts >= Self.attemptsBeforeFirstResult {
                            throw ContentClientError.streamUnavailable(
                                operation: name, url: redactor.redact(url: settings.endpoint.baseURL),
                                reason: redactor.redact(reason))
                        }
                    case .result(let data, let errors, let extensions):
                        failedAttempts = -1
                        if !errors.isEmpty {
                            throw ContentClientError.graphQL(
                                operation: name, Diagnostic.graphQLErrors(errors, redactor: redactor))
                        }
                        guard data != .null else { throw ContentClientError.noData(operation: name) }
                        let decoded = try ContentClient.decode(type, from: data, operation: name)
                        await cache.store(data: data, extensions: extensions, key: key, scope: scope)
                        continuation.yield(OperationResult(data: decoded, source: .server))
                    }
                }
                continuation.finish()
            } catch {
                continuation.finish(throwing: error)
            }
        }
        continuation.onTermination = { _ in task.cancel() }
        return stream
    }

    /// How many times a subscription tries to open the stream before its first result, before it gives up.
    static let attemptsBeforeFirstResult = 3

    /// Runs a mutation; the rows it answers with update the cached results that hold them.
    ///
    /// - Parameters:
    ///   - name: The mutation's name.
    ///   - variables: Its variables.
    ///   - type: The generated type its `data` decodes to.
    /// - Returns: The data, from the service.
    /// - Throws: ``ContentClientError``, or a transport failure.
    public func executeMutation<ResultData: Decodable & Sendable>(
        _ name: String, variables: some Encodable, as type: ResultData.Type
    ) async throws -> OperationResult<ResultData> {
        let (settings, scope) = try await Self.callSettings(settings)
        let answer = try await connection.client.response(
            for: operation(name, kind: .mutation), variables: try ContentVariables.object(variables),
            settings: settings)
        let decoded = try ContentClient.decode(type, from: answer.data, operation: name)
        await cache.merge(data: answer.data, extensions: answer.extensions, scope: scope)
        return OperationResult(data: decoded, source: .server)
    }
}

/// A connector's service, location and id, with the names Firebase's `ConnectorConfig` gives them.
public struct ConnectorConfig: Sendable, Hashable {
    /// The service id from `dataconnect.yaml`.
    public var serviceId: String
    /// The service's region, such as `us-central1`.
    public var location: String
    /// The connector id from `connector.yaml`.
    public var connector: String

    /// Names a connector.
    ///
    /// - Parameters:
    ///   - serviceId: The service id.
    ///   - location: The region.
    ///   - connector: The connector id.
    public init(serviceId: String, location: String, connector: String) {
        self.serviceId = serviceId
        self.location = location
        self.connector = connector
    }
}
