internal import Hummingbird
internal import HummingbirdCore
internal import Logging
internal import NIOConcurrencyHelpers
public import NIOCore
internal import NIOPosix

/// A server a service runs beside its HTTP/1.1 one, reached through the same port: connections that open with the
/// HTTP/2 connection preface (gRPC clients, which speak HTTP/2 with prior knowledge on a plain-text port, as the
/// Firebase SDKs do with an emulator) go to it, everything else is answered by the service's routes.
///
/// This is how one port serves both, as Firebase's emulator does on 9399. A companion that can ``adopt(_:)`` a
/// connection serves it on the connection's own channel; otherwise the companion listens on a loopback port of its
/// own, and the front door relays bytes both ways without reading them.
public protocol EmulatorCompanion: Sendable {
    /// Serves until ``beginGracefulShutdown()`` and its open calls end.
    ///
    /// - Parameter onListening: Called once with the loopback address the companion listens on.
    /// - Throws: When it cannot listen.
    func run(onListening: @escaping @Sendable (SocketAddress) -> Void) async throws

    /// Stops taking new calls, lets open ones finish, and then makes ``run(onListening:)`` return.
    func beginGracefulShutdown()

    /// Takes over a connection of the port that opened with the HTTP/2 preface, to serve it in place instead of
    /// through the relay: one hop less for every call.
    ///
    /// The caller holds the bytes read so far. Once the companion's handlers are in the channel's pipeline, it fires
    /// ``EmulatorCompanionReady`` from the pipeline's head, and the caller then passes the bytes on and steps aside.
    /// Called on the channel's event loop.
    ///
    /// - Parameter channel: The connection.
    /// - Returns: `false` when the companion cannot take it (then the connection is relayed).
    func adopt(_ channel: any Channel) -> Bool
}

extension EmulatorCompanion {
    /// Adopts nothing: every connection is relayed.
    ///
    /// - Parameter channel: Unused.
    /// - Returns: `false`.
    public func adopt(_ channel: any Channel) -> Bool { false }
}

/// What an ``EmulatorCompanion`` fires through an adopted connection once its own handlers are in place.
public struct EmulatorCompanionReady: Sendable {
    /// Creates the event.
    public init() {}
}

/// Where HTTP/2 connections go: the companion, which may adopt them, and its address once it listens.
final class HTTP2RelayTarget: Sendable {
    private let address = NIOLockedValueBox<SocketAddress?>(nil)
    let companion: any EmulatorCompanion

    init(companion: any EmulatorCompanion) {
        self.companion = companion
    }

    var current: SocketAddress? { address.withLockedValue { $0 } }

    func set(_ value: SocketAddress) { address.withLockedValue { $0 = value } }

    /// Runs a companion in `group` and returns once it listens, with its address set here, or once it has failed
    /// to (then ``current`` is `nil` and the group holds its error).
    func start(_ companion: any EmulatorCompanion, in group: inout ThrowingTaskGroup<Void, any Error>) async {
        let (listening, continuation) = AsyncStream<Void>.makeStream()
        group.addTask {
            defer { continuation.finish() }
            try await companion.run { address in
                self.set(address)
                continuation.yield()
            }
        }
        for await _ in listening { break }
    }
}

/// A connection whose first bytes decide what it is: the HTTP/2 preface goes to the companion (adopted, or else
/// relayed), anything else to Hummingbird's HTTP/1.1 channel.
struct ProtocolSniffingChannel<HTTP1: ServerChildChannel>: ServerChildChannel {
    enum Sniffed: Sendable {
        case http1(HTTP1.Value)
        case relayed
    }

    struct Value: ServerChildChannelValue {
        let sniffed: EventLoopFuture<Sniffed>
        let channel: any Channel
    }

    let http1: HTTP1
    let target: HTTP2RelayTarget
    /// How long a connection may stay silent before it says what it is.
    let idleTimeout: TimeAmount

    func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<Value> {
        channel.eventLoop.makeCompletedFuture {
            let promise = channel.eventLoop.makePromise(of: Sniffed.self)
            let http1 = self.http1
            let sniffer = PrefaceSniffer<HTTP1>(
                promise: promise, target: target, idleTimeout: idleTimeout,
                http1: { channel in http1.setup(channel: channel, logger: logger).map { .http1($0) } })
            try channel.pipeline.syncOperations.addHandler(sniffer)
            return Value(sniffed: promise.futureResult, channel: channel)
        }
    }

    func handle(value: Value, logger: Logger) async {
        switch try? await value.sniffed.get() {
        case .http1(let http)?:
            await http1.handle(value: http, logger: logger)
        case .relayed?:
            // The companion's handlers (or the relay's) own the connection now; it is this task's until it closes.
            try? await value.channel.closeFuture.get()
        case nil:
            break
        }
    }
}

/// Holds a new connection's first bytes until they show whether it speaks HTTP/2 with prior knowledge.
final class PrefaceSniffer<HTTP1: ServerChildChannel>: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer

    private enum State {
        case sniffing
        case connecting
        case adopting
        case done
    }

    private let promise: EventLoopPromise<ProtocolSniffingChannel<HTTP1>.Sniffed>
    private let target: HTTP2RelayTarget
    private let idleTimeout: TimeAmount
    private let http1: (any Channel) -> EventLoopFuture<ProtocolSniffingChannel<HTTP1>.Sniffed>
    private var held: ByteBuffer?
    private var state = State.sniffing
    private var timer: Scheduled<Void>?

    init(
        promise: EventLoopPromise<ProtocolSniffingChannel<HTTP1>.Sniffed>, target: HTTP2RelayTarget,
        idleTimeout: TimeAmount,
        http1: @escaping (any Channel) -> EventLoopFuture<ProtocolSniffingChannel<HTTP1>.Sniffed>
    ) {
        self.promise = promise
        self.target = target
        self.idleTimeout = idleTimeout
        self.http1 = http1
    }

    func handlerAdded(context: ChannelHandlerContext) {
        let loopBound = NIOLoopBound(context, eventLoop: context.eventLoop)
        // A client that connects and says nothing is closed, as an idle HTTP/1.1 one is.
        timer = context.eventLoop.scheduleTask(in: idleTimeout) { loopBound.value.close(promise: nil) }
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        timer?.cancel()
        if state != .done {
            state = .done
            promise.fail(ChannelError.ioOnClosedChannel)
        }
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard state != .done else {
            context.fireChannelRead(data)
            return
        }
        var bytes = unwrapInboundIn(data)
        if var buffer = held {
            buffer.writeBuffer(&bytes)
            held = buffer
        } else {
            held = bytes
        }
        guard let buffer = held, buffer.readableBytes <= HTTP2Preface.maximumHeld else {
            context.close(promise: nil)
            return
        }
        guard state == .sniffing else { return }
        let count = min(buffer.readableBytes, HTTP2Preface.bytes.count)
        let start = buffer.getBytes(at: buffer.readerIndex, length: count) ?? []
        if start != Array(HTTP2Preface.bytes.prefix(count)) {
            startHTTP1(context: context)
        } else if count == HTTP2Preface.bytes.count {
            startRelay(context: context)
        }
    }

    func channelInactive(context: ChannelHandlerContext) {
        if state != .done {
            state = .done
            promise.fail(ChannelError.eof)
        }
        context.fireChannelInactive()
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if state == .adopting, event is EmulatorCompanionReady {
            // The companion's handlers follow this one: they get what was held, and this one steps aside.
            state = .done
            timer?.cancel()
            if let held {
                context.fireChannelRead(NIOAny(held))
                // The socket's read-complete passed before these handlers were here; without one they would hold
                // what they read until the next.
                context.fireChannelReadComplete()
            }
            held = nil
            context.pipeline.syncOperations.removeHandler(context: context, promise: nil)
            promise.succeed(.relayed)
            return
        }
        // A client that stops sending before it has said what it speaks will never say it.
        if state != .done, let event = event as? ChannelEvent, event == .inputClosed {
            context.close(promise: nil)
            return
        }
        context.fireUserInboundEventTriggered(event)
    }

    private func startHTTP1(context: ChannelHandlerContext) {
        timer?.cancel()
        // Hummingbird's setup is synchronous, so nothing is read between here and its handlers being in place.
        http1(context.channel).assumeIsolated().whenComplete { result in
            self.state = .done
            switch result {
            case .success(let sniffed):
                if let held = self.held { context.fireChannelRead(NIOAny(held)) }
                self.held = nil
                context.pipeline.syncOperations.removeHandler(context: context, promise: nil)
                self.promise.succeed(sniffed)
            case .failure(let error):
                self.promise.fail(error)
                context.close(promise: nil)
            }
        }
    }

    private func startRelay(context: ChannelHandlerContext) {
        timer?.cancel()
        timer = nil
        if target.current != nil, target.companion.adopt(context.channel) {
            // The idle timer is started again: a companion that never gets ready does not hold the connection.
            state = .adopting
            let loopBound = NIOLoopBound(context, eventLoop: context.eventLoop)
            timer = context.eventLoop.scheduleTask(in: idleTimeout) { loopBound.value.close(promise: nil) }
            return
        }
        guard let upstream = target.current else {
            // Nothing serves HTTP/2 here: close rather than answer HTTP/2 frames with HTTP/1.1.
            context.close(promise: nil)
            return
        }
        state = .connecting
        ClientBootstrap(group: context.eventLoop)
            .channelOption(ChannelOptions.allowRemoteHalfClosure, value: true)
            .connect(to: upstream)
            .assumeIsolated()
            .whenComplete { result in
                guard self.state == .connecting else { return }
                self.state = .done
                switch result {
                case .success(let outbound):
                    let (front, back) = RelayHandler.pair()
                    do {
                        try context.pipeline.syncOperations.addHandler(front)
                        try outbound.pipeline.syncOperations.addHandler(back)
                    } catch {
                        self.promise.fail(error)
                        context.close(promise: nil)
                        outbound.close(promise: nil)
                        return
                    }
                    // Bytes that came while connecting are in `held` too.
                    if let held = self.held { outbound.writeAndFlush(held, promise: nil) }
                    self.held = nil
                    context.pipeline.syncOperations.removeHandler(context: context, promise: nil)
                    self.promise.succeed(.relayed)
                case .failure(let error):
                    self.promise.fail(error)
                    context.close(promise: nil)
                }
            }
    }
}

/// What ``PrefaceSniffer`` looks for, outside it because a generic type holds no stored statics.
enum HTTP2Preface {
    /// RFC 9113 §3.4: every HTTP/2 connection opens with these 24 octets.
    static let bytes = Array("PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n".utf8)
    /// The most bytes held until the companion takes them; a client sending more before its first answer is closed.
    static let maximumHeld = 1 << 20
}

/// One side of a byte relay between two channels, with backpressure: a side stops reading while the other cannot
/// take more, and an end of input or a close on either side closes both.
final class RelayHandler: ChannelDuplexHandler {
    typealias InboundIn = NIOAny
    typealias OutboundIn = NIOAny
    typealias OutboundOut = NIOAny

    private var partner: RelayHandler?
    private var context: ChannelHandlerContext?
    private var pendingRead = false

    /// Two handlers relaying to each other; both channels are on one event loop.
    static func pair() -> (RelayHandler, RelayHandler) {
        let first = RelayHandler()
        let second = RelayHandler()
        first.partner = second
        second.partner = first
        return (first, second)
    }

    func handlerAdded(context: ChannelHandlerContext) {
        self.context = context
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        self.context = nil
        partner = nil
    }

    private func partnerWrite(_ data: NIOAny) { context?.write(data, promise: nil) }
    private func partnerFlush() { context?.flush() }
    private func partnerClose() { context?.close(promise: nil) }

    private var isWritable: Bool { context?.channel.isWritable ?? false }

    private func partnerBecameWritable() {
        if pendingRead {
            pendingRead = false
            context?.read()
        }
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        partner?.partnerWrite(data)
    }

    func channelReadComplete(context: ChannelHandlerContext) {
        partner?.partnerFlush()
    }

    func channelInactive(context: ChannelHandlerContext) {
        partner?.partnerClose()
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        // An HTTP/2 peer that stops sending is done: no gRPC client half-closes and then waits for answers, and a
        // half-open connection would otherwise hold a graceful shutdown until the idle timeout.
        if let event = event as? ChannelEvent, event == .inputClosed {
            partner?.partnerClose()
            context.close(promise: nil)
            return
        }
        context.fireUserInboundEventTriggered(event)
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        context.close(promise: nil)
    }

    func channelWritabilityChanged(context: ChannelHandlerContext) {
        if context.channel.isWritable { partner?.partnerBecameWritable() }
        context.fireChannelWritabilityChanged()
    }

    func read(context: ChannelHandlerContext) {
        if partner?.isWritable ?? false {
            context.read()
        } else {
            pendingRead = true
        }
    }
}
