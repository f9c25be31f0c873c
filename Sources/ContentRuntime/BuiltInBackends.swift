internal import ContentBackendAEM
internal import ContentBackendDataConnect
internal import ContentBackendResource
public import ContentCore

/// The backend plugins built into `content`.
public enum BuiltInBackends {
    /// Every plugin this build includes.
    ///
    /// Adding a backend is one module and one line here.
    public static let registry = BackendRegistry([
        AEMPlugin.self,
        DataConnectPlugin.self,
        ResourcePlugin.self,
    ])
}
