import ContentTesting
import Foundation

/// The workspaces whose generated clients are pinned: the sample movies workspace and the three real ones of
/// the shared corpus, laid out as their projects lay them out.
enum GoldenWorkspaces {
    struct Workspace: Sendable {
        /// The golden file, under `Golden/`; it is also compiled into this test target.
        var golden: String
        /// The corpus folder, or `nil` for the repository's own sample.
        var corpus: String?
        /// Corpus file name → path in the laid-out project.
        var files: [String: String]
        /// Placeholder → value, for the template that `firebase init` fills in.
        var placeholders: [String: String] = [:]
        /// An AEM workspace instead of a Data Connect one.
        var isAEM = false
        /// A workspace under `Fixtures/`, instead of the corpus or the repository's sample.
        var fixture: String?
    }

    static let repository = TestLocations.repository
    static let corpus = TestLocations.corpus.appendingPathComponent("dataconnect")
    static let goldenFolder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent(
        "Golden")
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent(
        "Fixtures")

    static let all: [Workspace] = [
        Workspace(golden: "MoviesSample.swift", corpus: nil, files: [:]),
        Workspace(golden: "WKNDSample.swift", corpus: nil, files: [:], isAEM: true),
        // Names that collide with what the generator writes, line breaks and directives that change optionality.
        Workspace(golden: "AwkwardDataConnect.swift", corpus: nil, files: [:], fixture: "awkward-dataconnect"),
        Workspace(golden: "AwkwardAEM.swift", corpus: nil, files: [:], isAEM: true, fixture: "awkward-aem"),
        Workspace(
            golden: "FriendlyFlix.swift", corpus: "friendlyflix-ios",
            files: [
                "dataconnect.yaml": "dataconnect/dataconnect.yaml",
                "schema_schema.gql": "dataconnect/schema/schema.gql",
                "movie-connector_connector.yaml": "dataconnect/movie-connector/connector.yaml",
                "movie-connector_queries.gql": "dataconnect/movie-connector/queries.gql",
                "movie-connector_mutations.gql": "dataconnect/movie-connector/mutations.gql",
            ]),
        Workspace(
            golden: "KitchenSink.swift", corpus: "ios-sdk-kitchensink",
            files: [
                "dataconnect_dataconnect.yaml": "dataconnect/dataconnect.yaml",
                "dataconnect_schema_schema.gql": "dataconnect/schema/schema.gql",
                "dataconnect_default_connector.yaml": "dataconnect/default/connector.yaml",
                "dataconnect_default_queries.gql": "dataconnect/default/queries.gql",
                "dataconnect_default_mutations.gql": "dataconnect/default/mutations.gql",
            ]),
        Workspace(
            golden: "InitTemplate.swift", corpus: "firebase-tools-init-template",
            files: [
                "dataconnect.yaml": "dataconnect/dataconnect.yaml",
                "schema.gql": "dataconnect/schema/schema.gql",
                "connector.yaml": "dataconnect/example/connector.yaml",
                "queries.gql": "dataconnect/example/queries.gql",
                "mutations.gql": "dataconnect/example/mutations.gql",
            ],
            placeholders: [
                "__serviceId__": "template", "__location__": "us-central1", "__cloudSqlDatabase__": "fdcdb",
                "__cloudSqlInstanceId__": "template-fdc", "__connectorDirs__": "[\"./example\"]",
                "__connectorId__": "example",
            ]),
    ]

    /// A `content-client.yaml` for the workspace in a fresh folder, or `nil` (with a note) without the corpus.
    static func configuration(for workspace: Workspace) throws -> URL? {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "content-codegen-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        if let fixture = workspace.fixture {
            let configuration = folder.appendingPathComponent("content-client.yaml")
            let key = workspace.isAEM ? "aem" : "dataconnect"
            let path = fixtures.appendingPathComponent(fixture).path
            try "\(key): \"\(path)\"\n".write(to: configuration, atomically: true, encoding: .utf8)
            return configuration
        }
        if workspace.isAEM {
            let configuration = folder.appendingPathComponent("content-client.yaml")
            let aem = repository.appendingPathComponent("examples/aem").path
            try "aem: \"\(aem)\"\n".write(to: configuration, atomically: true, encoding: .utf8)
            return configuration
        }
        let dataconnect: String
        if let name = workspace.corpus {
            let source = corpus.appendingPathComponent(name)
            guard FileManager.default.fileExists(atPath: source.path) else {
                print("note: skipping the \(name) golden file: the shared corpus is not beside the repository")
                return nil
            }
            for (file, path) in workspace.files {
                var text = try String(contentsOf: source.appendingPathComponent(file), encoding: .utf8)
                for (placeholder, value) in workspace.placeholders {
                    text = text.replacingOccurrences(of: placeholder, with: value)
                }
                let destination = folder.appendingPathComponent(path)
                try FileManager.default.createDirectory(
                    at: destination.deletingLastPathComponent(), withIntermediateDirectories: true)
                try text.write(to: destination, atomically: true, encoding: .utf8)
            }
            dataconnect = "dataconnect"
        } else {
            dataconnect = repository.appendingPathComponent("examples/dataconnect").path
        }
        let configuration = folder.appendingPathComponent("content-client.yaml")
        try "dataconnect: \"\(dataconnect)\"\n".write(to: configuration, atomically: true, encoding: .utf8)
        return configuration
    }
}
