/// The built-in sample services a command can fall back to when no configuration exists.
///
/// The executable installs the runners (it links the emulator); backend commands call them without
/// depending on the emulator themselves.
public enum EmbeddedSample {
    /// Starts a sample service on loopback, runs `body` with its base URL, and stops it.
    public typealias Runner =
        @Sendable (_ body: @Sendable (_ baseURL: String) async throws -> Void) async throws -> Void

    /// Starts a sample service over a workspace folder, runs `body` with its base URL and the folder.
    public typealias WorkspaceRunner =
        @Sendable (_ body: @Sendable (_ baseURL: String, _ workspace: String) async throws -> Void) async throws
        -> Void

    /// The AEM sample (the WKND workspace), when this build has one.
    @TaskLocal public static var aem: Runner?

    /// The Data Connect sample (the movies connector), when this build has one.
    @TaskLocal public static var dataConnect: WorkspaceRunner?

    /// The sample adapters for `content request`, when this build has them.
    @TaskLocal public static var resource: Runner?

    /// The Data Connect sample's workspace folder, for reading its operations without starting it.
    @TaskLocal public static var dataConnectWorkspace: String?
}
