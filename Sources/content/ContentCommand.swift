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
        holdClosedStandardDescriptors()
        Foundation.exit(await run(Array(CommandLine.arguments.dropFirst()), interruptible: true))
    }

    /// Puts `/dev/null`, opened the other way, on a standard descriptor the caller closed (`>&-`).
    ///
    /// A closed stdout is the lowest free descriptor, so the first one the process opens lands on it: an eventfd of
    /// the runtime's took it, and the output written to "stdout" went into the eventfd and exited 0. Held like
    /// this, the descriptor is not free, and writing stdout (or reading stdin) still fails as on a closed one.
    private static func holdClosedStandardDescriptors() {
        for (descriptor, flags) in [(STDIN_FILENO, O_WRONLY), (STDOUT_FILENO, O_RDONLY), (STDERR_FILENO, O_RDONLY)]
        where fcntl(descriptor, F_GETFD) == -1 {
            let held = open("/dev/null", flags | O_CLOEXEC)
            if held >= 0, held != descriptor {
                dup2(held, descriptor)
                close(held)
            }
        }
    }

    /// Runs one command line to its end and returns its exit code, writing where `StandardStreams` says: what
    /// `main` does, and what a test runs in process.
    ///
    /// - Parameters:
    ///   - commandLine: The command line, without the executable; global options may come before the command.
    ///   - interruptible: Whether Ctrl-C cancels the command (a process's `main`); a test leaves signals alone.
    /// - Returns: The exit code.
    static func run(_ commandLine: [String], interruptible: Bool) async -> Int32 {
        EmbeddedSample.install(EmbeddedSamples.all)
        let arguments = LeadingOptions.moved(commandLine)
        if arguments.contains("--help") || arguments.contains("-h") {
            // An operation's own flags come from its .gql, which the static command tree cannot know.
            for plugin in BuiltInCommands.plugins {
                if let help = await plugin.dynamicHelp(for: arguments) {
                    StandardOutput.write(help + "\n")
                    return 0
                }
            }
        }
        do {
            let command = try parseAsRoot(arguments)
            if interruptible {
                try await runInterruptibly { try await execute(command) }
            } else {
                try await execute(command)
            }
            return 0
        } catch {
            let code = ExitStatus.code(for: error, command: self)
            let message = fullMessage(for: error)
            if !message.isEmpty {
                if code == 0 {
                    StandardOutput.write(message + "\n")
                } else {
                    StandardError.write(message)
                }
            }
            return code
        }
    }

    /// Runs a parsed command.
    private static func execute(_ command: any ParsableCommand) async throws {
        var running = command
        if var asyncCommand = running as? any AsyncParsableCommand {
            try await asyncCommand.run()
        } else {
            try running.run()
        }
    }
}
