internal import AsyncHTTPClient
public import ContentEmulator
public import ContentJSON
public import Foundation
internal import HTTPTypes
internal import Hummingbird
internal import HummingbirdTesting
internal import Logging
internal import NIOCore
internal import NIOHTTP1

/// How a test reaches an emulated service.
public enum EmulatorTestingMode: Sendable {
    /// Requests go straight to the service's router, with no socket: fast, and what most tests need.
    case inProcess
    /// Requests go over loopback HTTP to a server on a port the system picks, through a pooled AsyncHTTPClient:
    /// for what only a real connection shows (concurrency, connection handling, size limits on the wire).
    case live
}

/// Runs emulated services for tests, in either mode, with a client that speaks to them.
///
/// ```swift
/// try await EmulatorTesting.run(AEMEmulator.self, workspace: examples, mode: .inProcess) { _, client in
///     let exchange = try await client.get("/graphql/execute.json/wknd-shared/adventures-all")
///     #expect(exchange.status == 200)
/// }
/// ```
public enum EmulatorTesting {
    /// Loads a service from a workspace and runs `body` with it and a client.
    ///
    /// - Parameters:
    ///   - service: The service.
    ///   - workspace: The workspace folder.
    ///   - options: The service's settings.
    ///   - dataFile: A SQLite file to keep content in, or `nil` for memory.
    ///   - mode: In-process or over loopback HTTP.
    ///   - body: The test.
    /// - Returns: What `body` returns.
    /// - Throws: The service's load errors, or what `body` throws.
    public static func run<Service: EmulatedService, Result: Sendable>(
        _ service: Service.Type, workspace: URL, options: Service.Options = Service.Options(),
        dataFile: String? = nil, mode: EmulatorTestingMode = .live,
        _ body: @Sendable (Service, EmulatorTestClient) async throws -> Result
    ) async throws -> Result {
        let context = EmulatorContext(options: options, baseURL: "http://127.0.0.1", dataFile: dataFile)
        let loaded = try await Service.load(workspace: workspace, context: context)
        let router = loaded.router()
        return try await loaded.shuttingDown {
            switch mode {
            case .inProcess:
                let app = Application(router: router, logger: Logger(label: "test") { _ in SwiftLogNoOpLogHandler() })
                return try await app.test(.router) { client in
                    try await body(loaded, EmulatorTestClient(router: client))
                }
            case .live:
                return try await live(router) { base, http in
                    try await body(loaded, EmulatorTestClient(base: base, http: http))
                }
            }
        }
    }

    private static func live<Result: Sendable>(
        _ router: Router<BasicRequestContext>, _ body: @Sendable (String, HTTPClient) async throws -> Result
    ) async throws -> Result {
        // Tests that queue hundreds of requests wait for a pooled connection; on a loaded 2-core machine (the
        // example apps build alongside) that can take longer than the 10 s default.
        var configuration = HTTPClient.Configuration(timeout: .init(connect: .seconds(120), read: .seconds(120)))
        configuration.connectionPool = .init(idleTimeout: .seconds(60), concurrentHTTP1ConnectionsPerHostSoftLimit: 16)
        let http = HTTPClient(eventLoopGroup: HTTPClient.defaultEventLoopGroup, configuration: configuration)
        let outcome: Swift.Result<Result, any Error>
        do {
            outcome = .success(try await EmulatorServer.withInProcess(router: router) { try await body($0, http) })
        } catch {
            outcome = .failure(error)
        }
        try await http.shutdown()
        return try outcome.get()
    }
}

/// One request and its answer, as a test reads them.
public struct EmulatorExchange: Sendable {
    /// The status code.
    public var status: Int
    /// The headers, in order.
    public var headers: [(String, String)]
    /// The body.
    public var body: [UInt8]

    /// The body as JSON, or `nil` when it is not JSON.
    public var json: JSONValue? { try? JSONParser().parse(body) }
    /// The body as text.
    public var text: String { String(decoding: body, as: UTF8.self) }

    /// The first header of that name, compared without case.
    ///
    /// - Parameter name: The header's name.
    /// - Returns: Its value, or `nil`.
    public func header(_ name: String) -> String? {
        headers.first { $0.0.lowercased() == name.lowercased() }?.1
    }
}

/// Sends requests to a service under test, in whichever mode it runs.
public struct EmulatorTestClient: Sendable {
    private enum Transport: Sendable {
        case router(any TestClientProtocol)
        case live(base: String, http: HTTPClient)
    }

    private let transport: Transport

    init(router client: any TestClientProtocol) {
        transport = .router(client)
    }

    init(base: String, http: HTTPClient) {
        transport = .live(base: base, http: http)
    }

    /// The base URL of a live server; `nil` in process.
    public var baseURL: String? {
        if case .live(let base, _) = transport { return base }
        return nil
    }

    /// Sends a `GET`.
    ///
    /// - Parameters:
    ///   - path: The path and query.
    ///   - headers: The headers.
    /// - Returns: The answer.
    /// - Throws: A transport failure.
    public func get(_ path: String, headers: [(String, String)] = []) async throws -> EmulatorExchange {
        try await send(path, method: "GET", body: nil, headers: headers)
    }

    /// Sends a `POST` with a JSON body.
    ///
    /// - Parameters:
    ///   - path: The path and query.
    ///   - json: The body.
    ///   - headers: More headers.
    /// - Returns: The answer.
    /// - Throws: A transport failure.
    public func post(_ path: String, json: String, headers: [(String, String)] = []) async throws -> EmulatorExchange {
        try await send(path, method: "POST", body: json, headers: [("Content-Type", "application/json")] + headers)
    }

    /// Sends any request.
    ///
    /// - Parameters:
    ///   - path: The path and query.
    ///   - method: The method, such as `PUT`.
    ///   - body: The body, if any.
    ///   - headers: The headers.
    /// - Returns: The answer.
    /// - Throws: A transport failure.
    public func send(_ path: String, method: String, body: String?, headers: [(String, String)]) async throws
        -> EmulatorExchange
    {
        switch transport {
        case .router(let client):
            var fields = HTTPFields()
            for (name, value) in headers {
                if let field = HTTPField.Name(name) { fields.append(HTTPField(name: field, value: value)) }
            }
            let response = try await client.executeRequest(
                uri: path, method: HTTPRequest.Method(method) ?? .get, headers: fields,
                body: body.map { ByteBuffer(string: $0) })
            return EmulatorExchange(
                status: response.status.code,
                headers: response.headers.map { ($0.name.rawName, $0.value) },
                body: Array(response.body.readableBytesView))
        case .live(let base, let http):
            var request = HTTPClientRequest(url: base + path)
            request.method = NIOHTTP1.HTTPMethod(rawValue: method)
            for (name, value) in headers { request.headers.add(name: name, value: value) }
            if let body { request.body = .bytes(ByteBuffer(string: body)) }
            let response = try await http.execute(request, timeout: .seconds(120))
            let bytes = try await response.body.collect(upTo: 64 << 20)
            return EmulatorExchange(
                status: Int(response.status.code),
                headers: response.headers.map { ($0.name, $0.value) },
                body: Array(bytes.readableBytesView))
        }
    }
}
