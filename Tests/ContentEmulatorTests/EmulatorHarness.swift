import AsyncHTTPClient
import ContentJSON
import Foundation
import Hummingbird
import Logging
import NIOCore
import NIOHTTP1
import Testing

@testable import ContentEmulator

/// Paths of the repository, its examples and the shared corpus beside it.
enum Locations {
    static let repository = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let examples = repository.appendingPathComponent("examples")
    static let corpus = repository.deletingLastPathComponent().appendingPathComponent("shared/corpus")

    /// The corpus folder, or nil (with a visible note) when it is not beside the repository.
    static func corpusFolder(_ relative: String) -> URL? {
        let url = corpus.appendingPathComponent(relative)
        guard FileManager.default.fileExists(atPath: url.path) else {
            print("note: skipping checks on \(relative): the shared corpus is not beside the repository")
            return nil
        }
        return url
    }
}

/// An AEM emulator on 127.0.0.1 and a free port, alive for the duration of `body`.
enum AEMHarness {
    struct Exchange: Sendable {
        var status: Int
        var headers: [(String, String)]
        var body: [UInt8]

        var json: JSONValue? { try? JSONParser().parse(body) }
        var text: String { String(decoding: body, as: UTF8.self) }
        func header(_ name: String) -> String? {
            headers.first { $0.0.lowercased() == name.lowercased() }?.1
        }
    }

    struct Client: Sendable {
        let base: String
        let http: HTTPClient

        func get(_ path: String, headers: [(String, String)] = []) async throws -> Exchange {
            try await send(path, method: .GET, body: nil, headers: headers)
        }

        func post(_ path: String, json: String, headers: [(String, String)] = []) async throws -> Exchange {
            try await send(path, method: .POST, body: json, headers: [("Content-Type", "application/json")] + headers)
        }

        func send(_ path: String, method: NIOHTTP1.HTTPMethod, body: String?, headers: [(String, String)])
            async throws
            -> Exchange
        {
            var request = HTTPClientRequest(url: base + path)
            request.method = method
            for (name, value) in headers { request.headers.add(name: name, value: value) }
            if let body { request.body = .bytes(ByteBuffer(string: body)) }
            let response = try await http.execute(request, timeout: .seconds(30))
            let bytes = try await response.body.collect(upTo: 64 << 20)
            return Exchange(
                status: Int(response.status.code),
                headers: response.headers.map { ($0.name, $0.value) },
                body: Array(bytes.readableBytesView)
            )
        }
    }

    /// A workspace copied from `examples/aem`, optionally with other persisted queries.
    static func workspace(queries: URL? = nil, extraQueries: [String: String] = [:]) throws -> URL {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("aem-\(UUID().uuidString)")
        let aem = root.appendingPathComponent("aem")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: Locations.examples.appendingPathComponent("aem"), to: aem)
        let queryFolder = aem.appendingPathComponent("queries/wknd-shared")
        if let queries {
            try FileManager.default.removeItem(at: queryFolder)
            try FileManager.default.createDirectory(at: queryFolder, withIntermediateDirectories: true)
            for file in try FileManager.default.contentsOfDirectory(atPath: queries.path)
            where file.hasSuffix(".graphql") {
                try FileManager.default.copyItem(
                    at: queries.appendingPathComponent(file),
                    to: queryFolder.appendingPathComponent(file)
                )
            }
        }
        for (name, text) in extraQueries {
            try Data(text.utf8).write(to: queryFolder.appendingPathComponent("\(name).graphql"))
        }
        return aem
    }

    static func run<Result: Sendable>(
        workspace: URL? = nil,
        options: AEMEmulator.Options = AEMEmulator.Options(),
        _ body: @Sendable (Client) async throws -> Result
    ) async throws -> Result {
        let directory = try workspace ?? Self.workspace()
        let emulator = try AEMEmulator(directory: directory, publishBase: "http://127.0.0.1", options: options)
        let router = Router()
        emulator.addRoutes(to: router)
        defer { try? FileManager.default.removeItem(at: directory.deletingLastPathComponent()) }
        return try await serve(router) { base, http in try await body(Client(base: base, http: http)) }
    }

    /// Serves a router on a free loopback port, with an HTTP client, for the duration of `body`.
    static func serve<Result: Sendable>(
        _ router: Router<BasicRequestContext>, _ body: @Sendable (String, HTTPClient) async throws -> Result
    ) async throws -> Result {
        // Tests that queue hundreds of requests wait for a pooled connection; on a loaded 2-core machine (the
        // example apps build alongside) that can take longer than the 10 s default.
        var configuration = HTTPClient.Configuration(timeout: .init(connect: .seconds(120), read: .seconds(120)))
        configuration.connectionPool = .init(idleTimeout: .seconds(60), concurrentHTTP1ConnectionsPerHostSoftLimit: 16)
        let http = HTTPClient(eventLoopGroup: HTTPClient.defaultEventLoopGroup, configuration: configuration)
        let outcome: Swift.Result<Result, any Error>
        do {
            outcome = .success(try await EmulatorServer.withInProcess(router) { base in try await body(base, http) })
        } catch {
            outcome = .failure(error)
        }
        try await http.shutdown()
        return try outcome.get()
    }
}

/// The 16 WKND adventures' facts, read from the corpus, or nil when it is absent.
enum WKNDFacts {
    struct Adventure {
        var title: String
        var slug: String
        var activity: String
        var price: Double
    }

    static func adventures() throws -> [Adventure]? {
        guard let folder = Locations.corpusFolder("aem/wknd-shared") else { return nil }
        let data = try Data(contentsOf: folder.appendingPathComponent("adventures.json"))
        let list = try JSONParser().parse(Array(data)).arrayValue ?? []
        return list.compactMap { item in
            guard let title = item["title"]?.stringValue, let slug = item["slug"]?.stringValue,
                let activity = item["activity"]?.stringValue,
                case .number(let price) = item["price"], let value = price.doubleValue
            else { return nil }
            return Adventure(title: title, slug: slug, activity: activity, price: value)
        }
    }
}
