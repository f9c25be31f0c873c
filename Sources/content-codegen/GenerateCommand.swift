internal import ArgumentParser
internal import ContentCodegen
internal import Foundation

/// The tool both plugins run.
///
/// It reads a `content-client.yaml` and writes the Swift client.
@main
struct GenerateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "content-codegen",
        abstract: "Generate a typed Swift client from Data Connect and AEM workspaces.",
        discussion: """
            The build plugin ContentClientGenerator runs this for every target with a content-client.yaml; the \
            command plugin (swift package generate-content-client) runs it to write the file into the package.

            \(ClientGeneratorConfiguration.sample)

            Problems in the inputs are printed as file:line:column: error: message and exit with status 1.
            """
    )

    @Option(help: "The content-client.yaml to read.")
    var config: String

    @Option(help: "The Swift file to write; it is left untouched when its contents would not change.")
    var output: String

    func run() throws {
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
}
