internal import ContentCore
internal import ContentYAML
internal import Foundation

/// Reads a configuration file into a ``ContentConfiguration``.
///
/// The file is parsed with libyaml, the top level decoded strictly (unknown keys are errors), and each
/// backend's `type:` read; plugin sections stay as YAML until a plugin decodes them. Along the way the
/// loader collects the secrets the file holds, to redact them, and warns, as ssh does, when an inline
/// secret sits in a file that group or others can read.
public struct ConfigLoader: Sendable {
    /// The variables `${NAME}` reads.
    public var environment: [String: String]

    /// Creates a loader.
    ///
    /// - Parameter environment: The variables `${NAME}` reads.
    public init(environment: [String: String]) {
        self.environment = environment
    }

    /// Reads the file at a location.
    ///
    /// - Parameter location: Which file, and why.
    /// - Returns: The configuration.
    /// - Throws: ``ConfigError``.
    public func load(_ location: ConfigLocation) throws(ConfigError) -> ContentConfiguration {
        let data: Data
        do {
            data = try Data(contentsOf: URL(fileURLWithPath: location.path))
        } catch {
            throw .unreadable(location.path, reason: Self.reason(error))
        }
        guard let text = String(data: data, encoding: .utf8) else {
            throw .unreadable(location.path, reason: "the file is not UTF-8 text")
        }
        var (configuration, inlineSecrets) = try read(text: text, file: location.path)
        configuration.location = location
        if !inlineSecrets.isEmpty, Self.isReadableByOthers(location.path) {
            // Every one is named: moving the first to the environment must not leave the others unmentioned.
            let places = inlineSecrets.map { "\($0.keyPath) at \($0.mark)" }.joined(separator: ", ")
            let moves = inlineSecrets.map { "\($0.key): \"${\($0.suggestedVariable)}\"" }.joined(separator: ", ")
            let count = inlineSecrets.count == 1 ? "an inline secret" : "\(inlineSecrets.count) inline secrets"
            configuration.warnings.append(
                Diagnostic(
                    .warning,
                    "\(location.path) holds \(count) (\(places)) and can be read by group or others; run "
                        + "`chmod 600 \(location.path)`, or move \(inlineSecrets.count == 1 ? "it" : "them") to the "
                        + "environment: \(moves)",
                    at: location.path
                )
            )
        }
        return configuration
    }

    /// Reads configuration text.
    ///
    /// - Parameters:
    ///   - text: The YAML.
    ///   - file: The file name errors mention; relative paths in sections resolve against its directory.
    /// - Returns: The configuration, with no location.
    /// - Throws: ``ConfigError``.
    public func load(text: String, file: String) throws(ConfigError) -> ContentConfiguration {
        try read(text: text, file: file).configuration
    }

    /// The configuration, and where its inline secrets are.
    private func read(text: String, file: String) throws(ConfigError) -> (
        configuration: ContentConfiguration, inlineSecrets: [InlineSecret]
    ) {
        let decoder = YAMLDecoder(environment: environment)
        let root: YAMLNode?
        let user: UserConfig
        do {
            root = try YAMLParser().parse(text, file: file)
            user = try decoder.decode(UserConfig.self, from: root, file: file)
        } catch {
            throw .invalid(error)
        }
        var defaults = BackendDefaults()
        if let timeout = user.defaults?.timeout { defaults.timeout = timeout.duration }
        if let retries = user.defaults?.retries { defaults.retries = retries }
        if let size = user.defaults?.maxResponseSize { defaults.maxResponseBytes = size.bytes }

        let baseDirectory =
            ((file as NSString).deletingLastPathComponent as String).isEmpty
            ? "." : (file as NSString).deletingLastPathComponent
        var backends: [ConfiguredBackend] = []
        var inlineSecrets: [InlineSecret] = []
        for entry in user.backends {
            let keyPath = ["backends", entry.name]
            guard Self.isValidName(entry.name) else {
                throw .invalid(
                    YAMLError(
                        file: file,
                        mark: entry.nameMark,
                        keyPath: keyPath.joined(separator: "."),
                        message: "backend names use letters, digits, '.', '_' and '-', starting with a letter or digit"
                    )
                )
            }
            let (typeName, typeMark) = try Self.typeName(of: entry, file: file)
            var scan = SecretScan(decoder: decoder, file: file, baseDirectory: baseDirectory)
            scan.visit(entry.node, path: keyPath)
            inlineSecrets += scan.inlineSecrets
            backends.append(
                ConfiguredBackend(
                    name: entry.name,
                    typeName: typeName,
                    typeMark: typeMark,
                    section: YAMLConfigSection(
                        node: entry.node,
                        file: file,
                        keyPath: keyPath,
                        environment: environment,
                        baseDirectory: baseDirectory
                    ),
                    secrets: scan.secrets,
                    secretVariables: scan.variables
                )
            )
        }
        let configuration = ContentConfiguration(
            location: nil,
            defaults: defaults,
            output: user.defaults?.output,
            backends: backends,
            warnings: [],
            secrets: backends.flatMap(\.secrets)
        )
        return (configuration, inlineSecrets)
    }

    private static func typeName(of entry: UserConfig.BackendEntry, file: String) throws(ConfigError) -> (
        String, YAMLMark
    ) {
        let path = "backends.\(entry.name)"
        guard case .mapping = entry.node.kind else {
            throw .invalid(
                YAMLError(
                    file: file, mark: entry.node.mark, keyPath: path,
                    message: "expected a mapping with a `type:` key, found \(entry.node.kindName)")
            )
        }
        guard let type = entry.node.entry("type") else {
            throw .invalid(
                YAMLError(
                    file: file, mark: entry.node.mark, keyPath: path, message: "missing required key 'type'",
                    hint: "add `type: aem`, say")
            )
        }
        guard case .scalar(let scalar) = type.value.kind, !scalar.isNull else {
            throw .invalid(
                YAMLError(
                    file: file, mark: type.value.mark, keyPath: path + ".type",
                    message: "expected a plugin name, found \(type.value.kindName)")
            )
        }
        return (scalar.value, type.value.mark)
    }

    private static func isValidName(_ name: String) -> Bool {
        guard let first = name.unicodeScalars.first, first.isASCIIAlphanumeric else { return false }
        return name.unicodeScalars.allSatisfy { $0.isASCIIAlphanumeric || "._-".unicodeScalars.contains($0) }
    }

    private static func isReadableByOthers(_ path: String) -> Bool {
        guard let attributes = try? FileManager.default.attributesOfItem(atPath: path),
            let permissions = attributes[.posixPermissions] as? NSNumber
        else { return false }
        return permissions.intValue & 0o077 != 0
    }

    private static func reason(_ error: any Error) -> String {
        let nsError = error as NSError
        if let underlying = nsError.userInfo[NSUnderlyingErrorKey] as? NSError, underlying.domain == NSPOSIXErrorDomain,
            let code = POSIXErrorCode(rawValue: Int32(underlying.code))
        {
            return String(cString: strerror(code.rawValue))
        }
        return nsError.localizedDescription
    }
}

extension Unicode.Scalar {
    fileprivate var isASCIIAlphanumeric: Bool {
        isASCII && (properties.isAlphabetic || ("0"..."9").contains(self))
    }
}
