import ArgumentParser
import ContentCommandLine
import ContentConfig
import ContentCore
import ContentOutput
import ContentRuntime
import Foundation

/// `content config`: where the configuration is, and whether it is valid.
struct ConfigCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "config",
        abstract: "Find and check the configuration file.",
        discussion: """
            content reads the first of: --config FILE, $CONTENT_CONFIG, ./content.yaml, \
            $XDG_CONFIG_HOME/content/config.yaml (default ~/.config/content/config.yaml). \
            Values may use ${VAR} or ${VAR:-default} from the environment; keep secrets there.

            Example:

            \(ConfigSample.yaml)
            """,
        subcommands: [Path.self, Validate.self]
    )

    /// `content config path`.
    struct Path: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "path",
            abstract: "Print the configuration file content would read, and why (on stderr).",
            discussion: "Exits 3 when no configuration file exists in any place content looks."
        )

        @OptionGroup var options: GlobalOptions

        func run() async throws {
            try await reportFailures {
                let environment = options.environment
                guard let location = try ConfigLocation.find(flag: options.config, environment: environment) else {
                    throw ConfigError.noConfiguration(searched: ConfigLocation.searchedPlaces(environment: environment))
                }
                StandardOutput.write(location.path + "\n")
                StandardError.write("content: \(location.origin)")
            }
        }
    }

    /// `content config validate [FILE]`.
    struct Validate: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "validate",
            abstract: "Check a configuration file: YAML, keys, types, and every backend's own settings.",
            discussion: "Prints every problem as file:line:column: key.path: message, and exits 3 if there is any."
        )

        @Argument(help: ArgumentHelp("The file to check; default: the one content would read.", valueName: "file"))
        var file: String?

        @OptionGroup var options: GlobalOptions

        func run() async throws {
            try await reportFailures {
                let environment = options.environment
                let location: ConfigLocation
                if let file {
                    guard FileManager.default.fileExists(atPath: file) else {
                        throw ConfigError.fileNotFound(file, origin: "the command line")
                    }
                    location = ConfigLocation(path: file, origin: .flag)
                } else if let found = try ConfigLocation.find(flag: options.config, environment: environment) {
                    location = found
                } else {
                    throw ConfigError.noConfiguration(searched: ConfigLocation.searchedPlaces(environment: environment))
                }
                let configuration = try ConfigLoader(environment: environment).load(location)
                for warning in configuration.warnings { StandardError.write("content: \(warning)") }
                let problems = ContentSession(
                    configuration: configuration, registry: BuiltInBackends.registry, environment: environment
                ).validate()
                for problem in problems { StandardError.write("content: error: \(problem)") }
                guard problems.isEmpty else {
                    throw ExitCode(ExitStatus.code(for: .configuration))
                }
                let count = configuration.backends.count
                StandardError.write("content: \(location.path) is valid (\(count) backend\(count == 1 ? "" : "s"))")
            }
        }
    }
}
