import ContentTesting
import Foundation
import Testing

/// Signing in to AEM as a Cloud Service through the built binary: service credentials and OAuth server-to-server
/// against `content serve --mode author`, whose emulated IMS gives the tokens.
struct AEMSignInEndToEndTests {
    static let credentialsFile = ContentProcess.repository.appendingPathComponent(
        "examples/aem/service-credentials.json")
    static let s2sSecret = "local-s2s-secret"

    /// The two backends of `examples/aem-cloud.yaml`, on the emulator's port.
    static func config(_ scratch: Scratch, base: String, s2sScopes: String = "openid,AdobeID,aem.fragments.management")
        throws
    {
        try scratch.write(
            """
            backends:
              service:
                type: aem
                url: \(base)
                auth:
                  type: service-credentials
                  credentialsFile: \(credentialsFile.path)
                  imsURL: \(base)
              s2s:
                type: aem
                url: \(base)
                auth:
                  type: oauth-server-to-server
                  clientId: content-local-s2s
                  clientSecret: ${AEM_CLIENT_SECRET}
                  scopes: \(s2sScopes)
                  imsURL: \(base)

            """, to: "content.yaml")
    }

    /// What must never be shown: the client secrets, any line of the private key, and the tokens given.
    static func secrets(in scratch: Scratch) throws -> [String] {
        let file = try String(contentsOf: credentialsFile, encoding: .utf8)
        let integration = try #require(
            (try JSONSerialization.jsonObject(with: Data(file.utf8)) as? [String: Any])?["integration"]
                as? [String: Any])
        let key = try #require(integration["privateKey"] as? String)
        let clientSecret = try #require((integration["technicalAccount"] as? [String: Any])?["clientSecret"] as? String)
        let keyLines = key.split(whereSeparator: \.isNewline).map(String.init).filter { !$0.hasPrefix("-----") }
        let folder = scratch.url.appendingPathComponent(".cache/content/oauth")
        let tokens = try FileManager.default.contentsOfDirectory(atPath: folder.path).compactMap { name -> String? in
            let data = try Data(contentsOf: folder.appendingPathComponent(name))
            return (try JSONSerialization.jsonObject(with: data) as? [String: Any])?["access_token"] as? String
        }
        return [clientSecret, s2sSecret] + keyLines + tokens
    }

    @Test func serviceCredentialsSignInRenewOnA401AndNeverShowASecret() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        try ContentProcess.withServe(["--mode", "author"]) { base in
            try Self.config(scratch, base: base)
            let first = try ContentProcess.run(
                ["aem", "adventures", "--backend", "service", "-o", "csv", "-v"], in: scratch.url)
            #expect(first.status == 0, "\(first.stderr)")
            #expect(first.stdout.split(separator: "\n").count == 17)
            #expect(first.stderr.contains("> POST \(base)/ims/exchange/jwt"))
            #expect(first.stderr.contains("> Authorization: Bearer <redacted>"))
            // The token is kept for the next command, readable by the user only.
            let folder = scratch.url.appendingPathComponent(".cache/content/oauth")
            let files = try FileManager.default.contentsOfDirectory(atPath: folder.path)
            #expect(files.count == 1)
            let mode =
                try FileManager.default.attributesOfItem(
                    atPath: folder.appendingPathComponent(files[0]).path)[.posixPermissions] as? Int
            #expect(mode == 0o600)
            let second = try ContentProcess.run(
                ["aem", "adventures", "--backend", "service", "-o", "csv", "-v", "--no-cache"], in: scratch.url)
            #expect(second.status == 0)
            #expect(!second.stderr.contains("/ims/exchange/jwt"))

            // Revoked at IMS, the kept token gets a 401: a new one is fetched once and the command succeeds.
            let secrets = try Self.secrets(in: scratch)
            let token = try #require(secrets.last)
            let revoke = try ContentProcess.run(
                shell: """
                    python3 -c 'import sys, urllib.request, urllib.parse
                    data = urllib.parse.urlencode({"token": sys.argv[2], "client_id": "cm-p0-e0-integration-local",
                        "client_secret": sys.argv[3]}).encode()
                    print(urllib.request.urlopen(sys.argv[1] + "/ims/invalidate_token/v2", data).status)' \
                    '\(base)' '\(token)' '\(secrets[0])'
                    """, in: scratch.url)
            #expect(revoke.stdout == "200\n", "\(revoke.stderr)")
            let renewed = try ContentProcess.run(
                ["aem", "adventures", "--backend", "service", "-o", "csv", "-v", "--no-cache"], in: scratch.url)
            #expect(renewed.status == 0, "\(renewed.stderr)")
            #expect(
                renewed.stderr.contains(
                    "401 with a cached access token: fetching a new one from \(base)/ims/exchange/jwt and retrying once"
                ))
            #expect(renewed.stdout == second.stdout)

            let dryRun = try ContentProcess.run(
                ["aem", "adventures", "--backend", "service", "--dry-run"], in: scratch.url)
            #expect(dryRun.status == 0)
            #expect(dryRun.stdout.contains(#"-H "Authorization: Bearer $AEM_ACCESS_TOKEN""#))
            #expect(dryRun.stderr.contains("--dry-run fetches no token; set AEM_ACCESS_TOKEN to one from IMS"))
            #expect(dryRun.stderr.contains("gets it at \(base)/ims/exchange/jwt"), "\(dryRun.stderr)")
            for output in [first, second, renewed, dryRun] {
                for secret in try Self.secrets(in: scratch) {
                    #expect(!output.stdout.contains(secret) && !output.stderr.contains(secret))
                }
            }
        }
    }

    @Test func serverToServerSendsTheAPIKeyAndARefusalSaysWhatToCheck() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        try ContentProcess.withServe(["--mode", "author"]) { base in
            try Self.config(scratch, base: base)
            let ok = try ContentProcess.run(
                ["aem", "adventure", "bali-surf-camp", "--backend", "s2s", "-o", "csv", "--fields", "title", "-v"],
                in: scratch.url, environment: ["AEM_CLIENT_SECRET": Self.s2sSecret])
            #expect(ok.status == 0, "\(ok.stderr)")
            #expect(ok.stdout == "title\nBali Surf Camp\n")
            #expect(ok.stderr.contains("> POST \(base)/ims/token/v3"))
            #expect(ok.stderr.contains("> X-Api-Key: <redacted>"))
            let wrong = try ContentProcess.run(
                ["aem", "adventures", "--backend", "s2s"], in: scratch.url,
                environment: ["AEM_CLIENT_SECRET": "not-the-secret"])
            #expect(wrong.status == 5)
            #expect(
                wrong.stderr
                    == "content: error: the token endpoint \(base)/ims/token/v3 answered HTTP 400: "
                    + #"{"error":"invalid_client","error_description":"invalid client_secret parameter"}; "#
                    + "check auth.clientId, auth.clientSecret and auth.scopes against the credential in the "
                    + "Developer Console\n")
            let dryRun = try ContentProcess.run(
                ["aem", "adventures", "--backend", "s2s", "--dry-run"], in: scratch.url,
                environment: ["AEM_CLIENT_SECRET": Self.s2sSecret])
            #expect(dryRun.stdout.contains("-H 'X-Api-Key: content-local-s2s'"))
            for output in [ok, wrong, dryRun] {
                for secret in try Self.secrets(in: scratch) + ["not-the-secret"] {
                    #expect(!output.stdout.contains(secret) && !output.stderr.contains(secret))
                }
            }
            try Self.config(scratch, base: base, s2sScopes: "openid,aem.assets.author")
            let scope = try ContentProcess.run(
                ["aem", "adventures", "--backend", "s2s"], in: scratch.url,
                environment: ["AEM_CLIENT_SECRET": Self.s2sSecret])
            #expect(scope.status == 5)
            #expect(scope.stderr.contains(#""error_description":"Invalid scope(s): aem.assets.author""#))
        }
    }

    @Test func incompleteOrBrokenSignInSettingsAreConfigurationErrors() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let cases: [(String, String)] = [
            ("auth: { type: service-credentials }", "auth type service-credentials needs credentialsFile"),
            (
                "auth: { type: service-credentials, credentialsFile: missing.json }",
                "cannot use the service credentials \(scratch.url.path)/missing.json"
            ),
            (
                "auth: { type: oauth-server-to-server, clientId: x, clientSecret: y }",
                "auth type oauth-server-to-server needs clientId, clientSecret and scopes"
            ),
        ]
        for (auth, message) in cases {
            try scratch.write(
                "backends:\n  cloud:\n    type: aem\n    url: https://author-p1-e2.adobeaemcloud.com\n    \(auth)\n",
                to: "content.yaml")
            let result = try ContentProcess.run(["aem", "adventures"], in: scratch.url)
            #expect(result.status == 3, "\(auth): \(result.stderr)")
            #expect(result.stderr.contains(message), "\(result.stderr)")
            let validate = try ContentProcess.run(["config", "validate"], in: scratch.url)
            #expect(validate.status == 3)
        }
    }

    @Test func theExampleConfigurationValidates() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let result = try ContentProcess.run(
            ["config", "validate", ContentProcess.repository.appendingPathComponent("examples/aem-cloud.yaml").path],
            in: scratch.url)
        #expect(result.status == 0, "\(result.stderr)")
    }
}
