/// Describes one kind of backend: its `type:` name, its configuration, and how to make one.
///
/// A new backend is one module with one type conforming to this protocol, plus one line in the
/// built-in registry; nothing else changes. Commands a plugin adds to the CLI are declared by
/// conforming the same type to the command-line module's `CommandContributing`.
///
/// ```swift
/// enum AEMPlugin: BackendPlugin {
///     static let typeName = "aem"
///     static let summary = "Adobe Experience Manager persisted GraphQL queries"
///     static func makeBackend(name: String, configuration: AEMConfiguration, context: BackendContext) throws
///         -> any ContentBackend { AEMBackend(name: name, configuration: configuration, context: context) }
/// }
/// ```
public protocol BackendPlugin: Sendable {
    /// The plugin's configuration as written in its `backends.<name>` section (minus `type`).
    associatedtype Configuration: Decodable & Sendable

    /// The value of `type:` that selects this plugin, such as `aem`.
    static var typeName: String { get }

    /// One line saying what the plugin talks to, for `content backends`.
    static var summary: String { get }

    /// Makes a backend from its decoded configuration.
    ///
    /// - Parameters:
    ///   - name: The backend's name in the configuration.
    ///   - configuration: Its decoded section.
    ///   - context: Transport and shared settings.
    /// - Returns: The backend.
    /// - Throws: A ``ContentFailure`` of category ``FailureCategory/configuration`` for settings that
    ///   decode but cannot work (a URL without a host, say).
    static func makeBackend(name: String, configuration: Configuration, context: BackendContext) throws
        -> any ContentBackend
}
