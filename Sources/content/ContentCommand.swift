import ArgumentParser
import ContentCommandLine
import ContentCore
import ContentOutput
import ContentRuntime
import Foundation

/// The root command, `content`.
///
/// It lists the subcommands and maps every failure to an exit code.
@main
struct ContentCommand: AsyncParsableCommand {
    // Built once: the parser asks for it many times, and the subcommand list comes from the plugin registry.
    static let configuration = CommandConfiguration(
        commandName: "content",
        abstract: "Query headless content backends and render what they return.",
        discussion: """
            Backends are configured by name in content.yaml; `content config --help` shows the format. \
            Data goes to stdout, diagnostics to stderr.

            \(ExitStatus.helpTable)
            """,
        version: ContentVersion.current,
        subcommands: [BackendsCommand.self, ConfigCommand.self, FormatCommand.self, ServeCommand.self]
            + contributedCommands
    )

    /// The commands of every built-in command set.
    private static var contributedCommands: [any ParsableCommand.Type] {
        BuiltInCommands.plugins.flatMap { plugin in plugin.commands }
    }

    static func main() async {
        EmbeddedSample.install(EmbeddedSamples.all)
        let arguments = Array(CommandLine.arguments.dropFirst())
        if arguments.contains("--help") || arguments.contains("-h") {
            // An operation's own flags come from its .gql, which the static command tree cannot know.
            for plugin in BuiltInCommands.plugins {
                if let help = await plugin.dynamicHelp(for: arguments) {
                    print(help)
                    Foundation.exit(0)
                }
            }
        }
        do {
            let command = try parseAsRoot()
            try await runInterruptibly {
                var running = command
                if var asyncCommand = running as? any AsyncParsableCommand {
                    try await asyncCommand.run()
                } else {
                    try running.run()
                }
            }
        } catch {
            let code = ExitStatus.code(for: error, command: self)
            let message = fullMessage(for: error)
            if !message.isEmpty {
                if code == 0 {
                    print(message)
                } else {
                    StandardError.write(message)
                }
            }
            Foundation.exit(code)
        }
    }
}
