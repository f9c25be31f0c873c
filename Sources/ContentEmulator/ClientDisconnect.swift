internal import Hummingbird
internal import HummingbirdCore
internal import Logging
internal import NIOConcurrencyHelpers
internal import NIOCore
internal import NIOHTTP1

/// Whether the client of one connection is still there, for the requests answered on it.
///
/// A client that closes its end (a timeout in curl, a closed browser tab, Ctrl-C) will never read the answer, so
/// the work for it stops: ``ClientDisconnectResponder`` cancels the request's task. Closing the sending side
/// counts as leaving, as it does for nginx (status 499) and for Hummingbird's own
/// `consumeWithCancellationOnInboundClose`; no HTTP client this project knows of half-closes and then waits.
final class ConnectionLifetime: Sendable {
    private struct State {
        var ended = false
        var nextID: UInt64 = 0
        var onEnd: [UInt64: @Sendable () -> Void] = [:]
    }

    /// The connection whose request this task answers; `nil` outside a server's connection.
    @TaskLocal static var current: ConnectionLifetime?

    private let state = NIOLockedValueBox(State())

    /// Runs `action` once the client has gone, at once when it already has.
    ///
    /// - Parameter action: What to do; it must not block.
    /// - Returns: The registration to pass to ``remove(_:)``, or `nil` when `action` has already run.
    func onEnd(_ action: @escaping @Sendable () -> Void) -> UInt64? {
        let id: UInt64? = state.withLockedValue { state in
            guard !state.ended else { return nil }
            let id = state.nextID
            state.nextID &+= 1
            state.onEnd[id] = action
            return id
        }
        if id == nil { action() }
        return id
    }

    /// Forgets a registration whose request has been answered.
    func remove(_ id: UInt64?) {
        guard let id else { return }
        _ = state.withLockedValue { $0.onEnd.removeValue(forKey: id) }
    }

    /// Marks the client gone and runs what was registered.
    func end() {
        let actions = state.withLockedValue { state -> [@Sendable () -> Void] in
            guard !state.ended else { return [] }
            state.ended = true
            defer { state.onEnd.removeAll() }
            return Array(state.onEnd.values)
        }
        for action in actions { action() }
    }
}

/// First in a connection's pipeline: ends its ``ConnectionLifetime`` when the client closes its side (end of
/// input) or the connection goes down (a reset, the idle timeout, the server closing it).
final class ConnectionEndHandler: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = NIOAny

    private let lifetime: ConnectionLifetime

    init(lifetime: ConnectionLifetime) {
        self.lifetime = lifetime
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if let event = event as? ChannelEvent, event == .inputClosed { lifetime.end() }
        context.fireUserInboundEventTriggered(event)
    }

    func channelInactive(context: ChannelHandlerContext) {
        lifetime.end()
        context.fireChannelInactive()
    }
}

/// Hummingbird's HTTP/1.1 connection (plain, or one that may become a WebSocket) with a ``ConnectionLifetime``,
/// which the requests answered on it see as ``ConnectionLifetime/current``.
struct DisconnectAwareHTTP1Channel<Wrapped: ServerChildChannel>: ServerChildChannel {
    struct Value: ServerChildChannelValue {
        let http: Wrapped.Value
        let lifetime: ConnectionLifetime
        var channel: any Channel { http.channel }
    }

    let http: Wrapped
    /// A read timeout kept until the first request's head is read, for a channel whose own starts only then (the
    /// one that may become a WebSocket).
    var firstRequestTimeout: TimeAmount?

    func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<Value> {
        http.setup(channel: channel, logger: logger).flatMapThrowing { value in
            let lifetime = ConnectionLifetime()
            let pipeline = channel.pipeline.syncOperations
            try pipeline.addHandler(ConnectionEndHandler(lifetime: lifetime), position: .first)
            if let firstRequestTimeout {
                // After the request decoder: what counts is a whole head, not bytes trickling in.
                let decoder = try pipeline.handler(type: ByteToMessageHandler<HTTPRequestDecoder>.self)
                let idle = IdleStateHandler(readTimeout: firstRequestTimeout)
                try pipeline.addHandler(idle, position: .after(decoder))
                try pipeline.addHandler(FirstRequestTimeout(idle: idle), position: .after(idle))
            }
            return Value(http: value, lifetime: lifetime)
        }
    }

    func handle(value: Value, logger: Logger) async {
        await ConnectionLifetime.$current.withValue(value.lifetime) {
            await http.handle(value: value.http, logger: logger)
        }
    }
}

/// Closes a connection whose first request head has not come within the read timeout of the `IdleStateHandler`
/// before it, and takes both out of the pipeline once it has.
final class FirstRequestTimeout: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias InboundOut = HTTPServerRequestPart

    private let idle: IdleStateHandler

    init(idle: IdleStateHandler) {
        self.idle = idle
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let isHead = if case .head = unwrapInboundIn(data) { true } else { false }
        context.fireChannelRead(data)
        if isHead {
            context.pipeline.syncOperations.removeHandler(idle, promise: nil)
            context.pipeline.syncOperations.removeHandler(context: context, promise: nil)
        }
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if let event = event as? IdleStateHandler.IdleStateEvent, event == .read {
            context.close(promise: nil)
            return
        }
        context.fireUserInboundEventTriggered(event)
    }
}

/// Answers each request in a task of its own, which is cancelled when the client goes: a GraphQL execution, a
/// query or a body read stops there instead of running to its time budget for nobody.
struct ClientDisconnectResponder<Wrapped: HTTPResponder>: HTTPResponder where Wrapped.Context: Sendable {
    typealias Context = Wrapped.Context
    let wrapped: Wrapped

    func respond(to request: Request, context: Context) async throws -> Response {
        guard let lifetime = ConnectionLifetime.current else {
            return try await wrapped.respond(to: request, context: context)
        }
        let work = Task { try await wrapped.respond(to: request, context: context) }
        let registration = lifetime.onEnd { work.cancel() }
        defer { lifetime.remove(registration) }
        return try await withTaskCancellationHandler {
            try await work.value
        } onCancel: {
            work.cancel()
        }
    }
}
