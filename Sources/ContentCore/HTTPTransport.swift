/// Sends one HTTP request and returns the whole response: the seam between backends and the network.
///
/// Backends build ``HTTPTransportRequest``s and read ``HTTPTransportResponse``s; they never see the
/// HTTP client. The production conformer (in `ContentHTTP`) adds timeouts, redirects, retries, proxies,
/// a response-size cap and redacted logging; tests may conform a closure-driven fake instead.
///
/// Conformers throw errors that are ``ContentFailure``s with category ``FailureCategory/transport``
/// when no response arrived. An HTTP error status is a response, not an error.
public protocol HTTPTransport: Sendable {
    /// Sends a request.
    ///
    /// - Parameter request: The request.
    /// - Returns: The final response, after redirects and retries.
    /// - Throws: A transport failure.
    func send(_ request: HTTPTransportRequest) async throws -> HTTPTransportResponse
}

/// One HTTP request as a backend describes it.
public struct HTTPTransportRequest: Sendable, Hashable {
    /// An HTTP method.
    public struct Method: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
        /// The method name, upper-case.
        public var rawValue: String

        /// Creates a method.
        ///
        /// - Parameter rawValue: The method name.
        public init(rawValue: String) {
            self.rawValue = rawValue.uppercased()
        }

        /// `GET`.
        public static let get = Method(rawValue: "GET")
        /// `HEAD`.
        public static let head = Method(rawValue: "HEAD")
        /// `POST`.
        public static let post = Method(rawValue: "POST")
        /// `PUT`.
        public static let put = Method(rawValue: "PUT")
        /// `DELETE`.
        public static let delete = Method(rawValue: "DELETE")
        /// `PATCH`.
        public static let patch = Method(rawValue: "PATCH")
        /// `OPTIONS`.
        public static let options = Method(rawValue: "OPTIONS")

        /// Whether repeating the request has the same effect as sending it once (RFC 9110 §9.2.2).
        public var isIdempotent: Bool {
            [.get, .head, .put, .delete, .options].contains(self)
        }

        /// The method name.
        public var description: String { rawValue }
    }

    /// The method.
    public var method: Method
    /// The absolute URL, already percent-encoded.
    public var url: String
    /// Header fields; the transport adds `User-Agent` when absent.
    public var headers: HeaderFields
    /// The body, if any.
    public var body: [UInt8]?
    /// Whether the transport may retry; defaults to the method's idempotency.
    public var isRetryable: Bool
    /// How long this exchange may take, retries and redirects included, in place of the configured timeout
    /// (longer or shorter).
    public var timeout: Duration?

    /// Creates a request.
    ///
    /// - Parameters:
    ///   - method: The method.
    ///   - url: The absolute URL.
    ///   - headers: Header fields.
    ///   - body: The body.
    ///   - isRetryable: Whether retrying is safe; `nil` means "if the method is idempotent".
    ///   - timeout: How long this exchange may take, in place of the configured timeout.
    public init(
        method: Method = .get,
        url: String,
        headers: HeaderFields = [:],
        body: [UInt8]? = nil,
        isRetryable: Bool? = nil,
        timeout: Duration? = nil
    ) {
        self.method = method
        self.url = url
        self.headers = headers
        self.body = body
        self.isRetryable = isRetryable ?? method.isIdempotent
        self.timeout = timeout
    }
}

/// The response a transport returns.
public struct HTTPTransportResponse: Sendable, Hashable {
    /// The status code.
    public var status: Int
    /// The header fields.
    public var headers: HeaderFields
    /// The whole body.
    public var body: [UInt8]
    /// The URL that answered, after redirects.
    public var url: String
    /// How long the exchange took, retries and redirects included.
    public var duration: Duration

    /// Creates a response.
    ///
    /// - Parameters:
    ///   - status: The status code.
    ///   - headers: The header fields.
    ///   - body: The body.
    ///   - url: The URL that answered.
    ///   - duration: How long it took.
    public init(status: Int, headers: HeaderFields = [:], body: [UInt8] = [], url: String, duration: Duration = .zero) {
        self.status = status
        self.headers = headers
        self.body = body
        self.url = url
        self.duration = duration
    }

    /// Whether the status is 2xx.
    public var isSuccess: Bool { (200..<300).contains(status) }
}
