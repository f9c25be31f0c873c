public import ContentCore
internal import ContentDataConnect
internal import Foundation

/// The `dataconnect` backend plugin: Firebase Data Connect connector operations, by name.
public enum DataConnectPlugin: BackendPlugin {
    /// `dataconnect`.
    public static let typeName = "dataconnect"
    /// For `content backends --types`.
    public static let summary = "Firebase Data Connect connector queries and mutations, typed from their .gql"

    /// Makes a backend: reads the workspace, picks production or the emulator, and gets an ID token.
    ///
    /// - Parameters:
    ///   - name: The backend's name.
    ///   - configuration: Its settings.
    ///   - context: Transport and shared settings.
    /// - Returns: The backend.
    /// - Throws: ``DataConnectError`` or a workspace error naming file, line and column.
    public static func makeBackend(name: String, configuration: DataConnectConfiguration, context: BackendContext)
        throws -> any ContentBackend
    {
        try makeDataConnectBackend(
            name: name, configuration: configuration, context: context,
            environment: ProcessInfo.processInfo.environment)
    }

    package static func makeDataConnectBackend(
        name: String, configuration: DataConnectConfiguration, context: BackendContext,
        environment: [String: String]
    ) throws -> DataConnectBackend {
        let base = URL(fileURLWithPath: context.baseDirectory)
        let folder =
            configuration.workspace.map {
                $0.hasPrefix("/") ? URL(fileURLWithPath: $0) : base.appendingPathComponent($0).standardizedFileURL
            } ?? URL(fileURLWithPath: FileManager.default.currentDirectoryPath)
        let workspace = try DataConnectWorkspace.load(from: folder)
        let baseURL: String
        if let emulator = configuration.emulator ?? environment["FIREBASE_DATA_CONNECT_EMULATOR_HOST"] {
            baseURL = emulator.contains("://") ? emulator : "http://\(emulator)"
        } else {
            baseURL = configuration.url ?? DataConnectConfiguration.productionURL
        }
        if let problem = BackendURL.problem(baseURL) {
            throw DataConnectError(
                kind: .configuration,
                description:
                    "backend '\(name)': '\(context.redactor.redact(url: baseURL))' \(problem); give a base URL "
                    + "or host:port, such as 127.0.0.1:9399")
        }
        var idToken = configuration.auth?.idToken?.value.nonEmpty
        if idToken == nil, !context.isOffline, let command = configuration.auth?.idTokenCommand {
            idToken = try DataConnectBackend.runTokenCommand(command)
        }
        return DataConnectBackend(
            name: name, workspace: workspace, configuration: configuration, context: context,
            baseURL: baseURL.hasSuffix("/") ? String(baseURL.dropLast()) : baseURL, idToken: idToken)
    }
}
