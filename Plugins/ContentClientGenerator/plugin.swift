import Foundation
import PackagePlugin

/// Generates a typed client at build time for every target with a `content-client.yaml`; the source goes to
/// the plugin work directory and is compiled into the target, never committed.
@main
struct ContentClientGenerator: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        guard let target = target as? SourceModuleTarget else { return [] }
        guard let configuration = ContentClientPlugin.configurationFile(in: target) else {
            throw ContentClientPluginError(
                description: "target '\(target.name)' uses ContentClientGenerator but has no "
                    + "\(ContentClientPlugin.configurationFileName); add one to \(target.directoryURL.path) naming "
                    + "the workspace, such as: dataconnect: ../../dataconnect (or aem: ../../aem)")
        }
        let output = context.pluginWorkDirectoryURL.appending(path: ContentClientPlugin.outputFileName)
        return [
            .buildCommand(
                displayName: "Generating the content client for \(target.name)",
                executable: try context.tool(named: "content-codegen").url,
                arguments: ContentClientPlugin.arguments(configuration: configuration, output: output),
                inputFiles: ContentClientPlugin.inputFiles(configuration: configuration),
                outputFiles: [output]
            )
        ]
    }
}
