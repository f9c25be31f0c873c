internal import ContentJSON
internal import ContentYAML
public import Foundation
internal import GraphQL

/// A Data Connect workspace as Firebase lays it out: `dataconnect.yaml`, its schema `.gql` files and
/// connector folders, each with a `connector.yaml` and operation `.gql` files.
public struct DataConnectWorkspace: Sendable {
    /// The folder holding `dataconnect.yaml`.
    public var directory: URL
    /// `serviceId`.
    public var serviceID: String
    /// `location`.
    public var location: String
    /// The tables.
    public var schema: DataConnectSchema
    /// The schema files, path and text, for tools that re-read them.
    public var schemaFiles: [(path: String, text: String)]
    /// The connectors, in `connectorDirs` order.
    public var connectors: [Connector]
    /// `seed_data.gql` beside `dataconnect.yaml`, when there is one.
    public var seedFile: URL?
    /// Parts of the workspace that are read but not served (for example an HTTP GraphQL data source).
    public var notes: [String]
    /// How a PostgreSQL database's tables are held to the schema (`schema.datasource.postgresql.schemaValidation`).
    public var schemaValidation: SchemaValidation = .strict
    /// The PostgreSQL database the service keeps its tables in (`schema.datasource.postgresql.database`).
    public var postgresDatabase: String?

    /// How a PostgreSQL database's tables are held to the schema.
    ///
    /// The service's API reference (`PostgreSql.schemaValidation`): unspecified is `STRICT`, which wants the SQL DDL
    /// to match the schema exactly; `COMPATIBLE` wants every table and column the schema uses and accepts unknown
    /// ones; `NONE` checks nothing, so generated SQL may fail when it runs.
    public enum SchemaValidation: String, Sendable {
        case strict = "STRICT"
        case compatible = "COMPATIBLE"
        case none = "NONE"
    }

    /// The connector with an id.
    ///
    /// - Parameter id: The `connectorId`.
    /// - Returns: The connector, or `nil`.
    public func connector(_ id: String) -> Connector? {
        connectors.first { $0.id == id }
    }

    /// The `dataconnect.yaml` a folder leads to, through `firebase.json` (`dataconnect.source`),
    /// `dataconnect.yaml` or `dataconnect/dataconnect.yaml`; `nil` when it leads to none.
    ///
    /// - Parameter folder: A project folder, a Data Connect folder, or a `dataconnect.yaml` path.
    /// - Returns: The manifest's URL.
    public static func locate(from folder: URL) -> URL? {
        let files = FileManager.default
        if folder.lastPathComponent.hasSuffix(".yaml"), files.fileExists(atPath: folder.path) { return folder }
        let firebase = folder.appendingPathComponent("firebase.json")
        if let data = files.contents(atPath: firebase.path),
            let json = try? JSONParser().parse(Array(data)),
            let source = json["dataconnect"]?["source"]?.stringValue
                ?? json["dataconnect"]?.arrayValue?.first?["source"]?.stringValue
        {
            let manifest = folder.appendingPathComponent(source).appendingPathComponent("dataconnect.yaml")
            if files.fileExists(atPath: manifest.path) { return manifest }
        }
        for candidate in ["dataconnect.yaml", "dataconnect/dataconnect.yaml"] {
            let manifest = folder.appendingPathComponent(candidate)
            if files.fileExists(atPath: manifest.path) { return manifest }
        }
        return nil
    }

    /// Reads a workspace.
    ///
    /// - Parameter folder: Anything ``locate(from:)`` accepts.
    /// - Returns: The workspace.
    /// - Throws: ``DataConnectWorkspaceError`` naming the file, line and column of the first problem.
    public static func load(from folder: URL) throws(DataConnectWorkspaceError) -> DataConnectWorkspace {
        guard let manifestURL = locate(from: folder) else {
            throw DataConnectWorkspaceError(
                file: folder.path,
                "no Data Connect workspace here: expected firebase.json with dataconnect.source, dataconnect.yaml "
                    + "or dataconnect/dataconnect.yaml")
        }
        let directory = manifestURL.deletingLastPathComponent()
        let manifest = try decodeYAML(Manifest.self, at: manifestURL)
        var notes: [String] = []
        var schemaFolders: [String] = []
        var validation = SchemaValidation.strict
        var database: String?
        for entry in (manifest.schema.map { [$0] } ?? []) + (manifest.schemas ?? []) {
            if database == nil { database = entry.datasource?.postgresql?.database }
            if let given = entry.datasource?.postgresql?.schemaValidation {
                guard let known = SchemaValidation(rawValue: given) else {
                    throw DataConnectWorkspaceError(
                        file: manifestURL.path,
                        "schema.datasource.postgresql.schemaValidation is STRICT, COMPATIBLE or NONE, not \(given)")
                }
                validation = known
            }
            if entry.datasource?.httpGraphql != nil {
                notes.append(
                    "schema \(entry.id ?? entry.source) is an HTTP GraphQL data source; its fields are not served")
                continue
            }
            schemaFolders.append(entry.source)
        }
        guard !schemaFolders.isEmpty else {
            throw DataConnectWorkspaceError(
                file: manifestURL.path, "dataconnect.yaml has no schema.source (or schemas[].source) to read")
        }
        var schemaFiles: [(path: String, text: String)] = []
        for source in schemaFolders {
            let folder = directory.appendingPathComponent(source).standardizedFileURL
            let found = gqlFiles(in: folder)
            guard !found.isEmpty else {
                throw DataConnectWorkspaceError(
                    file: manifestURL.path, "schema source \(source) has no .gql files (looked in \(folder.path))")
            }
            for file in found { schemaFiles.append((file.path, try readText(file))) }
        }
        let schema = try DataConnectSchema.parse(files: schemaFiles)
        var connectors: [Connector] = []
        for folderName in manifest.connectorDirs ?? [] {
            let connector = try loadConnector(directory.appendingPathComponent(folderName).standardizedFileURL)
            if let existing = connectors.first(where: { $0.id == connector.id }) {
                throw DataConnectWorkspaceError(
                    file: connector.directory, "connectorId \(connector.id) is also used by \(existing.directory)")
            }
            connectors.append(connector)
        }
        let seed = directory.appendingPathComponent("seed_data.gql")
        var workspace = DataConnectWorkspace(
            directory: directory,
            serviceID: manifest.serviceId,
            location: manifest.location,
            schema: schema,
            schemaFiles: schemaFiles,
            connectors: connectors,
            seedFile: FileManager.default.fileExists(atPath: seed.path) ? seed : nil,
            notes: notes
        )
        workspace.schemaValidation = validation
        workspace.postgresDatabase = database
        return workspace
    }

    // MARK: - Files

    private struct Manifest: Decodable {
        struct SchemaEntry: Decodable {
            struct Datasource: Decodable {
                struct PostgreSQL: Decodable {
                    var database: String?
                    var schemaValidation: String?
                }
                var postgresql: PostgreSQL?
                var httpGraphql: YAMLNode?
            }
            var id: String?
            var source: String
            var datasource: Datasource?
        }
        var specVersion: String?
        var serviceId: String
        var location: String
        var schema: SchemaEntry?
        var schemas: [SchemaEntry]?
        var connectorDirs: [String]?
    }

    private struct ConnectorManifest: Decodable {
        var connectorId: String
        var authMode: String?
        var generate: Generate?

        /// The `generate` section, of which only `swiftSdk` matters here.
        ///
        /// Firebase's tools take one SDK or a list of them.
        struct Generate: Decodable {
            var swiftSdk: SwiftSDKSettings?

            enum CodingKeys: String, CodingKey { case swiftSdk }

            init(from decoder: any Decoder) throws {
                let container = try decoder.container(keyedBy: CodingKeys.self)
                if let list = try? container.decodeIfPresent([SwiftSDKSettings].self, forKey: .swiftSdk) {
                    swiftSdk = list.first
                } else {
                    swiftSdk = try container.decodeIfPresent(SwiftSDKSettings.self, forKey: .swiftSdk)
                }
            }
        }
    }

    private static func loadConnector(_ folder: URL) throws(DataConnectWorkspaceError) -> Connector {
        let manifestURL = folder.appendingPathComponent("connector.yaml")
        guard FileManager.default.fileExists(atPath: manifestURL.path) else {
            throw DataConnectWorkspaceError(
                file: folder.path, "connector folder has no connector.yaml (listed in connectorDirs)")
        }
        let manifest = try decodeYAML(ConnectorManifest.self, at: manifestURL)
        if let mode = manifest.authMode, AuthPolicy.Level(rawValue: mode) == nil {
            throw DataConnectWorkspaceError(
                file: manifestURL.path,
                "authMode \(mode) is not one of " + AuthPolicy.Level.allCases.map(\.rawValue).joined(separator: ", "))
        }
        var files: [ConnectorFiles.File] = []
        for file in gqlFiles(in: folder) {
            let text = try readText(file)
            files.append(
                .init(path: file.path, text: text, definitions: try GraphQLText.definitions(text, path: file.path)))
        }
        let connectorFiles = try ConnectorFiles(files: files)
        var operations: [ConnectorOperation] = []
        for index in files.indices {
            for operation in try ConnectorOperation.operations(in: connectorFiles, file: index) {
                if let existing = operations.first(where: { $0.name == operation.name }) {
                    throw DataConnectWorkspaceError(
                        file: operation.position.file, line: operation.position.line,
                        column: operation.position.column,
                        "a second operation is named \(operation.name) (the first is at \(existing.position))")
                }
                operations.append(operation)
            }
        }
        return Connector(
            id: manifest.connectorId,
            directory: folder.path,
            defaultAuth: manifest.authMode.flatMap(AuthPolicy.Level.init(rawValue:)),
            operations: operations,
            swiftSDK: manifest.generate?.swiftSdk
        )
    }

    private static func decodeYAML<T: Decodable>(_ type: T.Type, at url: URL) throws(DataConnectWorkspaceError) -> T {
        let text = try readText(url)
        do {
            return try YAMLDecoder(rejectsUnknownKeys: false).decode(type, from: text, file: url.path)
        } catch {
            throw DataConnectWorkspaceError(
                file: error.file, line: error.mark?.line, column: error.mark?.column,
                (error.keyPath.isEmpty ? "" : "\(error.keyPath): ") + error.message
                    + (error.hint.map { " (\($0))" } ?? ""))
        }
    }

    static func readText(_ url: URL) throws(DataConnectWorkspaceError) -> String {
        guard let data = FileManager.default.contents(atPath: url.path) else {
            throw DataConnectWorkspaceError(file: url.path, "cannot read the file")
        }
        guard let text = String(data: data, encoding: .utf8) else {
            throw DataConnectWorkspaceError(file: url.path, "the file is not UTF-8 text")
        }
        return text
    }

    /// `.gql` files under a folder, sorted by path so loading is deterministic.
    static func gqlFiles(in folder: URL) -> [URL] {
        guard let enumerator = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil) else {
            return []
        }
        var found: [URL] = []
        while let url = enumerator.nextObject() as? URL {
            if url.pathExtension == "gql" || url.pathExtension == "graphql" { found.append(url) }
        }
        return found.sorted { $0.path < $1.path }
    }
}

extension ConnectorOperation {
    /// The named operations in one connector file.
    ///
    /// - Parameters:
    ///   - text: The file's text.
    ///   - path: The file's path, for positions.
    /// - Returns: The operations.
    /// - Throws: ``DataConnectWorkspaceError`` for syntax errors and anonymous operations.
    package static func parse(_ text: String, path: String) throws(DataConnectWorkspaceError) -> [ConnectorOperation] {
        let file = ConnectorFiles.File(
            path: path, text: text, definitions: try GraphQLText.definitions(text, path: path))
        return try operations(in: try ConnectorFiles(files: [file]), file: 0)
    }

    /// The named operations of one file of a connector, each with its document.
    static func operations(in connector: ConnectorFiles, file index: Int) throws(DataConnectWorkspaceError)
        -> [ConnectorOperation]
    {
        let path = connector.files[index].path
        let text = connector.files[index].text
        var operations: [ConnectorOperation] = []
        for case let definition as OperationDefinition in connector.files[index].definitions {
            let position = GraphQLText.position(definition.loc, path: path)
            guard let name = definition.name?.value else {
                throw DataConnectWorkspaceError(
                    file: path, line: position.line, column: position.column,
                    "a connector operation needs a name, so clients can call it")
            }
            let kind: Kind
            switch definition.operation {
            case .query: kind = .query
            case .mutation: kind = .mutation
            case .subscription:
                throw DataConnectWorkspaceError(
                    file: path, line: position.line, column: position.column,
                    "\(name) is a subscription; Data Connect connectors have queries and mutations only")
            }
            let auth: AuthPolicy?
            do {
                auth = try AuthPolicy.declared(on: definition)
            } catch {
                throw DataConnectWorkspaceError(
                    file: path, line: position.line, column: position.column, error.message(on: name))
            }
            let variables = definition.variableDefinitions.map { declaration in
                Variable(
                    name: declaration.variable.name.value,
                    type: typeReference(declaration.type),
                    defaultValue: declaration.defaultValue.flatMap(GraphQLText.json)
                )
            }
            let rootFields = definition.selectionSet.selections.compactMap { selection -> String? in
                guard let field = selection as? Field else { return nil }
                return field.alias?.value ?? field.name.value
            }
            operations.append(
                ConnectorOperation(
                    name: name, kind: kind, variables: variables,
                    auth: auth ?? .level(.noAccess),
                    isTransaction: definition.directives.contains { $0.name.value == "transaction" },
                    rootFields: rootFields, position: position, fileText: text,
                    declaresAuth: auth != nil,
                    document: connector.document(for: definition, inFile: index)
                ))
        }
        return operations
    }

    static func typeReference(_ type: any GraphQL.`Type`) -> TypeReference {
        switch type {
        case let nonNull as NonNullType: return .nonNull(typeReference(nonNull.type))
        case let list as ListType: return .list(typeReference(list.type))
        case let named as NamedType: return .named(named.name.value)
        default: return .named("")
        }
    }
}
