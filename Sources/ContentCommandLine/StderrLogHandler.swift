internal import ContentOutput
public import Logging

/// A log handler that writes bare lines to stderr, as `curl -v` does, with no timestamps or labels.
public struct StderrLogHandler: LogHandler {
    /// The lowest level written.
    public var logLevel: Logger.Level
    /// Metadata attached to every message (unused in the output, kept for the protocol).
    public var metadata: Logger.Metadata = [:]

    /// Creates a handler.
    ///
    /// - Parameter logLevel: The lowest level written.
    public init(logLevel: Logger.Level) {
        self.logLevel = logLevel
    }

    /// Metadata for a key.
    ///
    /// - Parameter key: The key.
    public subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    /// Writes a message.
    ///
    /// - Parameter event: The log event.
    public func log(event: LogEvent) {
        let prefix = event.level >= .warning ? "content: \(event.level): " : ""
        for line in "\(event.message)".split(separator: "\n", omittingEmptySubsequences: false) {
            StandardError.write(prefix + line)
        }
    }
}
