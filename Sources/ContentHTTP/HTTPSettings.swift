public import ContentCore

/// How the transport behaves: timeouts, redirects, retries, the size cap, proxies and identity.
public struct HTTPSettings: Sendable {
    /// The longest to wait for a connection.
    public var connectTimeout: Duration
    /// The longest the server may stay silent mid-response.
    public var readTimeout: Duration
    /// The longest a whole request may take, redirects and retries included.
    public var totalTimeout: Duration
    /// How redirects are followed.
    public var redirects: RedirectPolicy
    /// When requests are retried.
    public var retry: RetryPolicy
    /// The largest body accepted, in bytes.
    public var maxResponseBytes: Int
    /// The proxies to use.
    public var proxy: ProxyEnvironment
    /// The `User-Agent` sent when a request has none.
    public var userAgent: String
    /// Masks secrets in logs and errors.
    public var redactor: Redactor

    /// Creates settings.
    ///
    /// - Parameters:
    ///   - connectTimeout: The longest to wait for a connection.
    ///   - readTimeout: The longest the server may stay silent.
    ///   - totalTimeout: The longest a whole request may take.
    ///   - redirects: How redirects are followed.
    ///   - retry: When requests are retried.
    ///   - maxResponseBytes: The largest body accepted.
    ///   - proxy: The proxies to use.
    ///   - userAgent: The default `User-Agent`.
    ///   - redactor: Masks secrets.
    public init(
        connectTimeout: Duration = .seconds(10),
        readTimeout: Duration = .seconds(30),
        totalTimeout: Duration = .seconds(30),
        redirects: RedirectPolicy = RedirectPolicy(),
        retry: RetryPolicy = RetryPolicy(),
        maxResponseBytes: Int = 256 << 20,
        proxy: ProxyEnvironment = ProxyEnvironment(),
        userAgent: String = ContentVersion.userAgent,
        redactor: Redactor = Redactor()
    ) {
        self.connectTimeout = connectTimeout
        self.readTimeout = readTimeout
        self.totalTimeout = totalTimeout
        self.redirects = redirects
        self.retry = retry
        self.maxResponseBytes = maxResponseBytes
        self.proxy = proxy
        self.userAgent = userAgent
        self.redactor = redactor
    }

    /// Settings from the configuration's shared defaults and the process environment's proxy variables.
    ///
    /// - Parameters:
    ///   - defaults: Shared backend settings.
    ///   - environment: The process environment.
    ///   - redactor: Masks secrets.
    /// - Throws: ``HTTPTransportError`` for a malformed proxy variable.
    public init(defaults: BackendDefaults, environment: [String: String], redactor: Redactor) throws(HTTPTransportError)
    {
        self.init(
            connectTimeout: min(.seconds(10), defaults.timeout),
            readTimeout: defaults.timeout,
            totalTimeout: defaults.timeout,
            retry: RetryPolicy(maxRetries: defaults.retries),
            maxResponseBytes: defaults.maxResponseBytes,
            proxy: try ProxyEnvironment(environment: environment),
            redactor: redactor
        )
    }
}
