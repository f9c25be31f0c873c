import ContentTesting
import Foundation
import Testing

/// Data Connect's gRPC API on the Data Connect port of the built `content serve`, called by an independent client:
/// Python's grpcio with stubs generated from the service's own .proto files (`Peers/dataconnect_grpc_peer.py`).
struct DataConnectGRPCEndToEndTests {
    /// Each scenario the peer reported, by name.
    static func runPeer(
        _ peer: String = "dataconnect_grpc_peer.py", target: String, transport: String = "grpc"
    ) throws -> [String: [String: Any]]? {
        guard let protos = TestLocations.corpusFolder("dataconnect/protos") else { return nil }
        let modules = transport == "websocket" ? "grpc, grpc_tools, websockets" : "grpc, grpc_tools"
        let probe = try ContentProcess.run(
            shell: "python3 -c 'import \(modules)' 2>&1", in: FileManager.default.temporaryDirectory)
        guard probe.status == 0 else {
            print("note: skipping the \(transport) peer checks: python3 with \(modules) is missing")
            return nil
        }
        let stubs = try Scratch()
        defer { stubs.remove() }
        let script = ContentProcess.repository.appendingPathComponent(
            "Tests/ContentEndToEndTests/Peers/\(peer)")
        let result = try ContentProcess.run(
            shell: "python3 '\(script.path)' '\(protos.path)' '\(stubs.url.path)' '\(target)' '\(transport)'",
            in: stubs.url)
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        var scenarios: [String: [String: Any]] = [:]
        for line in result.stdout.split(separator: "\n") {
            guard let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
                let name = object["scenario"] as? String
            else { continue }
            scenarios[name] = object
        }
        return scenarios
    }

    /// The gRPC code the REST API's status name is.
    static let codeOfStatus = [
        "INVALID_ARGUMENT": "INVALID_ARGUMENT", "NOT_FOUND": "NOT_FOUND", "UNAUTHENTICATED": "UNAUTHENTICATED",
        "PERMISSION_DENIED": "PERMISSION_DENIED", "FAILED_PRECONDITION": "FAILED_PRECONDITION",
    ]

    @Test func anIndependentGRPCClientGetsWhatRESTGets() throws {
        try ContentProcess.withServices { services in
            let base = try #require(services["dataconnect"])
            let target = String(base.dropFirst("http://".count))
            guard let scenarios = try Self.runPeer(target: target) else { return }
            // Same answers on both APIs: OK with the same data and errors where REST answers 200, else the gRPC code
            // of REST's status with the same message.
            for name in [
                "query", "wrong-type", "missing-variable", "unknown-operation", "mutation-by-query",
                "user-without-token", "user-with-token", "partial-error",
            ] {
                let scenario = try #require(scenarios[name], "\(name) was not reported")
                let grpc = try #require(scenario["grpc"] as? [String: Any])
                let rest = try #require(scenario["rest"] as? [String: Any])
                let body = try #require(rest["body"] as? [String: Any])
                if rest["status"] as? Int == 200 {
                    #expect(grpc["code"] as? String == "OK", "\(name): \(grpc)")
                    #expect(
                        NSDictionary(dictionary: grpc["data"] as? [String: Any] ?? [:])
                            == NSDictionary(dictionary: body["data"] as? [String: Any] ?? [:]), "\(name)")
                    let restErrors = (body["errors"] as? [[String: Any]] ?? []).map { $0["message"] as? String }
                    let grpcErrors = (grpc["errors"] as? [[String: Any]] ?? []).map { $0["message"] as? String }
                    #expect(grpcErrors == restErrors, "\(name)")
                    // extensions.dataConnect: the same entries, protobuf's JSON form of the wire's being REST's.
                    #expect(
                        NSDictionary(dictionary: grpc["extensions"] as? [String: Any] ?? [:])
                            == NSDictionary(dictionary: body["extensions"] as? [String: Any] ?? [:]), "\(name)")
                } else {
                    let error = try #require(body["error"] as? [String: Any])
                    let status = try #require(error["status"] as? String)
                    #expect(grpc["code"] as? String == Self.codeOfStatus[status], "\(name): \(grpc) for \(status)")
                    #expect(grpc["message"] as? String == error["message"] as? String, "\(name)")
                }
            }
            // The cases the comparison stands on are the ones meant.
            let query = try #require(scenarios["query"]?["grpc"] as? [String: Any])
            #expect(((query["data"] as? [String: Any])?["movies"] as? [Any])?.count == 3)
            let entities = ((query["extensions"] as? [String: Any])?["dataConnect"] as? [[String: Any]])?.first
            #expect(entities?["action"] as? String == "LIST")
            #expect((entities?["entityIds"] as? [String])?.count == 3)
            #expect((scenarios["unknown-operation"]?["grpc"] as? [String: Any])?["code"] as? String == "NOT_FOUND")
            #expect(
                (scenarios["user-without-token"]?["grpc"] as? [String: Any])?["code"] as? String == "UNAUTHENTICATED")
            let partial = try #require(scenarios["partial-error"]?["grpc"] as? [String: Any])
            #expect(partial["code"] as? String == "OK")
            let partialErrors = try #require(partial["errors"] as? [[String: Any]])
            #expect(partialErrors.count == 1)
            #expect(partialErrors.first?["path"] as? [String] == ["review_upsert"])
            // "Omitted in ExecuteMutation and ExecuteQuery since the caller shouldn't have access [to] the underlying
            // GQL source" (graphql_error.proto).
            let locations = partialErrors.first?["locations"] as? [Any] ?? []
            #expect(locations.isEmpty, "\(partialErrors)")

            let mutation = try #require(scenarios["mutation"])
            let created = try #require(mutation["created"] as? [String: Any])
            #expect(created["code"] as? String == "OK")
            let listed = try #require((mutation["listed"] as? [String: Any])?["data"] as? [String: Any])
            #expect((listed["movies"] as? [[String: Any]])?.first?["title"] as? String == "Peer Review")
            // Numbers arrive as JSON numbers: a whole one stays whole.
            #expect((listed["movies"] as? [[String: Any]])?.first?["releaseYear"] as? Int == 2026)

            #expect(scenarios["bad-name"]?["code"] as? String == "INVALID_ARGUMENT")
            // Firebase's emulator ignores the location (firebase-tools sends locations/unused), not the service.
            let otherLocation = try #require(scenarios["other-location"])
            #expect(otherLocation["code"] as? String == "OK")
            #expect(((otherLocation["data"] as? [String: Any])?["genreSummaries"] as? [Any])?.isEmpty == false)
            #expect(scenarios["other-service"]?["code"] as? String == "NOT_FOUND")
            #expect((scenarios["other-service"]?["message"] as? String)?.contains("serves content-sample") == true)
            #expect(scenarios["malformed"]?["code"] as? String != "OK")
            #expect(scenarios["malformed"]?["code"] != nil)
            #expect(scenarios["unknown-method"]?["code"] as? String == "UNIMPLEMENTED")
            let concurrent = try #require(scenarios["concurrent"])
            #expect(concurrent["grpc_ok"] as? Int == 100)
            #expect(concurrent["rest_statuses"] as? [Int] == [200])

            // After all of it, both APIs still answer.
            let after = try ContentProcess.run(
                shell: """
                    python3 -c 'import sys, urllib.request
                    request = urllib.request.Request(sys.argv[1], b"{\\"operationName\\":\\"listGenres\\"}",
                        {"Content-Type": "application/json"})
                    print(urllib.request.urlopen(request).status)' \
                    '\(base)/v1/projects/p/locations/us-central1/services/content-sample/connectors/movies:executeQuery'
                    """, in: FileManager.default.temporaryDirectory)
            #expect(after.stdout == "200\n", "\(after.stderr)")
        }
    }

    /// `content serve --limit response-bytes=N` holds gRPC answers to the limit as it holds REST bodies, with gRPC's
    /// status for a message too large, and still answers those within it.
    @Test func anAnswerPastTheResponseLimitIsRefusedOnBothAPIs() throws {
        try ContentProcess.withServices(["--limit", "response-bytes=400"]) { services in
            let base = try #require(services["dataconnect"])
            let target = String(base.dropFirst("http://".count))
            guard let scenarios = try Self.runPeer(target: target, transport: "response-limit") else { return }
            // Three movies with their entity ids are over 400 bytes on both APIs.
            let large = try #require(scenarios["large"])
            let grpc = try #require(large["grpc"] as? [String: Any])
            #expect(grpc["code"] as? String == "RESOURCE_EXHAUSTED", "\(grpc)")
            let message = try #require(grpc["message"] as? String)
            #expect(message.contains("at most 400 are allowed") && message.contains("response-bytes"), "\(message)")
            let rest = try #require(large["rest"] as? [String: Any])
            let error = (rest["body"] as? [String: Any])?["error"] as? [String: Any]
            #expect(rest["status"] as? Int == 429 && error?["status"] as? String == "RESOURCE_EXHAUSTED", "\(rest)")
            // A genre without movies is a small answer: served on both.
            let small = try #require(scenarios["small"])
            let served = try #require(small["grpc"] as? [String: Any])
            #expect(served["code"] as? String == "OK", "\(served)")
            #expect(((served["data"] as? [String: Any])?["movies"] as? [Any])?.isEmpty == true, "\(served)")
            #expect((small["rest"] as? [String: Any])?["status"] as? Int == 200)
        }
    }

    /// Queries with `@refresh`, added to a copy of the sample connector.
    static let realtimeOperations = """
        # Genres, polled every second.
        query pollGenres @auth(level: PUBLIC) @refresh(every: { seconds: 1 }) {
          genreSummaries(orderBy: [{ genre: ASC }]) { genre movieCount }
        }

        # The movies of a genre, refreshed when createMovie adds one of that genre.
        query genreWatch($genre: String!) @auth(level: PUBLIC)
          @refresh(onMutationExecuted: {
            operation: "createMovie", condition: "mutation.variables.genre == request.variables.genre"
          }) {
          movies(where: { genre: { eq: $genre } }, orderBy: [{ title: ASC }]) { title }
        }
        """

    /// The same scenarios over both forms of the stream: gRPC, as the iOS and Android SDKs open it, and the web SDK's
    /// WebSocket.
    @Test(arguments: ["grpc", "websocket"])
    func subscriptionsOverTheStreamFollowTheirRefreshPolicies(transport: String) throws {
        let workspace = try Scratch()
        defer { workspace.remove() }
        try FileManager.default.copyItem(
            at: ContentProcess.repository.appendingPathComponent("examples/dataconnect"),
            to: workspace.url.appendingPathComponent("dataconnect"))
        try workspace.write(Self.realtimeOperations, to: "dataconnect/movies/realtime.gql")
        try ContentProcess.withServices(workspace: workspace.url, expecting: ["dataconnect"]) { services in
            let base = try #require(services["dataconnect"])
            guard
                let scenarios = try Self.runPeer(
                    "dataconnect_stream_peer.py", target: String(base.dropFirst(7)), transport: transport)
            else { return }
            func response(_ scenario: String, _ key: String) -> [String: Any]? {
                scenarios[scenario]?[key] as? [String: Any]
            }
            func rating(_ response: [String: Any]?) -> Double? {
                ((response?["data"] as? [String: Any])?["movie"] as? [String: Any])?["rating"] as? Double
            }
            // A single entity, refreshed after a single-entity mutation of its table, and only when it changed.
            #expect(rating(response("single-entity", "first")) == 8.4)
            #expect(response("single-entity", "listed")?["request_id"] as? String == "list")
            #expect(response("single-entity", "executed")?["request_id"] as? String == "rate")
            let refreshed = response("single-entity", "refreshed")
            #expect(refreshed?["request_id"] as? String == "movie")
            #expect(rating(refreshed) == 9.5)
            #expect((refreshed?["etag"] as? String)?.isEmpty == false)
            #expect(refreshed?["etag"] as? String != response("single-entity", "first")?["etag"] as? String)
            // The list query has no @refresh and is not single-entity: never sent again.
            #expect(response("single-entity", "again")?["request_id"] as? String == "rate-again")
            #expect(scenarios["single-entity"]?["unchanged"] is NSNull)

            // data_etag: a client holding the result gets nothing until it changes, whoever changes it.
            #expect(scenarios["data-etag"]?["nothing"] is NSNull)
            let pushed = scenarios["data-etag"]?["pushed"] as? [[String: Any]] ?? []
            #expect(pushed.map { $0["request_id"] as? String } == ["held", "movie"])
            #expect(pushed.map(rating) == [6.5, 6.5])

            // resume: the current result, or its etag alone for a client that says it holds it.
            #expect(response("resume", "current")?["request_id"] as? String == "movie")
            #expect(rating(response("resume", "current")) == 6.5)
            let current = response("resume", "current")?["etag"] as? String
            #expect(response("resume", "held")?["etag"] as? String == current)
            #expect(response("resume", "held")?["data"] is NSNull)

            #expect(response("refusals", "cancelled")?["cancelled"] as? Bool == true)
            #expect(response("refusals", "cancelled")?["request_id"] as? String == "movie")
            let code = { (scenario: String, key: String) -> Int? in
                (response(scenario, key)?["errors"] as? [[String: Any]])?.first?["code"] as? Int
            }
            // google.rpc.Code: INVALID_ARGUMENT 3, NOT_FOUND 5, UNAUTHENTICATED 16.
            #expect(code("refusals", "resumed") == 5)
            #expect(code("refusals", "mutation") == 3)
            #expect(response("refusals", "mutation")?["cancelled"] as? Bool == true)
            #expect(code("refusals", "unknown") == 5)
            #expect(code("anonymous", "refused") == 16)
            #expect(response("anonymous", "still")?["data"] != nil)
            // RESOURCE_EXHAUSTED 8 past a stream's 100 subscriptions.
            #expect(scenarios["anonymous"]?["held"] as? Int == 100)
            #expect(code("anonymous", "too_many") == 8)
            #expect(response("anonymous", "too_many")?["cancelled"] as? Bool == true)

            // onMutationExecuted with a condition over request and mutation.
            let watched = (response("on-mutation", "watched")?["data"] as? [String: Any])?["movies"] as? [Any]
            #expect(watched?.count == 0)
            #expect(scenarios["on-mutation"]?["other"] is NSNull)
            let matched = (response("on-mutation", "matched")?["data"] as? [String: Any])?["movies"] as? [[String: Any]]
            #expect(matched?.map { $0["title"] as? String } == ["Peer Genre"])

            // every: the poll sees a change no trigger names.
            let genres = { (key: String) -> [String]? in
                ((response("every", key)?["data"] as? [String: Any])?["genreSummaries"] as? [[String: Any]])?
                    .compactMap { $0["genre"] as? String }
            }
            #expect(genres("polled")?.contains("Polka") == false)
            #expect(genres("repolled")?.contains("Polka") == true)

            // A client that never reads holds up no one else: every mutation is answered, and a reading subscriber
            // sees each new rating in turn.
            #expect(scenarios["never-reads"]?["answered"] as? Int == 40)
            let seen = scenarios["never-reads"]?["seen"] as? [Double] ?? []
            #expect(seen == (0..<40).map { 1.0 + Double($0) / 10 })

            guard transport == "websocket" else { return }
            let websocket = try #require(scenarios["websocket"])
            func close(_ key: String) -> (Int?, String) {
                let closed = websocket[key] as? [String: Any]
                return (closed?["code"] as? Int, closed?["reason"] as? String ?? "")
            }
            // RFC 6455: 1007 for a message that is not a request, 1008 for a connection the server does not serve.
            #expect(close("malformed").0 == 1007)
            #expect(close("malformed").1.contains("not a JSON object"))
            #expect(close("wrong_type").0 == 1007)
            #expect(close("wrong_type").1.contains("not a StreamRequest"))
            #expect(close("other_service").0 == 1008)
            #expect(close("other_service").1.contains("this emulator serves content-sample"))
            #expect(close("other_path").0 == 1008)
            #expect(close("foreign").0 == 1008)
            #expect(close("foreign").1.contains("--cors https://evil.example"))
            // A token sent in a request of its own holds for the requests after it.
            #expect((websocket["before"] as? [String: Any])?["cancelled"] as? Bool == true)
            #expect(((websocket["after"] as? [String: Any])?["errors"] as? [Any])?.isEmpty == true)
            #expect((websocket["after"] as? [String: Any])?["data"] is [String: Any])
            // The path of web SDK releases before 12.18.0 is served too.
            let legacy = websocket["legacy"] as? [String: Any]
            #expect(legacy?["request_id"] as? String == "legacy", "\(String(describing: legacy))")
            #expect((legacy?["data"] as? [String: Any])?["genreSummaries"] is [Any], "\(String(describing: legacy))")
            #expect(websocket["rest"] as? Int == 200)
        }
    }
}
