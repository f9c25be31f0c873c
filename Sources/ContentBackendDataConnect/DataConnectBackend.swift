public import ContentCore
public import ContentDataConnect
public import ContentJSON
internal import ContentKit
internal import ContentYAML
internal import Foundation
internal import Logging

/// Runs a workspace's connector operations against Data Connect: production, or an emulator.
///
/// The request is the REST call Firebase's web SDK makes: `POST …/connectors/{connector}:executeQuery`
/// (or `:executeMutation`) with `{"name", "operationName", "variables"}`. Queries may be retried by the
/// transport; mutations never are. A 401 is retried once with a fresh token when `auth.idTokenCommand`
/// is configured.
public struct DataConnectBackend: ContentBackend {
    /// The backend's name.
    public let name: String
    /// The workspace the operations come from.
    public let workspace: DataConnectWorkspace
    package let configuration: DataConnectConfiguration
    package let context: BackendContext
    /// `https://firebasedataconnect.googleapis.com` or `http://host:port` of an emulator.
    package let baseURL: String
    /// The ID token, when one is configured or was fetched.
    package var idToken: String?

    /// Creates a backend.
    ///
    /// - Parameters:
    ///   - name: The backend's name.
    ///   - workspace: The workspace.
    ///   - configuration: Its settings.
    ///   - context: Transport and shared settings.
    ///   - baseURL: Where the service is.
    ///   - idToken: The caller's ID token.
    public init(
        name: String, workspace: DataConnectWorkspace, configuration: DataConnectConfiguration,
        context: BackendContext, baseURL: String, idToken: String?
    ) {
        self.name = name
        self.workspace = workspace
        self.configuration = configuration
        self.context = context
        self.baseURL = baseURL
        self.idToken = idToken
    }

    /// The service location (`dataconnect.yaml`, unless configured).
    public var location: String { configuration.location ?? workspace.location }
    /// The service id (`dataconnect.yaml`, unless configured).
    public var service: String { configuration.service ?? workspace.serviceID }

    /// Runs `connector/operation` with the request's variables.
    ///
    /// - Parameter request: `operation` is `connector/operationName`.
    /// - Returns: The response's `data`, with the items at the operation's single root field.
    /// - Throws: ``DataConnectError``, or a transport failure.
    public func execute(_ request: ContentRequest) async throws -> ContentResult {
        let parts = request.operation.split(separator: "/", maxSplits: 1).map(String.init)
        guard parts.count == 2 else {
            throw DataConnectError(kind: .usage, description: "expected connector/operation, got \(request.operation)")
        }
        let (connector, operation) = try resolve(connector: parts[0], operation: parts[1])
        return try await run(operation, in: connector, variables: request.variables)
    }

    /// A connector and one of its operations, by name, with suggestions when either is unknown.
    ///
    /// - Parameters:
    ///   - connectorID: The `connectorId`.
    ///   - operationName: The operation.
    /// - Returns: Both.
    /// - Throws: ``DataConnectError`` of kind `usage`.
    public func resolve(connector connectorID: String, operation operationName: String) throws -> (
        Connector, ConnectorOperation
    ) {
        let connector = try self.connector(connectorID)
        guard let operation = connector.operation(operationName) else {
            let names = connector.operations.map(\.name)
            let suggestion = Self.suggestion(operationName, names)
            throw DataConnectError(
                kind: .usage,
                description: "connector \(connectorID) has no operation \(operationName)\(suggestion); "
                    + "`content query \(connectorID)` lists them")
        }
        return (connector, operation)
    }

    /// A connector by id.
    ///
    /// - Parameter id: The `connectorId`.
    /// - Returns: The connector.
    /// - Throws: ``DataConnectError`` of kind `usage`.
    public func connector(_ id: String) throws -> Connector {
        guard let connector = workspace.connector(id) else {
            let ids = workspace.connectors.map(\.id)
            throw DataConnectError(
                kind: .usage,
                description: "no connector \(id) in \(workspace.directory.path)\(Self.suggestion(id, ids)); "
                    + "it has: \(ids.joined(separator: ", "))")
        }
        return connector
    }

    package static func suggestion(_ word: String, _ candidates: [String]) -> String {
        closestMatch(to: word, in: candidates).map { " (did you mean \($0)?)" } ?? ""
    }

    /// Runs one operation.
    ///
    /// - Parameters:
    ///   - operation: The operation.
    ///   - connector: Its connector.
    ///   - variables: Its variables, already typed.
    /// - Returns: The result.
    /// - Throws: ``DataConnectError``, or a transport failure.
    public func run(_ operation: ConnectorOperation, in connector: Connector, variables: JSONObject) async throws
        -> ContentResult
    {
        var response = try await context.transport.send(request(operation, in: connector, variables: variables))
        if response.status == 401, let command = configuration.auth?.idTokenCommand {
            context.logger.info("401: running auth.idTokenCommand for a fresh ID token and retrying once")
            var refreshed = self
            refreshed.idToken = try Self.runTokenCommand(command)
            response = try await context.transport.send(
                refreshed.request(operation, in: connector, variables: variables))
        }
        return try result(of: response, operation: operation, connector: connector)
    }

    /// The HTTP request for an operation; `--dry-run` prints it.
    ///
    /// - Parameters:
    ///   - operation: The operation.
    ///   - connector: Its connector.
    ///   - variables: Its variables.
    /// - Returns: The request.
    public func request(_ operation: ConnectorOperation, in connector: Connector, variables: JSONObject)
        -> HTTPTransportRequest
    {
        let wire = DataConnectOperation(
            location: location, service: service, connector: connector.id, name: operation.name,
            kind: operation.kind == .query ? .query : .mutation)
        let credentials = DataConnectOperation.Credentials(
            idToken: idToken, appCheckToken: configuration.auth?.appCheckToken?.value,
            apiKey: configuration.auth?.apiKey?.value, headers: configuration.headers ?? [:])
        return wire.request(
            variables: variables, baseURL: baseURL, project: configuration.project,
            apiVersion: configuration.apiVersion?.rawValue ?? "v1", credentials: credentials)
    }

    package func result(of response: HTTPTransportResponse, operation: ConnectorOperation, connector: Connector) throws
        -> ContentResult
    {
        let url = context.redactor.redact(url: response.url)
        let parsed = try? JSONParser().parse(response.body)
        guard response.isSuccess else {
            let error = GoogleAPIErrorBody(parsed, httpStatus: response.status)
            let status = error?.status.map { " \($0)" } ?? ""
            let message =
                error?.shownMessage(redactor: context.redactor)
                ?? GoogleAPIErrorBody.firstLine(of: response.body, redactor: context.redactor)
            // The GraphQL errors of `details` come last, after the hint, each on a line of its own.
            let details = error?.detailLines(redactor: context.redactor) ?? ""
            var hint = ""
            switch response.status {
            case 404 where message.contains(operation.name) || message.lowercased().contains("operation"):
                hint =
                    "; the service does not have \(operation.name) of connector \(connector.id): the local workspace "
                    + "and the deployed service differ (deploy the connector, or point the backend at an emulator "
                    + "of this workspace)"
            case 401:
                // The service also answers 401 to a token below the operation's level (an anonymous user calling a
                // USER operation), so the hint names the level.
                let policy = connector.effectiveAuth(of: operation)
                hint =
                    "; send a Firebase ID token (auth.idToken, or auth.idTokenCommand) of a caller that meets the "
                    + "operation's @auth (\(policy))"
            case 403:
                let policy = connector.effectiveAuth(of: operation)
                hint = "; the caller does not meet the operation's @auth (\(policy))"
            default:
                break
            }
            throw DataConnectError(
                kind: .httpStatus(response.status),
                description:
                    "\(operation.name): HTTP \(response.status)\(status) from \(url): \(message)\(hint)\(details)")
        }
        guard case .object(let body)? = parsed else {
            throw DataConnectError(
                kind: .malformedResponse, description: "\(operation.name): \(url) did not answer a JSON object")
        }
        let errors = body["errors"]?.arrayValue ?? []
        let diagnostics = Diagnostic.graphQLErrors(errors, redactor: context.redactor)
        let data = body["data"] ?? .null
        if data == .null {
            guard !errors.isEmpty else {
                throw DataConnectError(
                    kind: .malformedResponse, description: "\(operation.name): \(url) answered neither data nor errors")
            }
            throw DataConnectError(
                kind: .operationFailed,
                description: "\(operation.name) failed:\n"
                    + diagnostics.map { "  \($0.message)" }.joined(separator: "\n"))
        }
        var metadata = ContentResult.Metadata(
            httpStatus: response.status, duration: response.duration, diagnostics: diagnostics)
        let itemsPath = operation.rootFields.count == 1 ? "data.\(operation.rootFields[0])" : "data"
        metadata.itemsPath = try? JSONPath(parsing: itemsPath)
        return ContentResult(body: .document(.object(body)), metadata: metadata)
    }

    /// Runs `auth.idTokenCommand` and returns its output, trimmed.
    package static func runTokenCommand(_ command: String) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", command]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.standardError
        do {
            try process.run()
        } catch {
            throw DataConnectError(kind: .configuration, description: "auth.idTokenCommand cannot run: \(error)")
        }
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let token = String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        guard process.terminationStatus == 0, !token.isEmpty else {
            throw DataConnectError(
                kind: .configuration,
                description: "auth.idTokenCommand exited with status \(process.terminationStatus) and "
                    + (token.isEmpty ? "printed no token" : "output")
                    + "; run it by hand to see why")
        }
        return token
    }
}

extension String {
    /// `nil` for an empty string: `${VAR:-}` in the configuration means "not set".
    package var nonEmpty: String? { isEmpty ? nil : self }
}
