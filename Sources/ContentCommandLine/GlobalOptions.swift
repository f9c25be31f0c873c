public import ArgumentParser
internal import ContentConfig
public import ContentCore
internal import ContentOutput
public import ContentRuntime
internal import Foundation
public import Logging

/// Flags every command that reads the configuration takes.
public struct GlobalOptions: ParsableArguments, Sendable {
    /// `--config FILE`.
    @Option(
        name: .long,
        help: ArgumentHelp(
            "The configuration file to read.",
            discussion: "Default: $CONTENT_CONFIG, ./content.yaml, then $XDG_CONFIG_HOME/content/config.yaml.",
            valueName: "file"
        )
    )
    public var config: String?

    /// `-v/--verbose`.
    @Flag(name: .shortAndLong, help: "Log each request and response on stderr, with secrets redacted.")
    public var verbose = false

    /// Creates the options with their defaults.
    public init() {}

    /// The process environment.
    public var environment: [String: String] { ProcessInfo.processInfo.environment }

    /// A logger to stderr: `debug` with `--verbose`, else warnings only.
    public var logger: Logger {
        let level: Logger.Level = verbose ? .debug : .warning
        return Logger(label: "content") { _ in StderrLogHandler(logLevel: level) }
    }

    /// Reads the configuration and prints its warnings.
    ///
    /// - Parameter registry: The plugins the command can use.
    /// - Returns: The session.
    /// - Throws: `ConfigError`.
    public func session(registry: BackendRegistry) throws -> ContentSession {
        let session = try ContentSession.load(configFlag: config, environment: environment, registry: registry)
        for warning in session.configuration.warnings { StandardError.write("content: \(warning)") }
        return session
    }
}
