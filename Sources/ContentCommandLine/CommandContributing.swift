public import ArgumentParser

/// A backend plugin that adds commands to `content`, such as `content aem …`.
///
/// The plugin type conforms to `BackendPlugin` (for configuration) and to this protocol (for the CLI);
/// the root command collects the commands of every registered plugin that conforms.
public protocol CommandContributing: Sendable {
    /// The top-level commands the plugin adds.
    static var commands: [any ParsableCommand.Type] { get }

    /// Help for an invocation that the static commands cannot describe, such as one operation's own flags.
    ///
    /// - Parameter arguments: The command line, without the executable, including `--help`.
    /// - Returns: The help text, or `nil` to let the command's own help answer.
    static func dynamicHelp(for arguments: [String]) async -> String?
}

extension CommandContributing {
    /// No dynamic help: the commands' own help answers.
    ///
    /// - Parameter arguments: The command line.
    /// - Returns: `nil`.
    public static func dynamicHelp(for arguments: [String]) async -> String? { nil }
}
