public import HTTPTypes
internal import HummingbirdWebSocket
internal import Logging
internal import NIOCore
internal import NIOWebSocket

/// A stream a service serves over WebSocket on its own HTTP port, as Data Connect's web SDK opens its realtime
/// stream on the port it sends REST to.
///
/// The server upgrades a request only when ``accepts(path:)`` says the path is the endpoint's, and only from the
/// hosts and origins it answers other requests from; every other upgrade is accepted and closed at once with code
/// 1008 and the reason, which a browser's `CloseEvent.reason` shows (a refused handshake shows nothing at all).
public protocol EmulatorWebSocketEndpoint: Sendable {
    /// Whether a request path (without its query) is this endpoint's.
    ///
    /// - Parameter path: The path.
    /// - Returns: `true` to serve it.
    func accepts(path: String) -> Bool

    /// Serves one connection until its client closes it or the server stops; returning closes it normally.
    ///
    /// - Parameter connection: The connection.
    /// - Throws: What reading its messages threw (a message too large, a frame that breaks the protocol), which
    ///   closes the connection with the code that says so.
    func serve(_ connection: EmulatorWebSocketConnection) async throws
}

/// One upgraded connection as a service sees it: the request that opened it, the messages it sends, and a way to
/// answer.
public struct EmulatorWebSocketConnection: Sendable {
    /// Why a connection is closed, as RFC 6455 §7.4.1 numbers it.
    public enum CloseCode: Sendable {
        /// 1000: done.
        case normal
        /// 1001: the server is stopping.
        case goingAway
        /// 1007: a message that is not what the endpoint reads.
        case invalidMessage
        /// 1008: a connection the server does not serve (wrong path, host or origin).
        case policyViolation
        /// 1011: the server failed.
        case serverError

        var code: WebSocketErrorCode {
            switch self {
            case .normal: .normalClosure
            case .goingAway: .goingAway
            case .invalidMessage: .dataInconsistentWithMessage
            case .policyViolation: .policyViolation
            case .serverError: .unexpectedServerError
            }
        }
    }

    /// The request path, without its query.
    public let path: String
    /// The upgrade request's header fields.
    public let headers: HTTPFields
    /// Each message the client sends, text or binary, as text: binary messages are read as UTF-8.
    public let messages: Messages
    let outbound: WebSocketOutboundWriter
    let channel: any Channel

    /// Sends a text message.
    ///
    /// - Parameter text: The message.
    /// - Throws: When the connection has closed.
    public func send(_ text: String) async throws {
        try await outbound.write(.text(text))
    }

    /// Closes the connection with a code and a reason (at most 123 bytes of UTF-8 are sent, as RFC 6455 allows).
    ///
    /// A client that does not read in time (its socket full, so that the close frame cannot be written) has the
    /// connection dropped instead.
    ///
    /// - Parameters:
    ///   - code: Why.
    ///   - reason: What the client reads.
    public func close(_ code: CloseCode, reason: String) async {
        let (outbound, channel) = (self.outbound, self.channel)
        await withTaskGroup(of: Void.self) { group in
            group.addTask { try? await outbound.close(code.code, reason: Self.truncated(reason)) }
            group.addTask {
                guard (try? await Task.sleep(for: Self.closeDeadline)) != nil else { return }
                channel.close(promise: nil)
            }
            await group.next()
            group.cancelAll()
        }
    }

    /// How long a close frame may wait to be written.
    static let closeDeadline = Duration.seconds(2)

    /// The longest prefix of `reason` that fits a close frame, cut at a character boundary.
    static func truncated(_ reason: String) -> String {
        guard reason.utf8.count > 123 else { return reason }
        var result = ""
        for character in reason {
            guard result.utf8.count + character.utf8.count <= 123 else { break }
            result.append(character)
        }
        return result
    }

    /// The messages of a connection.
    public struct Messages: AsyncSequence, Sendable {
        /// A message, as text.
        public typealias Element = String
        let inbound: WebSocketInboundStream
        let maximumSize: Int

        /// Reads messages in order.
        public struct AsyncIterator: AsyncIteratorProtocol {
            var wrapped: WebSocketInboundMessageStream.AsyncIterator

            /// The next message, or `nil` once the client has closed.
            public mutating func next() async throws -> String? {
                switch try await wrapped.next() {
                case .text(let text)?: text
                case .binary(let buffer)?: String(decoding: buffer.readableBytesView, as: UTF8.self)
                case nil: nil
                }
            }
        }

        /// Starts reading.
        public func makeAsyncIterator() -> AsyncIterator {
            AsyncIterator(wrapped: inbound.messages(maxSize: maximumSize).makeAsyncIterator())
        }
    }
}

extension EmulatorConnectionPolicy {
    /// The most bytes one message may carry; a larger one closes the connection with 1009.
    static let maximumWebSocketMessage = 4 << 20

    /// What the server answers an upgrade request with: the endpoint's handler, or one that closes the connection
    /// saying why it is not served.
    func webSocketUpgrade(
        _ request: HTTPRequest, channel: any Channel, endpoint: any EmulatorWebSocketEndpoint, host: String
    ) -> ShouldUpgradeResult<WebSocketDataHandler<HTTP1WebSocketUpgradeChannel.Context>> {
        let path = String((request.path ?? "/").prefix { $0 != "?" })
        let refusal = LocalRequestGuard(host: host, policy: self).refusal(
            authority: request.authority, origin: request.headerFields[.origin], isWrite: true)
        let reason =
            refusal?.message ?? (endpoint.accepts(path: path) ? nil : "no WebSocket stream is served at \(path)")
        let headers = request.headerFields
        return .upgrade([:]) { inbound, outbound, _ in
            let connection = EmulatorWebSocketConnection(
                path: path, headers: headers,
                messages: .init(inbound: inbound, maximumSize: Self.maximumWebSocketMessage), outbound: outbound,
                channel: channel)
            if let reason {
                await connection.close(.policyViolation, reason: reason)
                return
            }
            try await endpoint.serve(connection)
        }
    }
}
