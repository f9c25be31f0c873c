internal import Foundation

/// The check every backend runs on its configured URL when it is made, so that `content config validate` and the
/// first command fail alike, before anything is sent.
public enum BackendURL {
    /// What is wrong with a base URL, or `nil` when a request can be sent to it.
    ///
    /// - Parameter url: The URL from the configuration.
    /// - Returns: `needs a scheme (http or https) and a host`, or `has port N, outside 1-65535`.
    public static func problem(_ url: String) -> String? {
        guard let components = URLComponents(string: url), let scheme = components.scheme?.lowercased(),
            scheme == "http" || scheme == "https", components.host?.isEmpty == false
        else { return "needs a scheme (http or https) and a host" }
        if let port = components.port, !(1...65535).contains(port) { return "has port \(port), outside 1-65535" }
        return nil
    }
}
