public import ContentCore
public import ContentYAML

/// One backend's section of a YAML configuration file, decoded on demand by its plugin.
public struct YAMLConfigSection: ConfigSection {
    /// The section without its `type` key, which the registry has already read.
    let node: YAMLNode
    /// The configuration file, as errors name it.
    public let file: String
    let keyPath: [String]
    let environment: [String: String]

    /// The directory of the configuration file.
    public let baseDirectory: String

    /// Creates a section.
    ///
    /// - Parameters:
    ///   - node: The section's mapping.
    ///   - file: The configuration file.
    ///   - keyPath: The keys leading to it, such as `["backends", "wknd"]`.
    ///   - environment: The variables `${NAME}` reads.
    ///   - baseDirectory: The directory relative paths resolve against.
    public init(node: YAMLNode, file: String, keyPath: [String], environment: [String: String], baseDirectory: String) {
        self.node = node.removingEntry("type")
        self.file = file
        self.keyPath = keyPath
        self.environment = environment
        self.baseDirectory = baseDirectory
    }

    /// `file:line:column` of the section.
    public var location: String { "\(file):\(node.mark)" }

    /// Decodes the section with the YAML decoder: positions, unknown keys and `${VAR}` included.
    ///
    /// - Parameter type: The plugin's configuration type.
    /// - Returns: The configuration.
    /// - Throws: ``ConfigError``.
    public func decode<T: Decodable>(_ type: T.Type) throws -> T {
        do {
            return try YAMLDecoder(environment: environment).decode(type, from: node, file: file, keyPath: keyPath)
        } catch {
            throw ConfigError.invalid(error)
        }
    }
}
