public import ContentCore
internal import ContentJSON
internal import ContentRuntime
public import Foundation
public import Logging

/// Runs operations against the backends a `content.yaml` configures, from Swift: the library face of the
/// `content` command, and what generated clients call.
///
/// ```swift
/// let client = try ContentClient()  // content.yaml: --config rules as the CLI (CONTENT_CONFIG, ./, XDG)
/// let movies = MoviesConnector(client: client)
/// for movie in try await movies.listMoviesByGenre(genre: "Sci-Fi").movies { print(movie.title) }
/// ```
///
/// Each call makes its backend over a fresh HTTP transport and shuts it down afterwards, so a client is
/// a plain value that any task may share.
public struct ContentClient: Sendable {
    private let session: ContentSession
    private let logger: Logger

    /// Reads the configuration the way `content` does.
    ///
    /// - Parameters:
    ///   - configFile: A `content.yaml`; `nil` looks in `$CONTENT_CONFIG`, `./content.yaml` and the user
    ///     config folder, and an absent file means no backends.
    ///   - environment: What `${VAR}` in the file reads; the process environment by default.
    ///   - logger: Where request logs go; nothing by default.
    /// - Throws: A configuration error with the file, line and column.
    public init(
        configFile: String? = nil,
        environment: [String: String] = ProcessInfo.processInfo.environment,
        logger: Logger = Logger(label: "content", factory: { _ in SwiftLogNoOpLogHandler() })
    ) throws {
        session = try ContentSession.load(
            configFlag: configFile, environment: environment, registry: BuiltInBackends.registry)
        self.logger = logger
    }

    /// Runs one request against a configured backend.
    ///
    /// - Parameters:
    ///   - request: The operation and its variables.
    ///   - backendType: The backend plugin, such as `dataconnect` or `aem`.
    ///   - backend: The backend's name in the file; `nil` when only one backend has that type.
    /// - Returns: The backend's result.
    /// - Throws: Configuration, transport, HTTP and operation failures.
    public func execute(_ request: ContentRequest, backendType: String, backend: String? = nil) async throws
        -> ContentResult
    {
        let configured = try session.selectBackend(named: backend, type: backendType)
        return try await session.withBackend(configured, logger: logger) { made in
            let result = try await made.execute(request)
            // Streamed items need the transport, which closes when this returns: collect them first.
            guard case .items(let stream) = result.body else { return result }
            var items: [JSONValue] = []
            for try await item in stream { items.append(item) }
            return ContentResult(body: .document(.array(items)), metadata: result.metadata)
        }
    }

    /// Runs a GraphQL operation with `Encodable` variables and decodes its `data` member: what generated
    /// clients call.
    ///
    /// - Parameters:
    ///   - type: The type `data` decodes to.
    ///   - operation: The operation, as the backend names it (`connector/operation` for Data Connect).
    ///   - variables: The variables; they must encode as a JSON object.
    ///   - backendType: The backend plugin.
    ///   - backend: The backend's name, or `nil` for the only one of its type.
    /// - Returns: The decoded data.
    /// - Throws: As ``data(_:for:backendType:backend:)``, and `EncodingError` for variables that do not encode.
    public func data<Data: Decodable>(
        _ type: Data.Type, operation: String, variables: some Encodable = NoVariables(), backendType: String,
        backend: String? = nil
    ) async throws -> Data {
        let request = ContentRequest(operation: operation, variables: try ContentVariables.object(variables))
        return try await data(type, for: request, backendType: backendType, backend: backend)
    }

    /// Runs a GraphQL operation and decodes its `data` member.
    ///
    /// - Parameters:
    ///   - type: The type `data` decodes to.
    ///   - request: The operation and its variables.
    ///   - backendType: The backend plugin.
    ///   - backend: The backend's name, or `nil` for the only one of its type.
    /// - Returns: The decoded data.
    /// - Throws: ``ContentClientError`` when the response carries GraphQL errors or `data` does not decode,
    ///   or any failure of ``execute(_:backendType:backend:)``.
    public func data<Data: Decodable>(
        _ type: Data.Type, for request: ContentRequest, backendType: String, backend: String? = nil
    ) async throws -> Data {
        let result = try await execute(request, backendType: backendType, backend: backend)
        let errors = result.metadata.diagnostics.filter { $0.severity == .error }
        if !errors.isEmpty { throw ContentClientError.graphQL(operation: request.operation, errors) }
        guard case .document(let document) = result.body, let data = document["data"], data != .null else {
            throw ContentClientError.noData(operation: request.operation)
        }
        do {
            return try JSONModelDecoder().decode(type, from: data.serialized())
        } catch {
            throw ContentClientError.undecodable(operation: request.operation, String(describing: error))
        }
    }
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

/// Why a typed call failed after the backend answered.
public enum ContentClientError: ContentFailure, Equatable {
    /// The response carried GraphQL errors.
    case graphQL(operation: String, [Diagnostic])
    /// The response had no `data`.
    case noData(operation: String)
    /// `data` did not match the generated types: the schema changed since the client was generated.
    case undecodable(operation: String, String)

    /// Operation failures, like the CLI's exit status 6.
    public var category: FailureCategory { .operationFailed }

    /// What failed and what to do.
    public var description: String {
        switch self {
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
