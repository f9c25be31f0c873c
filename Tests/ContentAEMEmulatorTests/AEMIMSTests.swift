import ContentCore
import ContentCredentials
import ContentEmulatorTesting
import ContentJSON
import ContentTesting
import Foundation
import Testing

@testable import ContentAEMEmulator

/// The emulated IMS token endpoints, for the integrations of the sample's `aem/ims.yaml`, and the author tier that
/// takes their tokens.
struct AEMIMSTests {
    static let credentials = TestLocations.examples.appendingPathComponent("aem/service-credentials.json").path
    static let adventures = "/graphql/execute.json/wknd-shared/adventures-all"
    static let form = [("Content-Type", "application/x-www-form-urlencoded")]

    static func encoded(_ fields: [(String, String)]) -> String {
        fields.map { "\($0.0)=\(PercentEncoding.encode($0.1))" }.joined(separator: "&")
    }

    /// The claims a correct JWT of the sample integration carries, to change one at a time.
    static func claims(_ credentials: ServiceCredentials, exp: JSONValue? = nil) -> JSONObject {
        [
            "exp": exp ?? .number(JSONNumber(Int(Date().timeIntervalSince1970) + 300)),
            "iss": .string(credentials.organizationID), "sub": .string(credentials.technicalAccountID),
            "aud": .string("https://ims-na1.adobelogin.com/c/\(credentials.clientID)"),
            "https://ims-na1.adobelogin.com/s/ent_aem_cloud_api": .bool(true),
        ]
    }

    static func exchange(
        _ client: EmulatorTestClient, jwt: String, clientID: String? = nil, secret: String? = nil
    ) async throws -> EmulatorExchange {
        let credentials = try ServiceCredentials(contentsOf: Self.credentials)
        return try await client.send(
            "/ims/exchange/jwt", method: "POST",
            body: encoded([
                ("client_id", clientID ?? credentials.clientID), ("client_secret", secret ?? credentials.clientSecret),
                ("jwt_token", jwt),
            ]), headers: form)
    }

    @Test func serviceCredentialsGetATokenTheAuthorTierTakesUntilItIsInvalidated() async throws {
        let credentials = try ServiceCredentials(contentsOf: Self.credentials)
        try await AEMHarness.run(options: .init(mode: .author)) { client in
            let answer = try await Self.exchange(client, jwt: try credentials.signedJWT())
            #expect(answer.status == 200, "\(answer.text)")
            #expect(answer.header("Cache-Control") == "no-store")
            #expect(answer.json?["token_type"] == .string("bearer"))
            // Milliseconds, as IMS gives them for this exchange.
            #expect(answer.json?["expires_in"] == .number(JSONNumber(86_400_000)))
            let token = try #require(answer.json?["access_token"]?.stringValue)
            // JWT-shaped, with IMS's claims for code that reads them.
            let payload = try #require(Base64URL.decode(token.split(separator: ".")[1]))
            let claims = try JSONParser().parse(payload)
            #expect(claims["type"] == .string("access_token") && claims["client_id"] == .string(credentials.clientID))
            #expect(claims["expires_in"] == .string("86400000"))
            let signed = try await client.get(Self.adventures, headers: [("Authorization", "Bearer \(token)")])
            #expect(signed.status == 200)
            let forged = try await client.get(Self.adventures, headers: [("Authorization", "Bearer \(token)x")])
            #expect(forged.status == 401)
            let invalidated = try await client.send(
                "/ims/invalidate_token/v2", method: "POST",
                body: Self.encoded([
                    ("token_type", "access_token"), ("token", token), ("client_id", credentials.clientID),
                    ("client_secret", credentials.clientSecret),
                ]), headers: Self.form)
            #expect(invalidated.status == 200)
            let after = try await client.get(Self.adventures, headers: [("Authorization", "Bearer \(token)")])
            #expect(after.status == 401)
        }
    }

    /// A JWT made by another implementation (Python's `cryptography`, as Adobe's samples sign them) is accepted, and
    /// one signed by another key is refused as IMS refuses it.
    @Test func aJWTSignedByAnIndependentPeerIsCheckedByItsSignature() async throws {
        guard PythonCryptography.isAvailable else { return }
        let credentials = try ServiceCredentials(contentsOf: Self.credentials)
        let claims = JSONValue.object(Self.claims(credentials)).jsonText
        let signed = try #require(
            PythonCryptography.run(PythonCryptography.signRS256, arguments: [credentials.privateKeyPEM], stdin: claims))
        #expect(signed.status == 0, "\(signed.stdout)")
        let otherKey = try #require(
            PythonCryptography.run(
                """
                from cryptography.hazmat.primitives import serialization
                from cryptography.hazmat.primitives.asymmetric import rsa
                key = rsa.generate_private_key(public_exponent=65537, key_size=2048)
                print(key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.TraditionalOpenSSL,
                                        serialization.NoEncryption()).decode())
                """, arguments: []))
        let impostor = try #require(
            PythonCryptography.run(PythonCryptography.signRS256, arguments: [otherKey.stdout], stdin: claims))
        try await AEMHarness.run { client in
            let accepted = try await Self.exchange(client, jwt: signed.stdout.trimmingCharacters(in: .newlines))
            #expect(accepted.status == 200, "\(accepted.text)")
            let refused = try await Self.exchange(client, jwt: impostor.stdout.trimmingCharacters(in: .newlines))
            #expect(refused.status == 400)
            #expect(
                refused.json
                    == .object([
                        "error": .string("invalid_token"),
                        "error_description": .string("Could not match JWT signature to any of the bindings"),
                    ]))
        }
    }

    @Test func aJWTIsRefusedAsIMSRefusesIt() async throws {
        let credentials = try ServiceCredentials(contentsOf: Self.credentials)
        let good = Self.claims(credentials)
        func changed(_ key: String, _ value: JSONValue?) -> JSONObject {
            var claims = good
            claims[key] = value
            return claims
        }
        let malformed = "JWT token is incorrectly formatted, and can not be decoded."
        let cases: [(String, String, String, String)] = [
            ("not a JWT", "not.a.jwt", "invalid_token", malformed),
            (
                "exp as a date", try credentials.signedJWT(claims: changed("exp", .string("Thu Jun 09 2022"))),
                "invalid_token", malformed
            ),
            (
                "fractional exp", try credentials.signedJWT(claims: changed("exp", .number(JSONNumber(text: "1.5e9")))),
                "invalid_token", malformed
            ),
            (
                "expired", try credentials.signedJWT(claims: changed("exp", .number(JSONNumber(1_000_000_000)))),
                "invalid_token", "JWT token is expired"
            ),
            (
                "another audience",
                try credentials.signedJWT(claims: changed("aud", .string("https://ims-na1.adobelogin.com/c/other"))),
                "invalid_token",
                "JWT token claims iss, sub and aud must be the integration's org, technical account and "
                    + "https://ims-na1.adobelogin.com/c/{client_id}"
            ),
            (
                "no metascope",
                try credentials.signedJWT(claims: changed("https://ims-na1.adobelogin.com/s/ent_aem_cloud_api", nil)),
                "invalid_scope", "Invalid metascope"
            ),
            (
                "a metascope not granted",
                try credentials.signedJWT(
                    claims: changed("https://ims-na1.adobelogin.com/s/ent_cloudmgr_sdk", .bool(true))),
                "invalid_scope", "Invalid metascope"
            ),
        ]
        try await AEMHarness.run { client in
            for (label, jwt, error, description) in cases {
                let answer = try await Self.exchange(client, jwt: jwt)
                #expect(answer.status == 400, "\(label)")
                #expect(
                    answer.json
                        == .object(["error": .string(error), "error_description": .string(description)]),
                    "\(label): \(answer.text)")
            }
            let jwt = try credentials.signedJWT()
            let unknown = try await Self.exchange(client, jwt: jwt, clientID: "someone-else")
            #expect(unknown.json?["error_description"] == .string("invalid client_id parameter"))
            let wrong = try await Self.exchange(client, jwt: jwt, secret: "wrong")
            #expect(wrong.json?["error_description"] == .string("invalid client_secret parameter"))
            #expect(wrong.status == 400)
        }
    }

    @Test func serverToServerGivesTokensForGrantedScopesOnly() async throws {
        try await AEMHarness.run(options: .init(mode: .author)) { client in
            func ask(_ fields: [(String, String)], query: String = "") async throws -> EmulatorExchange {
                try await client.send(
                    "/ims/token/v3" + query, method: "POST", body: Self.encoded(fields), headers: Self.form)
            }
            let base = [("grant_type", "client_credentials"), ("client_secret", "local-s2s-secret")]
            // The client id in the query, as Adobe's own curl example sends it.
            let answer = try await ask(
                base + [("scope", "openid,AdobeID,aem.folders")], query: "?client_id=content-local-s2s")
            #expect(answer.status == 200, "\(answer.text)")
            #expect(answer.json?["token_type"] == .string("bearer"))
            #expect(answer.json?["expires_in"] == .number(JSONNumber(86_400)))
            let token = try #require(answer.json?["access_token"]?.stringValue)
            let signed = try await client.get(Self.adventures, headers: [("Authorization", "Bearer \(token)")])
            #expect(signed.status == 200)
            let id = [("client_id", "content-local-s2s")]
            let refusals: [([(String, String)], String, String)] = [
                (
                    base + id + [("scope", "openid,aem.assets.author")], "invalid_scope",
                    "Invalid scope(s): aem.assets.author"
                ),
                (base + id, "invalid_scope", "scope parameter is missing"),
                (
                    [("grant_type", "password"), ("client_secret", "local-s2s-secret")] + id + [("scope", "openid")],
                    "unsupported_grant_type",
                    "grant_type must be client_credentials for an OAuth server-to-server credential"
                ),
                (
                    [("grant_type", "client_credentials"), ("client_secret", "nope")] + id, "invalid_client",
                    "invalid client_secret parameter"
                ),
                (
                    base + [("client_id", "nobody"), ("scope", "openid")], "invalid_client",
                    "invalid client_id parameter"
                ),
            ]
            for (fields, error, description) in refusals {
                let refused = try await ask(fields)
                #expect(refused.status == 400)
                #expect(
                    refused.json == .object(["error": .string(error), "error_description": .string(description)]),
                    "\(fields): \(refused.text)")
            }
        }
    }

    @Test func thePublishTierStaysAnonymousWithTheEndpointsThere() async throws {
        try await AEMHarness.run { client in
            let anonymous = try await client.get(Self.adventures)
            #expect(anonymous.status == 200)
            let credentials = try ServiceCredentials(contentsOf: Self.credentials)
            let answer = try await Self.exchange(client, jwt: try credentials.signedJWT())
            #expect(answer.status == 200)
        }
    }

    @Test func tokensKeptAreBounded() throws {
        var issuer = try IMSIssuer(directory: TestLocations.examples.appendingPathComponent("aem"))
        issuer.maximumTokens = 3
        var last = ""
        for _ in 0..<10 {
            let answer = try issuer.serverToServerToken([
                "grant_type": "client_credentials", "client_id": "content-local-s2s",
                "client_secret": "local-s2s-secret", "scope": "openid",
            ])
            last = answer["access_token"]?.stringValue ?? ""
        }
        #expect(issuer.tokenCount == 3)
        #expect(issuer.accepts(last))
    }

    @Test func aBrokenIMSFileStopsTheStartNamingTheFile() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        _ = try directory.write("serviceCredentials: [missing.json]\n", to: "aem/ims.yaml")
        #expect(throws: (any Error).self) { try IMSIssuer(directory: URL(fileURLWithPath: directory.path("aem"))) }
        do {
            _ = try IMSIssuer(directory: URL(fileURLWithPath: directory.path("aem")))
        } catch {
            #expect("\(error)".contains("aem/ims.yaml: serviceCredentials: cannot use the service credentials"))
            #expect("\(error)".contains("missing.json"))
        }
        _ = try directory.write("oauthServerToServer:\n  - clientId: x\n", to: "aem/ims.yaml")
        do {
            _ = try IMSIssuer(directory: URL(fileURLWithPath: directory.path("aem")))
            Issue.record("an incomplete client was read")
        } catch {
            #expect("\(error)".contains("ims.yaml:2"), "\(error)")
        }
    }
}
