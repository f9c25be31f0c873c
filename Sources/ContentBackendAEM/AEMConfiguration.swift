public import ContentCore
internal import Foundation

/// An `aem` backend as configured.
///
/// Configuration keys:
/// - `url` (string, required): scheme, host and port of the AEM tier, such as
///   `https://publish-p123-e456.adobeaemcloud.com`.
/// - `configuration` (string, optional): the persisted-query configuration. Default `wknd-shared`.
/// - `auth` (mapping, optional): `type` is `none` (default), `basic` (`username`, `password`),
///   `token` (`token`, or `tokenFile`), `service-credentials` (`credentialsFile`: the Developer Console's JSON,
///   exchanged for a token at IMS's `/ims/exchange/jwt`) or `oauth-server-to-server` (`clientId`, `clientSecret`,
///   `scopes`, exchanged at IMS's `/ims/token/v3`); both IMS kinds take `imsURL` to use another IMS.
/// - `headers` (mapping, optional): extra request headers.
/// - `queries` (mapping, optional): shortcuts by name, each `{ persisted, arguments, items, columns }`.
public struct AEMConfiguration: Decodable, Sendable {
    /// How requests authenticate.
    public struct Auth: Decodable, Sendable {
        /// The scheme.
        public enum Kind: String, Decodable, Sendable, CaseIterable {
            case none, basic, token
            case serviceCredentials = "service-credentials"
            case oauthServerToServer = "oauth-server-to-server"

            /// Whether tokens come from Adobe IMS.
            public var isIMS: Bool { self == .serviceCredentials || self == .oauthServerToServer }
        }

        /// Scopes, as a list or as the one comma-separated string the Developer Console shows.
        public struct Scopes: Decodable, Sendable, Equatable {
            /// The scopes, in order.
            public var values: [String]

            /// Decodes a list of strings or one comma-separated string.
            ///
            /// - Parameter decoder: The decoder.
            /// - Throws: When the value is neither.
            public init(from decoder: any Decoder) throws {
                let container = try decoder.singleValueContainer()
                if let list = try? container.decode([String].self) {
                    values = list
                } else {
                    values = try container.decode(String.self).split(separator: ",").map {
                        $0.trimmingCharacters(in: .whitespaces)
                    }
                }
                values.removeAll(where: \.isEmpty)
            }
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
        /// `service-credentials`: the JSON file the Developer Console downloads for the environment.
        public var credentialsFile: String?
        /// `oauth-server-to-server`: the credential's client id (also sent as `X-Api-Key`).
        public var clientId: String?
        /// `oauth-server-to-server`: the credential's client secret.
        public var clientSecret: Secret?
        /// `oauth-server-to-server`: the scopes to ask for.
        public var scopes: Scopes?
        /// Another IMS than Adobe's (or than the credentials file names), such as an emulator's.
        public var imsURL: String?

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
