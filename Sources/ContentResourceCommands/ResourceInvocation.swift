internal import ArgumentParser
internal import ContentBackendResource
internal import ContentCommandLine
internal import ContentConfig
internal import ContentCore
internal import ContentJSON
internal import ContentOutput
internal import ContentRuntime
internal import Foundation

/// What `content request` does: find the backend (a configured one, an ad-hoc one for an absolute URL, or
/// the built-in sample), then dry-run or send, and print the answer by its content type.
struct ResourceInvocation: Sendable {
    let command: RequestCommand
    let request: ResourceRequest

    static let registry = BackendRegistry([ResourcePlugin.self])

    func run() async throws {
        let options = command.options
        let session = try options.session(registry: Self.registry)
        let configured = session.configuration.backends.contains { $0.typeName == ResourcePlugin.typeName }
        let isAbsolute = ResourceBackend.isAbsoluteURL(request.target)
        if command.backend == nil, !configured, isAbsolute {
            // Like curl: an absolute URL needs no configuration.
            try await withAdHocBackend(session: session, url: request.target)
            return
        }
        if session.configuration.location == nil, !configured, command.backend == nil,
            let sample = EmbeddedSample.sample(for: ResourcePlugin.typeName)
        {
            StandardError.write(
                "content: no configuration found; answering from the built-in sample adapters "
                    + "(`content config --help` shows how to configure a backend)")
            try await sample.run { baseURL, _ in
                try await withAdHocBackend(session: session, url: baseURL + "/mfp/api", sample: true)
            }
            return
        }
        let backend = try session.selectBackend(named: command.backend, type: ResourcePlugin.typeName)
        try await perform(session: session, backend: backend)
    }

    private func withAdHocBackend(session: ContentSession, url: String, sample: Bool = false) async throws {
        let origin: String
        if sample {
            origin = url
        } else {
            guard let components = URLComponents(string: url), let scheme = components.scheme,
                let host = components.host
            else {
                throw ResourceError(kind: .usage, description: "\(url) is not a URL with a scheme and a host")
            }
            origin = "\(scheme)://\(host)" + (components.port.map { ":\($0)" } ?? "")
        }
        let text = "backends:\n  ad-hoc:\n    type: resource\n    url: \(JSONValue.string(origin).jsonText)\n"
        let configuration = try ConfigLoader(environment: command.options.environment).load(
            text: text, file: sample ? "<built-in sample>" : "<command line>")
        var merged = session.configuration
        merged.backends = configuration.backends
        let adHoc = ContentSession(
            configuration: merged, registry: Self.registry, environment: command.options.environment)
        let backend = try adHoc.selectBackend(named: nil, type: ResourcePlugin.typeName)
        try await perform(session: adHoc, backend: backend)
    }

    private func perform(session: ContentSession, backend configured: ConfiguredBackend) async throws {
        let options = command.options
        if command.dryRun {
            let configuration = try configured.section.decode(ResourceConfiguration.self)
            let offline = try ResourceBackend(
                name: configured.name, configuration: configuration,
                context: BackendContext(transport: DryRunTransport()))
            let bearer = configuration.auth?.type == .oauthClientCredentials ? "$ACCESS_TOKEN" : nil
            let outgoing = try offline.httpRequest(request, bearer: bearer)
            let userAuthorization = request.headers.contains { $0.name.lowercased() == "authorization" }
            StandardOutput.write(
                Self.curl(
                    outgoing, auth: offline.sendsCredentials(to: request.target) ? configuration.auth : nil,
                    userAuthorization: userAuthorization, redactor: Redactor(secrets: configured.secrets),
                    placeholder: configured.placeholder) + "\n")
            return
        }
        let settings = try command.output.settings(
            configuredFormat: session.configuration.output, environment: options.environment)
        let request = self.request
        let include = command.include
        let outputFile = command.outputFile
        try await session.withBackend(configured, logger: options.logger) { made in
            guard let backend = made as? ResourceBackend else { return }
            let response = try await backend.send(request)
            if include {
                StandardError.write("HTTP \(response.status) \(backend.context.redactor.redact(url: response.url))")
                for field in response.headers {
                    StandardError.write(
                        "\(field.name): \(backend.context.redactor.redactHeader(name: field.name, value: field.value))")
                }
            }
            try ResourceBackend.requireSuccess(response, redactor: backend.context.redactor)
            if let outputFile, outputFile != "-" {
                guard FileManager.default.createFile(atPath: outputFile, contents: Data(response.body)) else {
                    throw ResourceError(kind: .usage, description: "cannot write \(outputFile)")
                }
                StandardError.write("content: wrote \(response.body.count) bytes to \(outputFile)")
                return
            }
            if ResourceBackend.isJSON(response), !response.body.isEmpty, outputFile == nil {
                try await printResult(try ResourceBackend.result(of: response, items: nil), settings: settings)
            } else {
                // Binary (or text) bodies go out byte for byte.
                try StandardOutput.write(bytes: response.body)
            }
        }
    }

    /// The request as a curl command that runs as-is; credentials appear as `$VARIABLES`.
    static func curl(
        _ request: HTTPTransportRequest, auth: ResourceConfiguration.Auth?, userAuthorization: Bool = false,
        redactor: Redactor = Redactor(),
        placeholder variable: (_ secret: String?, _ fallback: String) -> String = { "$" + $1 }
    ) -> String {
        var parts = dryRunCurlPrefix(headers: request.headers)
        let urlIndex = parts.count
        if request.method != .get { parts += ["-X", request.method.rawValue] }
        for field in request.headers {
            if field.name.lowercased() == "authorization" {
                // A header given on the command line or in `headers:` is shown as a variable of its own.
                switch userAuthorization ? .none : auth?.type ?? .none {
                case .basic:
                    parts += [
                        "-u", "\"\(auth?.username ?? ""):\(variable(auth?.password?.value, "RESOURCE_PASSWORD"))\"",
                    ]
                case .bearer:
                    parts += ["-H", "\"Authorization: Bearer \(variable(auth?.token?.value, "RESOURCE_TOKEN"))\""]
                case .oauthClientCredentials: parts += ["-H", "\"Authorization: Bearer $ACCESS_TOKEN\""]
                case .none: parts += ["-H", "\"Authorization: $AUTHORIZATION\""]
                }
                continue
            }
            if Redactor.isSensitiveHeader(field.name) {
                // A credential from `headers:` or --header shows as a variable named after its header.
                let variable = "$" + field.name.uppercased().replacingOccurrences(of: "-", with: "_")
                parts += ["-H", "\"\(field.name): \(variable)\""]
                continue
            }
            parts += ["-H", shellQuoted("\(field.name): \(field.value)")]
        }
        if let body = request.body {
            if let text = String(bytes: body, encoding: .utf8), !text.contains("\0") {
                parts += ["--data-binary", shellQuoted(text)]
            } else {
                parts += ["--data-binary", "@-", "# \(body.count) binary bytes on stdin"]
            }
        }
        parts.insert(dryRunURL(request.url, redactor: redactor), at: urlIndex)
        return parts.joined(separator: " ")
    }

}

/// Dry runs build requests and never send them.
private struct DryRunTransport: HTTPTransport {
    func send(_ request: HTTPTransportRequest) async throws -> HTTPTransportResponse {
        throw ResourceError(kind: .configuration, description: "internal: a dry run tried to send")
    }
}
