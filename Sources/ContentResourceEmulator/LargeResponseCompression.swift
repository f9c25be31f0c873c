internal import CompressNIO
internal import Foundation
internal import HTTPTypes
public import Hummingbird
internal import NIOConcurrencyHelpers
internal import NIOCore

/// Gzips an answer over 20 KB for a client that accepts gzip, as a MobileFirst server does its adapters' answers.
///
/// MobileFirst Foundation compresses responses larger than 20 KB when the request's `Accept-Encoding` allows gzip
/// (IBM's MobileFirst Foundation 8.0 documentation; WLResourceRequest's platform clients send it and decode the
/// answer). A smaller answer, one already encoded, a `HEAD` answer and one whose length is not known ahead are sent as
/// they are.
struct LargeResponseCompression<Context: RequestContext>: RouterMiddleware {
    /// The size past which an answer is compressed: 20 KB.
    static var threshold: Int { 20 * 1024 }

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response)
        async throws -> Response
    {
        var response = try await next(request, context)
        guard request.method != .head, response.headers[.contentEncoding] == nil,
            let length = response.body.contentLength, length > Self.threshold
        else { return response }
        // From here on the answer depends on the request's Accept-Encoding, which a cache must know.
        response.headers[.vary] = "Accept-Encoding"
        guard Self.acceptsGzip(request.headers[values: .acceptEncoding]) else { return response }
        var plain = try await Self.collect(response.body)
        let compressed = try plain.compress(with: .gzip())
        response.body = ResponseBody(byteBuffer: compressed)
        response.headers[.contentEncoding] = "gzip"
        response.headers[.contentLength] = nil
        return response
    }

    /// Whether `Accept-Encoding` admits gzip (RFC 9110, 12.5.3): `gzip` or `x-gzip` with a weight above 0, or `*`
    /// above 0 when gzip is not named.
    static func acceptsGzip(_ values: [String]) -> Bool {
        var named: Bool?
        var anything: Bool?
        for element in values.joined(separator: ",").split(separator: ",") {
            let parts = element.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces) }
            guard let coding = parts.first?.lowercased(), !coding.isEmpty else { continue }
            let weight =
                parts.dropFirst().lazy.compactMap { parameter -> Double? in
                    let pair = parameter.split(separator: "=", maxSplits: 1).map {
                        $0.trimmingCharacters(in: .whitespaces)
                    }
                    guard pair.count == 2, pair[0].lowercased() == "q" else { return nil }
                    return Double(pair[1])
                }.first ?? 1
            switch coding {
            case "gzip", "x-gzip": named = (named ?? false) || weight > 0
            case "*": anything = (anything ?? false) || weight > 0
            default: continue
            }
        }
        return named ?? anything ?? false
    }

    /// The bytes of a body whose length is known: the adapters' answers are one buffer each.
    private static func collect(_ body: ResponseBody) async throws -> ByteBuffer {
        let sink = BodySink()
        try await body.write(CollectingWriter(sink: sink))
        return sink.buffer.withLockedValue { $0 }
    }
}

/// Where ``CollectingWriter`` leaves what it was given.
private final class BodySink: Sendable {
    let buffer = NIOLockedValueBox(ByteBuffer())
}

private struct CollectingWriter: ResponseBodyWriter {
    let sink: BodySink

    mutating func write(_ buffer: ByteBuffer) async throws {
        var buffer = buffer
        sink.buffer.withLockedValue { $0.writeBuffer(&buffer) }
    }

    consuming func finish(_ trailingHeaders: HTTPFields?) async throws {}
}
