public import ContentCore
internal import ContentHTTP
internal import ContentJSON
internal import Foundation
public import Logging

/// Runs Data Connect operations and AEM persisted queries from an app: what generated clients call.
///
/// A client owns one HTTP transport for its whole life, so calls reuse connections; call ``shutdown()`` when
/// done (or use ``withClient(configuration:logger:_:)``), as with AsyncHTTPClient's `HTTPClient`. Operations run
/// by name, as the generated client names them: no `.gql` or `.graphql` file is read at run time.
///
/// ```swift
/// let client = ContentClient(configuration: .init(
///     dataConnect: .init(endpoint: .emulator(host: "127.0.0.1", port: 9399), project: "demo")))
/// let movies = try await MoviesConnector(client: client).listMoviesByGenre(genre: "Sci-Fi").movies
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
        var located = operation
        located.location = settings.location ?? operation.location
        located.service = settings.service ?? operation.service
        let credentials = DataConnectOperation.Credentials(
            idToken: try await settings.idToken?(), appCheckToken: try await settings.appCheckToken?(),
            apiKey: settings.apiKey, headers: settings.headers)
        let request = located.request(
            variables: try ContentVariables.object(variables), baseURL: settings.endpoint.baseURL,
            project: settings.project, apiVersion: settings.apiVersion, credentials: credentials)
        return try decode(type, from: try await transport.send(request), operation: operation.name)
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
        let url = try PersistedQueryURL.make(
            base: settings.url, configuration: query.configuration, name: query.name,
            variables: try ContentVariables.object(variables))
        var headers: HeaderFields = ["Accept": "application/json"]
        for (name, value) in settings.headers.sorted(by: { $0.key < $1.key }) { headers[name] = value }
        switch settings.authentication {
        case .none:
            break
        case .basic(let username, let password):
            headers["Authorization"] = "Basic " + Foundation.Data("\(username):\(password)".utf8).base64EncodedString()
        case .bearer(let token):
            if let token = try await token(), !token.isEmpty { headers["Authorization"] = "Bearer \(token)" }
        }
        let response = try await transport.send(HTTPTransportRequest(method: .get, url: url, headers: headers))
        return try decode(type, from: response, operation: query.path)
    }

    /// Reads a GraphQL response: an error status, `errors`, or `data` decoded into `type`.
    private func decode<Data: Decodable>(_ type: Data.Type, from response: HTTPTransportResponse, operation: String)
        throws -> Data
    {
        let url = redactor.redact(url: response.url)
        let parsed = try? JSONParser().parse(response.body)
        guard response.isSuccess else {
            // Data Connect says why in `{"error": {"message", "status"}}`; AEM in its body's first line.
            let message =
                parsed?["error"]?["message"]?.stringValue
                ?? String(decoding: response.body.prefix(200), as: UTF8.self).split(separator: "\n").first.map(
                    String.init) ?? ""
            throw ContentClientError.httpStatus(
                operation: operation, status: response.status, url: url, message: redactor.redact(message))
        }
        guard case .object(let body)? = parsed else {
            throw ContentClientError.malformedResponse(operation: operation, url: url)
        }
        let errors = Diagnostic.graphQLErrors(body["errors"]?.arrayValue ?? [], redactor: redactor)
        if !errors.isEmpty { throw ContentClientError.graphQL(operation: operation, errors) }
        guard let data = body["data"], data != .null else { throw ContentClientError.noData(operation: operation) }
        do {
            return try JSONModelDecoder().decode(type, from: data.serialized())
        } catch {
            throw ContentClientError.undecodable(operation: operation, String(describing: error))
        }
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

    /// The category, as the CLI's exit codes count them.
    public var category: FailureCategory {
        switch self {
        case .notConfigured: return .configuration
        case .httpStatus: return .httpStatus
        case .malformedResponse, .graphQL, .noData, .undecodable: return .operationFailed
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
        }
    }
}
