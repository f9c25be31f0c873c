import ContentAEMEmulator
import ContentDataConnectEmulator
import ContentEmulator
import ContentKit
import Foundation

/// Generated clients' runtime objects, configured in code for an in-process emulator reached over loopback HTTP.
///
/// Each test makes its own (not the process-wide `DataConnect.moviesConnector`), so tests running side by side
/// each talk to their own emulator, and shuts it down after.
enum LoopbackContentClient {
    /// Serves `workspace`'s Data Connect service, and runs `body` with a connector pointed at it.
    static func withDataConnect(
        workspace: URL, connector: ConnectorConfig, project: String,
        _ body: @Sendable (DataConnect) async throws -> Void
    ) async throws {
        try await EmulatorServer.withInProcess(DataConnectEmulator.self, workspace: workspace) { baseURL in
            let dataConnect = DataConnect(connectorConfig: connector, projectID: project)
            dataConnect.settings.endpoint = .url(baseURL)
            try await shuttingDown(dataConnect.shutdown) { try await body(dataConnect) }
        }
    }

    /// Serves `workspace`'s AEM instance, and runs `body` with a configuration's runtime pointed at it.
    static func withAEM(
        workspace: URL, configuration: String, _ body: @Sendable (AEM) async throws -> Void
    ) async throws {
        try await EmulatorServer.withInProcess(AEMEmulator.self, workspace: workspace) { baseURL in
            let aem = AEM(configuration: configuration, settings: AEMSettings(url: baseURL))
            try await shuttingDown(aem.shutdown) { try await body(aem) }
        }
    }

    /// Runs `body`, then `shutdown`, whether `body` throws or not.
    private static func shuttingDown(
        _ shutdown: @Sendable () async throws -> Void, _ body: () async throws -> Void
    ) async throws {
        do {
            try await body()
        } catch {
            try? await shutdown()
            throw error
        }
        try await shutdown()
    }
}
