internal import Foundation

/// The proxies `HTTP_PROXY`, `HTTPS_PROXY` and `NO_PROXY` ask for, as curl reads them.
///
/// Lower-case names win over upper-case ones (`https_proxy` before `HTTPS_PROXY`).
/// `NO_PROXY` is a comma-separated list of hosts, domain suffixes (`.example.com` or `example.com`,
/// both matching subdomains), `host:port`, IP addresses, or `*` for everything.
public struct ProxyEnvironment: Sendable, Hashable {
    /// One proxy server.
    public struct Server: Sendable, Hashable {
        /// The proxy's host.
        public var host: String
        /// The proxy's port.
        public var port: Int
        /// The user for proxy basic auth, from the proxy URL.
        public var user: String?
        /// The password for proxy basic auth, from the proxy URL.
        public var password: String?
    }

    /// The proxy for `http://` URLs.
    public var http: Server?
    /// The proxy for `https://` URLs.
    public var https: Server?
    /// Hosts that bypass the proxy.
    public var noProxy: [String]

    /// Creates proxy settings.
    ///
    /// - Parameters:
    ///   - http: The proxy for `http://` URLs.
    ///   - https: The proxy for `https://` URLs.
    ///   - noProxy: Hosts that bypass the proxy.
    public init(http: Server? = nil, https: Server? = nil, noProxy: [String] = []) {
        self.http = http
        self.https = https
        self.noProxy = noProxy
    }

    /// Reads the proxy variables from an environment.
    ///
    /// - Parameter environment: The process environment.
    /// - Throws: ``HTTPTransportError`` with kind ``HTTPTransportError/Kind/proxy`` for a proxy URL that
    ///   cannot be parsed, naming the variable.
    public init(environment: [String: String]) throws(HTTPTransportError) {
        func value(_ name: String) -> (name: String, value: String)? {
            for candidate in [name.lowercased(), name.uppercased()] {
                if let value = environment[candidate], !value.isEmpty { return (candidate, value) }
            }
            return nil
        }
        http = try value("http_proxy").map { variable throws(HTTPTransportError) in
            try Self.parse(variable.value, variable: variable.name)
        }
        https = try value("https_proxy").map { variable throws(HTTPTransportError) in
            try Self.parse(variable.value, variable: variable.name)
        }
        noProxy =
            value("no_proxy")?.value.split(separator: ",").map {
                $0.trimmingCharacters(in: .whitespaces).lowercased()
            }.filter { !$0.isEmpty } ?? []
    }

    /// Parses `http://user:pass@host:port`, or `host:port` with `http://` assumed.
    static func parse(_ text: String, variable: String) throws(HTTPTransportError) -> Server {
        let withScheme = text.contains("://") ? text : "http://" + text
        guard let components = URLComponents(string: withScheme), let host = components.host, !host.isEmpty else {
            throw HTTPTransportError(.proxy, url: "$\(variable)", detail: "not a proxy URL: expected http://host:port")
        }
        guard components.scheme?.lowercased() == "http" else {
            throw HTTPTransportError(
                .proxy,
                url: "$\(variable)",
                detail: "only http:// proxies are supported (they tunnel https with CONNECT)"
            )
        }
        var server = Server(host: host, port: components.port ?? 80)
        if let user = components.percentEncodedUser {
            server.user = user.removingPercentEncoding ?? user
            server.password = components.percentEncodedPassword.map { $0.removingPercentEncoding ?? $0 }
        }
        return server
    }

    /// The proxy to use for a URL, or `nil` to connect directly.
    ///
    /// - Parameters:
    ///   - scheme: `http` or `https`.
    ///   - host: The target host.
    ///   - port: The target port.
    /// - Returns: The proxy, or `nil`.
    public func server(scheme: String, host: String, port: Int) -> Server? {
        let proxy = scheme.lowercased() == "https" ? https : http
        guard let proxy else { return nil }
        return bypasses(host: host, port: port) ? nil : proxy
    }

    /// Whether `NO_PROXY` exempts a host.
    ///
    /// - Parameters:
    ///   - host: The target host.
    ///   - port: The target port.
    /// - Returns: Whether to connect directly.
    public func bypasses(host: String, port: Int) -> Bool {
        let host = host.lowercased().trimmingCharacters(in: CharacterSet(charactersIn: "[]"))
        for rule in noProxy {
            if rule == "*" { return true }
            var pattern = rule
            if let colon = rule.lastIndex(of: ":"), !rule.hasPrefix("["), rule.filter({ $0 == ":" }).count == 1 {
                guard Int(rule[rule.index(after: colon)...]) == port else { continue }
                pattern = String(rule[..<colon])
            }
            pattern = pattern.trimmingCharacters(in: CharacterSet(charactersIn: "[]"))
            if pattern.hasPrefix("*.") { pattern.removeFirst() }
            if pattern.hasPrefix(".") { pattern.removeFirst() }
            if host == pattern || host.hasSuffix("." + pattern) { return true }
        }
        return false
    }
}
