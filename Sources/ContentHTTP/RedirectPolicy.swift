public import ContentCore
internal import Foundation

/// Follows redirects by hand so that credentials never travel to another origin.
///
/// A pure value: given a request and a redirect response, it returns the next request, or throws.
public struct RedirectPolicy: Sendable, Hashable {
    /// The most redirects one request may follow.
    public var maxRedirects: Int

    /// Creates a policy.
    ///
    /// - Parameter maxRedirects: The most redirects to follow.
    public init(maxRedirects: Int = 5) {
        self.maxRedirects = maxRedirects
    }

    /// Header names dropped when a redirect leaves the original scheme, host and port.
    ///
    /// `Authorization`, cookies and every header the ``Redactor`` treats as a credential.
    public static func isCredentialHeader(_ name: String) -> Bool {
        Redactor.isSensitiveHeader(name)
    }

    /// Whether a status is a redirect this policy follows.
    ///
    /// - Parameter status: The status code.
    /// - Returns: Whether it is 301, 302, 303, 307 or 308.
    public static func isRedirect(_ status: Int) -> Bool {
        [301, 302, 303, 307, 308].contains(status)
    }

    /// The request to send after a redirect.
    ///
    /// 303, and 301/302 after a POST, become a GET without a body (as browsers and curl do); 307 and
    /// 308 repeat the method and body. Credential headers are dropped when the origin changes, and a
    /// downgrade from https to http drops them too.
    ///
    /// - Parameters:
    ///   - request: The request that was redirected.
    ///   - originalURL: The URL of the first request in the chain, whose origin credentials belong to.
    ///   - status: The redirect status.
    ///   - location: The `Location` header.
    ///   - redactor: Masks secrets in error messages.
    /// - Returns: The next request.
    /// - Throws: ``HTTPTransportError`` when `Location` is missing or not an http(s) URL.
    public func nextRequest(
        after request: HTTPTransportRequest,
        originalURL: String,
        status: Int,
        location: String?,
        redactor: Redactor = Redactor()
    ) throws(HTTPTransportError) -> HTTPTransportRequest {
        guard let location, !location.isEmpty else {
            throw HTTPTransportError(
                .other, url: redactor.redact(url: request.url), detail: "HTTP \(status) without a Location header")
        }
        guard let base = URL(string: request.url), let target = URL(string: location, relativeTo: base)?.absoluteURL,
            let scheme = target.scheme?.lowercased(), scheme == "http" || scheme == "https", target.host != nil
        else {
            throw HTTPTransportError(
                .invalidURL,
                url: redactor.redact(url: location),
                detail: "redirect target from \(redactor.redact(url: request.url))"
            )
        }
        var next = request
        next.url = target.absoluteString
        if status == 303 || ((status == 301 || status == 302) && request.method == .post) {
            if next.method != .head { next.method = .get }
            next.body = nil
            next.headers.remove("Content-Type")
            next.headers.remove("Content-Length")
            next.isRetryable = true
        }
        if !Self.sameOrigin(originalURL, next.url) {
            for field in next.headers where Self.isCredentialHeader(field.name) {
                next.headers.remove(field.name)
            }
        }
        return next
    }

    /// Whether two URLs share scheme, host and port (default ports filled in).
    ///
    /// - Parameters:
    ///   - a: A URL.
    ///   - b: Another URL.
    /// - Returns: Whether their origins match.
    public static func sameOrigin(_ a: String, _ b: String) -> Bool {
        guard let first = Origin(a), let second = Origin(b) else { return false }
        return first == second
    }

    struct Origin: Hashable {
        var scheme: String
        var host: String
        var port: Int

        init?(_ text: String) {
            guard let url = URLComponents(string: text), let scheme = url.scheme?.lowercased(), let host = url.host
            else { return nil }
            self.scheme = scheme
            self.host = host.lowercased()
            port = url.port ?? (scheme == "https" ? 443 : 80)
        }
    }
}
