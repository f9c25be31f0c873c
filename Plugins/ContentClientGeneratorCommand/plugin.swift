import Foundation
import PackagePlugin

/// `swift package generate-content-client`: writes the Swift package each connector's `generate.swiftSdk` asks
/// for (in its `outputDir`, named `package`), as Firebase's tools do; with `--output Sources/Generated
/// [--target T]`, writes the client the build plugin would make into the package instead, for people who check
/// generated code in.
@main
struct ContentClientGeneratorCommand: CommandPlugin {
    static let usage =
        "usage: swift package generate-content-client [--workspace <dataconnect folder>]...\n"
        + "       swift package generate-content-client --output <folder> [--target <name>]"

    func performCommand(context: PluginContext, arguments: [String]) async throws {
        var extractor = ArgumentExtractor(arguments)
        let outputs = extractor.extractOption(named: "output")
        let targetNames = extractor.extractOption(named: "target")
        let workspaces = extractor.extractOption(named: "workspace")
        if let unknown = extractor.remainingArguments.first {
            throw ContentClientPluginError(description: "unknown argument '\(unknown)'\n\(Self.usage)")
        }
        let tool = try context.tool(named: "content-codegen").url
        if outputs.isEmpty, targetNames.isEmpty {
            try writeSwiftSDKs(context: context, workspaces: workspaces, tool: tool)
            return
        }
        guard outputs.count == 1, let output = outputs.first, workspaces.isEmpty else {
            throw ContentClientPluginError(description: Self.usage)
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
        let folder = URL(fileURLWithPath: output, relativeTo: context.package.directoryURL)
        for target in targets {
            guard let configuration = ContentClientPlugin.configurationFile(in: target) else { continue }
            // One target: the folder holds its file; several: one subfolder each.
            let destination = (targets.count == 1 ? folder : folder.appending(path: target.name))
                .appending(path: ContentClientPlugin.outputFileName)
            try run(tool, ContentClientPlugin.arguments(configuration: configuration, output: destination))
            print("wrote \(destination.path)")
        }
    }

    /// The packages `generate.swiftSdk` asks for, from the workspaces named, else those the targets'
    /// `content-client.yaml` files name, else `dataconnect/` at the package's root (`firebase init`'s layout).
    private func writeSwiftSDKs(context: PluginContext, workspaces named: [String], tool: URL) throws {
        let root = context.package.directoryURL
        var workspaces = named.map { URL(fileURLWithPath: $0, relativeTo: root).standardizedFileURL }
        if workspaces.isEmpty {
            for target in context.package.targets.compactMap({ $0 as? SourceModuleTarget }) {
                guard let configuration = ContentClientPlugin.configurationFile(in: target),
                    let text = try? String(contentsOf: configuration, encoding: .utf8)
                else { continue }
                for (key, value) in ContentClientInputs.topLevelValues(text) where key == "dataconnect" {
                    workspaces.append(
                        URL(fileURLWithPath: value, relativeTo: configuration.deletingLastPathComponent())
                            .standardizedFileURL)
                }
            }
        }
        let firebaseLayout = root.appending(path: "dataconnect")
        if workspaces.isEmpty,
            FileManager.default.fileExists(atPath: firebaseLayout.appending(path: "dataconnect.yaml").path)
        {
            workspaces.append(firebaseLayout)
        }
        guard !workspaces.isEmpty else {
            throw ContentClientPluginError(
                description: "no Data Connect workspace found: name one with --workspace <folder with "
                    + "dataconnect.yaml>\n\(Self.usage)")
        }
        let runtime = try runtimeArguments(context)
        for workspace in Set(workspaces).sorted(by: { $0.path < $1.path }) {
            try run(tool, ["--swift-sdk", workspace.path] + runtime)
        }
    }

    /// Where the generated package gets ContentKit: the package that has it, by path when it is this package or a
    /// local one, else by the Git URL and version this package itself depends on (a path into `.build/checkouts`
    /// would break, and clash with that dependency).
    private func runtimeArguments(_ context: PluginContext) throws -> [String] {
        func hasKit(_ package: Package) -> Bool { package.products.contains { $0.name == "ContentKit" } }
        var queue = [context.package]
        while let package = queue.first {
            queue.removeFirst()
            guard hasKit(package) else {
                queue += package.dependencies.map(\.package)
                continue
            }
            switch package.origin {
            case .repository(let url, let displayVersion, let revision):
                let isVersion =
                    displayVersion.split(separator: ".").count == 3 && displayVersion.first?.isNumber == true
                return ["--runtime-url", url]
                    + (isVersion ? ["--runtime-version", displayVersion] : ["--runtime-revision", revision])
            default:
                return ["--runtime-package", package.directoryURL.path]
            }
        }
        throw ContentClientPluginError(description: "no package in the graph has the ContentKit library")
    }

    private func run(_ tool: URL, _ arguments: [String]) throws {
        let process = Process()
        process.executableURL = tool
        process.arguments = arguments
        try process.run()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw ContentClientPluginError(description: "content-codegen \(arguments.joined(separator: " ")) failed")
        }
    }
}
