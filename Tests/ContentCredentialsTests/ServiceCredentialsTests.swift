import ContentCore
import ContentJSON
import ContentTesting
import Foundation
import Testing

@testable import ContentCredentials

/// The Developer Console's service-credentials file, and the JWT made from it.
struct ServiceCredentialsTests {
    static let file = TestLocations.examples.appendingPathComponent("aem/service-credentials.json").path

    static func document() throws -> JSONValue {
        try JSONParser().parse(try #require(FileManager.default.contents(atPath: file)).map { $0 })
    }

    @Test func readsTheDownloadedFile() throws {
        let credentials = try ServiceCredentials(contentsOf: Self.file)
        #expect(credentials.imsEndpoint == "ims-na1.adobelogin.com")
        #expect(credentials.metascopes == ["ent_aem_cloud_api"])
        #expect(credentials.clientID == "cm-p0-e0-integration-local")
        #expect(credentials.organizationID.hasSuffix("@AdobeOrg"))
        #expect(credentials.publicKeyPEM.hasPrefix("-----BEGIN PUBLIC KEY-----"))
    }

    /// The JWT is checked by Python's `cryptography`, not by the code that signed it.
    @Test func theJWTIsRS256WithAdobesClaimsAndVerifiesIndependently() throws {
        let credentials = try ServiceCredentials(contentsOf: Self.file)
        let now = Date(timeIntervalSince1970: 1_800_000_000)
        let jwt = try credentials.signedJWT(now: now)
        let expected =
            #"{"aud": "https://ims-na1.adobelogin.com/c/cm-p0-e0-integration-local", "exp": 1800000300, "#
            + #""https://ims-na1.adobelogin.com/s/ent_aem_cloud_api": true, "#
            + #""iss": "LOCALEMULATOR0000000000@AdobeOrg", "sub": "LOCALEMULATOR0000000000@techacct.adobe.com"}"#
        guard PythonCryptography.isAvailable else {
            // Without the peer, at least the claims decode as expected.
            let claims = try #require(Base64URL.decode(jwt.split(separator: ".")[1]))
            #expect(try JSONParser().parse(claims)["exp"] == .number(JSONNumber(1_800_000_300)))
            return
        }
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let key = try directory.write(credentials.publicKeyPEM, to: "public.pem")
        let result = try #require(PythonCryptography.run(PythonCryptography.verifyRS256, arguments: [key], stdin: jwt))
        #expect(result.status == 0, "\(result.stdout)")
        #expect(result.stdout == expected + "\n")
        // A changed claim no longer verifies.
        var parts = jwt.split(separator: ".").map(String.init)
        parts[1] = Base64URL.encode(Array(#"{"exp":1900000000}"#.utf8))
        let forged = PythonCryptography.run(
            PythonCryptography.verifyRS256, arguments: [key], stdin: parts.joined(separator: "."))
        #expect(forged?.status != 0)
    }

    @Test func metascopesAreReadAsAStringOrAList() throws {
        var integration = try #require(Self.document()["integration"]?.objectValue)
        integration["metascopes"] = .string("ent_aem_cloud_api, ent_cloudmgr_sdk")
        #expect(
            try ServiceCredentials(document: .object(integration), file: "x.json").metascopes
                == ["ent_aem_cloud_api", "ent_cloudmgr_sdk"])
        integration["metascopes"] = .array([.string("ent_aem_cloud_api")])
        #expect(
            try ServiceCredentials(document: .object(integration), file: "x.json").metascopes == ["ent_aem_cloud_api"])
    }

    /// Every broken file names itself and the key that is wrong, and never shows the secret or the key.
    @Test func aBrokenFileNamesTheFileAndTheKey() throws {
        let integration = try #require(Self.document()["integration"]?.objectValue)
        let secret = try #require(integration["technicalAccount"]?["clientSecret"]?.stringValue)
        let cases: [(String, JSONValue?, String)] = [
            ("imsEndpoint", nil, "creds.json: integration.imsEndpoint is missing or not a string"),
            ("org", .number(JSONNumber(1)), "creds.json: integration.org is missing or not a string"),
            ("technicalAccount", .object([:]), "integration.technicalAccount.clientId is missing"),
            ("metascopes", .string(" , "), "integration.metascopes names no metascope; AEM's is ent_aem_cloud_api"),
            (
                "privateKey", .string("-----BEGIN RSA PRIVATE KEY-----\nAAAA\n-----END RSA PRIVATE KEY-----"),
                "integration.privateKey is not an RSA private key of 2048 bits or more in PEM"
            ),
        ]
        for (key, value, message) in cases {
            var broken = integration
            broken[key] = value
            #expect(throws: TokenEndpointError.self) {
                try ServiceCredentials(document: .object(broken), file: "creds.json")
            }
            do {
                _ = try ServiceCredentials(document: .object(broken), file: "creds.json")
            } catch {
                #expect(error.description.contains(message), "\(key): \(error.description)")
                #expect(!error.description.contains(secret))
                #expect(error.category == .configuration)
            }
        }
    }

    @Test func aFileThatIsNotJSONOrNotThereSaysSo() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let notJSON = try directory.write("client_secret=abc", to: "creds.json")
        #expect(throws: TokenEndpointError.self) { try ServiceCredentials(contentsOf: notJSON) }
        do {
            _ = try ServiceCredentials(contentsOf: notJSON)
        } catch {
            #expect(error.description.hasPrefix("service credentials \(notJSON): not JSON"))
        }
        do {
            _ = try ServiceCredentials(contentsOf: directory.path("missing.json"))
            Issue.record("a missing file was read")
        } catch {
            #expect(error.description.contains("cannot use the service credentials"))
            #expect(error.description.contains("point credentialsFile at the JSON the Developer Console downloads"))
        }
        // A device is refused, not read forever.
        do {
            _ = try ServiceCredentials(contentsOf: "/dev/zero")
            Issue.record("a device was read")
        } catch {
            #expect(error.description.contains("it is not a regular file"))
        }
    }
}
