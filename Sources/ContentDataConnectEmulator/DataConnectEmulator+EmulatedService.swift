internal import ContentDataConnect
public import ContentEmulator
public import Foundation

extension DataConnectEmulator.Options: EmulatorOptions {
    /// Seeded from the workspace's `seed_data.gql`, no CORS.
    public init() {
        self.init(seedFile: nil)
    }
}

extension DataConnectEmulator: EmulatedService {
    /// `dataconnect`.
    public static let name = "dataconnect"
    /// The built-in sample of `content query` and `content mutate`.
    public static let sampleBackendType: String? = "dataconnect"
    /// The port of Firebase's Data Connect emulator.
    public static let defaultPort = 9399
    /// What a workspace holds for Data Connect.
    public static let workspaceDescription =
        "a Data Connect workspace (firebase.json, dataconnect.yaml or dataconnect/dataconnect.yaml)"

    /// Whether the workspace leads to a `dataconnect.yaml`.
    ///
    /// - Parameter workspace: The workspace folder.
    /// - Returns: `true` when it does.
    public static func isPresent(in workspace: URL) -> Bool {
        hasWorkspace(in: workspace)
    }

    /// The folder of `dataconnect.yaml`, which a `dataconnect` backend reads its operations from.
    ///
    /// - Parameter workspace: The workspace folder.
    /// - Returns: The folder.
    public static func backendFolder(in workspace: URL) -> URL {
        DataConnectWorkspace.locate(from: workspace)?.deletingLastPathComponent() ?? workspace
    }

    /// Loads the workspace's schema into SQLite tables and seeds a new database.
    ///
    /// - Parameters:
    ///   - workspace: The workspace folder.
    ///   - context: The seed file and CORS origin, and the data file.
    /// - Returns: The emulator.
    /// - Throws: A workspace, schema or store error.
    public static func load(workspace: URL, context: EmulatorContext<Options>) async throws -> DataConnectEmulator {
        try await DataConnectEmulator(
            workspace: workspace, dataFile: context.dataFile, options: context.options, limits: context.limits)
    }

    /// Closes the database: its pool, or its temporary file.
    public func shutDown() async {
        await engine.store.close()
    }

    /// The service, its location and connectors, what the workspace reading noted, that caller identity is taken
    /// on trust, and the admin API's token.
    public var notes: [String] {
        // The admin API's credential is the developer's to copy; it is printed, as the token of a local notebook
        // server is.
        [summary] + workspaceNotes
            + ["X-Firebase-Auth-Token is trusted without signature checks (development only)"]
            + (options.adminToken.map {
                ["the admin API (:executeGraphql, :impersonateQuery, …) needs Authorization: Bearer \($0)"]
            } ?? [])
    }
}
