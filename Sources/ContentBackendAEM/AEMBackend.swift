public import ContentCore
package import ContentJSON
internal import ContentKit
internal import Foundation

/// Runs AEM persisted queries over the ``HTTPTransport``.
///
/// `operation` is `config/name`, or `name` in the backend's configuration. The result's items are
/// found without configuration: the single top-level field's `items` (…List), `item` (…ByPath) or
/// `edges[].node` (…Paginated).
public struct AEMBackend: ContentBackend {
    /// The backend's name.
    public let name: String
    package let configuration: AEMConfiguration
    package let context: BackendContext
    package let token: String?
    /// Where GET responses are kept; nil with `--no-cache`.
    package var cache: ResponseCache?

    /// The base URL without a trailing slash.
    package var base: String {
        configuration.url.hasSuffix("/") ? String(configuration.url.dropLast()) : configuration.url
    }

    /// The persisted-query configuration.
    package var queryConfiguration: String { configuration.configuration ?? "wknd-shared" }

    package init(
        name: String, configuration: AEMConfiguration, context: BackendContext, token: String?,
        cache: ResponseCache? = nil
    ) {
        self.name = name
        self.configuration = configuration
        self.context = context
        self.token = token
        self.cache = cache
    }

    /// The request headers: auth, then the configured ones.
    package var headers: HeaderFields {
        var headers: HeaderFields = ["Accept": "application/json"]
        switch configuration.auth?.type ?? .none {
        case .none:
            break
        case .basic:
            let pair = "\(configuration.auth?.username ?? ""):\(configuration.auth?.password?.value ?? "")"
            headers["Authorization"] = "Basic " + Data(pair.utf8).base64EncodedString()
        case .token:
            if let token { headers["Authorization"] = "Bearer \(token)" }
        case .serviceCredentials, .oauthServerToServer:
            // The transport signs these with an IMS access token, renewed when refused.
            break
        }
        for (name, value) in (configuration.headers ?? [:]).sorted(by: { $0.key < $1.key }) {
            headers[name] = value
        }
        return headers
    }

    /// `config/name` split; a bare name uses the backend's configuration.
    package func address(of operation: String) -> (configuration: String, name: String) {
        let parts = operation.split(separator: "/", maxSplits: 1)
        return parts.count == 2 ? (String(parts[0]), String(parts[1])) : (queryConfiguration, operation)
    }

    /// The request a persisted query sends.
    ///
    /// - Parameter request: The operation and variables.
    /// - Returns: The HTTP request.
    /// - Throws: ``AEMError`` for a variable the URL cannot carry.
    public func httpRequest(for request: ContentRequest) throws(AEMError) -> HTTPTransportRequest {
        let (configuration, name) = address(of: request.operation)
        let url: String
        do {
            url = try PersistedQueryURL.make(
                base: base, configuration: configuration, name: name, variables: request.variables)
        } catch {
            throw AEMError(kind: .unencodableVariable, description: "\(error); send it with --post instead")
        }
        return HTTPTransportRequest(method: .get, url: url, headers: headers)
    }

    /// Runs a persisted query.
    ///
    /// - Parameter request: The operation and variables.
    /// - Returns: The response document with its items located.
    /// - Throws: ``AEMError``, transport failures, or ``GraphQLFailure`` when errors came without data.
    public func execute(_ request: ContentRequest) async throws -> ContentResult {
        if case .all(let pageSize) = request.pagination {
            return try await executeAllPages(request, pageSize: pageSize)
        }
        let outgoing = try httpRequest(for: request)
        let response = try await sendCached(outgoing)
        let (configuration, name) = address(of: request.operation)
        let document = try decode(response, persisted: "\(configuration)/\(name)")
        return try result(from: document, response: response)
    }

    /// Checks the status and content type, and parses the body.
    package func decode(_ response: HTTPTransportResponse, persisted: String) throws -> JSONValue {
        let shownURL = context.redactor.redact(url: response.url)
        let host = URLComponents(string: base)?.host ?? base
        // The body's first line goes into messages; a server may echo credentials, so mask them.
        let firstLine = context.redactor.redact(
            String(decoding: response.body.prefix(400), as: UTF8.self).split(separator: "\n").first.map(String.init)
                ?? ""
        )
        switch response.status {
        case 200..<300:
            break
        case 401, 403:
            let mode = configuration.auth?.type ?? .none
            let remedy: String
            switch mode {
            case .none:
                remedy = "set auth: { type: token, token: \"${AEM_TOKEN}\" } (or basic) for backend '\(name)'"
            case .serviceCredentials, .oauthServerToServer:
                remedy =
                    "IMS gave a token, but this environment refuses it (a new one was tried); check that the "
                    + "technical account of backend '\(name)' has access to it (Developer Console → Integrations)"
            case .basic, .token:
                remedy = "check the credentials of backend '\(name)'"
            }
            throw AEMError(
                kind: .unauthorized,
                description: "\(shownURL): HTTP \(response.status) with auth type '\(mode.rawValue)'; \(remedy)")
        case 404 where firstLine.contains("ServletError") && firstLine.contains("No suitable endpoint found"):
            throw AEMError(
                kind: .httpStatus(404),
                description: "\(shownURL): HTTP 404: no GraphQL endpoint on \(host) serves this configuration "
                    + "(\"No suitable endpoint found.\"); check the configuration name: the backend's `configuration`, "
                    + "or CONFIG in CONFIG/NAME")
        case 404 where firstLine.contains("PersistenceError"):
            throw AEMError(
                kind: .queryNotFound,
                description: "persisted query \(persisted) not found on \(host); `content aem list` shows what exists"
            )
        default:
            throw AEMError(
                kind: .httpStatus(response.status), description: "\(shownURL): HTTP \(response.status): \(firstLine)")
        }
        let type = response.headers["Content-Type"]?.lowercased() ?? ""
        if type.contains("html") || response.body.first == UInt8(ascii: "<") {
            throw AEMError(
                kind: .notJSON,
                description: "\(shownURL): expected JSON, got HTML (a login page or a dispatcher error?): \(firstLine)"
            )
        }
        do {
            return try JSONParser().parse(response.body)
        } catch {
            throw AEMError(kind: .malformedResponse, description: "\(shownURL): malformed JSON at \(error)")
        }
    }

    /// Locates the items and turns GraphQL `errors` into diagnostics (with data) or a failure (without).
    package func result(from document: JSONValue, response: HTTPTransportResponse) throws -> ContentResult {
        let errors = (document["errors"]?.arrayValue ?? []).map { error -> Diagnostic in
            let message = error["message"]?.stringValue ?? error.jsonText
            let path = error["path"]?.arrayValue?.map { $0.stringValue ?? $0.jsonText }.joined(separator: ".")
            return Diagnostic(.error, message, at: path.map { "data.\($0)" })
        }
        let data = document["data"]
        if !errors.isEmpty, data == nil || data == .null {
            throw GraphQLFailure(diagnostics: errors)
        }
        let origin = base
        var metadata = ContentResult.Metadata(
            httpStatus: response.status,
            duration: response.duration,
            diagnostics: errors,
            itemTransform: { ImageReference.addURLs($0, base: origin) }
        )
        if let fields = data?.objectValue, fields.members.count == 1, let field = fields.members.first {
            let prefix: [JSONPath.Component] = [.member("data"), .member(field.key)]
            if field.value["items"] != nil {
                metadata.itemsPath = JSONPath(prefix + [.member("items")])
            } else if field.value["item"] != nil {
                metadata.itemsPath = JSONPath(prefix + [.member("item")])
            } else if field.value["edges"] != nil {
                metadata.itemsPath = JSONPath(prefix + [.member("edges"), .each, .member("node")])
            }
        }
        return ContentResult(body: .document(document), metadata: metadata)
    }
}

/// The server answered, but the operation failed without data: exit 6.
public struct GraphQLFailure: ContentFailure {
    /// The errors, each with its path.
    public var diagnostics: [Diagnostic]

    /// Always ``FailureCategory/operationFailed``.
    public var category: FailureCategory { .operationFailed }

    /// Each error on its own line.
    public var description: String {
        "the query failed:\n"
            + diagnostics.map { "  \($0.location.map { "\($0): " } ?? "")\($0.message)" }.joined(separator: "\n")
    }
}
