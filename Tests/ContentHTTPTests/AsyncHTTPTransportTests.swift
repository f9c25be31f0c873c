import CompressNIO
import ContentCore
import Foundation
import Hummingbird
import Logging
import Testing

@testable import ContentHTTP

struct AsyncHTTPTransportTests {
    /// A transport whose waits are recorded instead of slept, so retry tests take no time.
    private func makeTransport(
        _ settings: HTTPSettings = HTTPSettings(),
        log: Recorder<String>? = nil,
        sleeps: Recorder<Duration> = Recorder()
    ) -> AsyncHTTPTransport {
        let logger: Logger
        if let log {
            logger = Logger(label: "test") { _ in RecordingLogHandler(recorder: log) }
        } else {
            logger = Logger(label: "test") { _ in SwiftLogNoOpLogHandler() }
        }
        return AsyncHTTPTransport(settings: settings, logger: logger) { sleeps.append($0) }
    }

    private func withTransport<Result: Sendable>(
        _ transport: AsyncHTTPTransport,
        _ body: (AsyncHTTPTransport) async throws -> Result
    ) async throws -> Result {
        do {
            let result = try await body(transport)
            try await transport.shutdown()
            return result
        } catch {
            try? await transport.shutdown()
            throw error
        }
    }

    @Test func sendsUserAgentAndReturnsBody() async throws {
        let router = Router()
        router.get("/hello") { request, _ in request.headers[.userAgent] ?? "none" }
        try await LoopbackServer.run(router) { port in
            try await withTransport(makeTransport()) { transport in
                let response = try await transport.send(HTTPTransportRequest(url: "http://127.0.0.1:\(port)/hello"))
                #expect(response.status == 200)
                #expect(String(decoding: response.body, as: UTF8.self) == ContentVersion.userAgent)
            }
        }
    }

    @Test func totalTimeoutFiresOnASlowServer() async throws {
        let router = Router()
        router.get("/slow") { _, _ in
            try await Task.sleep(for: .seconds(5))
            return "late"
        }
        try await LoopbackServer.run(router) { port in
            var settings = HTTPSettings(totalTimeout: .milliseconds(300))
            settings.retry.maxRetries = 0
            try await withTransport(makeTransport(settings)) { transport in
                let error = await #expect(throws: HTTPTransportError.self) {
                    try await transport.send(HTTPTransportRequest(url: "http://127.0.0.1:\(port)/slow"))
                }
                #expect(error?.kind == .deadlineExceeded || error?.kind == .readTimeout)
                #expect(error?.category == .transport)
                #expect(error?.description.contains("127.0.0.1:\(port)/slow") == true)
            }
        }
    }

    /// A server that sends its head and then stalls fails at the deadline: AsyncHTTPClient's own deadline ends at the
    /// head, and with the read timeout no shorter than the total there is none other.
    @Test func aBodyThatStallsAfterTheHeadFailsAtTheDeadline() async throws {
        let router = Router()
        router.get("/stall") { _, _ in
            Response(
                status: .ok,
                body: ResponseBody { writer in
                    try await writer.write(ByteBuffer(string: "a"))
                    try await Task.sleep(for: .seconds(5))
                    try await writer.finish(nil)
                })
        }
        try await LoopbackServer.run(router) { port in
            var settings = HTTPSettings(readTimeout: .milliseconds(400), totalTimeout: .milliseconds(400))
            settings.retry.maxRetries = 0
            try await withTransport(makeTransport(settings)) { transport in
                let error = await #expect(throws: HTTPTransportError.self) {
                    try await transport.send(HTTPTransportRequest(url: "http://127.0.0.1:\(port)/stall"))
                }
                #expect(error?.kind == .deadlineExceeded)
                #expect(error?.description.contains("127.0.0.1:\(port)/stall") == true)
            }
        }
    }

    /// A request's own timeout replaces the configured one both ways, as `content request --timeout 2m` and a
    /// backend's `timeout:` promise; the configured read timeout, as long as the total, must not cut it short.
    @Test func aRequestsOwnTimeoutIsUsedWhetherLongerOrShorterThanTheConfiguredOne() async throws {
        let router = Router()
        router.get("/wait") { request, _ in
            let milliseconds = request.uri.queryParameters.get("ms").flatMap(Int.init) ?? 0
            try await Task.sleep(for: .milliseconds(milliseconds))
            return "waited"
        }
        try await LoopbackServer.run(router) { port in
            var settings = HTTPSettings(readTimeout: .milliseconds(300), totalTimeout: .milliseconds(300))
            settings.retry.maxRetries = 0
            try await withTransport(makeTransport(settings)) { transport in
                let longer = try await transport.send(
                    HTTPTransportRequest(url: "http://127.0.0.1:\(port)/wait?ms=900", timeout: .seconds(20)))
                #expect(longer.status == 200)
                #expect(String(decoding: longer.body, as: UTF8.self) == "waited")
            }
            var roomy = HTTPSettings(totalTimeout: .seconds(20))
            roomy.retry.maxRetries = 0
            try await withTransport(makeTransport(roomy)) { transport in
                let error = await #expect(throws: HTTPTransportError.self) {
                    try await transport.send(
                        HTTPTransportRequest(url: "http://127.0.0.1:\(port)/wait?ms=5000", timeout: .milliseconds(200)))
                }
                #expect(error?.kind == .deadlineExceeded)
            }
        }
    }

    @Test func redirectToAnotherOriginDropsAuthorization() async throws {
        let target = Router()
        target.get("/echo") { request, _ in request.headers[.authorization] ?? "no authorization" }
        try await LoopbackServer.run(target) { targetPort in
            let origin = Router()
            origin.get("/elsewhere") { _, _ in
                Response(status: .found, headers: [.location: "http://localhost:\(targetPort)/echo"])
            }
            origin.get("/here") { _, _ in Response(status: .temporaryRedirect, headers: [.location: "/echo"]) }
            origin.get("/echo") { request, _ in request.headers[.authorization] ?? "no authorization" }
            try await LoopbackServer.run(origin) { originPort in
                try await withTransport(makeTransport()) { transport in
                    let headers: HeaderFields = ["Authorization": "Bearer s3cr3t-token", "X-Trace": "kept"]
                    let away = try await transport.send(
                        HTTPTransportRequest(url: "http://127.0.0.1:\(originPort)/elsewhere", headers: headers)
                    )
                    #expect(away.status == 200)
                    #expect(String(decoding: away.body, as: UTF8.self) == "no authorization")
                    #expect(away.url == "http://localhost:\(targetPort)/echo")

                    let same = try await transport.send(
                        HTTPTransportRequest(url: "http://127.0.0.1:\(originPort)/here", headers: headers)
                    )
                    #expect(String(decoding: same.body, as: UTF8.self) == "Bearer s3cr3t-token")
                }
            }
        }
    }

    @Test func redirectLoopStopsAfterFive() async throws {
        let hits = Counter()
        let router = Router()
        router.get("/loop") { _, _ in
            _ = await hits.next()
            return Response(status: .found, headers: [.location: "/loop"])
        }
        try await LoopbackServer.run(router) { port in
            try await withTransport(makeTransport()) { transport in
                let error = await #expect(throws: HTTPTransportError.self) {
                    try await transport.send(HTTPTransportRequest(url: "http://127.0.0.1:\(port)/loop"))
                }
                #expect(error?.kind == .tooManyRedirects)
                #expect(await hits.value == 6)
            }
        }
    }

    @Test(arguments: ["http://127.0.0.1:65536/x", "http://127.0.0.1:99999/", "https://example.com:0/"])
    func aPortOutside16BitsIsABadURLNotATrap(url: String) async throws {
        try await withTransport(makeTransport()) { transport in
            let error = await #expect(throws: HTTPTransportError.self) {
                try await transport.send(HTTPTransportRequest(url: url))
            }
            #expect(error?.kind == .invalidURL)
            #expect(error?.category == .configuration)
            #expect(error?.description.contains("outside 1-65535") == true, "\(String(describing: error))")
        }
    }

    @Test func aRedirectToAPortOutside16BitsIsABadURLNotATrap() async throws {
        let router = Router()
        router.get("/away") { _, _ in Response(status: .found, headers: [.location: "http://127.0.0.1:99999/"]) }
        try await LoopbackServer.run(router) { port in
            try await withTransport(makeTransport()) { transport in
                let error = await #expect(throws: HTTPTransportError.self) {
                    try await transport.send(HTTPTransportRequest(url: "http://127.0.0.1:\(port)/away"))
                }
                #expect(error?.kind == .invalidURL)
                #expect(error?.url == "http://127.0.0.1:99999/")
            }
        }
    }

    @Test func responseLargerThanTheCapFails() async throws {
        let router = Router()
        router.get("/big") { _, _ in String(repeating: "x", count: 200_000) }
        router.get("/streamed") { _, _ in
            Response(
                status: .ok,
                body: ResponseBody { writer in
                    for _ in 0..<50 { try await writer.write(ByteBuffer(repeating: 0x61, count: 10_000)) }
                    try await writer.finish(nil)
                }
            )
        }
        router.get("/small") { _, _ in "fits" }
        try await LoopbackServer.run(router) { port in
            let settings = HTTPSettings(maxResponseBytes: 100_000)
            try await withTransport(makeTransport(settings)) { transport in
                for path in ["/big", "/streamed"] {
                    let error = await #expect(throws: HTTPTransportError.self) {
                        try await transport.send(HTTPTransportRequest(url: "http://127.0.0.1:\(port)\(path)"))
                    }
                    #expect(error?.kind == .responseTooLarge, "\(path)")
                }
                let small = try await transport.send(HTTPTransportRequest(url: "http://127.0.0.1:\(port)/small"))
                #expect(small.body == Array("fits".utf8))
            }
        }
    }

    @Test func asksForGzipAndDeflateAndDecodesThem() async throws {
        let text = String(repeating: "decoded ", count: 4_000)
        let router = Router()
        for (path, algorithm, coding) in [
            ("/gzip", CompressionAlgorithm.gzip(), "gzip"), ("/deflate", .zlib(), "deflate"),
        ] {
            router.get(RouterPath(path)) { _, _ in
                var plain = ByteBuffer(string: text)
                return Response(
                    status: .ok, headers: [.contentEncoding: coding],
                    body: ResponseBody(byteBuffer: try plain.compress(with: algorithm)))
            }
        }
        router.get("/asked") { request, _ in request.headers[.acceptEncoding] ?? "none" }
        try await LoopbackServer.run(router) { port in
            try await withTransport(makeTransport()) { transport in
                for path in ["/gzip", "/deflate"] {
                    let response = try await transport.send(
                        HTTPTransportRequest(url: "http://127.0.0.1:\(port)\(path)"))
                    #expect(String(decoding: response.body, as: UTF8.self) == text, "\(path)")
                }
                let asked = try await transport.send(HTTPTransportRequest(url: "http://127.0.0.1:\(port)/asked"))
                #expect(String(decoding: asked.body, as: UTF8.self) == "gzip, deflate")
                // A request's own Accept-Encoding goes as it is.
                let own = try await transport.send(
                    HTTPTransportRequest(
                        url: "http://127.0.0.1:\(port)/asked", headers: ["Accept-Encoding": "identity"]))
                #expect(String(decoding: own.body, as: UTF8.self) == "identity")
            }
        }
    }

    @Test func aBodyThatDoesNotDecodeOrDecodesPastTheCapFails() async throws {
        let router = Router()
        router.get("/corrupt") { _, _ in
            Response(
                status: .ok, headers: [.contentEncoding: "gzip"],
                body: ResponseBody(byteBuffer: ByteBuffer(string: "this is not gzip at all")))
        }
        router.get("/bomb") { _, _ in
            // 1 MB of zeros in about a kilobyte.
            var zeros = ByteBuffer(repeating: 0, count: 1_000_000)
            return Response(
                status: .ok, headers: [.contentEncoding: "gzip"],
                body: ResponseBody(byteBuffer: try zeros.compress(with: .gzip())))
        }
        try await LoopbackServer.run(router) { port in
            try await withTransport(makeTransport(HTTPSettings(maxResponseBytes: 100_000))) { transport in
                let corrupt = await #expect(throws: HTTPTransportError.self) {
                    try await transport.send(HTTPTransportRequest(url: "http://127.0.0.1:\(port)/corrupt"))
                }
                #expect(corrupt?.kind == .undecodableBody)
                #expect(
                    corrupt?.description.contains("-H 'Accept-Encoding: identity'") == true,
                    "\(String(describing: corrupt))")
                let bomb = await #expect(throws: HTTPTransportError.self) {
                    try await transport.send(HTTPTransportRequest(url: "http://127.0.0.1:\(port)/bomb"))
                }
                #expect(bomb?.kind == .responseTooLarge, "\(String(describing: bomb))")
            }
        }
    }

    @Test func retriesA503HonouringRetryAfter() async throws {
        let attempts = Counter()
        let router = Router()
        router.get("/flaky") { _, _ in
            if await attempts.next() == 1 {
                return Response(status: .serviceUnavailable, headers: [.retryAfter: "2"])
            }
            return Response(status: .ok, body: ResponseBody(byteBuffer: ByteBuffer(string: "recovered")))
        }
        try await LoopbackServer.run(router) { port in
            let sleeps = Recorder<Duration>()
            try await withTransport(makeTransport(HTTPSettings(totalTimeout: .seconds(10)), sleeps: sleeps)) {
                let response = try await $0.send(HTTPTransportRequest(url: "http://127.0.0.1:\(port)/flaky"))
                #expect(response.status == 200)
                #expect(String(decoding: response.body, as: UTF8.self) == "recovered")
            }
            #expect(await attempts.value == 2)
            #expect(sleeps.elements == [.seconds(2)])
        }
    }

    @Test func doesNotRetryAPost() async throws {
        let attempts = Counter()
        let router = Router()
        router.post("/flaky") { _, _ in
            _ = await attempts.next()
            return Response(status: .serviceUnavailable, headers: [.retryAfter: "1"])
        }
        try await LoopbackServer.run(router) { port in
            let sleeps = Recorder<Duration>()
            try await withTransport(makeTransport(sleeps: sleeps)) { transport in
                let response = try await transport.send(
                    HTTPTransportRequest(method: .post, url: "http://127.0.0.1:\(port)/flaky", body: Array("{}".utf8))
                )
                #expect(response.status == 503)
            }
            #expect(await attempts.value == 1)
            #expect(sleeps.elements.isEmpty)
        }
    }

    @Test func retriesStopAtTheConfiguredCount() async throws {
        let attempts = Counter()
        let router = Router()
        router.get("/down") { _, _ in
            _ = await attempts.next()
            return Response(status: .badGateway)
        }
        try await LoopbackServer.run(router) { port in
            let sleeps = Recorder<Duration>()
            let settings = HTTPSettings(retry: RetryPolicy(maxRetries: 3))
            try await withTransport(makeTransport(settings, sleeps: sleeps)) { transport in
                let response = try await transport.send(HTTPTransportRequest(url: "http://127.0.0.1:\(port)/down"))
                #expect(response.status == 502)
            }
            #expect(await attempts.value == 4)
            #expect(sleeps.elements.count == 3)
        }
    }

    @Test func refusedConnectionIsATransportError() async throws {
        var settings = HTTPSettings()
        settings.retry.maxRetries = 0
        try await withTransport(makeTransport(settings)) { transport in
            let error = await #expect(throws: HTTPTransportError.self) {
                try await transport.send(HTTPTransportRequest(url: "http://127.0.0.1:1/nothing-listens-here"))
            }
            #expect(error?.kind == .connect)
            #expect(error?.category == .transport)
        }
    }

    @Test func invalidURLIsAConfigurationError() async throws {
        try await withTransport(makeTransport()) { transport in
            let error = await #expect(throws: HTTPTransportError.self) {
                try await transport.send(HTTPTransportRequest(url: "ftp://example.com/file"))
            }
            #expect(error?.kind == .invalidURL)
            #expect(error?.category == .configuration)
        }
    }

    @Test func verboseLogsNeverShowSecrets() async throws {
        let router = Router()
        router.get("/private") { _, _ in
            Response(
                status: .ok, headers: [.setCookie: "session=cookie-secret-42"],
                body: ResponseBody(byteBuffer: ByteBuffer(string: "ok")))
        }
        try await LoopbackServer.run(router) { port in
            let log = Recorder<String>()
            let settings = HTTPSettings(redactor: Redactor(secrets: ["config-secret-99"]))
            try await withTransport(makeTransport(settings, log: log)) { transport in
                let request = HTTPTransportRequest(
                    url: "http://user:hunter2pass@127.0.0.1:\(port)/private?key=api-key-123&page=2",
                    headers: [
                        "Authorization": "Bearer s3cr3t-token", "X-Firebase-Auth-Token": "firebase-id-token",
                        "X-Note": "config-secret-99",
                    ]
                )
                _ = try await transport.send(request)
            }
            let text = log.elements.joined(separator: "\n")
            #expect(text.contains("> GET"))
            #expect(text.contains("page=2"))
            #expect(text.contains("Bearer <redacted>"))
            for secret in [
                "s3cr3t-token", "api-key-123", "hunter2pass", "firebase-id-token", "cookie-secret-42",
                "config-secret-99",
            ] {
                #expect(!text.contains(secret), "\(secret) leaked into the log")
            }
        }
    }
}
