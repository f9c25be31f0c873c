import Foundation
import Testing

/// Paths that used to print a secret.
///
/// A token carrying a control character, a URL password in `--dry-run`, and a header flag echoed back in its
/// error. Each runs the built binary and checks that the secret is nowhere in its
/// output and that the exit code is the documented one.
struct SecretsEndToEndTests {
    static let secret = "Secret-t0ken-value"

    @Test(arguments: ["\r", "\n", "\u{01}"])
    func aTokenWithAControlCharacterIsAConfigurationErrorThatNeverShowsIt(control: String) throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        try ContentProcess.withServe(["--mode", "author", "--token", Self.secret]) { base in
            try scratch.write(
                "backends:\n  wknd:\n    type: aem\n    url: \(base)\n    auth: { type: token, token: \"${AEM_TOKEN}\" }\n",
                to: "content.yaml")
            let result = try ContentProcess.run(
                ["aem", "run", "wknd-shared/adventures-all"], in: scratch.url,
                environment: ["AEM_TOKEN": Self.secret + control])
            #expect(result.status == 3, "\(result.stderr)")
            #expect(!result.stderr.contains(Self.secret), "\(result.stderr)")
            #expect(result.stderr.contains("the value of header Authorization has a control character"))
            #expect(result.stdout.isEmpty)
        }
    }

    @Test func aTokenFileWithAControlCharacterIsRefusedTheSameWay() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let file = try scratch.write(Self.secret + "\u{01}", to: "token")
        try scratch.write(
            "backends:\n  wknd:\n    type: aem\n    url: http://127.0.0.1:1\n"
                + "    auth: { type: token, tokenFile: \(file.path) }\n",
            to: "content.yaml")
        // Refused before any connection is tried: nothing listens on port 1.
        let result = try ContentProcess.run(["aem", "adventures"], in: scratch.url)
        #expect(result.status == 3, "\(result.stderr)")
        #expect(!result.stderr.contains(Self.secret), "\(result.stderr)")
    }

    @Test func aHeaderFlagThatCannotBeSentIsAUsageErrorThatNeverShowsItsValue() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        for header in ["Authorization Bearer \(Self.secret)", "Authorization: Bearer \(Self.secret)\u{01}"] {
            let result = try ContentProcess.run(["request", "-H", header, "http://127.0.0.1:1/x"], in: scratch.url)
            #expect(result.status == 2, "\(result.stderr)")
            #expect(!result.stderr.contains(Self.secret), "\(result.stderr)")
            #expect(result.stderr.contains("--header"))
        }
    }

    @Test func dryRunPutsAURLPasswordInAVariable() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        try ContentProcess.withServe { base in
            let withPassword = base.replacingOccurrences(of: "http://", with: "http://admin:\(Self.secret)@")
            try scratch.write(
                "backends:\n  wknd:\n    type: aem\n    url: \(withPassword)\n"
                    + "  mfp:\n    type: resource\n    url: \(withPassword)/mfp/api\n",
                to: "content.yaml")
            let aem = try ContentProcess.run(["aem", "adventures", "--dry-run"], in: scratch.url)
            let resource = try ContentProcess.run(["request", "/adapters/x", "--dry-run"], in: scratch.url)
            for result in [aem, resource] {
                #expect(result.status == 0, "\(result.stderr)")
                #expect(!result.stdout.contains(Self.secret), "\(result.stdout)")
                #expect(!result.stderr.contains(Self.secret), "\(result.stderr)")
                #expect(result.stdout.contains(#"'http://admin:'"$URL_PASSWORD""#), "\(result.stdout)")
            }
            // The printed command runs as it is once the variable is set.
            let curl = try ContentProcess.run(
                shell: "export URL_PASSWORD='\(Self.secret)'; " + aem.stdout, in: scratch.url)
            #expect(curl.stdout.contains(#""title":"Bali Surf Camp""#), "\(curl.stderr)")
        }
    }
}

/// `--dry-run` shows each secret as the variable the configuration reads it from, so the printed command runs in
/// the shell that already has it.
struct DryRunVariablesEndToEndTests {
    @Test func dryRunPlaceholdersAreTheConfigurationsOwnVariables() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        try scratch.write(
            """
            backends:
              wknd:
                type: aem
                url: http://127.0.0.1:4503
                auth: { type: token, token: "${WKND_AUTHOR_TOKEN}" }
              mfp:
                type: resource
                url: http://127.0.0.1:9080/mfp/api
                auth: { type: basic, username: ada, password: "${MFP_PASSWORD:-}" }
              movies:
                type: dataconnect
                project: demo
                workspace: \(ContentProcess.repository.appendingPathComponent("examples/dataconnect").path)
                emulator: 127.0.0.1:9399
                auth: { appCheckToken: "${MY_APP_CHECK}", apiKey: "${MY_KEY}" }

            """, to: "content.yaml")
        let environment = [
            "WKND_AUTHOR_TOKEN": "token-value-1", "MFP_PASSWORD": "password-value-2", "MY_APP_CHECK": "check-value-3",
            "MY_KEY": "key-value-4",
        ]
        let aem = try ContentProcess.run(["aem", "adventures", "--dry-run"], in: scratch.url, environment: environment)
        #expect(aem.stdout.contains(#""Authorization: Bearer $WKND_AUTHOR_TOKEN""#), "\(aem.stdout)\(aem.stderr)")
        let resource = try ContentProcess.run(
            ["request", "/adapters/x", "--dry-run"], in: scratch.url, environment: environment)
        #expect(resource.stdout.contains(#"-u "ada:$MFP_PASSWORD""#), "\(resource.stdout)\(resource.stderr)")
        let query = try ContentProcess.run(
            ["query", "movies", "listMovies", "--dry-run"], in: scratch.url, environment: environment)
        #expect(query.stdout.contains(#""X-Firebase-AppCheck: $MY_APP_CHECK""#), "\(query.stdout)\(query.stderr)")
        #expect(query.stdout.contains(#"?key='"$MY_KEY""#), "\(query.stdout)")
        for result in [aem, resource, query] {
            for secret in environment.values {
                #expect(!result.stdout.contains(secret) && !result.stderr.contains(secret))
            }
        }
    }
}
