/// One backend's part of the configuration file, not yet decoded.
///
/// The configuration module hands each plugin its section through this protocol, so a plugin declares
/// a plain `Decodable` configuration type and gets the file's positions, unknown-key checks and
/// `${VAR}` interpolation without knowing the file is YAML.
public protocol ConfigSection: Sendable {
    /// Where the section starts, as `file:line:column`.
    var location: String { get }

    /// The directory relative paths in the section are resolved against (the config file's).
    var baseDirectory: String { get }

    /// Decodes the section.
    ///
    /// - Parameter type: The plugin's configuration type.
    /// - Returns: The decoded configuration.
    /// - Throws: A ``ContentFailure`` of category ``FailureCategory/configuration`` that names the
    ///   file, line, column and key path of the problem.
    func decode<T: Decodable>(_ type: T.Type) throws -> T
}
