internal import ContentBackendAEM
internal import ContentBackendDataConnect
internal import ContentBackendResource
public import ContentCore

/// The backend plugins built into `content`.
public enum BuiltInBackends {
    /// Every plugin this build includes.
    ///
    /// Adding a backend is its library module and one line here, plus its commands module and one line in the
    /// executable's `BuiltInCommands`; `content backends --types` and `content config validate` follow this list.
    public static let registry = BackendRegistry([
        AEMPlugin.self,
        DataConnectPlugin.self,
        ResourcePlugin.self,
    ])
}
