internal import Foundation
internal import HTTPTypes
internal import Hummingbird
internal import HummingbirdCore
internal import HummingbirdWebSocket
internal import Logging
internal import NIOCore
internal import NIOHTTP1
internal import NIOHTTPTypesHTTP1

/// How the servers of `content serve` treat connections and callers: idle connections close, the number of open
/// connections is bounded below the descriptor limit, and only requests meant for a local service get through.
public struct EmulatorConnectionPolicy: Sendable, Equatable {
    /// How long a connection may sit without a complete request (headers included) before it is closed.
    public var idleTimeout: Duration = .seconds(30)
    /// The most connections one service holds open; more wait in the kernel's backlog.
    public var maxConnections: Int = EmulatorConnectionPolicy.defaultMaxConnections
    /// Host names (besides loopback ones and the address listened on) that requests may be addressed to.
    public var allowedHosts: [String] = []
    /// An origin whose pages may write (`*` for any), as `--cors` allows; `nil` for none.
    public var allowedOrigin: String?

    /// The defaults.
    public init() {}

    /// A quarter of the soft descriptor limit, at most 1024: three services at the limit leave room for the
    /// database, the workspace files and the listening sockets, so accepting never meets EMFILE.
    public static var defaultMaxConnections: Int {
        var limit = rlimit()
        #if canImport(Glibc)
            let read = getrlimit(__rlimit_resource_t(RLIMIT_NOFILE.rawValue), &limit)
        #else
            let read = getrlimit(RLIMIT_NOFILE, &limit)
        #endif
        guard read == 0, limit.rlim_cur > 0, limit.rlim_cur < 1 << 40 else { return 1024 }
        return max(8, min(1024, Int(limit.rlim_cur) / 4))
    }

    /// The server builder: HTTP/1.1 with the idle timeout, a connection that closes after answering a request
    /// that did not ask to keep it open, and work that stops when the client goes.
    func server(
        handover: HTTP2Handover?, webSocket: (any EmulatorWebSocketEndpoint)? = nil, host: String = "127.0.0.1"
    ) -> HTTPServerBuilder {
        let nanoseconds =
            idleTimeout.components.seconds * 1_000_000_000 + idleTimeout.components.attoseconds / 1_000_000_000
        let configuration = HTTP1Channel.Configuration(
            additionalChannelHandlers: [HTTP1ConnectionPersistenceInstaller()], idleTimeout: .nanoseconds(nanoseconds))
        return HTTPServerBuilder { responder in
            if let webSocket {
                let upgradable = HTTP1WebSocketUpgradeChannel(
                    responder: responder,
                    configuration: .init(
                        http1: configuration,
                        ws: .init(maxFrameSize: Self.maximumWebSocketMessage, closeTimeout: .seconds(5))),
                    shouldUpgrade: { request, channel, _ in
                        self.webSocketUpgrade(request, channel: channel, endpoint: webSocket, host: host)
                    })
                // Hummingbird's idle timeout starts only once a request head is read on this channel; until then, ours.
                let channel = DisconnectAwareHTTP1Channel(
                    http: upgradable, firstRequestTimeout: .nanoseconds(nanoseconds))
                return Self.sniffing(channel, handover: handover, idleTimeout: nanoseconds)
            }
            let http1 = DisconnectAwareHTTP1Channel(
                http: HTTP1Channel(responder: responder, configuration: configuration))
            return Self.sniffing(http1, handover: handover, idleTimeout: nanoseconds)
        }
    }

    /// A connection that is HTTP/1.1 only, or whose first bytes say whether it is handed over as HTTP/2.
    private static func sniffing<HTTP1: ServerChildChannel>(
        _ http1: HTTP1, handover: HTTP2Handover?, idleTimeout nanoseconds: Int64
    ) -> any ServerChildChannel {
        guard let handover else { return http1 }
        return ProtocolSniffingChannel(http1: http1, target: handover, idleTimeout: .nanoseconds(nanoseconds))
    }

    func configuration(address: BindAddress) -> ApplicationConfiguration {
        .init(
            address: address, serverName: "content-emulator",
            availableConnectionsDelegate: MaximumAvailableConnections(maxConnections))
    }

    /// An application serving `router` on `address` under this policy.
    func application(
        router: Router<BasicRequestContext>, address: BindAddress, logger: Logger, handover: HTTP2Handover? = nil,
        webSocket: (any EmulatorWebSocketEndpoint)? = nil, host: String = "127.0.0.1",
        onServerRunning: @escaping @Sendable (any Channel) async -> Void
    ) -> EmulatorApplication {
        Application(
            responder: ClientDisconnectResponder(wrapped: router.buildResponder()),
            server: server(handover: handover, webSocket: webSocket, host: host),
            configuration: configuration(address: address), onServerRunning: onServerRunning, logger: logger)
    }
}

/// The application of one emulated service.
typealias EmulatorApplication = Application<ClientDisconnectResponder<RouterResponder<BasicRequestContext>>>

/// Refuses requests a web page could have sent.
///
/// A `Host` that is not this server (DNS rebinding: a page's own name
/// resolved to 127.0.0.1), and a write (any method but GET, HEAD and OPTIONS) from a foreign `Origin` (cross-site
/// request forgery), unless `--cors` allows that origin. Requests without `Origin` (curl, the SDKs, `content`) pass.
struct LocalRequestGuard: RouterMiddleware {
    typealias Context = BasicRequestContext
    /// Lower-cased host names and addresses, without ports.
    let hosts: Set<String>
    let allowedOrigin: String?

    init(host: String, policy: EmulatorConnectionPolicy) {
        // 10.0.2.2 is how an app in the Android Emulator reaches this machine's loopback, and the host the Android
        // SDKs' `useEmulator()` use by default (firebase-android-sdk, `FirebaseDataConnect.useEmulator(host: String =
        // "10.0.2.2", …)`). An address, unlike a name, cannot be rebound to another server by a page.
        var hosts: Set<String> = ["localhost", "127.0.0.1", "::1", "10.0.2.2", host.lowercased()]
        for name in policy.allowedHosts { hosts.insert(name.lowercased()) }
        self.hosts = hosts
        allowedOrigin = policy.allowedOrigin
    }

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws
        -> Response
    {
        let isWrite = ![.get, .head, .options].contains(request.method)
        if let refusal = refusal(authority: request.head.authority, origin: request.headers[.origin], isWrite: isWrite)
        {
            return Self.refusal(refusal.status, refusal.message)
        }
        return try await next(request, context)
    }

    /// Why a request is not served, or `nil` when it is.
    ///
    /// A request is refused for a host this server does not answer to (what a DNS rebinding page would send), or as
    /// a write from a page of another origin. A WebSocket counts as a write: it carries mutations.
    func refusal(authority: String?, origin: String?, isWrite: Bool) -> (status: HTTPResponse.Status, message: String)?
    {
        let host = authority.map(Self.hostName) ?? ""
        guard hosts.contains(host) || host.hasSuffix(".localhost") else {
            return (
                .misdirectedRequest,
                "this server answers requests addressed to localhost, 127.0.0.1, [::1], 10.0.2.2 (the Android "
                    + "Emulator's name for this machine) or the address it listens on, not '\(host)'; add a name with "
                    + "content serve --allow-host NAME"
            )
        }
        if isWrite, let origin, !isAllowed(origin: origin, authority: authority) {
            return (
                .forbidden,
                "a write from a page of \(origin) is refused; allow that origin with content serve --cors \(origin)"
            )
        }
        return nil
    }

    private func isAllowed(origin: String, authority: String?) -> Bool {
        if allowedOrigin == "*" || allowedOrigin == origin { return true }
        // The server's own pages.
        guard let authority else { return false }
        return origin == "http://\(authority)"
    }

    /// `[::1]:4503` → `::1`, `Example.com:80` → `example.com`.
    static func hostName(_ authority: String) -> String {
        let lowered = authority.lowercased()
        if lowered.hasPrefix("["), let close = lowered.firstIndex(of: "]") {
            return String(lowered[lowered.index(after: lowered.startIndex)..<close])
        }
        return String(lowered.prefix { $0 != ":" })
    }

    static func refusal(_ status: HTTPResponse.Status, _ message: String) -> Response {
        Response(
            status: status, headers: [.contentType: "text/plain;charset=utf-8"],
            body: ResponseBody(byteBuffer: ByteBuffer(string: message + "\n")))
    }
}

/// Put among Hummingbird's additional handlers, which sit after the request has lost its HTTP version; it moves
/// the real handler in right before the conversion to HTTP types, where the version and `Connection` header are
/// still seen.
final class HTTP1ConnectionPersistenceInstaller: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = NIOAny

    func handlerAdded(context: ChannelHandlerContext) {
        let pipeline = context.pipeline.syncOperations
        // Right before the conversion to HTTP types: after the upgrade handler where a connection may become a
        // WebSocket, which passes the first request on from its own place in the pipeline.
        if let codec = try? pipeline.handler(type: HTTP1ToHTTPServerCodec.self) {
            try? pipeline.addHandler(HTTP1ConnectionPersistence(), position: .before(codec))
        } else if let decoder = try? pipeline.handler(type: ByteToMessageHandler<HTTPRequestDecoder>.self) {
            try? pipeline.addHandler(HTTP1ConnectionPersistence(), position: .after(decoder))
        }
        context.pipeline.syncOperations.removeHandler(context: context, promise: nil)
    }
}

/// Closes the connection after answering a request that did not ask to keep it.
///
/// That is HTTP/1.0 without `Connection: keep-alive`, or `Connection: close` in any spelling, as RFC 9112 §9.3
/// requires. The answer stays
/// `HTTP/1.1`, the highest version this server conforms to (RFC 9110 §6.2), with `Connection: close`.
final class HTTP1ConnectionPersistence: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias InboundOut = HTTPServerRequestPart
    typealias OutboundIn = HTTPServerResponsePart
    typealias OutboundOut = HTTPServerResponsePart

    private var keepAlive: [Bool] = []
    private var closeAfterResponse = false

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        if case .head(let head) = unwrapInboundIn(data) { keepAlive.append(head.isKeepAlive) }
        context.fireChannelRead(data)
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        switch unwrapOutboundIn(data) {
        case .head(var head) where head.status.code >= 200 && !keepAlive.isEmpty:
            closeAfterResponse = !keepAlive.removeFirst()
            if closeAfterResponse { head.headers.replaceOrAdd(name: "connection", value: "close") }
            context.write(wrapOutboundOut(.head(head)), promise: promise)
        case .end where closeAfterResponse:
            closeAfterResponse = false
            let written = promise ?? context.eventLoop.makePromise()
            let loopBound = NIOLoopBound(context, eventLoop: context.eventLoop)
            written.futureResult.whenComplete { _ in loopBound.value.close(promise: nil) }
            context.write(data, promise: written)
        default:
            context.write(data, promise: promise)
        }
    }
}

extension Request {
    /// Whether the body is declared JSON (`application/json` or `application/…+json`, with any parameters).
    ///
    /// The GraphQL endpoints take nothing else, as the services document (and their SDKs send); this also shuts out
    /// the bodies a page can post cross-site without a preflight (`text/plain`, forms, or a body with no type).
    package var declaresJSON: Bool {
        guard let value = headers[.contentType] else { return false }
        // Bytes, not Foundation's trimming and lower-casing: this runs on every request with a body.
        var mediaType = value.utf8.prefix { $0 != UInt8(ascii: ";") }
        while let first = mediaType.first, first == UInt8(ascii: " ") || first == UInt8(ascii: "\t") {
            mediaType = mediaType.dropFirst()
        }
        while let last = mediaType.last, last == UInt8(ascii: " ") || last == UInt8(ascii: "\t") {
            mediaType = mediaType.dropLast()
        }
        func lowered(_ byte: UInt8) -> UInt8 {
            (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte) ? byte | 0x20 : byte
        }
        func starts(with text: String) -> Bool {
            mediaType.count >= text.utf8.count && zip(mediaType, text.utf8).allSatisfy { lowered($0) == $1 }
        }
        func ends(with text: String) -> Bool {
            mediaType.count >= text.utf8.count
                && zip(mediaType.suffix(text.utf8.count), text.utf8).allSatisfy {
                    lowered($0) == $1
                }
        }
        return (starts(with: "application/json") && mediaType.count == "application/json".utf8.count)
            || (starts(with: "application/") && ends(with: "+json"))
    }
}
