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

    /// The configuration file and every file of the workspaces it names, so SwiftPM regenerates the client
    /// when any of them changes.
    static func inputFiles(configuration: URL) -> [URL] {
        ContentClientInputs.files(configuration: configuration)
    }
}

/// A plugin failure that says which file to add or fix.
struct ContentClientPluginError: Error, CustomStringConvertible {
    let description: String
}
