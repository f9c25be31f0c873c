internal import Foundation

/// Which configuration file `content` reads, and why that one.
public struct ConfigLocation: Sendable, Hashable, CustomStringConvertible {
    /// Why a file was chosen, in order of precedence.
    public enum Origin: Sendable, Hashable, CustomStringConvertible {
        /// `--config FILE`.
        case flag
        /// `$CONTENT_CONFIG`.
        case environment
        /// `./content.yaml` in the working directory.
        case workingDirectory
        /// `$XDG_CONFIG_HOME/content/config.yaml`, or `~/.config/content/config.yaml`.
        case userConfig

        /// How `content config path` explains it.
        public var description: String {
            switch self {
            case .flag: return "given with --config"
            case .environment: return "named by $CONTENT_CONFIG"
            case .workingDirectory: return "found as ./content.yaml in the working directory"
            case .userConfig: return "found in the user configuration directory"
            }
        }
    }

    /// The path as the user would write it.
    public var path: String
    /// Why this file.
    public var origin: Origin

    /// Creates a location.
    ///
    /// - Parameters:
    ///   - path: The path.
    ///   - origin: Why this file.
    public init(path: String, origin: Origin) {
        self.path = path
        self.origin = origin
    }

    /// `path (why)`.
    public var description: String { "\(path) (\(origin))" }

    /// Finds the configuration file: `--config`, then `$CONTENT_CONFIG`, then `./content.yaml`, then the
    /// XDG user file.
    ///
    /// A file named by the flag or the variable must exist; the two default places are simply skipped
    /// when empty.
    ///
    /// - Parameters:
    ///   - flag: The `--config` value, if given.
    ///   - environment: The process environment.
    ///   - workingDirectory: The directory `./content.yaml` is looked for in; the current one by default.
    /// - Returns: The location, or `nil` when no file exists in any default place.
    /// - Throws: ``ConfigError/fileNotFound(_:origin:)`` for a named file that does not exist.
    public static func find(
        flag: String?,
        environment: [String: String],
        workingDirectory: String? = nil
    ) throws(ConfigError) -> ConfigLocation? {
        if let flag {
            guard fileExists(flag) else { throw .fileNotFound(flag, origin: "--config") }
            return ConfigLocation(path: flag, origin: .flag)
        }
        if let named = environment["CONTENT_CONFIG"], !named.isEmpty {
            guard fileExists(named) else { throw .fileNotFound(named, origin: "$CONTENT_CONFIG") }
            return ConfigLocation(path: named, origin: .environment)
        }
        let directory = workingDirectory ?? FileManager.default.currentDirectoryPath
        let local = (directory as NSString).appendingPathComponent("content.yaml")
        if fileExists(local) { return ConfigLocation(path: local, origin: .workingDirectory) }
        if let user = userConfigPath(environment: environment), fileExists(user) {
            return ConfigLocation(path: user, origin: .userConfig)
        }
        return nil
    }

    /// The places ``find(flag:environment:workingDirectory:)`` looks when nothing is named, for messages.
    ///
    /// - Parameter environment: The process environment.
    /// - Returns: The places, in order.
    public static func searchedPlaces(environment: [String: String]) -> [String] {
        ["--config", "$CONTENT_CONFIG", "./content.yaml"] + [userConfigPath(environment: environment)].compactMap { $0 }
    }

    /// `$XDG_CONFIG_HOME/content/config.yaml`, else `$HOME/.config/content/config.yaml`.
    static func userConfigPath(environment: [String: String]) -> String? {
        if let xdg = environment["XDG_CONFIG_HOME"], xdg.hasPrefix("/") {
            return (xdg as NSString).appendingPathComponent("content/config.yaml")
        }
        guard let home = environment["HOME"], !home.isEmpty else { return nil }
        return (home as NSString).appendingPathComponent(".config/content/config.yaml")
    }

    private static func fileExists(_ path: String) -> Bool {
        var isDirectory: ObjCBool = false
        return FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) && !isDirectory.boolValue
    }
}
