internal import ContentCore
internal import ContentCredentials
internal import ContentEmulator
internal import ContentJSON
internal import ContentYAML
internal import Crypto
internal import CryptoExtras
internal import Foundation
internal import NIOConcurrencyHelpers

/// Adobe IMS's token endpoints as AEM as a Cloud Service clients meet them.
///
/// They serve the integrations a workspace lists in `aem/ims.yaml`:
/// - `POST /ims/exchange/jwt`: service credentials. The form's `client_id`, `client_secret` and `jwt_token`; the
///   JWT must be RS256, signed by the integration's key, with `iss` its org, `sub` its technical account, `aud`
///   `https://{ims}/c/{client_id}`, a whole-number `exp` in the future and a claim for one of its metascopes.
///   Answered `{ token_type, access_token, expires_in }`, `expires_in` in milliseconds.
/// - `POST /ims/token/v3`: OAuth server-to-server. `grant_type=client_credentials`, `client_id`, `client_secret`
///   and comma-separated `scope`, in the body or the query. Answered with `expires_in` in seconds.
/// - `POST /ims/invalidate_token/v2`: the form's `token`, `client_id` and `client_secret`; the token stops working.
///
/// Refusals are IMS's `{ error, error_description }`; the descriptions IMS is known to write are written so (the
/// JWT ones from Adobe's forums and issue trackers), the others are this emulator's own words.
struct IMSIssuer: Sendable {
    /// `aem/ims.yaml`.
    struct Configuration: Decodable, Sendable {
        struct ServerToServer: Decodable, Sendable {
            var clientId: String
            var clientSecret: String
            var scopes: [String]
        }

        /// Service-credentials files, relative to `aem/`, as the Developer Console downloads them.
        var serviceCredentials: [String]?
        /// OAuth server-to-server credentials.
        var oauthServerToServer: [ServerToServer]?
        /// How long a token lasts; IMS's is 24 hours.
        var tokenLifetime: ConfigDuration?
    }

    /// One issued token.
    struct Grant: Sendable {
        var clientID: String
        var expires: Date
    }

    /// The most live tokens kept: past it, the one expiring soonest is dropped, so a client asking in a loop
    /// cannot grow the emulator's memory.
    var maximumTokens = 10_000

    let integrations: [ServiceCredentials]
    let serverToServer: [Configuration.ServerToServer]
    let lifetime: Int
    private let signingKey = SymmetricKey(size: .bits256)
    private let tokens = NIOLockedValueBox([String: Grant]())

    /// What was read, for the start-up notes.
    var summary: String? {
        let count = integrations.count + serverToServer.count
        guard count > 0 else { return nil }
        return "IMS token endpoints (/ims/exchange/jwt, /ims/token/v3) for \(count) integration"
            + (count == 1 ? "" : "s") + " from ims.yaml"
    }

    /// Reads `ims.yaml` from the `aem/` folder; no file means no integration.
    ///
    /// - Parameter directory: The `aem/` folder.
    /// - Throws: ``EmulatorError/workspace(_:)`` naming the file, and the line for YAML.
    init(directory: URL) throws {
        let file = directory.appendingPathComponent("ims.yaml")
        guard let data = FileManager.default.contents(atPath: file.path) else {
            self.init(integrations: [], serverToServer: [], lifetime: 86_400)
            return
        }
        let configuration: Configuration
        do {
            configuration = try YAMLDecoder().decode(
                Configuration.self, from: String(decoding: data, as: UTF8.self), file: file.path)
        } catch {
            throw EmulatorError.workspace("\(error)")
        }
        var integrations: [ServiceCredentials] = []
        for name in configuration.serviceCredentials ?? [] {
            let path = name.hasPrefix("/") ? name : directory.appendingPathComponent(name).path
            do {
                integrations.append(try ServiceCredentials(contentsOf: path))
            } catch {
                throw EmulatorError.workspace("\(file.path): serviceCredentials: \(error)")
            }
        }
        let seconds = configuration.tokenLifetime?.duration.components.seconds ?? 86_400
        self.init(
            integrations: integrations, serverToServer: configuration.oauthServerToServer ?? [],
            lifetime: Int(clamping: max(1, seconds)))
    }

    init(integrations: [ServiceCredentials], serverToServer: [Configuration.ServerToServer], lifetime: Int) {
        self.integrations = integrations
        self.serverToServer = serverToServer
        self.lifetime = lifetime
    }

    /// An IMS refusal.
    struct Refusal: Error {
        var status: Int
        var error: String
        var description: String

        var body: JSONObject { ["error": .string(error), "error_description": .string(description)] }
    }

    // MARK: - Endpoints

    /// `/ims/exchange/jwt`.
    ///
    /// - Parameter form: The form fields.
    /// - Returns: The token answer.
    /// - Throws: ``Refusal``.
    func exchangeJWT(_ form: [String: String]) throws(Refusal) -> JSONObject {
        guard let clientID = form["client_id"], !clientID.isEmpty,
            let integration = integrations.first(where: { $0.clientID == clientID })
        else { throw Refusal(status: 400, error: "invalid_client", description: "invalid client_id parameter") }
        guard form["client_secret"] == integration.clientSecret else {
            throw Refusal(status: 400, error: "invalid_client", description: "invalid client_secret parameter")
        }
        guard let jwt = form["jwt_token"], !jwt.isEmpty else {
            throw Refusal(status: 400, error: "invalid_request", description: "jwt_token parameter is missing")
        }
        try Self.verify(jwt, for: integration)
        let token = issue(clientID: clientID, scope: integration.metascopes.joined(separator: ","))
        // IMS gives this lifetime in milliseconds, unlike /ims/token/v3.
        return [
            "token_type": .string("bearer"), "access_token": .string(token),
            "expires_in": .number(JSONNumber(lifetime * 1000)),
        ]
    }

    /// `/ims/token/v3`.
    ///
    /// - Parameter form: The fields of the body and the query.
    /// - Returns: The token answer.
    /// - Throws: ``Refusal``.
    func serverToServerToken(_ form: [String: String]) throws(Refusal) -> JSONObject {
        guard form["grant_type"] == "client_credentials" else {
            throw Refusal(
                status: 400, error: "unsupported_grant_type",
                description: "grant_type must be client_credentials for an OAuth server-to-server credential")
        }
        guard let clientID = form["client_id"], !clientID.isEmpty,
            let credential = serverToServer.first(where: { $0.clientId == clientID })
        else { throw Refusal(status: 400, error: "invalid_client", description: "invalid client_id parameter") }
        // RFC 6749 §5.2 allows 400 or 401 for a client that fails to authenticate in the body; IMS answers 400.
        guard form["client_secret"] == credential.clientSecret else {
            throw Refusal(status: 400, error: "invalid_client", description: "invalid client_secret parameter")
        }
        let asked = (form["scope"] ?? "").split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
            .filter { !$0.isEmpty }
        guard !asked.isEmpty else {
            throw Refusal(status: 400, error: "invalid_scope", description: "scope parameter is missing")
        }
        let refused = asked.filter { !credential.scopes.contains($0) }
        guard refused.isEmpty else {
            throw Refusal(
                status: 400, error: "invalid_scope", description: "Invalid scope(s): \(refused.joined(separator: ","))")
        }
        let token = issue(clientID: clientID, scope: asked.joined(separator: ","))
        return [
            "access_token": .string(token), "token_type": .string("bearer"),
            "expires_in": .number(JSONNumber(lifetime)),
        ]
    }

    /// `/ims/invalidate_token/v2`: the token stops working when the client that got it asks.
    ///
    /// - Parameter form: The form fields.
    /// - Throws: ``Refusal`` for a client that does not authenticate.
    func invalidate(_ form: [String: String]) throws(Refusal) {
        let clientID = form["client_id"] ?? ""
        let secret =
            integrations.first { $0.clientID == clientID }?.clientSecret
            ?? serverToServer.first { $0.clientId == clientID }?.clientSecret
        guard let secret, form["client_secret"] == secret else {
            throw Refusal(status: 400, error: "invalid_client", description: "invalid client_id or client_secret")
        }
        guard let token = form["token"] else { return }
        tokens.withLockedValue { tokens in
            if tokens[token]?.clientID == clientID { tokens[token] = nil }
        }
    }

    /// How many tokens are kept.
    var tokenCount: Int { tokens.withLockedValue(\.count) }

    /// Whether a bearer token is one this IMS issued and still live.
    ///
    /// - Parameter token: The token.
    /// - Returns: Whether it is.
    func accepts(_ token: String) -> Bool {
        tokens.withLockedValue { $0[token].map { $0.expires > Date() } ?? false }
    }

    // MARK: - Tokens

    /// A new token: JWT-shaped with IMS's claims (`type`, `client_id`, `as`, `created_at` and `expires_in` in
    /// milliseconds as strings) so that code reading them works; signed HS256 with a key of this process, since
    /// no client checks IMS's own signature and only this emulator accepts the token.
    private func issue(clientID: String, scope: String) -> String {
        let now = Date()
        let claims: JSONObject = [
            "id": .string(UUID().uuidString.lowercased()), "type": .string("access_token"),
            "client_id": .string(clientID), "user_id": .string(clientID), "as": .string("ims-na1"),
            "created_at": .string(String(Int(now.timeIntervalSince1970 * 1000))),
            "expires_in": .string(String(lifetime * 1000)), "scope": .string(scope),
        ]
        let header = JSONValue.object(["alg": .string("HS256"), "typ": .string("JWT")])
        let input =
            Base64URL.encode(header.serialized()) + "." + Base64URL.encode(JSONValue.object(claims).serialized())
        let mac = HMAC<SHA256>.authenticationCode(for: Array(input.utf8), using: signingKey)
        let token = input + "." + Base64URL.encode(Array(mac))
        let grant = Grant(clientID: clientID, expires: now.addingTimeInterval(TimeInterval(lifetime)))
        tokens.withLockedValue { tokens in
            if tokens.count >= maximumTokens {
                tokens = tokens.filter { $0.value.expires > now }
                if tokens.count >= maximumTokens,
                    let soonest = tokens.min(by: { $0.value.expires < $1.value.expires })?.key
                {
                    tokens[soonest] = nil
                }
            }
            tokens[token] = grant
        }
        return token
    }

    /// Checks a service-credentials JWT as IMS does.
    private static func verify(_ jwt: String, for integration: ServiceCredentials) throws(Refusal) {
        let malformed = Refusal(
            status: 400, error: "invalid_token",
            description: "JWT token is incorrectly formatted, and can not be decoded.")
        let parts = jwt.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3, let headerBytes = Base64URL.decode(parts[0]),
            let claimBytes = Base64URL.decode(parts[1]), let signature = Base64URL.decode(parts[2]),
            let header = try? JSONParser().parse(headerBytes), let claims = try? JSONParser().parse(claimBytes),
            claims.objectValue != nil
        else { throw malformed }
        guard header["alg"]?.stringValue == "RS256",
            let key = try? _RSA.Signing.PublicKey(pemRepresentation: integration.publicKeyPEM),
            key.isValidSignature(
                _RSA.Signing.RSASignature(rawRepresentation: signature), for: Array("\(parts[0]).\(parts[1])".utf8),
                padding: .insecurePKCS1v1_5)
        else {
            throw Refusal(
                status: 400, error: "invalid_token", description: "Could not match JWT signature to any of the bindings"
            )
        }
        // `exp` must be a whole number of seconds: a date string or a fraction is "incorrectly formatted".
        guard case .number(let exp)? = claims["exp"], let seconds = Int(exp.text) else { throw malformed }
        guard seconds > Int(Date().timeIntervalSince1970) else {
            throw Refusal(status: 400, error: "invalid_token", description: "JWT token is expired")
        }
        let host = integration.imsHost
        guard claims["iss"]?.stringValue == integration.organizationID,
            claims["sub"]?.stringValue == integration.technicalAccountID,
            claims["aud"]?.stringValue == "https://\(host)/c/\(integration.clientID)"
        else {
            throw Refusal(
                status: 400, error: "invalid_token",
                description: "JWT token claims iss, sub and aud must be the integration's org, technical account and "
                    + "https://\(host)/c/{client_id}")
        }
        let prefix = "https://\(host)/s/"
        let asked = (claims.objectValue?.members ?? []).filter { $0.key.hasPrefix(prefix) && $0.value == .bool(true) }
            .map { String($0.key.dropFirst(prefix.count)) }
        guard !asked.isEmpty, asked.allSatisfy(integration.metascopes.contains) else {
            throw Refusal(status: 400, error: "invalid_scope", description: "Invalid metascope")
        }
    }
}
