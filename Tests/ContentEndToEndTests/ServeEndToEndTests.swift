import Foundation
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// `content serve` as a user starts it: a real process on a free loopback port.
struct ServeEndToEndTests {
    @Test func serveAnswersPersistedQueriesOverHTTP() throws {
        try ContentProcess.withServe { base in
            let result = try ContentProcess.run(
                shell: "curl -sS -w '\\n%{http_code}' '\(base)/graphql/execute.json/wknd-shared/adventures-all'",
                in: ContentProcess.repository
            )
            #expect(result.stdout.contains(#""title":"Bali Surf Camp""#))
            #expect(result.stdout.hasSuffix("\n200"))
        }
    }

    @Test func missingWorkspaceIsAConfigurationError() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let result = try ContentProcess.run(
            ["serve", "--workspace", scratch.url.path, "--aem-port", "0"], in: scratch.url)
        #expect(result.status == 3)
        #expect(result.stderr.contains("has no aem/ folder"))
    }

    @Test func malformedFragmentIsReportedWithItsPosition() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        try scratch.write("name: thing\nfields:\n  size: { type: integer }\n", to: "aem/models/thing.yaml")
        let fragment = try scratch.write(
            "_path: /content/dam/x/one\n_model: thing\nsize: big\n",
            to: "aem/fragments/one.yaml"
        )
        let result = try ContentProcess.run(
            ["serve", "--workspace", scratch.url.path, "--aem-port", "0"], in: scratch.url)
        #expect(result.status == 3)
        #expect(result.stderr.contains("\(fragment.path):3:7: size: expected an integer, found 'big'"))
    }
}
