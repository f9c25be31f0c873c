public import ContentCore
internal import Foundation

/// A transport for unit tests: answers every request from a closure and records what was sent.
///
/// Backend tests use it to check the exact requests a backend builds and how it reads scripted responses,
/// without sockets.
public final class ScriptedTransport: HTTPTransport, @unchecked Sendable {
    private let lock = NSLock()
    private var sent: [HTTPTransportRequest] = []
    private let answer: @Sendable (HTTPTransportRequest) -> HTTPTransportResponse

    /// Creates a transport.
    ///
    /// - Parameter answer: The response for each request.
    public init(_ answer: @escaping @Sendable (HTTPTransportRequest) -> HTTPTransportResponse) {
        self.answer = answer
    }

    /// The requests sent so far, in order.
    public var requests: [HTTPTransportRequest] { lock.withLock { sent } }

    /// Records the request and answers it.
    ///
    /// - Parameter request: The request.
    /// - Returns: The scripted response.
    /// - Throws: Never; the signature is the protocol's.
    public func send(_ request: HTTPTransportRequest) async throws -> HTTPTransportResponse {
        lock.withLock { sent.append(request) }
        return answer(request)
    }
}
