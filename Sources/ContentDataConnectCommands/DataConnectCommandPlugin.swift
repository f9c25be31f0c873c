public import ArgumentParser
internal import ContentBackendDataConnect
public import ContentCommandLine

/// The commands of the `dataconnect` backend: `content query` and `content mutate`.
///
/// The executable lists this type in its command registry; the backend library knows nothing of it.
public enum DataConnectCommandPlugin: CommandContributing {
    /// The top-level commands.
    public static let commands: [any ParsableCommand.Type] = [
        QueryCommand.self, MutateCommand.self, DataConnectCommand.self,
    ]
}
