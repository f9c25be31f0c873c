public import ContentCore
internal import ContentCredentials
internal import Foundation

/// The `aem` backend plugin: Adobe Experience Manager persisted GraphQL queries.
public enum AEMPlugin: BackendPlugin {
    /// `aem`.
    public static let typeName = "aem"
    /// For `content backends --types`.
    public static let summary = "Adobe Experience Manager persisted GraphQL queries"

    /// Makes a backend, reading a token file when one is named.
    ///
    /// - Parameters:
    ///   - name: The backend's name.
    ///   - configuration: Its settings.
    ///   - context: Transport and shared settings.
    /// - Returns: The backend.
    /// - Throws: ``AEMError`` for a URL without scheme or host, or an unreadable token file.
    public static func makeBackend(name: String, configuration: AEMConfiguration, context: BackendContext) throws
        -> any ContentBackend
    {
        if let problem = BackendURL.problem(configuration.url) {
            throw AEMError(
                kind: .configuration,
                description: "backend '\(name)': url '\(context.redactor.redact(url: configuration.url))' \(problem); "
                    + "write it like https://publish-p123-e456.adobeaemcloud.com"
            )
        }
        let token = try configuration.auth?.bearerToken(backend: name)
        let environment = ProcessInfo.processInfo.environment
        var context = context
        var cache = ResponseCache.standard(environment: environment)
        if let auth = configuration.auth, let grant = try imsGrant(auth, backend: name, context: context) {
            let tokens = AccessTokenSource(
                grant: grant, transport: context.transport, redactor: context.redactor, environment: environment)
            let apiKey: HeaderFields = auth.type == .oauthServerToServer ? ["X-Api-Key": auth.clientId ?? ""] : [:]
            context.transport = BearerTokenTransport(
                base: context.transport, tokens: tokens, origin: configuration.url, headers: apiKey,
                logger: context.logger)
            context.redactor = context.redactor.adding(grant.secrets)
            // Responses are kept per credential, as they are per token for the other kinds.
            cache?.identity = tokens.identity
        }
        return AEMBackend(name: name, configuration: configuration, context: context, token: token, cache: cache)
    }

    /// How an IMS kind of `auth` gets its tokens; `nil` for the other kinds.
    ///
    /// - Parameters:
    ///   - auth: The backend's `auth`.
    ///   - backend: The backend's name, for messages.
    ///   - context: Where relative paths resolve.
    /// - Returns: The grant.
    /// - Throws: ``AEMError`` for missing settings, ``TokenEndpointError`` for an unusable credentials file.
    static func imsGrant(_ auth: AEMConfiguration.Auth, backend: String, context: BackendContext) throws
        -> (any TokenGrant)?
    {
        switch auth.type {
        case .serviceCredentials:
            guard let file = auth.credentialsFile else {
                throw AEMError(
                    kind: .configuration,
                    description: "backend '\(backend)': auth type service-credentials needs credentialsFile, the "
                        + "JSON the Developer Console downloads (Integrations → Service Credentials)")
            }
            let path = file.hasPrefix("/") ? file : context.baseDirectory + "/" + file
            return IMSServiceCredentialsGrant(
                credentials: try ServiceCredentials(contentsOf: path), imsURL: auth.imsURL)
        case .oauthServerToServer:
            guard let clientID = auth.clientId, let secret = auth.clientSecret?.value, let scopes = auth.scopes,
                !scopes.values.isEmpty
            else {
                throw AEMError(
                    kind: .configuration,
                    description: "backend '\(backend)': auth type oauth-server-to-server needs clientId, "
                        + "clientSecret and scopes, as the Developer Console shows the OAuth Server-to-Server "
                        + "credential")
            }
            return IMSServerToServerGrant(
                imsURL: auth.imsURL, clientID: clientID, clientSecret: secret,
                scopes: scopes.values)
        case .none, .basic, .token:
            return nil
        }
    }

    /// Where an IMS kind of auth gets its tokens, said without reading any file: for a note that names it.
    ///
    /// - Parameter auth: The backend's `auth`.
    /// - Returns: The token endpoint, or where it comes from when only the credentials file knows it.
    public static func imsTokenEndpoint(_ auth: AEMConfiguration.Auth) -> String {
        switch auth.type {
        case .serviceCredentials:
            auth.imsURL.map { IMSServiceCredentialsGrant.tokenURL(imsURL: $0) }
                ?? "/ims/exchange/jwt of the imsEndpoint in \(auth.credentialsFile ?? "credentialsFile")"
        default:
            IMSServerToServerGrant.tokenURL(imsURL: auth.imsURL)
        }
    }
}
