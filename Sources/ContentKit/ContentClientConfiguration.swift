internal import ContentCore
public import ContentHTTP

/// Supplies a credential when a request is about to be sent: a fixed value, or one an app refreshes (a Firebase
/// ID token from its auth SDK, say).
///
/// Return `nil` to send the request without the credential.
public typealias CredentialProvider = @Sendable () async throws -> String?

/// Everything a ``ContentClient`` needs, set in code: where each service is, who calls it, and how HTTP behaves.
///
/// Nothing is read from files or the environment behind the caller's back: an app that wants
/// `FIREBASE_DATA_CONNECT_EMULATOR_HOST` or a `content.yaml` reads it and says so here.
///
/// ```swift
/// let client = ContentClient(
///     configuration: .init(dataConnect: .init(endpoint: .emulator(host: "127.0.0.1", port: 9399), project: "demo")))
/// defer { Task { try await client.shutdown() } }
/// ```
public struct ContentClientConfiguration: Sendable {
    /// The Data Connect service operations go to, if any.
    public var dataConnect: DataConnectSettings?
    /// The AEM instance persisted queries go to, if any.
    public var aem: AEMSettings?
    /// Timeouts, retries, redirects, proxies and the response-size cap; one transport uses them for the client's
    /// lifetime.
    public var http: HTTPSettings

    /// Creates a configuration.
    ///
    /// - Parameters:
    ///   - dataConnect: The Data Connect service, if any.
    ///   - aem: The AEM instance, if any.
    ///   - http: How HTTP behaves; by default 30 s per operation, 2 retries of idempotent requests and no proxy.
    public init(dataConnect: DataConnectSettings? = nil, aem: AEMSettings? = nil, http: HTTPSettings = HTTPSettings()) {
        self.dataConnect = dataConnect
        self.aem = aem
        self.http = http
    }
}

/// Where a Firebase Data Connect service is and who calls it.
///
/// The location, service and connector of each operation come from the workspace when the client is generated;
/// these settings say where to send it and with which credentials.
public struct DataConnectSettings: Sendable {
    /// Where requests go.
    public enum Endpoint: Sendable, Hashable {
        /// `https://firebasedataconnect.googleapis.com`.
        case production
        /// A local emulator over plain HTTP, such as `content serve` or Firebase's own (127.0.0.1:9399).
        case emulator(host: String, port: Int)
        /// Any base URL: scheme, host and optional port.
        case url(String)

        /// The base URL, without a trailing slash.
        public var baseURL: String {
            switch self {
            case .production:
                return "https://firebasedataconnect.googleapis.com"
            case .emulator(let host, let port):
                return emulatorURL(host: host, port: port)
            case .url(let url):
                return url.hasSuffix("/") ? String(url.dropLast()) : url
            }
        }
    }

    /// Where requests go.
    public var endpoint: Endpoint
    /// The Firebase project id.
    public var project: String
    /// Overrides the location the client was generated with.
    public var location: String?
    /// Overrides the service id the client was generated with.
    public var service: String?
    /// `v1` (the default) or `v1beta`.
    public var apiVersion: String
    /// The Firebase ID token of the signed-in user, sent as `X-Firebase-Auth-Token`; asked once per request.
    public var idToken: CredentialProvider?
    /// An App Check token, sent as `X-Firebase-AppCheck`.
    public var appCheckToken: CredentialProvider?
    /// The web API key, sent as `?key=`.
    public var apiKey: String?
    /// More headers for every request.
    public var headers: [String: String]

    /// Creates the settings.
    ///
    /// - Parameters:
    ///   - endpoint: Where requests go.
    ///   - project: The Firebase project id.
    ///   - location: Overrides the generated location.
    ///   - service: Overrides the generated service id.
    ///   - apiVersion: `v1` or `v1beta`.
    ///   - idToken: The caller's Firebase ID token, if signed in.
    ///   - appCheckToken: An App Check token.
    ///   - apiKey: The web API key.
    ///   - headers: More headers.
    public init(
        endpoint: Endpoint, project: String, location: String? = nil, service: String? = nil,
        apiVersion: String = "v1", idToken: CredentialProvider? = nil, appCheckToken: CredentialProvider? = nil,
        apiKey: String? = nil, headers: [String: String] = [:]
    ) {
        self.endpoint = endpoint
        self.project = project
        self.location = location
        self.service = service
        self.apiVersion = apiVersion
        self.idToken = idToken
        self.appCheckToken = appCheckToken
        self.apiKey = apiKey
        self.headers = headers
    }
}

/// A local emulator's base URL over plain HTTP, an IPv6 host in brackets.
func emulatorURL(host: String, port: Int) -> String {
    "http://\(host.contains(":") && !host.hasPrefix("[") ? "[\(host)]" : host):\(port)"
}

/// Where an AEM publish or author instance is and how to sign in to it.
public struct AEMSettings: Sendable {
    /// How requests are signed.
    public enum Authentication: Sendable {
        /// No credentials: a publish tier behind a CDN.
        case none
        /// HTTP basic, for a local author instance.
        case basic(username: String, password: String)
        /// `Authorization: Bearer`, such as an IMS access token; asked once per request.
        case bearer(CredentialProvider)
    }

    /// Scheme, host and optional port, such as `https://publish-p123-e456.adobeaemcloud.com`.
    public var url: String
    /// How requests are signed.
    public var authentication: Authentication
    /// More headers for every request.
    public var headers: [String: String]

    /// Creates the settings.
    ///
    /// - Parameters:
    ///   - url: Scheme, host and optional port.
    ///   - authentication: How requests are signed.
    ///   - headers: More headers.
    public init(url: String, authentication: Authentication = .none, headers: [String: String] = [:]) {
        self.url = url.hasSuffix("/") ? String(url.dropLast()) : url
        self.authentication = authentication
        self.headers = headers
    }
}

extension DataConnectSettings: CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    /// The settings without the API key, the header values or what the providers give.
    public var description: String {
        "DataConnectSettings(endpoint: \(endpoint.baseURL), project: \(project), location: \(location ?? "-"), "
            + "service: \(service ?? "-"), apiVersion: \(apiVersion), apiKey: \(apiKey == nil ? "none" : "<redacted>"), "
            + "idToken: \(idToken == nil ? "none" : "<provider>"), "
            + "appCheckToken: \(appCheckToken == nil ? "none" : "<provider>"), headers: \(headers.keys.sorted()))"
    }

    /// The same as ``description``.
    public var debugDescription: String { description }

    /// What `dump` shows: the description, so that no secret is reflected.
    public var customMirror: Mirror { Mirror(self, children: ["description": description]) }
}

extension AEMSettings: CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    /// The settings without the password, the token or the header values.
    public var description: String {
        let signIn: String
        switch authentication {
        case .none: signIn = "none"
        case .basic(let username, _): signIn = "basic(\(username), <redacted>)"
        case .bearer: signIn = "bearer(<provider>)"
        }
        return "AEMSettings(url: \(Redactor().redact(url: url)), authentication: \(signIn), "
            + "headers: \(headers.keys.sorted()))"
    }

    /// The same as ``description``.
    public var debugDescription: String { description }

    /// What `dump` shows: the description, so that no secret is reflected.
    public var customMirror: Mirror { Mirror(self, children: ["description": description]) }
}
