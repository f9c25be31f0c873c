internal import ArgumentParser
internal import ContentBackendAEM
internal import ContentCommandLine
internal import ContentConfig
internal import ContentCore
internal import ContentJSON
internal import ContentOutput
internal import ContentRuntime
internal import Foundation

/// What every `content aem` command does: find the backend (or the built-in sample), then run, dry-run
/// or list.
struct AEMInvocation: Sendable {
    /// A resolved request plus the shortcut's output preferences.
    struct Plan {
        var request: ContentRequest
        var items: String?
        var columns: [String]
    }

    let aem: AEMOptions
    let options: GlobalOptions
    let output: OutputOptions

    static let registry = BackendRegistry([AEMPlugin.self])

    func run(_ plan: @escaping @Sendable (AEMConfiguration) throws -> Plan) async throws {
        try await withBackend { session, backend, configuration in
            let plan = try plan(configuration)
            if aem.dryRun {
                let (request, post) = (plan.request, aem.post)
                let curl = try await dryRun(backend: backend, configuration: configuration) { made in
                    _ = try await post ? made.executeByPost(request) : made.execute(request)
                }
                StandardOutput.write(curl + "\n")
                return
            }
            let settings = try output.settings(
                configuredFormat: session.configuration.output, environment: options.environment)
            let post = aem.post
            let noCache = aem.noCache
            try await session.withBackend(backend, logger: options.logger) { made in
                var result: ContentResult
                if var aemBackend = made as? AEMBackend {
                    var plan = plan
                    if !aem.params.isEmpty {
                        let declared = await aemBackend.declaredVariables(of: plan.request.operation)
                        for member in try aem.typedParams(declared: declared).members {
                            plan.request.variables[member.key] = member.value
                        }
                    }
                    // The built-in sample listens on a new port each run: caching it would only leave litter.
                    if noCache || session.configuration.location == nil { aemBackend.cache = nil }
                    result = try await post ? aemBackend.executeByPost(plan.request) : aemBackend.execute(plan.request)
                } else {
                    result = try await made.execute(plan.request)
                }
                if case .document = result.body, let items = plan.items, let path = try? JSONPath(parsing: items) {
                    result.metadata.itemsPath = path
                }
                if !plan.columns.isEmpty { result.metadata.columns = plan.columns }
                try await printResult(result, settings: settings)
            }
        }
    }

    /// Runs one backend call (persist, ad-hoc query) and prints its result.
    func perform(_ call: @escaping @Sendable (AEMBackend) async throws -> ContentResult) async throws {
        let (output, environment) = (self.output, options.environment)
        try await withAEMBackend { backend, session in
            let settings = try output.settings(configuredFormat: session.configuration.output, environment: environment)
            try await printResult(try await call(backend), settings: settings)
        }
    }

    /// Runs one call with the AEM backend; with `--dry-run` the call's first request is printed as curl
    /// instead of sent.
    private func withAEMBackend(
        _ call: @escaping @Sendable (AEMBackend, ContentSession) async throws -> Void
    ) async throws {
        try await withBackend { session, backend, configuration in
            if aem.dryRun {
                let curl = try await dryRun(backend: backend, configuration: configuration) {
                    try await call($0, session)
                }
                StandardOutput.write(curl + "\n")
                return
            }
            try await session.withBackend(backend, logger: options.logger) { made in
                guard let aemBackend = made as? AEMBackend else { return }
                try await call(aemBackend, session)
            }
        }
    }

    private func withAEMBackend(_ call: @escaping @Sendable (AEMBackend) async throws -> Void) async throws {
        try await withAEMBackend { backend, _ in try await call(backend) }
    }

    /// Downloads an asset with the backend's headers, byte for byte.
    func download(_ path: String, to file: String?) async throws {
        try await withAEMBackend { backend in
            let bytes = try await backend.fetchAsset(path)
            if let file, file != "-" {
                guard FileManager.default.createFile(atPath: file, contents: Data(bytes)) else {
                    throw AEMError(kind: .usage, description: "cannot write \(file)")
                }
                StandardError.write("content: wrote \(bytes.count) bytes to \(file)")
            } else {
                try StandardOutput.write(bytes: bytes)
            }
        }
    }

    /// A file's text, for `@file` arguments and query files.
    static func readText(_ path: String) throws -> String {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw ValidationError("cannot read \(path): \(SystemError.unreadable(path))")
        }
        return String(decoding: data, as: UTF8.self)
    }

    /// `--variables '{…}'` or `--variables @file`, as a JSON object.
    static func variablesObject(_ argument: String?) throws -> JSONObject {
        guard let argument else { return JSONObject() }
        let text = argument.hasPrefix("@") ? try readText(String(argument.dropFirst())) : argument
        guard let object = (try? JSONParser().parse(text))?.objectValue else {
            throw ValidationError("--variables takes a JSON object, such as '{\"slug\":\"bali-surf-camp\"}'")
        }
        return object
    }

    func list(_ configurationName: String?) async throws {
        try await perform { backend in
            let rows = try await backend.persistedQueryList(configuration: configurationName).map { query in
                JSONValue.object([
                    "name": query["path"]?["shortForm"] ?? .null,
                    "path": query["path"]?["longForm"] ?? .null,
                    "cacheControl": query["data"]?["cache-control"] ?? .null,
                ])
            }
            return ContentResult(body: .document(.array(rows)))
        }
    }

    /// The configured aem backend, or the built-in sample when there is no configuration at all.
    private func withBackend(
        _ body: @escaping @Sendable (ContentSession, ConfiguredBackend, AEMConfiguration) async throws -> Void
    ) async throws {
        let session = try options.session(registry: Self.registry)
        let hasAEM = session.configuration.backends.contains { $0.typeName == AEMPlugin.typeName }
        if session.configuration.location == nil, !hasAEM, aem.backend == nil,
            let sample = EmbeddedSample.sample(for: AEMPlugin.typeName)
        {
            StandardError.write(
                "content: no configuration found; answering from the built-in WKND sample "
                    + "(`content config --help` shows how to configure a backend)"
            )
            let environment = options.environment
            try await sample.run { baseURL, _ in
                let text = "backends:\n  wknd:\n    type: aem\n    url: \(baseURL)\n    configuration: wknd-shared\n"
                let (embedded, backend) = try ContentSession.single(
                    text, file: "<built-in sample>", type: AEMPlugin.typeName, registry: Self.registry,
                    environment: environment)
                try await body(embedded, backend, try backend.section.decode(AEMConfiguration.self))
            }
            return
        }
        let backend = try session.selectBackend(named: aem.backend, type: AEMPlugin.typeName)
        try await body(session, backend, try backend.section.decode(AEMConfiguration.self))
    }

    /// What a call would send, as a curl command that runs as-is.
    ///
    /// Secrets appear as `$AEM_TOKEN`-style variables. The call runs against a transport that records
    /// its first request and sends nothing.
    private func dryRun(
        backend: ConfiguredBackend,
        configuration: AEMConfiguration,
        _ call: (AEMBackend) async throws -> Void
    ) async throws -> String {
        let transport = RecordingTransport()
        // The variables the configuration reads the secrets from, so the printed command runs in the same shell.
        let tokenVariable = backend.placeholder(for: configuration.auth?.token?.value, fallback: "AEM_TOKEN")
        let passwordVariable = backend.placeholder(for: configuration.auth?.password?.value, fallback: "AEM_PASSWORD")
        let made = AEMBackend(
            name: backend.name,
            configuration: configuration,
            context: BackendContext(transport: transport),
            token: tokenVariable
        )
        do {
            try await call(made)
        } catch is RecordingTransport.Stop {
            // Expected: the request was recorded and not sent.
        }
        guard let outgoing = transport.recorded else {
            throw AEMError(kind: .usage, description: "nothing would be sent")
        }
        var parts = dryRunCurlPrefix(headers: outgoing.headers)
        if outgoing.method != .get { parts += ["-X", outgoing.method.rawValue] }
        for field in outgoing.headers {
            if field.name.lowercased() == "authorization" {
                switch configuration.auth?.type ?? .none {
                case .basic:
                    parts += ["-u", "\"\(configuration.auth?.username ?? ""):\(passwordVariable)\""]
                case .token:
                    parts += ["-H", "\"Authorization: Bearer \(tokenVariable)\""]
                case .none, .serviceCredentials, .oauthServerToServer:
                    break
                }
                continue
            }
            parts += ["-H", shellQuoted("\(field.name): \(field.value)")]
        }
        if let auth = configuration.auth, auth.type.isIMS {
            // A dry run fetches no token: the command reads it from a variable, and says where one comes from.
            parts += ["-H", "\"Authorization: Bearer $AEM_ACCESS_TOKEN\""]
            if auth.type == .oauthServerToServer, let clientID = auth.clientId {
                parts += ["-H", shellQuoted("X-Api-Key: \(clientID)")]
            }
            StandardError.write(
                "content: --dry-run fetches no token; set AEM_ACCESS_TOKEN to one from IMS "
                    + "(auth type \(auth.type.rawValue) gets it at \(AEMPlugin.imsTokenEndpoint(auth)))")
        }
        if let body = outgoing.body { parts += ["--data-binary", shellQuoted(String(decoding: body, as: UTF8.self))] }
        parts.append(dryRunURL(outgoing.url, redactor: Redactor(secrets: backend.secrets)))
        return parts.joined(separator: " ")
    }

}

/// Records the first request a dry run would send, and stops it there.
private final class RecordingTransport: HTTPTransport, @unchecked Sendable {
    struct Stop: Error {}

    private let lock = NSLock()
    private var request: HTTPTransportRequest?

    var recorded: HTTPTransportRequest? { lock.withLock { request } }

    func send(_ request: HTTPTransportRequest) async throws -> HTTPTransportResponse {
        lock.withLock { self.request = self.request ?? request }
        throw Stop()
    }
}
