import Foundation
import PackagePlugin

/// Embeds the sample workspace (`examples/aem`, `examples/dataconnect`, `examples/resource`) into the target it is
/// applied to, so the built-in samples travel inside the binary.
///
/// Every file is an input of the build command, so editing a sample rebuilds the embedding; the folders are
/// listed again at each build, so a new file is picked up too.
@main
struct ContentSampleEmbedder: BuildToolPlugin {
    /// The workspace folders the samples come from, relative to `examples/`.
    static let services = ["aem", "dataconnect", "resource"]

    func createBuildCommands(context: PluginContext, target: any Target) async throws -> [Command] {
        let root = context.package.directoryURL.appending(path: "examples")
        var relativePaths: [String] = []
        for service in Self.services {
            let folder = root.appending(path: service)
            guard
                let walker = FileManager.default.enumerator(
                    at: folder, includingPropertiesForKeys: [.isRegularFileKey], options: [.skipsHiddenFiles])
            else { continue }
            for case let file as URL in walker
            where (try? file.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile) == true {
                let path = file.standardizedFileURL.path
                let prefix = root.standardizedFileURL.path + "/"
                if path.hasPrefix(prefix) { relativePaths.append(String(path.dropFirst(prefix.count))) }
            }
        }
        relativePaths.sort()
        let output = context.pluginWorkDirectoryURL.appending(path: "EmbeddedSampleFiles.swift")
        return [
            .buildCommand(
                displayName: "Embedding the sample workspace into \(target.name)",
                executable: try context.tool(named: "content-embed-samples").url,
                arguments: [root.path, output.path] + relativePaths,
                inputFiles: relativePaths.map { root.appending(path: $0) },
                outputFiles: [output])
        ]
    }
}
