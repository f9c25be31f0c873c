internal import Foundation
internal import PostgresNIO

/// Where a PostgreSQL server is and who to log in as, from a connection URL in libpq's form:
/// `postgresql://user:password@host:port/database?sslmode=…`, or a Unix socket folder as `?host=/run/postgresql`.
///
/// The same text `FIREBASE_DATACONNECT_POSTGRESQL_STRING` holds for Firebase's emulator. The password never appears in
/// ``description``, so the location can be named in any message.
public struct PostgresLocation: Sendable, CustomStringConvertible {
    /// The host name or address.
    public var host: String
    /// The port, or the number of the Unix socket's file.
    public var port: Int
    /// A Unix socket folder, when the server is reached through one.
    public var socketDirectory: String?
    /// Who to log in as.
    public var user: String
    /// The password, never shown.
    public var password: String?
    /// The database.
    public var database: String
    /// Whether the URL names the database (else it is libpq's default, the user's name).
    public var namesDatabase: Bool
    /// Whether to use TLS.
    public var tlsMode: TLSMode

    /// libpq's `sslmode`, reduced to what a client without certificates of its own can do.
    public enum TLSMode: String, Sendable {
        case disable, prefer, require
    }

    /// A URL that does not say where a server is; the description shows it without its password.
    public struct Invalid: Error, CustomStringConvertible {
        /// What is wrong, and how to write it.
        public let description: String
    }

    /// Reads a connection URL.
    ///
    /// - Parameter text: `postgres://` or `postgresql://` URL.
    /// - Throws: ``Invalid``, naming the URL without its password.
    public init(url text: String) throws {
        let shown = Self.redacted(text)
        guard let components = URLComponents(string: text), let scheme = components.scheme?.lowercased(),
            scheme == "postgres" || scheme == "postgresql"
        else {
            throw Invalid(
                description: "\(shown) is not a PostgreSQL URL: write postgresql://USER[:PASSWORD]@HOST[:PORT]/DATABASE"
            )
        }
        var query: [String: String] = [:]
        for item in components.queryItems ?? [] { query[item.name] = item.value ?? "" }
        let socket = query["host"].flatMap { $0.hasPrefix("/") ? $0 : nil }
        host = (query["host"].flatMap { $0.hasPrefix("/") ? nil : $0 }) ?? components.host ?? ""
        socketDirectory = socket
        if host.isEmpty && socket == nil { host = "localhost" }
        if let portText = query["port"] {
            guard let number = Int(portText), (1...65_535).contains(number) else {
                throw Invalid(description: "\(shown): port \(portText) is not a port number (1 to 65535)")
            }
            port = number
        } else {
            port = components.port ?? 5432
        }
        guard (1...65_535).contains(port) else {
            throw Invalid(description: "\(shown): port \(port) is not a port number (1 to 65535)")
        }
        user = query["user"] ?? components.user?.removingPercentEncoding ?? "postgres"
        password = query["password"] ?? components.password?.removingPercentEncoding
        let path = components.path.hasPrefix("/") ? String(components.path.dropFirst()) : components.path
        database = query["dbname"] ?? (path.isEmpty ? user : path.removingPercentEncoding ?? path)
        namesDatabase = query["dbname"] != nil || !path.isEmpty
        switch query["sslmode"] ?? "prefer" {
        case "disable": tlsMode = .disable
        case "allow", "prefer": tlsMode = socket == nil ? .prefer : .disable
        case "require": tlsMode = .require
        case let other:
            throw Invalid(
                description: "\(shown): sslmode=\(other) is not supported; use disable, prefer or require "
                    + "(certificate checks, verify-ca and verify-full, need a client certificate setup this tool "
                    + "does not have)")
        }
    }

    /// The server without the password: `postgresql://user@host:port/database`.
    public var description: String {
        let place = socketDirectory.map { "\(user)@/\(database)?host=\($0)&port=\(port)" }
        return "postgresql://" + (place ?? "\(user)@\(host.contains(":") ? "[\(host)]" : host):\(port)/\(database)")
    }

    /// The URL text with any password replaced, for messages about a URL that did not parse.
    public static func redacted(_ text: String) -> String {
        guard var components = URLComponents(string: text) else { return "the PostgreSQL URL" }
        if components.password != nil { components.password = "REDACTED" }
        if let items = components.queryItems, items.contains(where: { $0.name == "password" }) {
            components.queryItems = items.map {
                $0.name == "password" ? .init(name: "password", value: "REDACTED") : $0
            }
        }
        return components.string ?? "the PostgreSQL URL"
    }

    /// The pool's configuration for this server.
    func clientConfiguration(connections: Int) -> PostgresClient.Configuration {
        var configuration: PostgresClient.Configuration
        if let socketDirectory {
            configuration = .init(
                unixSocketPath: "\(socketDirectory)/.s.PGSQL.\(port)", username: user, password: password,
                database: database)
        } else {
            let tls: PostgresClient.Configuration.TLS
            switch tlsMode {
            case .disable: tls = .disable
            case .prefer: tls = .prefer(.makeClientConfiguration())
            case .require: tls = .require(.makeClientConfiguration())
            }
            configuration = .init(
                host: host, port: port, username: user, password: password, database: database, tls: tls)
        }
        configuration.options.maximumConnections = max(1, connections)
        configuration.options.connectTimeout = .seconds(5)
        return configuration
    }
}
