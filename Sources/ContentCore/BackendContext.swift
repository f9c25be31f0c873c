public import Logging

/// What a plugin's factory receives besides its own configuration.
public struct BackendContext: Sendable {
    /// The transport to send every request through.
    public var transport: any HTTPTransport
    /// Shared settings.
    public var defaults: BackendDefaults
    /// Masks the configuration's secrets in anything the backend shows.
    public var redactor: Redactor
    /// Where verbose output goes (stderr in the CLI).
    public var logger: Logger
    /// The directory relative paths in the backend's configuration resolve against (the config file's).
    public var baseDirectory: String
    /// Whether the backend is made only to check or describe its configuration (`config validate`, listings,
    /// `--dry-run`): it must then run no command, such as a token command, and send nothing.
    public var isOffline: Bool

    /// Creates a context.
    ///
    /// - Parameters:
    ///   - transport: The transport.
    ///   - defaults: Shared settings.
    ///   - redactor: Masks secrets.
    ///   - logger: Where verbose output goes.
    ///   - baseDirectory: Where relative paths resolve; the registry sets the config file's directory.
    ///   - isOffline: Whether the backend must run no command and send nothing.
    public init(
        transport: any HTTPTransport,
        defaults: BackendDefaults = BackendDefaults(),
        redactor: Redactor = Redactor(),
        logger: Logger = Logger(label: "content"),
        baseDirectory: String = ".",
        isOffline: Bool = false
    ) {
        self.transport = transport
        self.defaults = defaults
        self.redactor = redactor
        self.logger = logger
        self.baseDirectory = baseDirectory
        self.isOffline = isOffline
    }
}
