/// A credential read from configuration, which never prints itself.
///
/// `description`, `debugDescription` and string interpolation all show `<redacted>`; only code that
/// asks for ``value`` on purpose, to put it on the wire, sees the text.
public struct Secret: Sendable, Hashable, Decodable, CustomStringConvertible, CustomDebugStringConvertible,
    CustomReflectable
{
    /// The credential itself.
    public let value: String

    /// Wraps a credential.
    ///
    /// - Parameter value: The credential.
    public init(_ value: String) {
        self.value = value
    }

    /// Decodes a credential from a string.
    ///
    /// - Parameter decoder: The decoder.
    /// - Throws: When the value is not a string.
    public init(from decoder: any Decoder) throws {
        value = try decoder.singleValueContainer().decode(String.self)
    }

    /// `<redacted>`.
    public var description: String { Redactor.mask }
    /// `<redacted>`.
    public var debugDescription: String { Redactor.mask }

    /// No children, so `dump` and mirrors cannot reach the value.
    public var customMirror: Mirror { Mirror(self, children: [], displayStyle: .struct) }
}
