internal import ContentCore
internal import ContentEmulator
internal import ContentJSON
internal import ContentYAML
internal import Foundation

/// The sample adapters' settings: `resource/resource.yaml` of a workspace.
struct ResourceWorkspace: Decodable, Sendable {
    struct OAuth: Decodable, Sendable {
        struct Client: Decodable, Sendable {
            var clientId: String
            var clientSecret: String
            var scopes: [String]?
        }
        var clients: [Client]
        var tokenLifetime: ConfigDuration?
    }

    struct User: Decodable, Sendable {
        var id: Int
        var name: String
        var email: String?
    }

    var oauth: OAuth?
    var users: [User]?

    /// Reads `resource.yaml` from the `resource/` folder.
    static func load(from directory: URL) throws -> ResourceWorkspace {
        let file = directory.appendingPathComponent("resource.yaml")
        guard let data = FileManager.default.contents(atPath: file.path) else {
            return ResourceWorkspace(oauth: nil, users: nil)
        }
        do {
            return try YAMLDecoder().decode(
                ResourceWorkspace.self, from: String(decoding: data, as: UTF8.self), file: file.path)
        } catch {
            throw EmulatorError.workspace("\(error)")
        }
    }
}
