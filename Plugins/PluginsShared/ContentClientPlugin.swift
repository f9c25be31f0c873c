import Foundation
import PackagePlugin

/// What both plugins share.
///
/// Where a target's `content-client.yaml` is, which files the client depends on, and how `content-codegen`
/// is called: the tool's arguments are defined here once.
enum ContentClientPlugin {
    static let configurationFileName = "content-client.yaml"
    static let outputFileName = "GeneratedContentClient.swift"

    /// The target's configuration file, or `nil` when it has none.
    static func configurationFile(in target: SourceModuleTarget) -> URL? {
        target.sourceFiles.first { $0.url.lastPathComponent == configurationFileName }?.url
    }

    /// The arguments that make `content-codegen` write the client for `configuration` to `output`.
    static func arguments(configuration: URL, output: URL) -> [String] {
        ["--config", configuration.path, "--output", output.path]
    }

    /// The configuration file and every file of the workspace it names, so SwiftPM regenerates the client
    /// when any of them changes.
    static func inputFiles(configuration: URL) -> [URL] {
        var files = [configuration]
        guard let text = try? String(contentsOf: configuration, encoding: .utf8) else { return files }
        for line in text.split(separator: "\n") {
            guard let key = ["dataconnect:", "aem:"].first(where: { line.hasPrefix($0) }) else { continue }
            var value = line.dropFirst(key.count)
            if let comment = value.range(of: " #") { value = value[..<comment.lowerBound] }
            let path = value.trimmingCharacters(in: .whitespaces).trimmingCharacters(
                in: CharacterSet(charactersIn: "\"'"))
            let folder = URL(fileURLWithPath: path, relativeTo: configuration.deletingLastPathComponent())
            guard let walker = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil) else {
                continue
            }
            for case let file as URL in walker where ["gql", "graphql", "yaml"].contains(file.pathExtension) {
                files.append(file.standardizedFileURL)
            }
        }
        return files.sorted { $0.path < $1.path }
    }
}

/// A plugin failure that says which file to add or fix.
struct ContentClientPluginError: Error, CustomStringConvertible {
    let description: String
}
