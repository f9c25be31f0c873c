import ContentAEMCommands
import ContentCommandLine
import ContentDataConnectCommands
import ContentResourceCommands

/// The backend command sets built into `content`: adding a backend's commands is one module and one line here.
enum BuiltInCommands {
    /// Every command set, in the order `content --help` lists their commands.
    static let plugins: [any CommandContributing.Type] = [
        AEMCommandPlugin.self,
        DataConnectCommandPlugin.self,
        ResourceCommandPlugin.self,
    ]
}
