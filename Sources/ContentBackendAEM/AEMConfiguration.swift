public import ContentCore
internal import Foundation

/// An `aem` backend as configured.
///
/// Configuration keys:
/// - `url` (string, required): scheme, host and port of the AEM tier, such as
///   `https://publish-p123-e456.adobeaemcloud.com`.
/// - `configuration` (string, optional): the persisted-query configuration. Default `wknd-shared`.
/// - `auth` (mapping, optional): `type` is `none` (default), `basic` (`username`, `password`) or
///   `token` (`token`, or `tokenFile`).
/// - `headers` (mapping, optional): extra request headers.
/// - `queries` (mapping, optional): shortcuts by name, each `{ persisted, arguments, items, columns }`.
public struct AEMConfiguration: Decodable, Sendable {
    /// How requests authenticate.
    public struct Auth: Decodable, Sendable {
        /// The scheme.
        public enum Kind: String, Decodable, Sendable, CaseIterable {
            case none, basic, token
        }

        /// The scheme.
        public var type: Kind
        /// Basic-auth user.
        public var username: String?
        /// Basic-auth password.
        public var password: Secret?
        /// Bearer token.
        public var token: Secret?
        /// A file holding the bearer token.
        public var tokenFile: String?

        /// The bearer token: `token`, else the trimmed text of `tokenFile`, read now; `nil` when neither is set.
        ///
        /// - Parameter backend: The backend's name, for the error.
        /// - Returns: The token.
        /// - Throws: ``AEMError`` when `tokenFile` cannot be read.
        package func bearerToken(backend: String) throws(AEMError) -> String? {
            if let token = token?.value { return token }
            guard let file = tokenFile else { return nil }
            // A token is a few kilobytes at most; a device such as /dev/zero or a huge file must not be read whole.
            do {
                return try SmallTextFile.read(file)
            } catch {
                throw AEMError(
                    kind: .configuration,
                    description: "backend '\(backend)': cannot use tokenFile \(file): \(error); point it at a file "
                        + "holding the token")
            }
        }
    }

    /// A shortcut: `content aem adventures`.
    public struct Shortcut: Decodable, Sendable {
        /// The persisted query's name, in the backend's configuration (or `config/name`).
        public var persisted: String
        /// Names for positional arguments, in order: `adventure bali-surf-camp` fills `slug`.
        public var arguments: [String]?
        /// Where the items are.
        public var items: String?
        /// The columns to show.
        public var columns: [String]?
    }

    /// The tier's base URL.
    public var url: String
    /// The persisted-query configuration.
    public var configuration: String?
    /// Authentication.
    public var auth: Auth?
    /// Extra headers.
    public var headers: [String: String]?
    /// Shortcuts by name.
    public var queries: [String: Shortcut]?

    /// The shortcuts every `aem` backend has unless configured otherwise: the WKND sample's.
    public static let defaultShortcuts: [String: Shortcut] = [
        "adventures": Shortcut(
            persisted: "adventures-all",
            arguments: nil,
            items: "data.adventureList.items",
            columns: ["title", "activity", "price", "tripLength", "primaryImage"]
        ),
        "adventure": Shortcut(
            persisted: "adventure-by-slug",
            arguments: ["slug"],
            items: "data.adventureList.items",
            columns: nil
        ),
    ]
}
