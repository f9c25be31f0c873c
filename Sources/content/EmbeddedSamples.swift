internal import ContentEmulator
internal import Foundation

/// The sample workspace the commands fall back on when nothing is configured, served in-process.
enum EmbeddedSamples {
    /// Runs the AEM emulator over the sample workspace in-process, for commands with no configuration.
    static let embeddedAEM:
        @Sendable (_ body: @Sendable (_ baseURL: String) async throws -> Void) async throws -> Void = {
            body in
            try await EmulatorServer.withInProcessAEM(workspace: try sampleWorkspace(holding: "aem"), body)
        }

    /// The sample Data Connect workspace folder: `./examples/dataconnect`, else the one this build came from.
    static var sampleDataConnectWorkspace: String? {
        (try? sampleWorkspace(holding: "dataconnect"))?.appendingPathComponent("dataconnect").path
    }

    /// Runs the Data Connect emulator over the sample movies workspace in-process, for commands with no
    /// configuration; `body` gets its base URL and the workspace folder.
    static let embeddedDataConnect:
        @Sendable (_ body: @Sendable (_ baseURL: String, _ workspace: String) async throws -> Void) async throws ->
            Void = { body in
                let folder = try sampleWorkspace(holding: "dataconnect").appendingPathComponent("dataconnect")
                try await EmulatorServer.withInProcessDataConnect(workspace: folder) { baseURL in
                    try await body(baseURL, folder.path)
                }
            }

    /// Runs the sample adapters in-process, for `content request` with no configuration.
    static let embeddedResource:
        @Sendable (_ body: @Sendable (_ baseURL: String) async throws -> Void) async throws -> Void = { body in
            try await EmulatorServer.withInProcessResource(workspace: try sampleWorkspace(holding: "resource"), body)
        }

    /// The sample workspace with a service's folder: `./examples` when it is there, else the workspace this
    /// build was made from.
    static func sampleWorkspace(holding service: String) throws -> URL {
        let local = URL(fileURLWithPath: "examples")
        if FileManager.default.fileExists(atPath: local.appendingPathComponent(service).path) { return local }
        guard let sample = EmulatorServer.sampleWorkspace,
            FileManager.default.fileExists(atPath: sample.appendingPathComponent(service).path)
        else {
            throw EmulatorError.workspace("the built-in sample workspace is not available; configure a backend")
        }
        return sample
    }
}
