internal import ContentAEM
internal import ContentDataConnect
internal import ContentYAML
public import Foundation

/// What a `content-client.yaml` says: which workspaces to make a client for, and for whom.
///
/// Configuration keys (paths are relative to the file; at least one of `dataconnect` and `aem`):
/// - `dataconnect` (string): a Data Connect workspace folder, the one holding `dataconnect.yaml`; each connector
///   becomes a `<Connector>Connector` type.
/// - `connectors` (list of strings, optional): the connector ids to generate; all of them when left out.
/// - `aem` (string): an AEM workspace folder holding `models/` and `queries/<configuration>/*.graphql`; each
///   configuration becomes a `<Configuration>Queries` type.
/// - `access` (`internal` or `public`, optional): the access level of the generated API; `internal` by default.
public struct ClientGeneratorConfiguration: Decodable, Sendable, Hashable {
    /// The access level of the generated API.
    public enum Access: String, Decodable, Sendable, Hashable {
        case `internal`, `public`
    }

    /// The workspace folders, relative to the file, by the key of the generator that reads them (`dataconnect`,
    /// `aem`: one per entry of ``ContentClientGenerator/generators``).
    public var workspaces: [String: String]
    /// The connector ids to generate, or `nil` for all.
    public var connectors: [String]?
    /// The access level of the generated API.
    public var access: Access?

    /// Creates a configuration.
    ///
    /// - Parameters:
    ///   - workspaces: The workspace folders by generator key.
    ///   - connectors: The connector ids to generate, or `nil` for all.
    ///   - access: The access level of the generated API.
    public init(workspaces: [String: String], connectors: [String]? = nil, access: Access? = nil) {
        self.workspaces = workspaces
        self.connectors = connectors
        self.access = access
    }

    /// Reads the file's keys: one per generator, then the options.
    ///
    /// - Parameter decoder: The YAML decoder, which refuses keys nothing asked for.
    /// - Throws: `DecodingError` for a value of the wrong type.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: Key.self)
        var workspaces: [String: String] = [:]
        for generator in ContentClientGenerator.generators {
            let key = Key(generator.key)
            if let path = try container.decodeIfPresent(String.self, forKey: key) { workspaces[generator.key] = path }
        }
        self.workspaces = workspaces
        connectors = try container.decodeIfPresent([String].self, forKey: Key("connectors"))
        access = try container.decodeIfPresent(Access.self, forKey: Key("access"))
    }

    /// A key of the file.
    private struct Key: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }

        init(_ name: String) { stringValue = name }
        init?(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    /// A sample file, for `--help` and error messages.
    public static let sample = """
        # content-client.yaml: generate a typed Swift client at build time.
        dataconnect: ../../dataconnect   # the folder with dataconnect.yaml,
                                         # relative to this file
        connectors: [movies]             # optional; every connector when left out
        aem: ../../aem                   # the folder with models/ and queries/
        access: internal                 # or public
        """
}

/// Reads a configuration and its workspaces and writes the Swift client source.
public enum ContentClientGenerator {
    /// The kinds of workspace a client can be generated from, in the order their code is written: adding one is
    /// its generator and one line here; `content-client.yaml`'s keys and the build plugin's inputs follow.
    static let generators: [any WorkspaceClientGenerator.Type] = [
        DataConnectClientGenerator.self,
        AEMClientGenerator.self,
    ]

    /// The file the plugins ask for: one per target, so SwiftPM knows the output before running.
    public static let outputFileName = "GeneratedContentClient.swift"

    /// Generates the client a configuration file asks for.
    ///
    /// - Parameter configurationFile: The `content-client.yaml`.
    /// - Returns: Swift source; the same inputs always give the same bytes.
    /// - Throws: ``GeneratorDiagnostic`` at the file, line and column of the first problem.
    public static func generate(configurationFile: String) throws(GeneratorDiagnostic) -> String {
        guard let data = FileManager.default.contents(atPath: configurationFile) else {
            throw GeneratorDiagnostic(
                file: configurationFile,
                "cannot read the file; create it like this:\n\(ClientGeneratorConfiguration.sample)")
        }
        let text = String(decoding: data, as: UTF8.self)
        let configuration: ClientGeneratorConfiguration
        do {
            configuration = try YAMLDecoder().decode(
                ClientGeneratorConfiguration.self, from: text, file: configurationFile)
        } catch {
            throw GeneratorDiagnostic(
                file: error.file, line: error.mark?.line, column: error.mark?.column,
                (error.keyPath.isEmpty ? "" : "\(error.keyPath): ") + error.message
                    + (error.hint.map { " (\($0))" } ?? ""))
        }
        let folder = URL(fileURLWithPath: configurationFile).deletingLastPathComponent()
        return try generate(
            configuration, relativeTo: folder, source: URL(fileURLWithPath: configurationFile).lastPathComponent)
    }

    /// Generates the client for a configuration already read.
    ///
    /// - Parameters:
    ///   - configuration: What to generate.
    ///   - folder: What relative paths in it are relative to.
    ///   - source: The name the header mentions.
    /// - Returns: Swift source.
    /// - Throws: ``GeneratorDiagnostic``.
    public static func generate(_ configuration: ClientGeneratorConfiguration, relativeTo folder: URL, source: String)
        throws(GeneratorDiagnostic) -> String
    {
        let access = (configuration.access ?? .internal).rawValue
        guard !configuration.workspaces.isEmpty else {
            let keys = generators.map { "`\($0.key):`" }.joined(separator: " or ")
            throw GeneratorDiagnostic(
                file: source, line: 1, column: 1,
                "name a workspace with \(keys), like this:\n\(ClientGeneratorConfiguration.sample)")
        }
        var writer = SwiftSourceWriter()
        writer.line("// Generated by content-codegen from \(source). Do not edit: change the .gql files and rebuild.")
        writer.line("// swift-format-ignore-file")
        writer.line()
        writer.line("import ContentKit")
        writer.line("import Foundation")
        for generator in generators {
            guard let path = configuration.workspaces[generator.key] else { continue }
            let workspace = URL(fileURLWithPath: path, relativeTo: folder).standardizedFileURL
            try generator.write(
                workspace: workspace, configuration: configuration, access: access, source: source, into: &writer)
        }
        return writer.text
    }

    /// Ids that make the same type name (`movie-app` and `movie_app` both make `MovieAppConnector`) would
    /// declare it twice.
    static func checkDistinct(_ ids: [String], suffix: String, what: String, source: String)
        throws(GeneratorDiagnostic)
    {
        var seen: [String: String] = [:]
        for id in ids.sorted() {
            let name = SwiftName.words(id) + suffix
            if let other = seen[name] {
                throw GeneratorDiagnostic(
                    file: source, "the \(what) '\(other)' and '\(id)' both make the Swift type \(name); rename one")
            }
            seen[name] = id
        }
    }
}
