public import ArgumentParser

/// A backend's command set: the commands it adds to `content`, such as `content aem …`.
///
/// It lives in the backend's commands module, apart from the backend library (whose plugin conforms to
/// `BackendPlugin`); the executable lists every command set in its registry and the root command collects their
/// commands.
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
