public import ContentCore
public import ContentYAML

/// The configuration after reading: shared defaults, the backends by name, and what the user should know.
public struct ContentConfiguration: Sendable {
    /// The file read, or `nil` when there is none.
    public var location: ConfigLocation?
    /// Shared backend settings, defaults applied.
    public var defaults: BackendDefaults
    /// `defaults.output`, when set.
    public var output: OutputFormat?
    /// The backends, in file order.
    public var backends: [ConfiguredBackend]
    /// Warnings found while reading, such as an inline secret in a file others can read.
    public var warnings: [Diagnostic]
    /// Every secret value the file holds or references, for redaction.
    public var secrets: [String]

    /// A configuration with no file and no backends.
    public static let empty = ContentConfiguration(
        location: nil,
        defaults: BackendDefaults(),
        output: nil,
        backends: [],
        warnings: [],
        secrets: []
    )

    /// The backend with a name.
    ///
    /// - Parameter name: The name under `backends:`.
    /// - Returns: The backend.
    /// - Throws: ``ConfigError/unknownBackend(_:known:file:)`` with a did-you-mean hint.
    public func backend(named name: String) throws(ConfigError) -> ConfiguredBackend {
        guard let backend = backends.first(where: { $0.name == name }) else {
            throw .unknownBackend(name, known: backends.map(\.name), file: location?.path)
        }
        return backend
    }
}

/// One entry under `backends:`.
public struct ConfiguredBackend: Sendable {
    /// The name under `backends:`.
    public var name: String
    /// The `type:` value, naming a plugin.
    public var typeName: String
    /// Where the `type:` value is, for "unknown type" errors.
    public var typeMark: YAMLMark
    /// The section, for the plugin to decode.
    public var section: YAMLConfigSection
    /// Secret values this section holds or references.
    public var secrets: [String]
    /// The environment variable each secret value was read from, where the configuration wrote `${VAR}`.
    public var secretVariables: [String: String] = [:]

    /// The shell variable `--dry-run` shows for a secret: the one the configuration reads it from, else `fallback`.
    ///
    /// - Parameters:
    ///   - secret: The secret's value, if any.
    ///   - fallback: The name to use otherwise, such as `AEM_TOKEN`.
    /// - Returns: `$NAME`.
    public func placeholder(for secret: String?, fallback: String) -> String {
        "$" + (secret.flatMap { secretVariables[$0] } ?? fallback)
    }
}
