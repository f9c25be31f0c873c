public import ArgumentParser
internal import ContentBackendAEM
public import ContentCommandLine

/// The commands of the `aem` backend: `content aem`.
///
/// The executable lists this type in its command registry; the backend library knows nothing of it.
public enum AEMCommandPlugin: CommandContributing {
    /// The top-level commands.
    public static let commands: [any ParsableCommand.Type] = [AEMCommand.self]
}
