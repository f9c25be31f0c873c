internal import ContentBackendAEM
public import ContentCore
internal import ContentEmulator
internal import Foundation

/// The backend plugins built into `content`.
public enum BuiltInBackends {
    /// Every plugin this build includes.
    ///
    /// Adding a backend is one module and one line here.
    public static let registry = BackendRegistry([
        AEMPlugin.self
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
}
