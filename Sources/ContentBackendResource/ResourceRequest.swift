public import ContentCore
public import ContentJSON

/// One request to a resource: an adapter path (`/adapters/JavaAdapter/users/{id}`) or a full URL, with its
/// parameters, as `WLResourceRequest` describes one.
public struct ResourceRequest: Sendable {
    /// What the body is.
    public enum Body: Sendable, Equatable {
        /// `application/x-www-form-urlencoded` fields, in order.
        case form([(name: String, value: String)])
        /// A JSON document.
        case json(JSONValue)
        /// Bytes as given, with an optional content type.
        case raw([UInt8], contentType: String?)

        /// Whether two bodies are the same.
        public static func == (lhs: Body, rhs: Body) -> Bool {
            switch (lhs, rhs) {
            case (.form(let a), .form(let b)): return a.elementsEqual(b) { $0 == $1 }
            case (.json(let a), .json(let b)): return a == b
            case (.raw(let a, let x), .raw(let b, let y)): return a == b && x == y
            default: return false
            }
        }
    }

    /// The method.
    public var method: HTTPTransportRequest.Method
    /// A path relative to the backend's `url`, or an absolute URL.
    public var target: String
    /// Values for `{name}` placeholders in the path.
    public var pathParameters: [(name: String, value: String)]
    /// Query parameters, in order.
    public var query: [(name: String, value: String)]
    /// Extra headers.
    public var headers: [(name: String, value: String)]
    /// The body.
    public var body: Body?
    /// A JavaScript adapter's ordered parameters: sent as `params` in the query on GET, in the form otherwise.
    public var params: JSONValue?
    /// A deadline for this request.
    public var timeout: Duration?

    /// Creates a request.
    ///
    /// - Parameters:
    ///   - method: The method.
    ///   - target: A path or absolute URL.
    ///   - pathParameters: Values for `{name}` placeholders.
    ///   - query: Query parameters.
    ///   - headers: Extra headers.
    ///   - body: The body.
    ///   - params: A JavaScript adapter's parameters, as a JSON array.
    ///   - timeout: A deadline.
    public init(
        method: HTTPTransportRequest.Method = .get, target: String,
        pathParameters: [(name: String, value: String)] = [], query: [(name: String, value: String)] = [],
        headers: [(name: String, value: String)] = [], body: Body? = nil, params: JSONValue? = nil,
        timeout: Duration? = nil
    ) {
        self.method = method
        self.target = target
        self.pathParameters = pathParameters
        self.query = query
        self.headers = headers
        self.body = body
        self.params = params
        self.timeout = timeout
    }
}
