public import ContentCore
internal import Foundation
public import Logging

/// A transport that signs requests to one origin with an access token, and on a 401 renews the token once and
/// sends the request again, as Adobe's and Google's client libraries do.
///
/// A 401 means the request was not carried out, so sending it again is safe whatever its method. Requests to
/// other origins (an absolute image URL on a CDN) go out without the token.
public struct BearerTokenTransport: HTTPTransport {
    private let base: any HTTPTransport
    private let tokens: AccessTokenSource
    private let origin: Origin?
    private let headers: HeaderFields
    private let logger: Logger

    /// Creates a transport.
    ///
    /// - Parameters:
    ///   - base: What sends the requests.
    ///   - tokens: Where tokens come from.
    ///   - origin: The URL whose scheme, host and port get the token.
    ///   - headers: More headers for that origin, such as IMS's `X-Api-Key`.
    ///   - logger: Where a renewal is reported.
    public init(
        base: any HTTPTransport, tokens: AccessTokenSource, origin: String, headers: HeaderFields = [:],
        logger: Logger
    ) {
        self.base = base
        self.tokens = tokens
        self.origin = Origin(origin)
        self.headers = headers
        self.logger = logger
    }

    /// Sends a request, with the token when it goes to the origin.
    ///
    /// - Parameter request: The request.
    /// - Returns: The response; after a 401, the response to the second attempt.
    /// - Throws: ``TokenEndpointError`` when no token can be had, or a transport failure.
    public func send(_ request: HTTPTransportRequest) async throws -> HTTPTransportResponse {
        guard let origin, Origin(request.url) == origin else { return try await base.send(request) }
        var outgoing = request
        for field in headers { outgoing.headers[field.name] = field.value }
        let token = try await tokens.accessToken()
        outgoing.headers["Authorization"] = "Bearer \(token)"
        let response = try await base.send(outgoing)
        guard response.status == 401 else { return response }
        logger.info("401 with a cached access token: fetching a new one from \(tokens.tokenURL) and retrying once")
        outgoing.headers["Authorization"] = "Bearer \(try await tokens.accessToken(replacing: token))"
        return try await base.send(outgoing)
    }

    /// Scheme, host and port, compared without case; the port defaults by scheme.
    private struct Origin: Equatable {
        var scheme: String
        var host: String
        var port: Int

        init?(_ url: String) {
            guard let components = URLComponents(string: url), let scheme = components.scheme?.lowercased(),
                let host = components.host?.lowercased()
            else { return nil }
            self.scheme = scheme
            self.host = host
            port = components.port ?? (scheme == "https" ? 443 : 80)
        }
    }
}
