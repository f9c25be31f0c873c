import ContentCore
import Foundation
import Testing

@testable import ContentHTTP

struct RedirectPolicyTests {
    let policy = RedirectPolicy()

    @Test func seeOtherTurnsAPostIntoAGetWithoutBody() throws {
        let post = HTTPTransportRequest(
            method: .post,
            url: "https://api.example.com/a",
            headers: ["Content-Type": "application/json", "Authorization": "Bearer t0ken-value"],
            body: Array("{}".utf8)
        )
        let next = try policy.nextRequest(after: post, originalURL: post.url, status: 303, location: "/b")
        #expect(next.method == .get)
        #expect(next.body == nil)
        #expect(next.url == "https://api.example.com/b")
        #expect(next.headers["Content-Type"] == nil)
        #expect(next.headers["Authorization"] == "Bearer t0ken-value")
    }

    @Test func temporaryRedirectKeepsMethodAndBody() throws {
        let put = HTTPTransportRequest(method: .put, url: "https://api.example.com/a", body: [1, 2, 3])
        let next = try policy.nextRequest(
            after: put, originalURL: put.url, status: 307, location: "https://api.example.com/c")
        #expect(next.method == .put)
        #expect(next.body == [1, 2, 3])
    }

    @Test func credentialsAreDroppedWhenSchemeHostOrPortChange() throws {
        let request = HTTPTransportRequest(
            url: "https://api.example.com/a",
            headers: ["Authorization": "Basic abc", "Cookie": "a=b", "X-Api-Key": "k", "Accept": "application/json"]
        )
        for location in ["http://api.example.com/a", "https://other.example.com/a", "https://api.example.com:8443/a"] {
            let next = try policy.nextRequest(after: request, originalURL: request.url, status: 302, location: location)
            #expect(next.headers["Authorization"] == nil, "\(location)")
            #expect(next.headers["Cookie"] == nil, "\(location)")
            #expect(next.headers["X-Api-Key"] == nil, "\(location)")
            #expect(next.headers["Accept"] == "application/json", "\(location)")
        }
        let explicitPort = try policy.nextRequest(
            after: request,
            originalURL: request.url,
            status: 302,
            location: "https://API.example.com:443/b"
        )
        #expect(explicitPort.headers["Authorization"] == "Basic abc")
    }

    @Test func redirectToANonHTTPSchemeIsRefused() {
        let request = HTTPTransportRequest(url: "https://api.example.com/a")
        #expect(throws: HTTPTransportError.self) {
            try policy.nextRequest(
                after: request, originalURL: request.url, status: 302, location: "file:///etc/passwd")
        }
    }
}

struct RetryPolicyTests {
    @Test func retryAfterSecondsAndDatesAreHonoured() throws {
        let policy = RetryPolicy(maxDelay: .seconds(60))
        #expect(policy.delay(beforeRetry: 1, retryAfter: "7") == .seconds(7))
        let now = Date(timeIntervalSince1970: 1_700_000_000)
        let date = "Tue, 14 Nov 2023 22:13:40 GMT"  // now + 20 s
        #expect(policy.delay(beforeRetry: 1, retryAfter: date, now: now) == .seconds(20))
        #expect(policy.delay(beforeRetry: 1, retryAfter: "600") == .seconds(60))
    }

    @Test func backoffGrowsExponentiallyWithJitter() {
        let policy = RetryPolicy(baseDelay: .milliseconds(100), maxDelay: .seconds(1))
        #expect(policy.delay(beforeRetry: 1, retryAfter: nil, random: 0.5) == .milliseconds(50))
        #expect(policy.delay(beforeRetry: 3, retryAfter: nil, random: 0.5) == .milliseconds(200))
        #expect(policy.delay(beforeRetry: 10, retryAfter: nil, random: 0.999) < .seconds(1))
        #expect(policy.delay(beforeRetry: 2, retryAfter: "soon", random: 0) == .zero)
    }

    @Test func onlyTemporaryStatusesAreRetryable() {
        #expect(RetryPolicy.isRetryableStatus(503))
        #expect(RetryPolicy.isRetryableStatus(429))
        #expect(!RetryPolicy.isRetryableStatus(500))
        #expect(!RetryPolicy.isRetryableStatus(404))
    }
}

struct ProxyEnvironmentTests {
    @Test func readsProxiesAndCredentials() throws {
        let proxy = try ProxyEnvironment(environment: [
            "HTTPS_PROXY": "http://alice:p%40ss@proxy.corp:3128",
            "http_proxy": "proxy.corp:8080",
            "HTTP_PROXY": "http://ignored:1",
            "NO_PROXY": "localhost, .internal.corp,10.0.0.1,api.example.com:8443",
        ])
        #expect(proxy.https == ProxyEnvironment.Server(host: "proxy.corp", port: 3128, user: "alice", password: "p@ss"))
        #expect(proxy.http == ProxyEnvironment.Server(host: "proxy.corp", port: 8080))
        #expect(proxy.server(scheme: "https", host: "aem.example.com", port: 443)?.port == 3128)
        #expect(proxy.server(scheme: "http", host: "aem.example.com", port: 80)?.port == 8080)
        #expect(proxy.server(scheme: "https", host: "localhost", port: 443) == nil)
        #expect(proxy.server(scheme: "https", host: "a.internal.corp", port: 443) == nil)
        #expect(proxy.server(scheme: "https", host: "internal.corp", port: 443) == nil)
        #expect(proxy.server(scheme: "https", host: "notinternal.corp", port: 443) != nil)
        #expect(proxy.server(scheme: "http", host: "10.0.0.1", port: 80) == nil)
        #expect(proxy.server(scheme: "https", host: "api.example.com", port: 8443) == nil)
        #expect(proxy.server(scheme: "https", host: "api.example.com", port: 443) != nil)
    }

    @Test func wildcardBypassesEverything() throws {
        let proxy = try ProxyEnvironment(environment: ["https_proxy": "http://p:1", "no_proxy": "*"])
        #expect(proxy.server(scheme: "https", host: "anything.example", port: 443) == nil)
    }

    @Test func noVariablesMeansDirect() throws {
        let proxy = try ProxyEnvironment(environment: [:])
        #expect(proxy.server(scheme: "https", host: "example.com", port: 443) == nil)
    }

    @Test func malformedProxyNamesTheVariable() {
        let error = #expect(throws: HTTPTransportError.self) {
            try ProxyEnvironment(environment: ["HTTPS_PROXY": "socks5://proxy:1080"])
        }
        #expect(error?.description.contains("$HTTPS_PROXY") == true)
    }
}
