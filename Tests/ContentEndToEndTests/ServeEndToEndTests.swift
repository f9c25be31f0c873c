import ContentTesting
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
            [
                "serve", "--workspace", scratch.url.path, "--aem-port", "0", "--dataconnect-port", "0",
                "--resource-port", "0",
            ], in: scratch.url)
        #expect(result.status == 3)
        #expect(
            result.stderr.contains(
                "has neither aem/ or an AEM project's jcr_root/, resource/ nor a Data Connect workspace"),
            "\(result.stderr)")
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

    @Test func serveRunsTheDataConnectConnectorOfTheExamples() throws {
        try ContentProcess.withServices { services in
            let base = try #require(services["dataconnect"])
            let url =
                "\(base)/v1/projects/demo/locations/us-central1/services/content-sample/connectors/movies:executeQuery"
            let result = try ContentProcess.run(
                shell: """
                    curl -sS -H 'Content-Type: application/json' \\
                      -d '{"operationName":"listMoviesByGenre","variables":{"genre":"Sci-Fi"}}' '\(url)' \\
                      | jq -r '.data.movies[].title'
                    """,
                in: ContentProcess.repository
            )
            #expect(result.stdout == "Orbit of Glass\nSignal Drift\nSecond Sun\n", "\(result.stderr)")
        }
    }

    @Test func dataConnectRowsSurviveARestartWithData() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let data = scratch.url.appendingPathComponent("content.sqlite").path
        let mutation =
            #"{"operationName":"createMovie","variables":{"title":"Stays","releaseYear":1999,"genre":"Noir"}}"#
        let query = #"{"operationName":"listMoviesByGenre","variables":{"genre":"Noir"}}"#
        func post(_ base: String, _ verb: String, _ body: String) throws -> String {
            let url = "\(base)/v1/projects/p/locations/us-central1/services/content-sample/connectors/movies:\(verb)"
            return try ContentProcess.run(
                shell: "curl -sS -H 'Content-Type: application/json' -d '\(body)' '\(url)'", in: scratch.url
            ).stdout
        }
        try ContentProcess.withServices(["--data", data]) { services in
            let base = try #require(services["dataconnect"])
            #expect(try post(base, "executeMutation", mutation).contains("movie_insert"))
        }
        try ContentProcess.withServices(["--data", data]) { services in
            let base = try #require(services["dataconnect"])
            #expect(try post(base, "executeQuery", query).contains(#""title":"Stays""#))
        }
    }

    @Test func aWorkspaceWithOnlyDataConnectStartsOnlyThatService() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        try scratch.copyDataConnectExample()
        try ContentProcess.withServices(workspace: scratch.url, expecting: ["dataconnect"]) { services in
            #expect(services["aem"] == nil)
            #expect(services["dataconnect"] != nil)
        }
    }

    @Test func aBrokenConnectorOperationStopsStrictServeWithItsPosition() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        try scratch.copyDataConnectExample()
        let file = try scratch.write(
            "query oops @auth(level: PUBLIC) { movies { nope } }\n", to: "dataconnect/movies/oops.gql")
        let result = try ContentProcess.run(
            [
                "serve", "--strict", "--workspace", scratch.url.path, "--aem-port", "0", "--dataconnect-port", "0",
                "--resource-port", "0",
            ], in: scratch.url)
        #expect(result.status == 3)
        #expect(result.stderr.contains("\(file.path):1:44:"), "\(result.stderr)")
    }

    @Test func dataConnectSchemaPrintsTheGeneratedSchemaAndComparesItWithFirebases() throws {
        let printed = try ContentProcess.run(
            ["dataconnect", "schema", "--workspace", "examples"], in: ContentProcess.repository)
        #expect(printed.status == 0, "\(printed.stderr)")
        #expect(printed.stdout.contains("  movie_insert(data: Movie_Data!): Movie_KeyOutput!\n"))
        let missing = try ContentProcess.run(
            ["dataconnect", "schema", "--workspace", "examples", "--compare", "no-such-folder"],
            in: ContentProcess.repository)
        #expect(missing.status == 3)
        #expect(missing.stderr.contains("no-such-folder: no such folder"), "\(missing.stderr)")
        guard let flutterFire = TestLocations.corpusFolder("dataconnect/flutterfire-example") else { return }
        let reference = flutterFire.appendingPathComponent(".dataconnect/schema")
        let compared = try ContentProcess.run(
            ["dataconnect", "schema", "--workspace", flutterFire.path, "--compare", reference.path],
            in: ContentProcess.repository)
        #expect(compared.status == 0, "\(compared.stdout)\(compared.stderr)")
        #expect(compared.stdout == "")
        #expect(compared.stderr.contains("the schemas match"), "\(compared.stderr)")
        // A reference that differs: Firebase's, with a field the emulator does not generate.
        let scratch = try Scratch()
        defer { scratch.remove() }
        let changed = scratch.url.appendingPathComponent("schema")
        try FileManager.default.copyItem(at: reference, to: changed)
        let query = changed.appendingPathComponent("main/query.gql")
        let text = try String(contentsOf: query, encoding: .utf8)
        try text.replacingOccurrences(of: "extend type Query {", with: "extend type Query {\n  extraField: Int!")
            .write(to: query, atomically: true, encoding: .utf8)
        let differing = try ContentProcess.run(
            ["dataconnect", "schema", "--workspace", flutterFire.path, "--compare", changed.path],
            in: ContentProcess.repository)
        #expect(differing.status == 6)
        #expect(differing.stdout.contains("missing Query.extraField: Int!\n"), "\(differing.stdout)")
        #expect(differing.stderr.contains("differs from"), "\(differing.stderr)")
    }

    @Test func ctrlCStopsServeQuietlyWithTheInterruptedCode() throws {
        try stopServe(by: SIGINT, expecting: 130)
    }

    @Test func sigtermStopsServeQuietlyWithSuccess() throws {
        try stopServe(by: SIGTERM, expecting: 0)
    }

    /// Starts `content serve`, checks one request is answered, sends `signal`, and requires the exit code and
    /// nothing on stderr but the start-up lines: a server stopped on purpose has nothing to complain about.
    private func stopServe(by signal: Int32, expecting status: Int32) throws {
        let (process, log, services) = try ContentProcess.startServe(expecting: ["aem", "dataconnect", "resource"])
        defer { if process.isRunning { process.terminate() } }  // only when a check below threw
        let base = try #require(services["aem"], "content serve said: \(log.text)")
        let answer = try ContentProcess.run(
            shell: "curl -sS -o /dev/null -w '%{http_code}' '\(base)/graphql/execute.json/wknd-shared/adventures-all'",
            in: ContentProcess.repository)
        #expect(answer.stdout == "200")
        kill(process.processIdentifier, signal)
        process.waitUntilExit()
        log.wait(timeout: 30) { _ in false }  // to the end of its stderr
        #expect(process.terminationStatus == status)
        let unexpected = log.lines.filter { $0.lowercased().contains("error") }
        #expect(unexpected.isEmpty, "content serve said: \(log.text)")
    }

    @Test func aPortInUseIsAUsageErrorNamingTheServiceAndTheFlag() throws {
        try ContentProcess.withServe { base in
            let port = try #require(URL(string: base)?.port)
            let result = try ContentProcess.run(
                ["serve", "--aem-port", "\(port)", "--dataconnect-port", "0", "--resource-port", "0"],
                in: ContentProcess.repository)
            #expect(result.status == 2)
            #expect(
                result.stderr.contains(
                    "content: error: aem emulator: cannot listen on 127.0.0.1:\(port): address already in use; "
                        + "another process holds the port; stop it, or pick another with --aem-port"),
                "\(result.stderr)")
            #expect(!result.stderr.contains("CancellationError"), "\(result.stderr)")
        }
    }

    /// Without `--data`, Data Connect's rows are in a temporary file (SQLite's readers beside its writer need one),
    /// which must not outlive the server: stopped with Ctrl-C or with a `kill`, `serve` removes it.
    @Test(arguments: [SIGINT, SIGTERM])
    func theTemporaryDataConnectDatabaseIsRemovedWhenServeStops(signal: Int32) throws {
        let temporary = FileManager.default.temporaryDirectory.appendingPathComponent("serve-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: temporary, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: temporary) }
        let databases = {
            try FileManager.default.contentsOfDirectory(atPath: temporary.path).filter {
                $0.hasPrefix("content-dataconnect-")
            }
        }
        let (process, log, _) = try ContentProcess.startServe(environment: ["TMPDIR": temporary.path])
        let running = try databases()
        kill(process.processIdentifier, signal)
        process.waitUntilExit()
        #expect(running.contains { $0.hasSuffix(".sqlite") }, "\(running)")
        let left = try databases()
        #expect(left.isEmpty, "left behind: \(left); content serve said: \(log.text)")
    }
}
