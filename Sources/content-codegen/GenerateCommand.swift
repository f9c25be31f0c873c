internal import ArgumentParser
internal import ContentCodegen
internal import Foundation

/// The tool both plugins run.
///
/// It reads a `content-client.yaml` and writes the Swift client, or writes the Swift packages a Data Connect
/// workspace's connectors ask for in `generate.swiftSdk`.
@main
struct GenerateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "content-codegen",
        abstract: "Generate a typed Swift client from Data Connect and AEM workspaces.",
        discussion: """
            The build plugin ContentClientGenerator runs this for every target with a content-client.yaml; the \
            command plugin (swift package generate-content-client) runs it to write the file into the package.

            \(ClientGeneratorConfiguration.sample)

            With --swift-sdk, it writes instead one Swift package per connector whose connector.yaml has \
            generate.swiftSdk { outputDir, package }, as Firebase's tools do; the package depends on ContentKit in \
            --runtime-package by path.

            Problems in the inputs are printed as file:line:column: error: message and exit with status 1.
            """
    )

    @Option(help: "The content-client.yaml to read.")
    var config: String?

    @Option(help: "The Swift file to write; it is left untouched when its contents would not change.")
    var output: String?

    @Option(
        name: .customLong("swift-sdk"),
        help: ArgumentHelp("Write the packages generate.swiftSdk asks for, from this workspace.", valueName: "folder"))
    var swiftSDK: String?

    @Option(help: ArgumentHelp("The package with ContentKit on this machine, for --swift-sdk.", valueName: "folder"))
    var runtimePackage: String?

    @Option(help: ArgumentHelp("Or the Git URL of the package with ContentKit, for --swift-sdk.", valueName: "url"))
    var runtimeURL: String?

    @Option(help: ArgumentHelp("With --runtime-url: the version the package depends on (from:).", valueName: "x.y.z"))
    var runtimeVersion: String?

    @Option(help: ArgumentHelp("With --runtime-url and no version: the revision.", valueName: "commit"))
    var runtimeRevision: String?

    func validate() throws {
        switch (config, output, swiftSDK) {
        case (.some, .some, nil):
            guard runtimePackage == nil, runtimeURL == nil else {
                throw ValidationError("--runtime-package and --runtime-url go with --swift-sdk")
            }
        case (nil, nil, .some):
            guard (runtimePackage == nil) != (runtimeURL == nil) else {
                throw ValidationError("--swift-sdk needs --runtime-package or --runtime-url")
            }
            if runtimeURL != nil, runtimeVersion == nil, runtimeRevision == nil {
                throw ValidationError("--runtime-url needs --runtime-version or --runtime-revision")
            }
        default:
            throw ValidationError("give --config and --output, or --swift-sdk with --runtime-package or --runtime-url")
        }
    }

    func run() throws {
        if let swiftSDK {
            let runtime: SwiftSDKPackageGenerator.Runtime =
                if let runtimeURL {
                    .repository(url: runtimeURL, version: runtimeVersion, revision: runtimeRevision ?? "")
                } else {
                    .path(URL(fileURLWithPath: runtimePackage ?? "."))
                }
            try writePackages(workspace: swiftSDK, runtime: runtime)
            return
        }
        guard let config, let output else { return }
        let source: String
        do {
            source = try ContentClientGenerator.generate(configurationFile: config)
        } catch {
            FileHandle.standardError.write(Data("\(error)\n".utf8))
            throw ExitCode.failure
        }
        let bytes = Data(source.utf8)
        if FileManager.default.contents(atPath: output) == bytes { return }
        do {
            try FileManager.default.createDirectory(
                at: URL(fileURLWithPath: output).deletingLastPathComponent(), withIntermediateDirectories: true)
            try bytes.write(to: URL(fileURLWithPath: output), options: .atomic)
        } catch {
            FileHandle.standardError.write(Data("\(output): error: cannot write the client: \(error)\n".utf8))
            throw ExitCode.failure
        }
    }

    private func writePackages(workspace: String, runtime: SwiftSDKPackageGenerator.Runtime) throws {
        let packages: [SwiftSDKPackageGenerator.Package]
        do {
            packages = try SwiftSDKPackageGenerator.packages(
                workspace: URL(fileURLWithPath: workspace), runtime: runtime)
        } catch {
            FileHandle.standardError.write(Data("\(error)\n".utf8))
            throw ExitCode.failure
        }
        for package in packages {
            for (path, text) in package.files.sorted(by: { $0.key < $1.key }) {
                let file = package.folder.appendingPathComponent(path)
                let bytes = Data(text.utf8)
                if FileManager.default.contents(atPath: file.path) == bytes { continue }
                do {
                    try FileManager.default.createDirectory(
                        at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
                    try bytes.write(to: file, options: .atomic)
                } catch {
                    FileHandle.standardError.write(Data("\(file.path): error: cannot write: \(error)\n".utf8))
                    throw ExitCode.failure
                }
            }
            print("wrote package \(package.name) in \(package.folder.path)")
        }
    }
}
