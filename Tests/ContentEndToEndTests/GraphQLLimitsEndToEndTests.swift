import ContentTesting
import Foundation
import Testing

/// One request must not be able to stop or exhaust `content serve`: the reproducers that used to crash it or grow it
/// without bound, sent over loopback to a real server that must go on answering afterwards.
struct GraphQLLimitsEndToEndTests {
    static let adventures = "/content/cq:graphql/wknd-shared/endpoint.json"
    static let admin = "/v1/projects/demo/locations/us-central1/services/content-sample:executeGraphql"

    /// The Data Connect admin API's token, given to `serve`.
    static let serve = ["--admin-token", "limits-test-token"]

    /// POSTs the JSON Python prints (from `script`) and returns `status body`.
    static func post(_ url: String, python script: String) throws -> String {
        let result = try ContentProcess.run(
            shell: """
                python3 -c '\(script)' | curl -sS -o /dev/stdout -w ' %{http_code}' \\
                  -H 'Content-Type: application/json' -H 'Authorization: Bearer limits-test-token' \\
                  --data-binary @- '\(url)'
                """, in: ContentProcess.repository)
        return result.stdout
    }

    @Test func aQueryNestedBehindACommentOrAStringIsRefusedAndTheServerGoesOn() throws {
        try ContentProcess.withServices(Self.serve) { services in
            let aem = try #require(services["aem"])
            let dataConnect = try #require(services["dataconnect"])
            // The reproducers of the crash: braces hidden from the old depth check by `#…\r` and by `"\\"`.
            let hidden = [
                ##"import json;n=3000;print(json.dumps({"query":"#\r{"+"adventureList{"*n+"x"+"}"*n+"}"}))"##,
                #"import json;n=3000;print(json.dumps({"query":"{a(s:\"\\\\\"){"+"adventureList{"*n+"x"+"}"*n+"}"}))"#,
            ]
            for script in hidden {
                let answer = try Self.post(aem + Self.adventures, python: script)
                #expect(answer.contains("nests more than 64 levels deep"), "\(answer)")
                #expect(answer.hasSuffix(" 200"), "\(answer)")
            }
            let admin = try Self.post(
                dataConnect + Self.admin,
                python: ##"import json;n=3000;print(json.dumps({"query":"#\r{"+"movies{"*n+"id"+"}"*n+"}"}))"##)
            #expect(admin.contains(#""status":"INVALID_ARGUMENT""#), "\(admin)")
            #expect(admin.hasSuffix(" 400"), "\(admin)")
            let after = try Self.post(
                aem + Self.adventures,
                python: #"import json;print(json.dumps({"query":"{adventureList{items{title}}}"}))"#)
            #expect(after.contains("Bali Surf Camp"), "the server stopped answering: \(after)")
        }
    }

    @Test func anAliasBombIsRefusedUntilServeRaisesTheLimit() throws {
        let bomb =
            #"import json;print(json.dumps({"query":"{"+" ".join("a%d: adventureList{items{title}}"%i for i in range(150))+"}"}))"#
        try ContentProcess.withServices { services in
            let aem = try #require(services["aem"])
            let answer = try Self.post(aem + Self.adventures, python: bomb)
            #expect(answer.contains("150 aliases"), "\(answer)")
            #expect(answer.contains("content serve --limit aliases=N"), "\(answer)")
            let huge =
                #"import json;print(json.dumps({"query":"{"+" ".join("a%d: adventureList{items{title}}"%i for i in range(100000))+"}"}))"#
            // 100,000 aliases: 3.6 MB of text, refused by its size before it is scanned.
            #expect(try Self.post(aem + Self.adventures, python: huge).contains("at most 1048576 are allowed"))
        }
        try ContentProcess.withServices(["--limit", "aliases=200"]) { services in
            let aem = try #require(services["aem"])
            let answer = try Self.post(aem + Self.adventures, python: bomb)
            #expect(answer.contains(#""a149":{"items":[{"title":"#), "\(answer.prefix(300))")
        }
    }

    @Test func aResponseOverTheLimitIsAnErrorNotATruncatedBody() throws {
        try ContentProcess.withServices(Self.serve + ["--limit", "response-bytes=300"]) { services in
            let aem = try #require(services["aem"])
            let answer = try Self.post(
                aem + Self.adventures,
                python: #"import json;print(json.dumps({"query":"{adventureList{items{title description{html}}}}"}))"#)
            #expect(answer.contains("at most 300 are allowed"), "\(answer.prefix(300))")
            let dataConnect = try #require(services["dataconnect"])
            let admin = try Self.post(
                dataConnect + Self.admin,
                python: #"import json;print(json.dumps({"query":"{movies{id title genre releaseYear}}"}))"#)
            #expect(admin.contains(#""status":"RESOURCE_EXHAUSTED""#), "\(admin)")
        }
    }

    @Test(arguments: [
        (["--limit", "aliases"], "--limit aliases is not NAME=VALUE"),
        (["--limit", "nope=3"], "--limit nope is not a limit; names: characters, tokens, depth"),
        (["--limit", "depth=-1"], "--limit depth=-1: the value must be a whole number above 0"),
    ])
    func aBadLimitIsAUsageError(arguments: [String], message: String) throws {
        let result = try ContentProcess.run(["serve"] + arguments, in: ContentProcess.repository)
        #expect(result.status == 2)
        #expect(result.stderr.contains(message), "\(result.stderr)")
    }
}
