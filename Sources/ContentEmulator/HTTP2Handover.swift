internal import Hummingbird
internal import HummingbirdCore
internal import Logging
internal import NIOConcurrencyHelpers
public import NIOCore

/// A server a service runs beside its HTTP/1.1 one, reached through the same port.
///
/// Connections that open with the HTTP/2 connection preface (gRPC clients, which speak HTTP/2 with prior knowledge on
/// a plain-text port, as the Firebase SDKs do with an emulator) are handed to it as they are; everything else is
/// answered by the service's routes. This is how one port serves both, as Firebase's emulator does on 9399.
public protocol EmulatorCompanion: Sendable {
    /// Serves until ``beginGracefulShutdown()`` and its open calls end.
    ///
    /// - Parameter onReady: Called once the companion can ``adopt(_:)`` connections.
    /// - Throws: When it cannot start.
    func run(onReady: @escaping @Sendable () -> Void) async throws

    /// Stops taking new calls, lets open ones finish, and then makes ``run(onReady:)`` return.
    func beginGracefulShutdown()

    /// Takes over a connection of the port that opened with the HTTP/2 preface, to serve it on its own channel.
    ///
    /// The caller holds the bytes read so far. Once the companion's handlers are in the channel's pipeline, it fires
    /// ``EmulatorCompanionReady`` from the pipeline's head, and the caller then passes the bytes on and steps aside.
    /// Called on the channel's event loop.
    ///
    /// - Parameter channel: The connection.
    /// - Returns: `false` when the companion cannot take it (it is stopping); then the connection is closed.
    func adopt(_ channel: any Channel) -> Bool
}

/// What an ``EmulatorCompanion`` fires through an adopted connection once its own handlers are in place.
public struct EmulatorCompanionReady: Sendable {
    /// Creates the event.
    public init() {}
}

/// Where HTTP/2 connections go: the companion, once it is ready.
final class HTTP2Handover: Sendable {
    private let ready = NIOLockedValueBox(false)
    let companion: any EmulatorCompanion

    init(companion: any EmulatorCompanion) {
        self.companion = companion
    }

    var isReady: Bool { ready.withLockedValue { $0 } }

    /// Runs the companion in `group` and returns once it is ready, or once it has failed to start (then
    /// ``isReady`` is `false` and the group holds its error).
    func start(in group: inout ThrowingTaskGroup<Void, any Error>) async {
        let (readiness, continuation) = AsyncStream<Void>.makeStream()
        let companion = self.companion
        group.addTask {
            defer { continuation.finish() }
            try await companion.run {
                self.ready.withLockedValue { $0 = true }
                continuation.yield()
            }
        }
        for await _ in readiness { break }
    }
}

/// A connection whose first bytes decide what it is: the HTTP/2 preface goes to the companion, anything else to
/// Hummingbird's HTTP/1.1 channel.
struct ProtocolSniffingChannel<HTTP1: ServerChildChannel>: ServerChildChannel {
    enum Sniffed: Sendable {
        case http1(HTTP1.Value)
        case handedOver
    }

    struct Value: ServerChildChannelValue {
        let sniffed: EventLoopFuture<Sniffed>
        let channel: any Channel
    }

    let http1: HTTP1
    let target: HTTP2Handover
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
        case .handedOver?:
            // The companion's handlers own the connection now; it is this task's until it closes.
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
        case adopting
        case done
    }

    private let promise: EventLoopPromise<ProtocolSniffingChannel<HTTP1>.Sniffed>
    private let target: HTTP2Handover
    private let idleTimeout: TimeAmount
    private let http1: (any Channel) -> EventLoopFuture<ProtocolSniffingChannel<HTTP1>.Sniffed>
    private var held: ByteBuffer?
    private var state = State.sniffing
    private var timer: Scheduled<Void>?

    init(
        promise: EventLoopPromise<ProtocolSniffingChannel<HTTP1>.Sniffed>, target: HTTP2Handover,
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
            startHandover(context: context)
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
            promise.succeed(.handedOver)
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

    private func startHandover(context: ChannelHandlerContext) {
        timer?.cancel()
        guard target.isReady, target.companion.adopt(context.channel) else {
            // Nothing serves HTTP/2 here now: close rather than answer HTTP/2 frames with HTTP/1.1.
            context.close(promise: nil)
            return
        }
        // The idle timer is started again: a companion that never gets ready does not hold the connection.
        state = .adopting
        let loopBound = NIOLoopBound(context, eventLoop: context.eventLoop)
        timer = context.eventLoop.scheduleTask(in: idleTimeout) { loopBound.value.close(promise: nil) }
    }
}

/// What ``PrefaceSniffer`` looks for, outside it because a generic type holds no stored statics.
enum HTTP2Preface {
    /// RFC 9113 §3.4: every HTTP/2 connection opens with these 24 octets.
    static let bytes = Array("PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n".utf8)
    /// The most bytes held until the companion takes them; a client sending more before its first answer is closed.
    static let maximumHeld = 1 << 20
}
