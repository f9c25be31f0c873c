public import ContentCore

/// Why a request got no usable response: each says what failed, the URL (redacted), and what to try.
public struct HTTPTransportError: ContentFailure, Hashable {
    /// The kinds of failure, bounded so they can be counted in logs.
    public enum Kind: String, Sendable, Hashable {
        /// The URL cannot be sent.
        case invalidURL
        /// A header name or value HTTP does not allow, such as a token with a line break.
        case invalidHeader
        /// The host name did not resolve.
        case dns
        /// The connection was refused or could not be made.
        case connect
        /// The TLS handshake or certificate check failed.
        case tls
        /// No connection within the connect timeout.
        case connectTimeout
        /// The server stopped sending within the read timeout.
        case readTimeout
        /// The whole exchange, retries included, ran past its deadline.
        case deadlineExceeded
        /// The server closed the connection before answering.
        case connectionClosed
        /// More redirects than allowed, or a cycle.
        case tooManyRedirects
        /// The body is larger than the configured cap.
        case responseTooLarge
        /// The body's `Content-Encoding` (gzip, deflate) does not decode.
        case undecodableBody
        /// The proxy refused or failed.
        case proxy
        /// The task was cancelled.
        case cancelled
        /// Anything else the HTTP client reported.
        case other
    }

    /// The kind.
    public let kind: Kind
    /// The URL, with secrets redacted.
    public let url: String
    /// Details from the underlying client, or numbers such as the size cap.
    public let detail: String

    /// Creates an error.
    ///
    /// - Parameters:
    ///   - kind: The kind.
    ///   - url: The URL, already redacted.
    ///   - detail: Details.
    public init(_ kind: Kind, url: String, detail: String = "") {
        self.kind = kind
        self.url = url
        self.detail = detail
    }

    /// Invalid URLs and headers are configuration mistakes; everything else is a transport failure.
    public var category: FailureCategory {
        switch kind {
        case .invalidURL, .invalidHeader: .configuration
        case .cancelled: .interrupted
        default: .transport
        }
    }

    /// What failed, where, and what to do.
    public var description: String {
        let suffix = detail.isEmpty ? "" : " (\(detail))"
        switch kind {
        case .invalidURL:
            return "\(url): not a valid http or https URL\(suffix); check the backend's `url:`"
        case .invalidHeader:
            return "\(url): \(detail); check the token, token file, environment variable or -H it comes from"
        case .dns:
            return "\(url): the host name did not resolve\(suffix); check the spelling and your network or VPN"
        case .connect:
            return "\(url): could not connect\(suffix); is the server running and the port right?"
        case .tls:
            return "\(url): TLS failed\(suffix); check the certificate, or that the server speaks https on this port"
        case .connectTimeout:
            return "\(url): no connection within the connect timeout\(suffix); check the host, the port, or a proxy"
        case .readTimeout:
            return "\(url): the server stopped answering\(suffix); retry later or raise `timeout:`"
        case .deadlineExceeded:
            return "\(url): no complete answer within the timeout\(suffix); raise `defaults.timeout` or --timeout"
        case .connectionClosed:
            return "\(url): the server closed the connection before answering\(suffix)"
        case .tooManyRedirects:
            return "\(url): too many redirects\(suffix); the server may be redirecting in a loop"
        case .responseTooLarge:
            return
                "\(url): the response is larger than the cap\(suffix); raise `defaults.maxResponseSize` if it is expected"
        case .undecodableBody:
            return "\(url): the response body does not decode as its Content-Encoding says\(suffix); "
                + "send -H 'Accept-Encoding: identity' to have it unencoded"
        case .proxy:
            return "\(url): the proxy failed\(suffix); check HTTPS_PROXY, HTTP_PROXY and NO_PROXY"
        case .cancelled:
            return "\(url): cancelled"
        case .other:
            return "\(url): the request failed\(suffix)"
        }
    }
}
