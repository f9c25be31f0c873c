internal import ArgumentParser
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
                StandardOutput.write(
                    try curlCommand(for: plan.request, backend: backend, configuration: configuration) + "\n")
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
        try await withBackend { session, backend, _ in
            let settings = try output.settings(
                configuredFormat: session.configuration.output, environment: options.environment)
            try await session.withBackend(backend, logger: options.logger) { made in
                guard let aemBackend = made as? AEMBackend else { return }
                try await printResult(try await call(aemBackend), settings: settings)
            }
        }
    }

    /// Downloads an asset with the backend's headers, byte for byte.
    func download(_ path: String, to file: String?) async throws {
        try await withBackend { session, backend, configuration in
            let base = configuration.url.hasSuffix("/") ? String(configuration.url.dropLast()) : configuration.url
            let url =
                path.hasPrefix("http://") || path.hasPrefix("https://")
                ? path : base + (path.hasPrefix("/") ? path : "/" + path)
            if aem.dryRun {
                StandardOutput.write("curl -sS -o \(Self.quote(file ?? "-")) \(Self.quote(url))\n")
                return
            }
            try await session.withBackend(backend, logger: options.logger) { made in
                guard let aemBackend = made as? AEMBackend else { return }
                let response = try await aemBackend.context.transport.send(
                    HTTPTransportRequest(method: .get, url: url, headers: aemBackend.headers)
                )
                guard response.isSuccess else {
                    throw AEMError(
                        kind: .httpStatus(response.status),
                        description: "\(aemBackend.context.redactor.redact(url: url)): HTTP \(response.status)"
                    )
                }
                if let file, file != "-" {
                    guard FileManager.default.createFile(atPath: file, contents: Data(response.body)) else {
                        throw AEMError(kind: .usage, description: "cannot write \(file)")
                    }
                    StandardError.write("content: wrote \(response.body.count) bytes to \(file)")
                } else {
                    FileHandle.standardOutput.write(Data(response.body))
                }
            }
        }
    }

    /// `--variables '{…}'` or `--variables @file`, as a JSON object.
    static func variablesObject(_ argument: String?) throws -> JSONObject {
        guard let argument else { return JSONObject() }
        let text: String
        if argument.hasPrefix("@") {
            guard let data = FileManager.default.contents(atPath: String(argument.dropFirst())) else {
                throw ValidationError("cannot read \(argument.dropFirst())")
            }
            text = String(decoding: data, as: UTF8.self)
        } else {
            text = argument
        }
        guard let object = (try? JSONParser().parse(text))?.objectValue else {
            throw ValidationError("--variables takes a JSON object, such as '{\"slug\":\"bali-surf-camp\"}'")
        }
        return object
    }

    func list(_ configurationName: String?) async throws {
        try await withBackend { session, backend, configuration in
            let base = configuration.url.hasSuffix("/") ? String(configuration.url.dropLast()) : configuration.url
            let url =
                base + "/graphql/list.json"
                + (configurationName.map { "/\(PersistedQueryURL.encodeURIComponent($0))" } ?? "")
            if aem.dryRun {
                StandardOutput.write("curl -sS -H 'Accept: application/json' \(Self.quote(url))\n")
                return
            }
            let settings = try output.settings(
                configuredFormat: session.configuration.output, environment: options.environment)
            try await session.withBackend(backend, logger: options.logger) { made in
                guard let aemBackend = made as? AEMBackend else { return }
                let response = try await aemBackend.context.transport.send(
                    HTTPTransportRequest(method: .get, url: url, headers: aemBackend.headers)
                )
                let document = try aemBackend.decode(response, persisted: configurationName ?? "list.json")
                var rows: [JSONValue] = []
                for group in document.arrayValue ?? [] {
                    for query in group["queries"]?.arrayValue ?? [] {
                        rows.append(
                            .object([
                                "name": query["path"]?["shortForm"] ?? .null,
                                "path": query["path"]?["longForm"] ?? .null,
                                "cacheControl": query["data"]?["cache-control"] ?? .null,
                            ])
                        )
                    }
                }
                try await printResult(ContentResult(body: .document(.array(rows))), settings: settings)
            }
        }
    }

    /// The configured aem backend, or the built-in sample when there is no configuration at all.
    private func withBackend(
        _ body: @escaping @Sendable (ContentSession, ConfiguredBackend, AEMConfiguration) async throws -> Void
    ) async throws {
        let session = try options.session(registry: Self.registry)
        let hasAEM = session.configuration.backends.contains { $0.typeName == AEMPlugin.typeName }
        if session.configuration.location == nil, !hasAEM, aem.backend == nil, let sample = EmbeddedSample.aem {
            StandardError.write(
                "content: no configuration found; answering from the built-in WKND sample "
                    + "(`content config --help` shows how to configure a backend)"
            )
            let environment = options.environment
            try await sample { baseURL in
                let text = "backends:\n  wknd:\n    type: aem\n    url: \(baseURL)\n    configuration: wknd-shared\n"
                let configuration = try ConfigLoader(environment: environment).load(
                    text: text, file: "<built-in sample>")
                let embedded = ContentSession(
                    configuration: configuration, registry: Self.registry, environment: environment)
                let backend = try embedded.selectBackend(named: nil, type: AEMPlugin.typeName)
                try await body(embedded, backend, try backend.section.decode(AEMConfiguration.self))
            }
            return
        }
        let backend = try session.selectBackend(named: aem.backend, type: AEMPlugin.typeName)
        try await body(session, backend, try backend.section.decode(AEMConfiguration.self))
    }

    /// The request as a curl command that runs as-is; secrets appear as `$AEM_TOKEN`-style variables.
    private func curlCommand(for request: ContentRequest, backend: ConfiguredBackend, configuration: AEMConfiguration)
        throws
        -> String
    {
        let context = BackendContext(transport: NoTransport())
        let made = AEMBackend(name: backend.name, configuration: configuration, context: context, token: "$AEM_TOKEN")
        let outgoing = try made.httpRequest(for: request)
        var parts = ["curl", "-sS"]
        for field in outgoing.headers {
            if field.name.lowercased() == "authorization" {
                switch configuration.auth?.type ?? .none {
                case .basic:
                    parts += ["-u", "\"\(configuration.auth?.username ?? ""):$AEM_PASSWORD\""]
                case .token:
                    parts += ["-H", "\"Authorization: Bearer $AEM_TOKEN\""]
                case .none:
                    break
                }
                continue
            }
            parts += ["-H", Self.quote("\(field.name): \(field.value)")]
        }
        parts.append(Self.quote(outgoing.url))
        return parts.joined(separator: " ")
    }

    /// Single-quotes a word for a POSIX shell.
    static func quote(_ word: String) -> String {
        "'" + word.replacing("'", with: "'\\''") + "'"
    }
}

/// A transport for building requests only; sending is a bug.
private struct NoTransport: HTTPTransport {
    func send(_ request: HTTPTransportRequest) async throws -> HTTPTransportResponse {
        throw AEMError(kind: .usage, description: "internal: a dry run tried to send a request")
    }
}
