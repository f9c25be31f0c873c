internal import ContentCore
public import ContentJSON
internal import CryptoExtras
public import Foundation

/// AEM as a Cloud Service service credentials: the JSON file the Developer Console downloads (Integrations →
/// Service Credentials), `{ "integration": { imsEndpoint, metascopes, technicalAccount { clientId, clientSecret },
/// id, org, privateKey } }`.
///
/// The file is read once and its private key parsed up front, so a broken file fails before anything is sent,
/// naming the file and the key that is wrong.
public struct ServiceCredentials: Sendable {
    /// The IMS host, such as `ims-na1.adobelogin.com`.
    public var imsEndpoint: String
    /// The metascopes the JWT claims, such as `ent_aem_cloud_api`.
    public var metascopes: [String]
    /// The technical account's client id.
    public var clientID: String
    /// The technical account's client secret.
    public var clientSecret: String
    /// The technical account id, the JWT's `sub`.
    public var technicalAccountID: String
    /// The organization id, the JWT's `iss`.
    public var organizationID: String
    /// The private key's PEM text, to mask in messages.
    public var privateKeyPEM: String
    let privateKey: _RSA.Signing.PrivateKey

    /// The public half of the key, as a PEM `PUBLIC KEY`: what the emulated IMS checks signatures with.
    public var publicKeyPEM: String { privateKey.publicKey.pemRepresentation }

    /// Reads a service-credentials file.
    ///
    /// - Parameter path: The JSON file.
    /// - Throws: ``TokenEndpointError`` of kind `credentials`, naming the file and what is wrong with it.
    public init(contentsOf path: String) throws(TokenEndpointError) {
        let text: String
        do {
            // A key file is a few kilobytes; a device or a huge file must not be read whole.
            text = try SmallTextFile.read(path)
        } catch {
            throw TokenEndpointError(
                kind: .credentials,
                description: "cannot use the service credentials \(path): \(error); point credentialsFile at the "
                    + "JSON the Developer Console downloads")
        }
        let document: JSONValue
        do {
            document = try JSONParser().parse(text)
        } catch {
            throw TokenEndpointError(
                kind: .credentials, description: "service credentials \(path): not JSON: \(error)")
        }
        try self.init(document: document, file: path)
    }

    /// Reads service credentials from their JSON document.
    ///
    /// - Parameters:
    ///   - document: The downloaded JSON, or its `integration` object alone.
    ///   - file: Where the document came from, for messages.
    /// - Throws: ``TokenEndpointError`` of kind `credentials`.
    public init(document: JSONValue, file: String) throws(TokenEndpointError) {
        let integration = document["integration"] ?? document
        func text(_ path: String, _ value: JSONValue?) throws(TokenEndpointError) -> String {
            guard let string = value?.stringValue, !string.isEmpty else {
                throw TokenEndpointError(
                    kind: .credentials,
                    description: "service credentials \(file): integration.\(path) is missing or not a string; "
                        + "download the JSON again from the Developer Console")
            }
            return string
        }
        imsEndpoint = try text("imsEndpoint", integration["imsEndpoint"])
        clientID = try text("technicalAccount.clientId", integration["technicalAccount"]?["clientId"])
        clientSecret = try text("technicalAccount.clientSecret", integration["technicalAccount"]?["clientSecret"])
        technicalAccountID = try text("id", integration["id"])
        organizationID = try text("org", integration["org"])
        privateKeyPEM = try text("privateKey", integration["privateKey"])
        // The Developer Console writes one comma-separated string; a list is read too.
        let scopes: [String]
        switch integration["metascopes"] {
        case .string(let list)?:
            scopes = list.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
        case .array(let list)?:
            scopes = list.compactMap(\.stringValue)
        default:
            scopes = []
        }
        metascopes = scopes.filter { !$0.isEmpty }
        guard !metascopes.isEmpty else {
            throw TokenEndpointError(
                kind: .credentials,
                description: "service credentials \(file): integration.metascopes names no metascope; AEM's is "
                    + "ent_aem_cloud_api")
        }
        do {
            privateKey = try _RSA.Signing.PrivateKey(pemRepresentation: privateKeyPEM)
        } catch {
            throw TokenEndpointError(
                kind: .credentials,
                description: "service credentials \(file): integration.privateKey is not an RSA private key of 2048 "
                    + "bits or more in PEM; download the JSON again from the Developer Console")
        }
    }

    /// The JWT that asks IMS for an access token: RS256, `{ exp, iss, sub, aud, "https://{ims}/s/{metascope}":
    /// true }`, as Adobe's service-credentials guide lays it out.
    ///
    /// - Parameter now: The time it is signed at; it expires five minutes later, as Adobe's own `jwt-auth` does.
    /// - Returns: The compact JWT.
    /// - Throws: ``TokenEndpointError`` when the key cannot sign.
    public func signedJWT(now: Date = Date()) throws(TokenEndpointError) -> String {
        let host = imsHost
        var claims: JSONObject = [
            // IMS refuses an `exp` that is not a whole number of seconds ("JWT token is incorrectly formatted").
            "exp": .number(JSONNumber(Int(now.timeIntervalSince1970) + 300)),
            "iss": .string(organizationID),
            "sub": .string(technicalAccountID),
            "aud": .string("https://\(host)/c/\(clientID)"),
        ]
        for scope in metascopes { claims["https://\(host)/s/\(scope)"] = .bool(true) }
        return try signedJWT(claims: claims)
    }

    /// Any claims as an RS256 JWT signed with the credentials' key.
    ///
    /// - Parameter claims: The claims.
    /// - Returns: The compact JWT.
    /// - Throws: ``TokenEndpointError`` when the key cannot sign.
    public func signedJWT(claims: JSONObject) throws(TokenEndpointError) -> String {
        let header = JSONValue.object(["alg": .string("RS256"), "typ": .string("JWT")])
        let input =
            Base64URL.encode(header.serialized()) + "." + Base64URL.encode(JSONValue.object(claims).serialized())
        do {
            let signature = try privateKey.signature(for: Array(input.utf8), padding: .insecurePKCS1v1_5)
            return input + "." + Base64URL.encode(Array(signature.rawRepresentation))
        } catch {
            throw TokenEndpointError(
                kind: .credentials, description: "the service credentials' private key cannot sign: \(error)")
        }
    }

    /// The IMS host the JWT's audience and metascope claims name: `imsEndpoint` without a scheme or path.
    public var imsHost: String { Self.host(of: imsEndpoint) }

    /// `ims-na1.adobelogin.com` from `ims-na1.adobelogin.com` or `https://ims-na1.adobelogin.com/`.
    static func host(of endpoint: String) -> String {
        var host = Substring(endpoint)
        if let scheme = host.range(of: "://") { host = host[scheme.upperBound...] }
        return String(host.prefix { $0 != "/" })
    }
}

/// Base64url without padding (RFC 7515 §2), the encoding of a JWT's parts.
public enum Base64URL {
    /// Encodes bytes.
    ///
    /// - Parameter bytes: The bytes.
    /// - Returns: Their base64url text, unpadded.
    public static func encode(_ bytes: [UInt8]) -> String {
        String(
            Data(bytes).base64EncodedString().replacingOccurrences(of: "+", with: "-")
                .replacingOccurrences(of: "/", with: "_").prefix { $0 != "=" })
    }

    /// Decodes base64url text, padded or not.
    ///
    /// - Parameter text: The text.
    /// - Returns: The bytes, or `nil` when the text is not base64url.
    public static func decode(_ text: some StringProtocol) -> [UInt8]? {
        var standard = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        standard += String(repeating: "=", count: (4 - standard.count % 4) % 4)
        return Data(base64Encoded: standard).map(Array.init)
    }
}
