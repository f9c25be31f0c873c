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

    /// Creates a context.
    ///
    /// - Parameters:
    ///   - transport: The transport.
    ///   - defaults: Shared settings.
    ///   - redactor: Masks secrets.
    ///   - logger: Where verbose output goes.
    public init(
        transport: any HTTPTransport,
        defaults: BackendDefaults = BackendDefaults(),
        redactor: Redactor = Redactor(),
        logger: Logger = Logger(label: "content")
    ) {
        self.transport = transport
        self.defaults = defaults
        self.redactor = redactor
        self.logger = logger
    }
}
