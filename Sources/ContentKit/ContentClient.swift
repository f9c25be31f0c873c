public import ContentCore
internal import ContentHTTP
public import ContentJSON
internal import Foundation
public import Logging

/// Runs Data Connect operations and AEM persisted queries by name, configured in code: what the generated
/// clients' ``DataConnect`` and ``AEM`` objects send through, and what a tool without a generated client can call.
///
/// A client owns one HTTP transport for its whole life, so calls reuse connections; call ``shutdown()`` when
/// done (or use ``withClient(configuration:logger:_:)``), as with AsyncHTTPClient's `HTTPClient`. No `.gql` or
/// `.graphql` file is read at run time.
///
/// ```swift
/// let client = ContentClient(configuration: .init(
///     dataConnect: .init(endpoint: .emulator(host: "127.0.0.1", port: 9399), project: "demo")))
/// let operation = DataConnectOperation(
///     location: "us-central1", service: "content-sample", connector: "movies", name: "listGenres", kind: .query)
/// let genres = try await client.data(AnyValue.self, for: operation)
/// try await client.shutdown()
/// ```
public final class ContentClient: Sendable {
    /// What the client was made with.
    public let configuration: ContentClientConfiguration
    private let transport: any HTTPTransport
    private let ownedTransport: AsyncHTTPTransport?
    private var redactor: Redactor { configuration.http.redactor }

    /// Makes a client and the transport it keeps until ``shutdown()``.
    ///
    /// - Parameters:
    ///   - configuration: Where the services are and how HTTP behaves.
    ///   - logger: Where each exchange is logged, at `debug`, with credentials masked; nothing by default.
    public init(
        configuration: ContentClientConfiguration,
        logger: Logger = Logger(label: "content", factory: { _ in SwiftLogNoOpLogHandler() })
    ) {
        self.configuration = configuration
        let transport = AsyncHTTPTransport(settings: configuration.http, logger: logger)
        self.transport = transport
        ownedTransport = transport
    }

    /// Makes a client over a transport the caller owns and shuts down, such as a test's scripted one.
    ///
    /// - Parameters:
    ///   - configuration: Where the services are; its `http` settings are the transport's business.
    ///   - transport: Where requests go.
    public init(configuration: ContentClientConfiguration, transport: any HTTPTransport) {
        self.configuration = configuration
        self.transport = transport
        ownedTransport = nil
    }

    /// Runs `body` with a new client and shuts the client down afterwards, whether `body` returns or throws.
    ///
    /// - Parameters:
    ///   - configuration: Where the services are and how HTTP behaves.
    ///   - logger: Where exchanges are logged.
    ///   - isolation: The caller's actor, which `body` runs on, so it may touch what the caller owns.
    ///   - body: What to do with the client.
    /// - Returns: What `body` returns.
    /// - Throws: What `body` throws, else a failure to shut down.
    public static func withClient<Result>(
        configuration: ContentClientConfiguration,
        logger: Logger = Logger(label: "content", factory: { _ in SwiftLogNoOpLogHandler() }),
        isolation: isolated (any Actor)? = #isolation,
        _ body: (ContentClient) async throws -> Result
    ) async throws -> Result {
        let client = ContentClient(configuration: configuration, logger: logger)
        let result: Swift.Result<Result, any Error>
        do {
            result = .success(try await body(client))
        } catch {
            result = .failure(error)
        }
        // A failure of the body says more than a failure to close after it.
        do {
            try await client.shutdown()
        } catch {
            if case .success = result { throw error }
        }
        return try result.get()
    }

    /// Closes the client's connections; calls afterwards fail.
    ///
    /// - Throws: What the HTTP client reports, such as being shut down twice.
    public func shutdown() async throws {
        try await ownedTransport?.shutdown()
    }

    /// Runs a Data Connect operation and decodes its `data`.
    ///
    /// - Parameters:
    ///   - type: The type `data` decodes to.
    ///   - operation: The operation, as generated.
    ///   - variables: Its variables; they must encode as a JSON object.
    /// - Returns: The decoded data.
    /// - Throws: ``ContentClientError``, or a transport failure.
    public func data<Data: Decodable>(
        _ type: Data.Type, for operation: DataConnectOperation, variables: some Encodable = NoVariables()
    ) async throws -> Data {
        guard let settings = configuration.dataConnect else {
            throw ContentClientError.notConfigured(service: "Data Connect", operation: operation.name)
        }
        let answer = try await response(
            for: operation, variables: try ContentVariables.object(variables), settings: settings)
        return try Self.decode(type, from: answer.data, operation: operation.name)
    }

    /// Runs a Data Connect operation against the service `settings` name, and returns its `data` and `extensions`
    /// as they came.
    ///
    /// - Parameters:
    ///   - operation: The operation, as generated.
    ///   - variables: Its variables.
    ///   - settings: Where the service is and who calls it; the location and service override the operation's.
    /// - Returns: The answer's `data` (never null) and `extensions`.
    /// - Throws: ``ContentClientError``, or a transport failure.
    public func response(for operation: DataConnectOperation, variables: JSONObject, settings: DataConnectSettings)
        async throws -> (data: JSONValue, extensions: JSONValue?)
    {
        var located = operation
        located.location = settings.location ?? operation.location
        located.service = settings.service ?? operation.service
        let idToken = try await settings.idToken?()
        let appCheckToken = try await settings.appCheckToken?()
        let credentials = DataConnectOperation.Credentials(
            idToken: idToken, appCheckToken: appCheckToken, apiKey: settings.apiKey, headers: settings.headers)
        let request = located.request(
            variables: variables, baseURL: settings.endpoint.baseURL, project: settings.project,
            apiVersion: settings.apiVersion, credentials: credentials)
        // A server that echoes a credential in an error must not put it in the message.
        let body = try body(
            of: try await transport.send(request), operation: operation.name,
            redactor: redactor.adding([idToken, appCheckToken, settings.apiKey].compactMap { $0 }))
        return (body.data, body.extensions)
    }

    /// Decodes an answer's `data` into the generated type.
    ///
    /// - Parameters:
    ///   - type: The generated type.
    ///   - data: The `data`.
    ///   - operation: The operation's name, for errors.
    /// - Returns: The decoded value.
    /// - Throws: ``ContentClientError/undecodable(operation:_:)`` when the shapes differ.
    public static func decode<Data: Decodable>(_ type: Data.Type, from data: JSONValue, operation: String) throws
        -> Data
    {
        do {
            return try JSONModelDecoder().decode(type, from: data.serialized())
        } catch {
            throw ContentClientError.undecodable(operation: operation, String(describing: error))
        }
    }

    /// Runs an AEM persisted query by GET, as Adobe's clients do, and decodes its `data`.
    ///
    /// - Parameters:
    ///   - type: The type `data` decodes to.
    ///   - query: The persisted query, as generated.
    ///   - variables: Its variables; they must encode as a JSON object.
    /// - Returns: The decoded data.
    /// - Throws: ``ContentClientError``, ``PersistedQueryURL/UnencodableVariable``, or a transport failure.
    public func data<Data: Decodable>(
        _ type: Data.Type, for query: AEMPersistedQuery, variables: some Encodable = NoVariables()
    ) async throws -> Data {
        guard let settings = configuration.aem else {
            throw ContentClientError.notConfigured(service: "AEM", operation: query.path)
        }
        let answer = try await response(
            for: query, variables: try ContentVariables.object(variables), settings: settings)
        return try Self.decode(type, from: answer.data, operation: query.path)
    }

    /// Runs an AEM persisted query by GET against the instance `settings` name, and returns its `data` and
    /// `extensions` as they came.
    ///
    /// - Parameters:
    ///   - query: The persisted query, as generated.
    ///   - variables: Its variables.
    ///   - settings: Where the instance is and how to sign in.
    /// - Returns: The answer's `data` (never null) and `extensions`.
    /// - Throws: ``ContentClientError``, ``PersistedQueryURL/UnencodableVariable``, or a transport failure.
    public func response(for query: AEMPersistedQuery, variables: JSONObject, settings: AEMSettings) async throws
        -> (data: JSONValue, extensions: JSONValue?)
    {
        let url = try PersistedQueryURL.make(
            base: settings.url, configuration: query.configuration, name: query.name, variables: variables)
        var headers: HeaderFields = ["Accept": "application/json"]
        for (name, value) in settings.headers.sorted(by: { $0.key < $1.key }) { headers[name] = value }
        var secrets: [String] = []
        switch settings.authentication {
        case .none:
            break
        case .basic(let username, let password):
            let encoded = Foundation.Data("\(username):\(password)".utf8).base64EncodedString()
            headers["Authorization"] = "Basic " + encoded
            secrets += [password, encoded]
        case .bearer(let token):
            if let token = try await token(), !token.isEmpty {
                headers["Authorization"] = "Bearer \(token)"
                secrets.append(token)
            }
        }
        let response = try await transport.send(HTTPTransportRequest(method: .get, url: url, headers: headers))
        return try body(of: response, operation: query.path, redactor: redactor.adding(secrets))
    }

    /// Reads a GraphQL response: an error status, `errors`, or its `data` and `extensions`.
    ///
    /// - Parameters:
    ///   - response: The response.
    ///   - operation: The operation's name, for errors.
    ///   - redactor: Masks secrets in what errors show, the request's credentials among them.
    /// - Returns: The answer's `data` (never null) and `extensions`.
    /// - Throws: ``ContentClientError`` for an error status, GraphQL errors, no data or a body that is not JSON.
    private func body(of response: HTTPTransportResponse, operation: String, redactor: Redactor) throws
        -> (data: JSONValue, extensions: JSONValue?)
    {
        let url = redactor.redact(url: response.url)
        let parsed = try? JSONParser().parse(response.body)
        guard response.isSuccess else {
            // Data Connect says why in `{"error": {"message", "status"}}` (its emulator in `{"code", "message"}`), AEM
            // in a top-level `message` or in its body's first line.
            let error = GoogleAPIErrorBody(parsed, httpStatus: response.status)
            let message =
                error.map { $0.shownMessage(redactor: redactor) + $0.detailLines(redactor: redactor) }
                ?? GoogleAPIErrorBody.firstLine(of: response.body, redactor: redactor)
            throw ContentClientError.httpStatus(
                operation: operation, status: response.status, url: url, message: message)
        }
        guard case .object(let body)? = parsed else {
            throw ContentClientError.malformedResponse(operation: operation, url: url)
        }
        let errors = Diagnostic.graphQLErrors(body["errors"]?.arrayValue ?? [], redactor: redactor)
        if !errors.isEmpty { throw ContentClientError.graphQL(operation: operation, errors) }
        guard let data = body["data"], data != .null else { throw ContentClientError.noData(operation: operation) }
        return (data, body["extensions"])
    }
}

/// One persisted query of an AEM configuration: what a generated client calls.
public struct AEMPersistedQuery: Sendable, Hashable {
    /// The persisted-query configuration, such as `wknd-shared`.
    public var configuration: String
    /// The query's name.
    public var name: String

    /// Names a persisted query.
    ///
    /// - Parameters:
    ///   - configuration: The configuration.
    ///   - name: The query's name.
    public init(configuration: String, name: String) {
        self.configuration = configuration
        self.name = name
    }

    /// `configuration/name`.
    public var path: String { "\(configuration)/\(name)" }
}

/// The variables of an operation that declares none: an empty object.
public struct NoVariables: Encodable, Sendable {
    /// No variables.
    public init() {}

    /// Encodes the value in its wire form.
    public func encode(to encoder: any Encoder) throws {
        _ = encoder.container(keyedBy: NoKeys.self)
    }

    private enum NoKeys: CodingKey {}
}

/// Why a call failed after the request was made.
public enum ContentClientError: ContentFailure, Equatable {
    /// The configuration has no settings for the service the operation belongs to.
    case notConfigured(service: String, operation: String)
    /// The service answered with an error status.
    case httpStatus(operation: String, status: Int, url: String, message: String)
    /// The body is not a JSON object.
    case malformedResponse(operation: String, url: String)
    /// The response carried GraphQL errors.
    case graphQL(operation: String, [Diagnostic])
    /// The response had no `data`.
    case noData(operation: String)
    /// `data` did not match the generated types: the schema changed since the client was generated.
    case undecodable(operation: String, String)
    /// A `.cacheOnly` fetch of a query the cache has no answer for.
    case notCached(operation: String)
    /// The service refused a subscription: the HTTP status the REST call would have had, the gRPC code, why.
    case subscriptionRefused(operation: String, status: Int, code: String, message: String)
    /// The service cancelled a subscription, with its reasons.
    case subscriptionEnded(operation: String, reasons: String)
    /// The service has no realtime stream (AEM).
    case notSubscribable(operation: String)
    /// The realtime stream could not be opened before a subscription's first result.
    case streamUnavailable(operation: String, url: String, reason: String)

    /// The category, as the CLI's exit codes count them.
    public var category: FailureCategory {
        switch self {
        case .notConfigured, .notSubscribable: return .configuration
        case .streamUnavailable: return .transport
        case .httpStatus, .subscriptionRefused: return .httpStatus
        case .malformedResponse, .graphQL, .noData, .undecodable, .notCached, .subscriptionEnded:
            return .operationFailed
        }
    }

    /// What failed and what to do.
    public var description: String {
        switch self {
        case .notConfigured(let service, let operation):
            return "\(operation): the client has no \(service) settings; set them in ContentClientConfiguration"
        case .httpStatus(let operation, let status, let url, let message):
            return "\(operation): HTTP \(status) from \(url)\(message.isEmpty ? "" : ": \(message)")"
        case .malformedResponse(let operation, let url):
            return "\(operation): \(url) did not answer a JSON object"
        case .graphQL(let operation, let errors):
            return "\(operation) failed:\n"
                + errors.map { "  \($0.location.map { "\($0): " } ?? "")\($0.message)" }.joined(separator: "\n")
        case .noData(let operation):
            return "\(operation) answered without data"
        case .undecodable(let operation, let detail):
            return "\(operation): the response does not match the generated types (\(detail)); "
                + "regenerate the client from the current schema"
        case .subscriptionRefused(let operation, _, let code, let message):
            return "the subscription to \(operation) was refused: \(code): \(message)"
        case .subscriptionEnded(let operation, let reasons):
            return "the server ended the subscription to \(operation)" + (reasons.isEmpty ? "" : ": \(reasons)")
        case .streamUnavailable(let operation, let url, let reason):
            return "\(operation): the realtime stream at \(url) could not be opened (\(reason)); check the endpoint "
                + "(useEmulator, settings.endpoint) and that the service is running"
        case .notSubscribable(let operation):
            return "\(operation): this service has no realtime stream; execute the query again instead"
        case .notCached(let operation):
            return "\(operation): the cache has no result for these variables; execute it with .preferCache or "
                + ".serverOnly first"
        }
    }
}
