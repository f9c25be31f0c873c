internal import ArgumentParser
internal import ContentBackendDataConnect
internal import ContentCommandLine
internal import ContentConfig
internal import ContentCore
internal import ContentDataConnect
internal import ContentJSON
internal import ContentOutput
internal import ContentRuntime
internal import Foundation

/// What `content query` and `content mutate` do: find the backend (or the built-in sample), then list,
/// dry-run or run.
struct DataConnectInvocation: Sendable {
    let kind: ConnectorOperation.Kind
    let options: GlobalOptions
    let output: OutputOptions
    let dataConnect: DataConnectOptions
    let connector: String?
    let operation: String?
    let flags: [String]

    static let registry = BackendRegistry([DataConnectPlugin.self])

    func run() async throws {
        try await withConfiguredBackend { session, configured, configuration in
            // Listing and dry runs need the workspace, not the network or a token.
            let offline = try DataConnectPlugin.makeDataConnectBackend(
                name: configured.name, configuration: configuration,
                context: BackendContext(
                    transport: OfflineTransport(), baseDirectory: configured.section.baseDirectory, isOffline: true),
                environment: options.environment)
            let settings = try output.settings(
                configuredFormat: session.configuration.output, environment: options.environment)
            guard let connectorID = connector else {
                try await printResult(Self.connectorList(offline.workspace), settings: settings)
                return
            }
            guard let operationName = operation else {
                try await printResult(Self.operationList(try offline.connector(connectorID)), settings: settings)
                return
            }
            let (connector, operation) = try offline.resolve(connector: connectorID, operation: operationName)
            guard operation.kind == kind else {
                let verb = operation.kind == .query ? "query" : "mutate"
                throw DataConnectError(
                    kind: .usage,
                    description: "\(operation.name) is a \(operation.kind.rawValue); run it with "
                        + "`content \(verb) \(connector.id) \(operation.name)`")
            }
            let base = try Self.variablesObject(dataConnect.vars, signature: operation.signature)
            let variables = try OperationVariables(operation: operation, enums: offline.workspace.schema.enums)
                .parse(flags, base: base)
            if dataConnect.watch {
                guard kind == .query, !dataConnect.dryRun else {
                    throw DataConnectError(
                        kind: .usage,
                        description: kind == .query
                            ? "--watch subscribes, and --dry-run sends nothing: use one of them"
                            : "--watch subscribes to queries; \(operation.name) is a mutation")
                }
                try await session.withBackend(configured, logger: options.logger) { made in
                    guard let backend = made as? DataConnectBackend else { return }
                    try await Self.watch(
                        backend, operation: operation, connector: connector, variables: variables, settings: settings)
                }
                return
            }
            if dataConnect.dryRun {
                StandardOutput.write(
                    Self.curl(
                        offline, operation: operation, connector: connector, variables: variables,
                        redactor: Redactor(secrets: configured.secrets), placeholder: configured.placeholder)
                        + "\n")
                return
            }
            try await session.withBackend(configured, logger: options.logger) { made in
                guard let backend = made as? DataConnectBackend else { return }
                let result = try await backend.run(operation, in: connector, variables: variables)
                try await printResult(result, settings: settings)
            }
        }
    }

    /// Prints every result of a subscription: one JSON line each when stdout is not a terminal, else the screen
    /// cleared and the result drawn in the chosen format.
    static func watch(
        _ backend: DataConnectBackend, operation: ConnectorOperation, connector: Connector, variables: JSONObject,
        settings: OutputSettings
    ) async throws {
        for try await event in backend.watch(operation, in: connector, variables: variables) {
            switch event {
            case .result(let result):
                for diagnostic in result.metadata.diagnostics {
                    StandardError.write("content: \(diagnostic.location.map { "\($0): " } ?? "")\(diagnostic.message)")
                }
                if settings.isTerminal {
                    // Home and clear: the new result replaces the last one.
                    StandardOutput.write("\u{1B}[H\u{1B}[2J")
                    try await printResult(result, settings: settings)
                } else if case .document(let document) = result.body {
                    StandardOutput.write((document["data"] ?? .null).jsonText + "\n")
                }
            case .reconnecting(let delay, let reason):
                let seconds = Double(delay.components.seconds) + Double(delay.components.attoseconds) / 1e18
                StandardError.write(
                    "content: the subscription's stream ended (\(reason)); subscribing again in "
                        + String(format: "%.1f", seconds) + " s")
            }
        }
    }

    /// The configured dataconnect backend, or the built-in sample when there is no configuration at all.
    private func withConfiguredBackend(
        _ body: @escaping @Sendable (ContentSession, ConfiguredBackend, DataConnectConfiguration) async throws -> Void
    ) async throws {
        let session = try options.session(registry: Self.registry)
        let configured = session.configuration.backends.contains { $0.typeName == DataConnectPlugin.typeName }
        if session.configuration.location == nil, !configured, dataConnect.backend == nil,
            let sample = EmbeddedSample.sample(for: DataConnectPlugin.typeName)
        {
            StandardError.write(
                "content: no configuration found; answering from the built-in movies sample "
                    + "(`content config --help` shows how to configure a backend)")
            let environment = options.environment.filter { $0.key != "FIREBASE_DATA_CONNECT_EMULATOR_HOST" }
            try await sample.run { baseURL, workspace in
                let text = """
                    backends:
                      movies-sample:
                        type: dataconnect
                        workspace: \(JSONValue.string(workspace.path).jsonText)
                        project: content-sample
                        emulator: \(baseURL)
                    """
                let (embedded, backend) = try ContentSession.single(
                    text, file: "<built-in sample>", type: DataConnectPlugin.typeName, registry: Self.registry,
                    environment: environment)
                try await body(embedded, backend, try backend.section.decode(DataConnectConfiguration.self))
            }
            return
        }
        let backend = try session.selectBackend(named: dataConnect.backend, type: DataConnectPlugin.typeName)
        try await body(session, backend, try backend.section.decode(DataConnectConfiguration.self))
    }

    /// `--vars '{…}'` or `--vars @file`.
    static func variablesObject(_ argument: String?, signature: String) throws -> JSONObject {
        guard let argument else { return JSONObject() }
        var text = argument
        if argument.hasPrefix("@") {
            let path = String(argument.dropFirst())
            guard let data = FileManager.default.contents(atPath: path) else {
                throw DataConnectError(
                    kind: .usage, description: "--vars: cannot read \(path): \(SystemError.unreadable(path))")
            }
            text = String(decoding: data, as: UTF8.self)
        }
        guard let object = (try? JSONParser().parse(text))?.objectValue else {
            throw DataConnectError(
                kind: .usage,
                description: "--vars takes a JSON object, such as '{\"genre\":\"Sci-Fi\"}'\n  \(signature)")
        }
        return object
    }

    /// One row per connector.
    static func connectorList(_ workspace: DataConnectWorkspace) -> ContentResult {
        let rows = workspace.connectors.map { connector -> JSONValue in
            .object([
                "connector": .string(connector.id),
                "queries": .number(JSONNumber(connector.operations.filter { $0.kind == .query }.count)),
                "mutations": .number(JSONNumber(connector.operations.filter { $0.kind == .mutation }.count)),
                "service": .string(workspace.serviceID),
                "location": .string(workspace.location),
            ])
        }
        return ContentResult(body: .document(.array(rows)))
    }

    /// One row per operation: kind, variables (with types, required and defaults) and auth.
    static func operationList(_ connector: Connector) -> ContentResult {
        let rows = connector.operations.map { operation -> JSONValue in
            .object([
                "operation": .string(operation.name),
                "kind": .string(operation.kind.rawValue),
                "variables": .string(variableSummary(operation)),
                "auth": .string(connector.effectiveAuth(of: operation).description),
            ])
        }
        return ContentResult(body: .document(.array(rows)))
    }

    static func variableSummary(_ operation: ConnectorOperation) -> String {
        operation.variables.map { variable in
            "\(variable.name): \(variable.type)" + (variable.defaultValue.map { " = \($0.jsonText)" } ?? "")
        }.joined(separator: ", ")
    }

    /// The request as a curl command that runs as-is, tokens as `$VARIABLES`: the ones the configuration reads them
    /// from, else `$FIREBASE_ID_TOKEN`, `$FIREBASE_APP_CHECK_TOKEN` and `$FIREBASE_API_KEY`.
    static func curl(
        _ backend: DataConnectBackend, operation: ConnectorOperation, connector: Connector, variables: JSONObject,
        redactor: Redactor = Redactor(),
        placeholder variable: (_ secret: String?, _ fallback: String) -> String = { "$" + $1 }
    ) -> String {
        let auth = backend.configuration.auth
        let idTokenVariable = variable(auth?.idToken?.value, "FIREBASE_ID_TOKEN")
        let appCheckVariable = variable(auth?.appCheckToken?.value, "FIREBASE_APP_CHECK_TOKEN")
        var placeholder = backend
        if backend.idToken != nil || auth?.idTokenCommand != nil {
            placeholder.idToken = idTokenVariable
        }
        var request = placeholder.request(operation, in: connector, variables: variables)
        if let apiKey = auth?.apiKey?.value.nonEmpty, let query = request.url.firstIndex(of: "?") {
            request.url = String(request.url[..<query]) + "?key=" + variable(apiKey, "FIREBASE_API_KEY")
        }
        var parts = dryRunCurlPrefix(headers: request.headers) + ["-X", "POST"]
        for field in request.headers {
            let value: String
            switch field.name.lowercased() {
            case "x-firebase-auth-token": value = idTokenVariable
            case "x-firebase-appcheck": value = appCheckVariable
            case let name where Redactor.isSensitiveHeader(name):
                // A credential from `headers:` shows as a variable named after its header.
                value = "$" + field.name.uppercased().replacingOccurrences(of: "-", with: "_")
            default: value = field.value
            }
            // Placeholders go in double quotes so the shell expands them.
            parts += [
                "-H", value.hasPrefix("$") ? "\"\(field.name): \(value)\"" : shellQuoted("\(field.name): \(value)"),
            ]
        }
        if let body = request.body { parts += ["--data-binary", shellQuoted(String(decoding: body, as: UTF8.self))] }
        parts.append(dryRunURL(request.url, redactor: redactor))
        return parts.joined(separator: " ")
    }

}

/// A transport for backends that only list, describe or print requests (listings, `--help`, `--dry-run`);
/// sending is a programming error reported as such.
struct OfflineTransport: HTTPTransport {
    func send(_ request: HTTPTransportRequest) async throws -> HTTPTransportResponse {
        throw DataConnectError(kind: .configuration, description: "internal: an offline backend tried to send")
    }
}
