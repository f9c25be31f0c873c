/// A message for the user that is not data: a warning, or a note about what `content` did.
///
/// Diagnostics go to stderr, never stdout, printed like a compiler's: `content.yaml:3:5: warning: …`.
public struct Diagnostic: Sendable, Hashable, CustomStringConvertible {
    /// How serious it is.
    public enum Severity: String, Sendable, Hashable {
        /// Something the user should know but that does not stop the run.
        case note
        /// Something likely wrong.
        case warning
        /// A failure.
        case error
    }

    /// How serious it is.
    public var severity: Severity
    /// What happened and what to do.
    public var message: String
    /// Where: `file:line:col`, a URL with secrets redacted, or `nil`.
    public var location: String?

    /// Creates a diagnostic.
    ///
    /// - Parameters:
    ///   - severity: How serious it is.
    ///   - message: What happened and what to do.
    ///   - location: Where.
    public init(_ severity: Severity, _ message: String, at location: String? = nil) {
        self.severity = severity
        self.message = message
        self.location = location
    }

    /// `location: severity: message`.
    public var description: String {
        (location.map { "\($0): " } ?? "") + "\(severity.rawValue): \(message)"
    }
}
