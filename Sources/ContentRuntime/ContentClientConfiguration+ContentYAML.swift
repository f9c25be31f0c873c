internal import ContentBackendAEM
internal import ContentBackendDataConnect
internal import ContentConfig
internal import ContentCore
internal import ContentHTTP
public import ContentKit
internal import Foundation

extension ContentClientConfiguration {
    /// The settings a `content.yaml` gives, for a Swift program that shares its configuration with the `content`
    /// command: the file is found as the command finds it, and `${VAR}` reads `environment`.
    ///
    /// The one `dataconnect` backend (or the one named `dataConnectBackend`) gives the Data Connect settings, with
    /// `emulator:` or `FIREBASE_DATA_CONNECT_EMULATOR_HOST` in `environment` choosing an emulator, and
    /// `auth.idTokenCommand` run when a request needs a token; the one `aem` backend (or `aemBackend`) gives the
    /// AEM settings; `defaults:` and the proxy variables give the HTTP settings. Apps configure ``ContentClient`` in
    /// code instead and do not link this module.
    ///
    /// - Parameters:
    ///   - configFile: A `content.yaml`; `nil` looks in `$CONTENT_CONFIG`, `./content.yaml` and the user's config
    ///     folder, as `content` does.
    ///   - environment: What `${VAR}`, the emulator variable and the proxy variables read.
    ///   - dataConnectBackend: The `dataconnect` backend to use when there are several.
    ///   - aemBackend: The `aem` backend to use when there are several.
    /// - Throws: ``ContentConfig/ConfigError`` with the file, line and column, or a backend's configuration error.
    public init(
        contentYAML configFile: String?, environment: [String: String], dataConnectBackend: String? = nil,
        aemBackend: String? = nil
    ) throws {
        let session = try ContentSession.load(
            configFlag: configFile, environment: environment, registry: BuiltInBackends.registry)
        let backends = session.configuration.backends
        var dataConnect: DataConnectSettings?
        if dataConnectBackend != nil || backends.contains(where: { $0.typeName == DataConnectPlugin.typeName }) {
            let backend = try session.selectBackend(named: dataConnectBackend, type: DataConnectPlugin.typeName)
            dataConnect = try Self.dataConnect(
                backend.section.decode(DataConnectConfiguration.self), environment: environment)
        }
        var aem: AEMSettings?
        if aemBackend != nil || backends.contains(where: { $0.typeName == AEMPlugin.typeName }) {
            let backend = try session.selectBackend(named: aemBackend, type: AEMPlugin.typeName)
            aem = try Self.aem(backend.section.decode(AEMConfiguration.self), backend: backend.name)
        }
        let http = try HTTPSettings(
            defaults: session.configuration.defaults, environment: environment, redactor: Redactor())
        self.init(dataConnect: dataConnect, aem: aem, http: http)
    }

    private static func dataConnect(_ configuration: DataConnectConfiguration, environment: [String: String]) throws
        -> DataConnectSettings
    {
        let endpoint: DataConnectSettings.Endpoint
        if let emulator = configuration.emulator ?? environment["FIREBASE_DATA_CONNECT_EMULATOR_HOST"] {
            endpoint = .url(emulator.contains("://") ? emulator : "http://\(emulator)")
        } else {
            endpoint = .url(configuration.url ?? DataConnectConfiguration.productionURL)
        }
        let auth = configuration.auth
        let idToken: CredentialProvider?
        if let token = auth?.idToken?.value, !token.isEmpty {
            idToken = { token }
        } else if let command = auth?.idTokenCommand {
            // Run once, when a request first needs it, as the `dataconnect` backend runs it once per process.
            let once = CommandToken(command: command)
            idToken = { try once.value() }
        } else {
            idToken = nil
        }
        let appCheck: CredentialProvider? = auth?.appCheckToken.map { secret in { @Sendable in secret.value } }
        return DataConnectSettings(
            endpoint: endpoint, project: configuration.project, location: configuration.location,
            service: configuration.service, apiVersion: configuration.apiVersion?.rawValue ?? "v1", idToken: idToken,
            appCheckToken: appCheck, apiKey: auth?.apiKey?.value,
            headers: configuration.headers ?? [:])
    }

    private static func aem(_ configuration: AEMConfiguration, backend: String) throws -> AEMSettings {
        let auth = configuration.auth
        let authentication: AEMSettings.Authentication
        switch auth?.type ?? .none {
        case .none:
            authentication = .none
        case .basic:
            authentication = .basic(username: auth?.username ?? "", password: auth?.password?.value ?? "")
        case .token:
            // Read once, as the `aem` backend reads it, not once per request.
            let token = try auth?.bearerToken(backend: backend)
            authentication = .bearer { token }
        case .serviceCredentials, .oauthServerToServer:
            // The client has one transport and no place to keep an IMS token source's; an app passes its own
            // provider instead.
            throw AEMError(
                kind: .configuration,
                description: "backend '\(backend)': auth type \(auth?.type.rawValue ?? "") signs in through IMS, "
                    + "which ContentClient does not do from content.yaml; give AEMSettings "
                    + ".bearer { … } a token provider in code")
        }
        return AEMSettings(
            url: configuration.url, authentication: authentication, headers: configuration.headers ?? [:])
    }
}

/// The output of `auth.idTokenCommand`, run the first time a request asks and kept after that.
private final class CommandToken: @unchecked Sendable {
    private let command: String
    private let lock = NSLock()
    private var token: String?

    init(command: String) {
        self.command = command
    }

    func value() throws -> String {
        try lock.withLock {
            if let token { return token }
            let fresh = try DataConnectBackend.runTokenCommand(command)
            token = fresh
            return fresh
        }
    }
}
