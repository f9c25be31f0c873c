public import ContentCore
public import ContentYAML

/// A configuration problem: what is wrong, where (file:line:column and key path), and what to do.
public struct ConfigError: ContentFailure, Hashable {
    private enum Code: Hashable {
        case invalid(YAMLError)
        case fileNotFound(path: String, origin: String)
        case unreadable(path: String, reason: String)
        case noConfiguration(searched: [String])
        case unknownBackendType(YAMLError)
        case unknownBackend(name: String, known: [String], file: String?)
        case ambiguousBackend(type: String, candidates: [String])
        case noBackend(type: String, file: String?)
        case wrongBackendType(name: String, type: String, expected: String)
    }

    private let code: Code

    /// The YAML problem, when the file was read but is wrong.
    public var yamlError: YAMLError? {
        switch code {
        case .invalid(let error), .unknownBackendType(let error): return error
        default: return nil
        }
    }

    /// Always ``FailureCategory/configuration``.
    public var category: FailureCategory { .configuration }

    /// The file is malformed or holds a wrong value.
    ///
    /// - Parameter error: The YAML problem, with its position.
    /// - Returns: The error.
    public static func invalid(_ error: YAMLError) -> ConfigError { ConfigError(code: .invalid(error)) }

    /// A named file does not exist.
    ///
    /// - Parameters:
    ///   - path: The path.
    ///   - origin: Where the path came from (`--config`, `$CONTENT_CONFIG`).
    /// - Returns: The error.
    public static func fileNotFound(_ path: String, origin: String) -> ConfigError {
        ConfigError(code: .fileNotFound(path: path, origin: origin))
    }

    /// A file exists but cannot be read.
    ///
    /// - Parameters:
    ///   - path: The path.
    ///   - reason: Why.
    /// - Returns: The error.
    public static func unreadable(_ path: String, reason: String) -> ConfigError {
        ConfigError(code: .unreadable(path: path, reason: reason))
    }

    /// No configuration file exists in any of the places searched.
    ///
    /// - Parameter searched: The places, in order.
    /// - Returns: The error.
    public static func noConfiguration(searched: [String]) -> ConfigError {
        ConfigError(code: .noConfiguration(searched: searched))
    }

    /// A backend's `type:` names no built-in plugin.
    ///
    /// - Parameter error: The problem, placed at the `type:` value.
    /// - Returns: The error.
    public static func unknownBackendType(_ error: YAMLError) -> ConfigError {
        ConfigError(code: .unknownBackendType(error))
    }

    /// `--backend NAME` names no configured backend.
    ///
    /// - Parameters:
    ///   - name: The name asked for.
    ///   - known: The configured names.
    ///   - file: The configuration file.
    /// - Returns: The error.
    public static func unknownBackend(_ name: String, known: [String], file: String?) -> ConfigError {
        ConfigError(code: .unknownBackend(name: name, known: known, file: file))
    }

    /// Several backends of one type are configured and none was picked.
    ///
    /// - Parameters:
    ///   - type: The plugin type.
    ///   - candidates: Their names.
    /// - Returns: The error.
    public static func ambiguousBackend(type: String, candidates: [String]) -> ConfigError {
        ConfigError(code: .ambiguousBackend(type: type, candidates: candidates))
    }

    /// No backend of a type is configured.
    ///
    /// - Parameters:
    ///   - type: The plugin type.
    ///   - file: The configuration file.
    /// - Returns: The error.
    public static func noBackend(type: String, file: String?) -> ConfigError {
        ConfigError(code: .noBackend(type: type, file: file))
    }

    /// `--backend NAME` names a backend of another type than the command needs.
    ///
    /// - Parameters:
    ///   - name: The backend's name.
    ///   - type: Its type.
    ///   - expected: The type the command needs.
    /// - Returns: The error.
    public static func wrongBackendType(_ name: String, type: String, expected: String) -> ConfigError {
        ConfigError(code: .wrongBackendType(name: name, type: type, expected: expected))
    }

    /// What failed, where, and what to do.
    public var description: String {
        switch code {
        case .invalid(let error), .unknownBackendType(let error):
            return error.description
        case .fileNotFound(let path, let origin):
            return "\(path): configuration file not found (named by \(origin)); check the path, "
                + "or run `content config path` to see where content looks"
        case .unreadable(let path, let reason):
            return "\(path): cannot read the configuration file: \(reason)"
        case .noConfiguration(let searched):
            return "no configuration file found; looked in: \(searched.joined(separator: ", ")). "
                + "Create ./content.yaml (see `content config --help` for an example) or pass --config FILE"
        case .unknownBackend(let name, let known, let file):
            let place = file.map { " in \($0)" } ?? ""
            let hint = closestMatch(to: name, in: known).map { "; did you mean '\($0)'?" } ?? ""
            let list = known.isEmpty ? "none are configured" : "configured: \(known.joined(separator: ", "))"
            return "no backend named '\(name)'\(place) (\(list))\(hint); `content backends` lists them"
        case .ambiguousBackend(let type, let candidates):
            return "several '\(type)' backends are configured (\(candidates.joined(separator: ", "))); "
                + "pick one with --backend NAME"
        case .noBackend(let type, let file):
            let place = file.map { " in \($0)" } ?? ""
            return "no backend of type '\(type)' is configured\(place); add one under `backends:` with `type: \(type)`"
        case .wrongBackendType(let name, let type, let expected):
            return "backend '\(name)' is of type '\(type)', but this command needs a '\(expected)' backend; "
                + "`content backends` lists them"
        }
    }
}
