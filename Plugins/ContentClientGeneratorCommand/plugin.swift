import Foundation
import PackagePlugin

/// `swift package generate-content-client --output Sources/Generated [--target T]`: writes the client that
/// the build plugin would make into the package, for people who check generated code in.
@main
struct ContentClientGeneratorCommand: CommandPlugin {
    func performCommand(context: PluginContext, arguments: [String]) async throws {
        var extractor = ArgumentExtractor(arguments)
        let outputs = extractor.extractOption(named: "output")
        let targetNames = extractor.extractOption(named: "target")
        guard outputs.count == 1, let output = outputs.first else {
            throw ContentClientPluginError(
                description: "usage: swift package generate-content-client --output <folder> [--target <name>]")
        }
        if let unknown = extractor.remainingArguments.first {
            throw ContentClientPluginError(description: "unknown argument '\(unknown)'; expected --output and --target")
        }
        let targets = try
            (targetNames.isEmpty
            ? context.package.targets : context.package.targets(named: targetNames))
            .compactMap { $0 as? SourceModuleTarget }
            .filter { ContentClientPlugin.configurationFile(in: $0) != nil }
        guard !targets.isEmpty else {
            throw ContentClientPluginError(
                description: "no target has a \(ContentClientPlugin.configurationFileName); add one to a target's "
                    + "folder naming the workspace, such as: dataconnect: ../../dataconnect (or aem: ../../aem)")
        }
        let tool = try context.tool(named: "content-codegen").url
        let folder = URL(fileURLWithPath: output, relativeTo: context.package.directoryURL)
        for target in targets {
            guard let configuration = ContentClientPlugin.configurationFile(in: target) else { continue }
            // One target: the folder holds its file; several: one subfolder each.
            let destination = (targets.count == 1 ? folder : folder.appending(path: target.name))
                .appending(path: ContentClientPlugin.outputFileName)
            let process = Process()
            process.executableURL = tool
            process.arguments = ContentClientPlugin.arguments(configuration: configuration, output: destination)
            try process.run()
            process.waitUntilExit()
            guard process.terminationStatus == 0 else {
                throw ContentClientPluginError(description: "content-codegen failed for target '\(target.name)'")
            }
            print("wrote \(destination.path)")
        }
    }
}
