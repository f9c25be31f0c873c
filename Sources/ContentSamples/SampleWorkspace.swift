package import Foundation

/// The built-in sample workspace (WKND on AEM, the movies connector on Data Connect, the sample adapters), carried
/// inside the binary so `content aem adventures` and its kin work wherever the binary is copied.
///
/// The ContentSampleEmbedder build plugin generates ``files`` from `examples/` at build time.
package enum SampleWorkspace {
    /// One file of the workspace.
    package struct File: Sendable {
        /// Its path inside the workspace, such as `aem/models/adventure.yaml`.
        package let path: String
        /// Its text.
        package let text: String
    }

    /// Writes the workspace into a new private folder, runs `body` with the folder, and deletes it afterwards.
    ///
    /// - Parameter body: What to do with the folder.
    /// - Returns: What `body` returns.
    /// - Throws: A failure to write the folder, or what `body` throws.
    package static func withFolder<Result: Sendable>(_ body: (URL) async throws -> Result) async throws -> Result {
        let folder = try write()
        defer { try? FileManager.default.removeItem(at: folder) }
        return try await body(folder)
    }

    /// Writes the workspace into a new folder under the temporary directory, readable by the user only; the caller
    /// deletes it.
    ///
    /// - Returns: The folder.
    /// - Throws: A failure to create a folder or write a file.
    package static func write() throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "content-sample-\(UUID().uuidString)", isDirectory: true)
        let manager = FileManager.default
        try manager.createDirectory(
            at: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        do {
            for file in files {
                let url = folder.appendingPathComponent(file.path)
                try manager.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
                try Data(file.text.utf8).write(to: url)
            }
        } catch {
            try? manager.removeItem(at: folder)
            throw error
        }
        return folder
    }
}
