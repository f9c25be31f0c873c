import ContentEmulator
import ContentKit
import Foundation

/// A `ContentClient` whose only backend is the in-process Data Connect emulator, reached over loopback HTTP.
enum LoopbackContentClient {
    /// Serves `workspace`, and runs `body` with a client whose `content.yaml` names it as backend `name`.
    static func withDataConnect(
        workspace: URL, project: String, name: String,
        _ body: @Sendable (ContentClient) async throws -> Void
    ) async throws {
        try await EmulatorServer.withInProcessDataConnect(workspace: workspace) { baseURL in
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
                "content-kit-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: folder) }
            let host = baseURL.replacingOccurrences(of: "http://", with: "")
            let config = folder.appendingPathComponent("content.yaml")
            try """
            backends:
              \(name):
                type: dataconnect
                workspace: \(workspace.path)
                project: \(project)
                emulator: \(host)
            """.write(to: config, atomically: true, encoding: .utf8)
            try await body(try ContentClient(configFile: config.path, environment: [:]))
        }
    }
}
