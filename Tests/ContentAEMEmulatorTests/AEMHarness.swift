import ContentEmulatorTesting
import ContentJSON
import ContentTesting
import Foundation
import Testing

@testable import ContentAEMEmulator

/// The repository and corpus folders, as every test target finds them.
typealias Locations = TestLocations

enum AEMHarness {
    typealias Exchange = EmulatorExchange
    typealias Client = EmulatorTestClient

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

    /// Runs the AEM emulator over a workspace's `aem/` folder (default: a copy of the sample's) for `body`, in
    /// process unless the test needs a real connection.
    static func run<Result: Sendable>(
        workspace: URL? = nil,
        options: AEMEmulator.Options = AEMEmulator.Options(),
        mode: EmulatorTestingMode = .inProcess,
        _ body: @Sendable (Client) async throws -> Result
    ) async throws -> Result {
        let directory = try workspace ?? Self.workspace()
        defer { try? FileManager.default.removeItem(at: directory.deletingLastPathComponent()) }
        return try await EmulatorTesting.run(
            AEMEmulator.self, workspace: directory.deletingLastPathComponent(), options: options, mode: mode
        ) { _, client in try await body(client) }
    }

    /// Runs the AEM emulator in process for `body`, which also gets the emulator to look inside.
    static func runService<Result: Sendable>(
        options: AEMEmulator.Options = AEMEmulator.Options(),
        _ body: @Sendable (AEMEmulator, Client) async throws -> Result
    ) async throws -> Result {
        let directory = try Self.workspace()
        defer { try? FileManager.default.removeItem(at: directory.deletingLastPathComponent()) }
        return try await EmulatorTesting.run(
            AEMEmulator.self, workspace: directory.deletingLastPathComponent(), options: options, mode: .inProcess,
            body)
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
