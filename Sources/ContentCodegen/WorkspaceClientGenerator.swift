internal import ContentAEM
internal import ContentDataConnect
internal import Foundation

/// One kind of workspace a typed client is generated from: the key that names such a workspace in
/// `content-client.yaml`, and how its Swift is written.
protocol WorkspaceClientGenerator: Sendable {
    /// The key, such as `dataconnect`.
    static var key: String { get }

    /// Writes the client types for one workspace.
    ///
    /// - Parameters:
    ///   - workspaceFolder: The workspace, resolved against the configuration file's folder.
    ///   - configuration: The whole configuration, for the generator's own options.
    ///   - access: `internal` or `public`.
    ///   - source: The configuration file's name, for diagnostics.
    ///   - writer: Where the source goes.
    /// - Throws: ``GeneratorDiagnostic`` at the place of the first problem.
    static func write(
        workspace workspaceFolder: URL, configuration: ClientGeneratorConfiguration, access: String, source: String,
        into writer: inout SwiftSourceWriter
    ) throws(GeneratorDiagnostic)
}

/// A Data Connect workspace: one `<Connector>Connector` type per connector (or those `connectors:` names).
enum DataConnectClientGenerator: WorkspaceClientGenerator {
    static let key = "dataconnect"

    static func write(
        workspace workspaceFolder: URL, configuration: ClientGeneratorConfiguration, access: String, source: String,
        into writer: inout SwiftSourceWriter
    ) throws(GeneratorDiagnostic) {
        let workspace: DataConnectWorkspace
        do {
            workspace = try DataConnectWorkspace.load(from: workspaceFolder)
        } catch {
            throw GeneratorDiagnostic(error)
        }
        var connectors = workspace.connectors
        if let wanted = configuration.connectors {
            if let repeated = wanted.first(where: { id in wanted.filter { $0 == id }.count > 1 }) {
                throw GeneratorDiagnostic(file: source, "connectors lists '\(repeated)' more than once")
            }
            connectors = try wanted.map { id throws(GeneratorDiagnostic) in
                guard let connector = workspace.connector(id) else {
                    throw GeneratorDiagnostic(
                        file: source,
                        "connector '\(id)' is not in \(workspaceFolder.path); it has "
                            + workspace.connectors.map(\.id).joined(separator: ", "))
                }
                return connector
            }
        }
        try ContentClientGenerator.checkDistinct(
            connectors.map(\.id), suffix: "Connector", what: "connectors", source: source)
        let translator = try DataConnectClientTranslator(
            workspace: workspace, access: access,
            project: firebaseProject(near: workspaceFolder) ?? "demo-\(workspace.serviceID)")
        for connector in connectors.sorted(by: { $0.id < $1.id }) {
            writer.line()
            try translator.translate(connector, into: &writer)
        }
    }
}

extension DataConnectClientGenerator {
    /// The default project of the `.firebaserc` in the workspace's folder or the nearest folder above it that has
    /// one, as `firebase use` sets it.
    static func firebaseProject(near folder: URL) -> String? {
        var current = folder.standardizedFileURL
        while true {
            let file = current.appendingPathComponent(".firebaserc")
            if let data = FileManager.default.contents(atPath: file.path) {
                let json = try? JSONSerialization.jsonObject(with: data) as? [String: Any]
                return (json?["projects"] as? [String: Any])?["default"] as? String
            }
            let parent = current.deletingLastPathComponent()
            if parent.path == current.path { return nil }
            current = parent
        }
    }
}

/// An AEM workspace: one `<Configuration>Queries` type per persisted-query configuration.
enum AEMClientGenerator: WorkspaceClientGenerator {
    static let key = "aem"

    static func write(
        workspace workspaceFolder: URL, configuration: ClientGeneratorConfiguration, access: String, source: String,
        into writer: inout SwiftSourceWriter
    ) throws(GeneratorDiagnostic) {
        let definitions: AEMDefinitions
        do {
            definitions = try AEMDefinitions(directory: workspaceFolder)
        } catch {
            throw GeneratorDiagnostic(error)
        }
        guard !definitions.queries.isEmpty else {
            throw GeneratorDiagnostic(
                file: source, "\(workspaceFolder.path) has no queries/<configuration>/*.graphql files")
        }
        let translator = try AEMClientTranslator(definitions: definitions, access: access)
        try ContentClientGenerator.checkDistinct(
            translator.configurations, suffix: "Queries", what: "configurations", source: source)
        for configuration in translator.configurations {
            writer.line()
            try translator.translate(configuration: configuration, into: &writer)
        }
    }
}
