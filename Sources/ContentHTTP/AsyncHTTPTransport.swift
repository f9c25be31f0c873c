internal import AsyncHTTPClient
public import ContentCore
internal import Foundation
public import Logging
internal import NIOCore
internal import NIOHTTP1
internal import NIOHTTPCompression
internal import NIOPosix

/// The production ``HTTPTransport``, on AsyncHTTPClient.
///
/// Redirects are followed here rather than by the client, so that credentials are dropped when a
/// redirect changes origin (see ``RedirectPolicy``). Idempotent requests are retried per
/// ``RetryPolicy``; bodies are capped at ``HTTPSettings/maxResponseBytes``. With the logger at
/// `debug`, each exchange is logged with every secret redacted.
///
/// The transport owns its HTTP clients: call ``shutdown()`` when done.
public final class AsyncHTTPTransport: HTTPTransport {
    /// How the transport behaves.
    public let settings: HTTPSettings
    private let logger: Logger
    private let sleep: @Sendable (Duration) async throws -> Void
    private let direct: HTTPClient
    private let viaHTTPProxy: HTTPClient?
    private let viaHTTPSProxy: HTTPClient?

    /// Creates a transport and its clients.
    ///
    /// - Parameters:
    ///   - settings: How to behave.
    ///   - logger: Where exchanges are logged, at `debug`.
    ///   - sleep: How to wait between retries; tests record the waits instead.
    public init(
        settings: HTTPSettings,
        logger: Logger = Logger(label: "content.http"),
        sleep: @escaping @Sendable (Duration) async throws -> Void = { try await Task.sleep(for: $0) }
    ) {
        self.settings = settings
        self.logger = logger
        self.sleep = sleep
        direct = Self.makeClient(settings, proxy: nil)
        viaHTTPProxy = settings.proxy.http.map { Self.makeClient(settings, proxy: $0) }
        viaHTTPSProxy = settings.proxy.https.map { Self.makeClient(settings, proxy: $0) }
    }

    private static func makeClient(_ settings: HTTPSettings, proxy: ProxyEnvironment.Server?) -> HTTPClient {
        var configuration = HTTPClient.Configuration(
            redirectConfiguration: .disallow,
            timeout: .init(
                connect: .nanoseconds(settings.connectTimeout.nanoseconds),
                // A read timeout no shorter than the whole request's adds nothing to the deadline that bounds each
                // exchange (``perform(_:deadline:clock:)``), and would cut short a request whose own timeout is
                // longer (`--timeout 2m`).
                read: settings.readTimeout < settings.totalTimeout
                    ? .nanoseconds(settings.readTimeout.nanoseconds) : nil)
        )
        // A command-line run should fail fast on a refused connection; ``RetryPolicy`` decides about retries.
        configuration.connectionPool.retryConnectionEstablishment = false
        // gzip and deflate answers are decoded, as the platform clients the backends' SDKs use do (a MobileFirst
        // server gzips answers over 20 KB); the cap holds for the decoded bytes.
        configuration.decompression = .enabled(limit: .size(settings.maxResponseBytes))
        if let proxy {
            let authorization = proxy.user.map {
                HTTPClient.Authorization.basic(username: $0, password: proxy.password ?? "")
            }
            configuration.proxy = .server(host: proxy.host, port: proxy.port, authorization: authorization)
        }
        return HTTPClient(eventLoopGroup: HTTPClient.defaultEventLoopGroup, configuration: configuration)
    }

    /// Shuts the clients down; the transport cannot send afterwards.
    ///
    /// - Throws: What the client reports.
    public func shutdown() async throws {
        try await direct.shutdown()
        try await viaHTTPProxy?.shutdown()
        try await viaHTTPSProxy?.shutdown()
    }

    /// Sends a request, following redirects and retrying where allowed.
    ///
    /// - Parameter request: The request.
    /// - Returns: The final response.
    /// - Throws: ``HTTPTransportError``.
    public func send(_ request: HTTPTransportRequest) async throws -> HTTPTransportResponse {
        let clock = ContinuousClock()
        let start = clock.now
        // A request's own timeout is used as given, longer or shorter than the default, as the SDKs'
        // `WLResourceRequest(url, method, timeout)` uses it.
        let deadline = start + (request.timeout ?? settings.totalTimeout)
        var current = request
        var redirects = 0
        var retries = 0
        while true {
            let outcome: Result<RawResponse, HTTPTransportError>
            do {
                outcome = .success(try await perform(current, deadline: deadline, clock: clock))
            } catch let error as HTTPTransportError {
                outcome = .failure(error)
            }
            switch outcome {
            case .failure(let error):
                guard current.isRetryable, retries < settings.retry.maxRetries, Self.isRetryable(error) else {
                    throw error
                }
                retries += 1
                let delay = settings.retry.delay(beforeRetry: retries, retryAfter: nil)
                guard clock.now + delay < deadline else { throw error }
                log("retry \(retries) of \(settings.retry.maxRetries) in \(delay) after: \(error)")
                try await wait(delay, url: current.url)
            case .success(let response):
                if RedirectPolicy.isRedirect(response.status), let location = response.headers["Location"] {
                    redirects += 1
                    guard redirects <= settings.redirects.maxRedirects else {
                        throw HTTPTransportError(
                            .tooManyRedirects,
                            url: settings.redactor.redact(url: request.url),
                            detail: "more than \(settings.redirects.maxRedirects)"
                        )
                    }
                    current = try settings.redirects.nextRequest(
                        after: current,
                        originalURL: request.url,
                        status: response.status,
                        location: location,
                        redactor: settings.redactor
                    )
                    continue
                }
                if RetryPolicy.isRetryableStatus(response.status), current.isRetryable,
                    retries < settings.retry.maxRetries
                {
                    let delay = settings.retry.delay(
                        beforeRetry: retries + 1, retryAfter: response.headers["Retry-After"])
                    if clock.now + delay < deadline {
                        retries += 1
                        log(
                            "retry \(retries) of \(settings.retry.maxRetries) in \(delay) after HTTP \(response.status)"
                        )
                        try await wait(delay, url: current.url)
                        continue
                    }
                }
                return HTTPTransportResponse(
                    status: response.status,
                    headers: response.headers,
                    body: response.body,
                    url: current.url,
                    duration: clock.now - start
                )
            }
        }
    }

    private func wait(_ delay: Duration, url: String) async throws {
        do {
            try await sleep(delay)
        } catch {
            throw HTTPTransportError(.cancelled, url: settings.redactor.redact(url: url))
        }
    }

    private struct RawResponse: Sendable {
        var status: Int
        var headers: HeaderFields
        var body: [UInt8]
    }

    /// One exchange, no redirects or retries.
    private func perform(
        _ request: HTTPTransportRequest,
        deadline: ContinuousClock.Instant,
        clock: ContinuousClock
    ) async throws -> RawResponse {
        let shownURL = settings.redactor.redact(url: request.url)
        guard let components = URLComponents(string: request.url), let scheme = components.scheme?.lowercased(),
            scheme == "http" || scheme == "https", let host = components.host, !host.isEmpty
        else {
            throw HTTPTransportError(.invalidURL, url: shownURL)
        }
        // AsyncHTTPClient traps on a port that does not fit 16 bits; a URL from a flag, a configuration or a
        // redirect's Location must fail as a bad URL instead.
        if let port = components.port, !(1...65535).contains(port) {
            throw HTTPTransportError(.invalidURL, url: shownURL, detail: "port \(port) is outside 1-65535")
        }
        // AsyncHTTPClient refuses such a header with an error that quotes its value, which may be a secret.
        if let problem = request.headers.lazy.compactMap(\.problem).first {
            throw HTTPTransportError(.invalidHeader, url: shownURL, detail: problem)
        }
        var outgoing = HTTPClientRequest(url: request.url)
        outgoing.method = NIOHTTP1.HTTPMethod(rawValue: request.method.rawValue)
        for field in request.headers { outgoing.headers.add(name: field.name, value: field.value) }
        for field in addedHeaders(to: request) { outgoing.headers.add(name: field.name, value: field.value) }
        if let body = request.body { outgoing.body = .bytes(ByteBuffer(bytes: body)) }
        logRequest(request, shownURL: shownURL)

        let client = client(scheme: scheme, host: host, port: components.port ?? (scheme == "https" ? 443 : 80))
        let remaining = deadline - clock.now
        guard remaining > .zero else { throw HTTPTransportError(.deadlineExceeded, url: shownURL) }
        let started = clock.now
        do {
            // AsyncHTTPClient's deadline stops at the response head; the body is bounded here, so that a server that
            // answers its head and then stalls fails at the deadline too.
            let prepared = outgoing
            return try await withThrowingTaskGroup(of: RawResponse?.self) { group in
                group.addTask {
                    try await self.exchange(
                        prepared, client: client, remaining: remaining, shownURL: shownURL, started: started,
                        clock: clock)
                }
                group.addTask {
                    try await clock.sleep(until: deadline)
                    return nil
                }
                defer { group.cancelAll() }
                if let first = try await group.next(), let response = first { return response }
                // The deadline woke first; an exchange that had already ended (its task not yet resumed on a busy
                // machine) still gives its own outcome, and only one the deadline cut short is a deadline failure.
                group.cancelAll()
                do {
                    if let last = try await group.next(), let response = last { return response }
                } catch let error where Self.map(error, url: shownURL, redactor: settings.redactor).kind != .cancelled {
                    throw error
                } catch {}
                let error = HTTPTransportError(.deadlineExceeded, url: shownURL)
                log("✗ \(error)")
                throw error
            }
        } catch let error as HTTPTransportError {
            throw error
        } catch {
            let mapped = Self.map(error, url: shownURL, redactor: settings.redactor)
            log("✗ \(mapped)")
            throw mapped
        }
    }

    /// The request sent and its whole answer read, within the size cap.
    private func exchange(
        _ outgoing: HTTPClientRequest, client: HTTPClient, remaining: Duration, shownURL: String,
        started: ContinuousClock.Instant, clock: ContinuousClock
    ) async throws -> RawResponse {
        let response = try await client.execute(
            outgoing, deadline: .now() + .nanoseconds(remaining.nanoseconds), logger: nil)
        var headers = HeaderFields()
        for (name, value) in response.headers { headers.append(name: name, value: value) }
        let limit = settings.maxResponseBytes
        if let declared = response.headers.first(name: "Content-Length").flatMap(Int.init), declared > limit {
            throw HTTPTransportError(
                .responseTooLarge, url: shownURL, detail: "Content-Length \(declared) bytes, cap \(limit) bytes")
        }
        var body: [UInt8] = []
        for try await chunk in response.body {
            guard body.count + chunk.readableBytes <= limit else {
                throw HTTPTransportError(.responseTooLarge, url: shownURL, detail: "more than the \(limit)-byte cap")
            }
            body.append(contentsOf: chunk.readableBytesView)
        }
        let status = Int(response.status.code)
        logResponse(status: status, headers: headers, bytes: body.count, elapsed: clock.now - started)
        return RawResponse(status: status, headers: headers, body: body)
    }

    /// What the transport asks for when the request does not say: the codings it decodes.
    private static let acceptEncoding = "gzip, deflate"

    /// The fields the transport adds to a request that does not set them: sent, and logged, the same.
    private func addedHeaders(to request: HTTPTransportRequest) -> [(name: String, value: String)] {
        [("User-Agent", settings.userAgent), ("Accept-Encoding", Self.acceptEncoding)]
            .filter { request.headers[$0.0] == nil }
    }

    private func client(scheme: String, host: String, port: Int) -> HTTPClient {
        guard settings.proxy.server(scheme: scheme, host: host, port: port) != nil else { return direct }
        return (scheme == "https" ? viaHTTPSProxy : viaHTTPProxy) ?? direct
    }

    /// Transport failures worth another try: the request may never have reached the server.
    private static func isRetryable(_ error: HTTPTransportError) -> Bool {
        [.connect, .connectTimeout, .connectionClosed, .readTimeout].contains(error.kind)
    }

    static func map(_ error: any Error, url: String, redactor: Redactor) -> HTTPTransportError {
        if error is CancellationError { return HTTPTransportError(.cancelled, url: url) }
        if let client = error as? HTTPClientError {
            switch client {
            case .connectTimeout: return HTTPTransportError(.connectTimeout, url: url)
            case .readTimeout: return HTTPTransportError(.readTimeout, url: url)
            case .deadlineExceeded: return HTTPTransportError(.deadlineExceeded, url: url)
            case .remoteConnectionClosed: return HTTPTransportError(.connectionClosed, url: url)
            case .cancelled: return HTTPTransportError(.cancelled, url: url)
            case .tlsHandshakeTimeout: return HTTPTransportError(.tls, url: url, detail: "handshake timed out")
            case .invalidURL, .emptyHost, .emptyScheme: return HTTPTransportError(.invalidURL, url: url)
            case .invalidProxyResponse, .proxyAuthenticationRequired, .httpProxyHandshakeTimeout:
                return HTTPTransportError(.proxy, url: url, detail: redactor.redact(client.description))
            default:
                return HTTPTransportError(.other, url: url, detail: redactor.redact(client.description))
            }
        }
        if let decoding = error as? NIOHTTPDecompression.DecompressionError {
            if decoding == .limit {
                return HTTPTransportError(.responseTooLarge, url: url, detail: "over the cap once decoded")
            }
            return HTTPTransportError(.undecodableBody, url: url, detail: "\(decoding)")
        }
        if let decoding = error as? NIOHTTPDecompression.ExtraDecompressionError {
            return HTTPTransportError(.undecodableBody, url: url, detail: "\(decoding)")
        }
        if let connection = error as? NIOConnectionError {
            if connection.connectionErrors.isEmpty, connection.dnsAError != nil || connection.dnsAAAAError != nil {
                return HTTPTransportError(.dns, url: url, detail: "host \(connection.host)")
            }
            let reasons = connection.connectionErrors.map { Self.reason($0.error) }
            return HTTPTransportError(.connect, url: url, detail: reasons.first ?? "")
        }
        if let io = error as? IOError {
            return HTTPTransportError(.connect, url: url, detail: Self.reason(io))
        }
        if let channel = error as? ChannelError, case .connectTimeout = channel {
            return HTTPTransportError(.connectTimeout, url: url)
        }
        let typeName = String(reflecting: type(of: error))
        if typeName.hasPrefix("NIOSSL.") {
            return HTTPTransportError(.tls, url: url, detail: redactor.redact("\(error)"))
        }
        return HTTPTransportError(.other, url: url, detail: redactor.redact("\(error)"))
    }

    /// A system error as the words of `strerror` ("connection refused"), not NIO's debugging description.
    static func reason(_ error: any Error) -> String {
        if let io = error as? IOError { return SystemError.reason(io.errnoCode) }
        return "\(error)"
    }

    private func log(_ message: @autoclosure () -> String) {
        logger.debug("\(settings.redactor.redact(message()))")
    }

    private func logRequest(_ request: HTTPTransportRequest, shownURL: String) {
        guard logger.logLevel <= .debug else { return }
        var lines = ["> \(request.method) \(shownURL)"]
        for field in request.headers {
            lines.append("> \(field.name): \(settings.redactor.redactHeader(name: field.name, value: field.value))")
        }
        for field in addedHeaders(to: request) { lines.append("> \(field.name): \(field.value)") }
        if let body = request.body { lines.append("> (\(body.count) bytes of body)") }
        logger.debug("\(lines.joined(separator: "\n"))")
    }

    private func logResponse(status: Int, headers: HeaderFields, bytes: Int, elapsed: Duration) {
        guard logger.logLevel <= .debug else { return }
        let milliseconds = elapsed.components.seconds * 1000 + elapsed.components.attoseconds / 1_000_000_000_000_000
        var lines = ["< \(status) in \(milliseconds) ms, \(bytes) bytes"]
        for field in headers {
            lines.append("< \(field.name): \(settings.redactor.redactHeader(name: field.name, value: field.value))")
        }
        logger.debug("\(lines.joined(separator: "\n"))")
    }
}

extension Duration {
    /// The duration in whole nanoseconds, saturating.
    var nanoseconds: Int64 {
        let (seconds, attoseconds) = components
        let (product, overflow) = seconds.multipliedReportingOverflow(by: 1_000_000_000)
        return overflow ? .max : product + attoseconds / 1_000_000_000
    }
}
