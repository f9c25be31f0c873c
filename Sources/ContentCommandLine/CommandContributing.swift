public import ArgumentParser

/// A backend plugin that adds commands to `content`, such as `content aem …`.
///
/// The plugin type conforms to `BackendPlugin` (for configuration) and to this protocol (for the CLI);
/// the root command collects the commands of every registered plugin that conforms.
public protocol CommandContributing {
    /// The top-level commands the plugin adds.
    static var commands: [any ParsableCommand.Type] { get }
}
