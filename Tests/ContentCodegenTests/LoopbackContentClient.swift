import ContentAEMEmulator
import ContentDataConnectEmulator
import ContentEmulator
import ContentKit
import Foundation

/// A `ContentClient` configured in code for an in-process emulator reached over loopback HTTP.
enum LoopbackContentClient {
    /// Serves `workspace`'s Data Connect service, and runs `body` with a client pointed at it.
    static func withDataConnect(
        workspace: URL, project: String, _ body: @Sendable (ContentClient) async throws -> Void
    ) async throws {
        try await EmulatorServer.withInProcess(DataConnectEmulator.self, workspace: workspace) { baseURL in
            let settings = DataConnectSettings(endpoint: .url(baseURL), project: project)
            try await ContentClient.withClient(configuration: ContentClientConfiguration(dataConnect: settings), body)
        }
    }

    /// Serves `workspace`'s AEM instance, and runs `body` with a client pointed at it.
    static func withAEM(workspace: URL, _ body: @Sendable (ContentClient) async throws -> Void) async throws {
        try await EmulatorServer.withInProcess(AEMEmulator.self, workspace: workspace) { baseURL in
            try await ContentClient.withClient(
                configuration: ContentClientConfiguration(aem: AEMSettings(url: baseURL)), body)
        }
    }
}
