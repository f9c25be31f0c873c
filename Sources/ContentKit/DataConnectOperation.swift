public import ContentCore
public import ContentJSON
internal import Foundation

/// One operation of a Data Connect connector, named as the service names it: what a generated client calls.
public struct DataConnectOperation: Sendable, Hashable {
    /// Whether the operation reads or writes.
    public enum Kind: Sendable, Hashable {
        /// Sent to `:executeQuery`, and retried on transient failures.
        case query
        /// Sent to `:executeMutation`, and never retried.
        case mutation
    }

    /// The service's region, such as `us-central1`.
    public var location: String
    /// The service id from `dataconnect.yaml`.
    public var service: String
    /// The connector id from `connector.yaml`.
    public var connector: String
    /// The operation's name in its `.gql` file.
    public var name: String
    /// Query or mutation.
    public var kind: Kind

    /// Names an operation.
    ///
    /// - Parameters:
    ///   - location: The service's region.
    ///   - service: The service id.
    ///   - connector: The connector id.
    ///   - name: The operation's name.
    ///   - kind: Query or mutation.
    public init(location: String, service: String, connector: String, name: String, kind: Kind) {
        self.location = location
        self.service = service
        self.connector = connector
        self.name = name
        self.kind = kind
    }

    /// The connector's resource name: `projects/{p}/locations/{l}/services/{s}/connectors/{c}`.
    ///
    /// - Parameter project: The Firebase project id.
    /// - Returns: The resource name.
    public func resource(project: String) -> String {
        "projects/\(project)/locations/\(location)/services/\(service)/connectors/\(connector)"
    }

    /// The request Firebase's SDKs send: `POST {base}/{version}/{resource}:executeQuery` (or `:executeMutation`)
    /// with `{"name", "operationName", "variables"}`.
    ///
    /// - Parameters:
    ///   - variables: The operation's variables.
    ///   - baseURL: Scheme, host and port, without a trailing slash.
    ///   - project: The Firebase project id.
    ///   - apiVersion: `v1` or `v1beta`.
    ///   - credentials: The ID token, App Check token, API key and extra headers to send.
    /// - Returns: The request.
    public func request(
        variables: JSONObject, baseURL: String, project: String, apiVersion: String = "v1",
        credentials: Credentials = Credentials()
    ) -> HTTPTransportRequest {
        let resource = resource(project: project)
        let verb = kind == .query ? "executeQuery" : "executeMutation"
        var url = "\(baseURL)/\(apiVersion)/\(Self.encodePath(resource)):\(verb)"
        if let key = credentials.apiKey, !key.isEmpty {
            var unreserved = CharacterSet.alphanumerics
            unreserved.insert(charactersIn: "-._~")
            url += "?key=" + (key.addingPercentEncoding(withAllowedCharacters: unreserved) ?? key)
        }
        var headers: HeaderFields = [
            "Content-Type": "application/json",
            "X-Goog-Api-Client": "gl-swift/6 fire/content-\(ContentVersion.current)",
        ]
        for (name, value) in credentials.headers.sorted(by: { $0.key < $1.key }) { headers[name] = value }
        if let idToken = credentials.idToken, !idToken.isEmpty { headers["X-Firebase-Auth-Token"] = idToken }
        if let appCheck = credentials.appCheckToken, !appCheck.isEmpty { headers["X-Firebase-AppCheck"] = appCheck }
        let body: JSONValue = .object([
            "name": .string(resource),
            "operationName": .string(name),
            "variables": .object(variables),
        ])
        return HTTPTransportRequest(
            method: .post, url: url, headers: headers, body: Array(body.serialized()), isRetryable: kind == .query)
    }

    /// What a request carries besides the operation: credentials and extra headers, all optional.
    public struct Credentials: Sendable, Hashable {
        /// `X-Firebase-Auth-Token`.
        public var idToken: String?
        /// `X-Firebase-AppCheck`.
        public var appCheckToken: String?
        /// `?key=`.
        public var apiKey: String?
        /// More headers, set before the credentials.
        public var headers: [String: String]

        /// Creates the credentials.
        ///
        /// - Parameters:
        ///   - idToken: The Firebase ID token.
        ///   - appCheckToken: The App Check token.
        ///   - apiKey: The web API key.
        ///   - headers: More headers.
        public init(
            idToken: String? = nil, appCheckToken: String? = nil, apiKey: String? = nil, headers: [String: String] = [:]
        ) {
            self.idToken = idToken
            self.appCheckToken = appCheckToken
            self.apiKey = apiKey
            self.headers = headers
        }
    }

    /// Percent-encodes a resource path, keeping `/` but not `:`, which would read as the verb's separator.
    static func encodePath(_ path: String) -> String {
        var allowed = CharacterSet.urlPathAllowed
        allowed.remove(charactersIn: ":?#")
        return path.addingPercentEncoding(withAllowedCharacters: allowed) ?? path
    }
}

/// A connector of a Data Connect service, as the workspace named it when the client was generated.
public struct DataConnectConnector: Sendable, Hashable {
    /// The service's region.
    public var location: String
    /// The service id.
    public var service: String
    /// The connector id.
    public var connector: String

    /// Names a connector.
    ///
    /// - Parameters:
    ///   - location: The service's region.
    ///   - service: The service id.
    ///   - connector: The connector id.
    public init(location: String, service: String, connector: String) {
        self.location = location
        self.service = service
        self.connector = connector
    }

    /// One of its queries.
    ///
    /// - Parameter name: The operation's name.
    /// - Returns: The operation.
    public func query(_ name: String) -> DataConnectOperation {
        DataConnectOperation(location: location, service: service, connector: connector, name: name, kind: .query)
    }

    /// One of its mutations.
    ///
    /// - Parameter name: The operation's name.
    /// - Returns: The operation.
    public func mutation(_ name: String) -> DataConnectOperation {
        DataConnectOperation(location: location, service: service, connector: connector, name: name, kind: .mutation)
    }
}
