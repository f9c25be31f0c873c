internal import ContentBackendAEM
internal import ContentBackendDataConnect
public import ContentCore
internal import ContentEmulator
internal import Foundation

/// The backend plugins built into `content`.
public enum BuiltInBackends {
    /// Every plugin this build includes.
    ///
    /// Adding a backend is one module and one line here.
    public static let registry = BackendRegistry([
        AEMPlugin.self,
        DataConnectPlugin.self,
    ])

    /// Runs the AEM emulator over the sample workspace in-process, for commands with no configuration.
    ///
    /// The sample is `./examples` when it is there, else the workspace this build was made from.
    public static let embeddedAEM:
        @Sendable (_ body: @Sendable (_ baseURL: String) async throws -> Void) async throws -> Void = {
            body in
            let local = URL(fileURLWithPath: "examples")
            let workspace =
                FileManager.default.fileExists(atPath: local.appendingPathComponent("aem").path)
                ? local : EmulatorServer.sampleWorkspace
            guard let workspace else {
                throw EmulatorError.workspace("the built-in sample workspace is not available; configure a backend")
            }
            try await EmulatorServer.withInProcessAEM(workspace: workspace, body)
        }

    /// The sample Data Connect workspace folder: `./examples/dataconnect`, else the one this build came from.
    public static var sampleDataConnectWorkspace: String? {
        let local = URL(fileURLWithPath: "examples/dataconnect")
        if FileManager.default.fileExists(atPath: local.path) { return local.path }
        return EmulatorServer.sampleWorkspace?.appendingPathComponent("dataconnect").path
    }

    /// Runs the Data Connect emulator over the sample movies workspace in-process, for commands with no
    /// configuration; `body` gets its base URL and the workspace folder.
    public static let embeddedDataConnect:
        @Sendable (_ body: @Sendable (_ baseURL: String, _ workspace: String) async throws -> Void) async throws ->
            Void = { body in
                let local = URL(fileURLWithPath: "examples")
                let workspace =
                    FileManager.default.fileExists(atPath: local.appendingPathComponent("dataconnect").path)
                    ? local : EmulatorServer.sampleWorkspace
                guard let workspace else {
                    throw EmulatorError.workspace("the built-in sample workspace is not available; configure a backend")
                }
                let folder = workspace.appendingPathComponent("dataconnect")
                try await EmulatorServer.withInProcessDataConnect(workspace: folder) { baseURL in
                    try await body(baseURL, folder.path)
                }
            }
}
