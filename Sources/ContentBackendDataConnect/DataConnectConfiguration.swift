public import ContentCore

/// A `dataconnect` backend as configured.
///
/// Configuration keys:
/// - `workspace` (string, optional): the folder with `firebase.json`, `dataconnect.yaml` or
///   `dataconnect/dataconnect.yaml`, relative to the configuration file. Default: the current directory.
/// - `project` (string, required): the Firebase project id.
/// - `emulator` (string, optional): `host:port` of an emulator (`content serve` or Firebase's); plain HTTP.
///   `FIREBASE_DATA_CONNECT_EMULATOR_HOST` switches to it as well.
/// - `url` (string, optional): the production base URL. Default `https://firebasedataconnect.googleapis.com`.
/// - `location`, `service` (strings, optional): override `dataconnect.yaml`'s `location` and `serviceId`.
/// - `apiVersion` (string, optional): `v1` (default) or `v1beta`.
/// - `auth` (mapping, optional): `idToken`, `idTokenCommand` (run to get a fresh ID token on a 401),
///   `appCheckToken`, `apiKey`.
/// - `headers` (mapping, optional): extra request headers.
public struct DataConnectConfiguration: Decodable, Sendable {
    /// How requests identify the caller and the app.
    public struct Auth: Decodable, Sendable {
        /// A Firebase ID token, sent as `X-Firebase-Auth-Token`.
        public var idToken: Secret?
        /// A shell command that prints a fresh ID token; run when there is no `idToken`, and on a 401.
        public var idTokenCommand: String?
        /// An App Check token, sent as `X-Firebase-AppCheck`.
        public var appCheckToken: Secret?
        /// The Firebase API key, sent as `?key=`.
        public var apiKey: Secret?
    }

    /// The API versions the service answers.
    public enum APIVersion: String, Decodable, Sendable, CaseIterable {
        case v1, v1beta
    }

    /// The workspace folder.
    public var workspace: String?
    /// The Firebase project id.
    public var project: String
    /// `host:port` of an emulator.
    public var emulator: String?
    /// The production base URL.
    public var url: String?
    /// The service's location, overriding `dataconnect.yaml`.
    public var location: String?
    /// The service id, overriding `dataconnect.yaml`.
    public var service: String?
    /// The API version.
    public var apiVersion: APIVersion?
    /// Credentials.
    public var auth: Auth?
    /// Extra headers.
    public var headers: [String: String]?

    /// The production host.
    public static let productionURL = "https://firebasedataconnect.googleapis.com"
}
