public import ArgumentParser
internal import ContentBackendResource
public import ContentCommandLine

/// The commands of the `resource` backend: `content request`.
///
/// The executable lists this type in its command registry; the backend library knows nothing of it.
public enum ResourceCommandPlugin: CommandContributing {
    /// The top-level commands.
    public static let commands: [any ParsableCommand.Type] = [RequestCommand.self]
}
