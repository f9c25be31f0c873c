import ContentEmulatorTesting
import ContentJSON
import Foundation
import Testing

@testable import ContentAEMEmulator

struct AEMAuthorModeTests {
    private let adminAuthorization = ("Authorization", "Basic " + Data("admin:admin".utf8).base64EncodedString())

    @Test func authorModeRefusesAnonymousRequests() async throws {
        try await AEMHarness.run(options: .init(mode: .author, token: "t0ken-for-tests")) { client in
            let anonymous = try await client.get("/graphql/execute.json/wknd-shared/adventures-all")
            #expect(anonymous.status == 401)
            #expect(anonymous.header("WWW-Authenticate")?.hasPrefix("Basic") == true)
            let wrong = try await client.get(
                "/graphql/execute.json/wknd-shared/adventures-all",
                headers: [("Authorization", "Basic " + Data("admin:nope".utf8).base64EncodedString())]
            )
            #expect(wrong.status == 401)
            let basic = try await client.get(
                "/graphql/execute.json/wknd-shared/adventures-all", headers: [adminAuthorization])
            #expect(basic.status == 200)
            let bearer = try await client.get(
                "/graphql/execute.json/wknd-shared/adventures-all",
                headers: [("Authorization", "Bearer t0ken-for-tests")]
            )
            #expect(bearer.status == 200)
        }
    }

    @Test func persistCreatesThenUpdatesAndTheQueryRuns() async throws {
        try await AEMHarness.run(options: .init(mode: .author)) { client in
            let query = "{ adventureList(sort: \"price DESC\", limit: 1) { items { title price } } }"
            let created = try await client.send(
                "/graphql/persist.json/wknd-shared/most-expensive",
                method: "PUT",
                body: query,
                headers: [adminAuthorization]
            )
            #expect(created.status == 201)
            #expect(
                created.json
                    == .object([
                        "action": .string("create"), "configurationName": .string("wknd-shared"),
                        "name": .string("most-expensive"),
                        "shortPath": .string("/wknd-shared/most-expensive"),
                        "path": .string("/conf/wknd-shared/settings/graphql/persistentQueries/most-expensive"),
                    ])
            )
            let again = try await client.send(
                "/graphql/persist.json/wknd-shared/most-expensive",
                method: "PUT",
                body: query,
                headers: [adminAuthorization]
            )
            #expect(again.status == 409)
            let run = try await client.get(
                "/graphql/execute.json/wknd-shared/most-expensive", headers: [adminAuthorization])
            #expect(
                run.json?["data"]?["adventureList"]?["items"]?.arrayValue?.first?["title"] == .string("Bali Surf Camp"))

            let updated = try await client.post(
                "/graphql/persist.json/wknd-shared/most-expensive",
                json:
                    #"{"query":"{ adventureList(sort: \"price ASC\", limit: 1) { items { title } } }","cache-control":{"max-age":300},"#
                    + #""surrogate-control":{"max-age":600,"stale-while-revalidate":1000,"stale-if-error":1000}}"#,
                headers: [adminAuthorization]
            )
            #expect(updated.status == 200)
            #expect(updated.json?["action"] == .string("update"))
            let rerun = try await client.get(
                "/graphql/execute.json/wknd-shared/most-expensive", headers: [adminAuthorization])
            #expect(
                rerun.json?["data"]?["adventureList"]?["items"]?.arrayValue?.first?["title"]
                    == .string("Gastronomic Marais Tour"))
            // Adobe's table: surrogate-control's max-age is the header's s-maxage, all in one Cache-Control.
            #expect(
                rerun.header("Cache-Control")
                    == "max-age=300,s-maxage=600,stale-while-revalidate=1000,stale-if-error=1000")
            #expect(rerun.header("Surrogate-Control") == nil)
            // The Cache-Control a query persisted with these settings is answered with.
            func cacheControl(_ name: String, settings: String) async throws -> String? {
                let persisted = try await client.send(
                    "/graphql/persist.json/wknd-shared/\(name)", method: "PUT",
                    body: #"{"query":"{ adventureList { items { title } } }","# + settings + "}",
                    headers: [adminAuthorization, ("Content-Type", "application/json")])
                #expect(persisted.status == 201, "\(name)")
                return try await client.get(
                    "/graphql/execute.json/wknd-shared/\(name)", headers: [adminAuthorization]
                ).header("Cache-Control")
            }
            // What a query leaves out keeps the tier's default (author: s-maxage 60), as Adobe's tutorial shows.
            #expect(
                try await cacheControl("browser-only", settings: #""cache-control":{"max-age":300}"#)
                    == "max-age=300,s-maxage=60,stale-while-revalidate=86400,stale-if-error=86400")
            // A directive without a value, written as a string, is kept after the defaults.
            #expect(
                try await cacheControl("uncached", settings: #""cache-control":"no-store, Max-Age = 0""#)
                    == "max-age=0,s-maxage=60,stale-while-revalidate=86400,stale-if-error=86400,no-store")
        }
    }

    @Test func publishModeRefusesToPersist() async throws {
        try await AEMHarness.run { client in
            let refused = try await client.send(
                "/graphql/persist.json/wknd-shared/x", method: "PUT", body: "{ a }", headers: [])
            #expect(refused.status == 405)
            #expect(refused.text.contains("--mode author"))
        }
    }

    @Test func adHocQueriesRunOnTheEndpoint() async throws {
        try await AEMHarness.run { client in
            for path in [
                "/content/cq:graphql/wknd-shared/endpoint.json", "/content/_cq_graphql/wknd-shared/endpoint.json",
            ] {
                let exchange = try await client.post(
                    path,
                    json:
                        #"{"query":"query($p: String!) { adventureByPath(_path: $p) { item { title } } }","variables":{"p":"/content/dam/wknd-shared/en/adventures/tahoe-skiing/tahoe-skiing"}}"#
                )
                #expect(exchange.status == 200, "\(path)")
                #expect(
                    exchange.json?["data"]?["adventureByPath"]?["item"]?["title"] == .string("Tahoe Skiing"), "\(path)")
            }
            let unknown = try await client.post("/content/cq:graphql/nope/endpoint.json", json: #"{"query":"{ a }"}"#)
            #expect(unknown.status == 404)
        }
    }

    @Test func graphqlResponseJSONModeUsesHTTPStatuses() async throws {
        try await AEMHarness.run(options: .init(graphqlResponseJSON: true)) { client in
            // A query that does not validate is 500 with this option, as AEM answers it; one that does not parse 400.
            let invalid = try await client.post(
                "/content/cq:graphql/wknd-shared/endpoint.json", json: #"{"query":"{ nope }"}"#)
            #expect(invalid.status == 500)
            #expect(invalid.header("Content-Type")?.hasPrefix("application/graphql-response+json") == true)
            let unparsable = try await client.post(
                "/content/cq:graphql/wknd-shared/endpoint.json", json: #"{"query":"{ nope "}"#)
            #expect(unparsable.status == 400)
            let failing = try await client.post(
                "/content/cq:graphql/wknd-shared/endpoint.json",
                json: #"{"query":"{ adventureByPath(_path: \"/content/dam/none\") { item { title } } }"}"#
            )
            #expect(failing.status == 500)
            // Every answer takes the media type, a success and an unknown persisted query too.
            let success = try await client.get("/graphql/execute.json/wknd-shared/adventures-all")
            #expect(success.status == 200)
            #expect(success.header("Content-Type")?.hasPrefix("application/graphql-response+json") == true)
            let unknown = try await client.get("/graphql/execute.json/wknd-shared/nope")
            #expect(unknown.status == 404)
            #expect(unknown.header("Content-Type")?.hasPrefix("application/graphql-response+json") == true)
            let notJSON = try await client.send(
                "/graphql/execute.json/wknd-shared/adventures-all", method: "POST", body: "variables",
                headers: [("Content-Type", "application/json")])
            #expect(notJSON.status == 400)
            #expect(notJSON.header("Content-Type")?.hasPrefix("application/graphql-response+json") == true)
        }
        try await AEMHarness.run { client in
            let invalid = try await client.post(
                "/content/cq:graphql/wknd-shared/endpoint.json", json: #"{"query":"{ nope }"}"#)
            #expect(invalid.status == 200)
            #expect(invalid.json?["errors"] != nil)
        }
    }

    @Test func corsHeadersAnswerTheConfiguredOrigin() async throws {
        try await AEMHarness.run(options: .init(corsOrigin: "http://localhost:3000")) { client in
            let exchange = try await client.get(
                "/graphql/execute.json/wknd-shared/adventures-all",
                headers: [("Origin", "http://localhost:3000")]
            )
            #expect(exchange.header("Access-Control-Allow-Origin") == "http://localhost:3000")
            let preflight = try await client.send(
                "/graphql/execute.json/wknd-shared/adventures-all",
                method: "OPTIONS",
                body: nil,
                headers: [("Origin", "http://localhost:3000"), ("Access-Control-Request-Method", "GET")]
            )
            #expect(preflight.header("Access-Control-Allow-Origin") == "http://localhost:3000")
            #expect(preflight.header("Access-Control-Max-Age") == "1800")
            // Another origin is not answered, so its browser refuses the response, as it would from AEM.
            let other = try await client.get(
                "/graphql/execute.json/wknd-shared/adventures-all", headers: [("Origin", "http://evil.example")])
            #expect(other.header("Access-Control-Allow-Origin") == nil)
        }
    }

    @Test func headSchemaDownloadCacheTiersAndNumbers() async throws {
        try await AEMHarness.run { client in
            let get = try await client.get("/graphql/execute.json/wknd-shared/adventures-all")
            let head = try await client.send(
                "/graphql/execute.json/wknd-shared/adventures-all", method: "HEAD", body: nil, headers: [])
            #expect(head.status == 200 && head.body.isEmpty)
            #expect(head.header("ETag") == get.header("ETag") && head.header("ETag") != nil)
            #expect(get.header("Cache-Control")?.contains("s-maxage=7200") == true)
            // Whole numbers of Float fields print as AEM prints them.
            #expect(get.text.contains(#""price":5000,"#), "\(get.text.prefix(300))")
            let schema = try await client.get("/content/cq:graphql/wknd-shared/endpoint.GQLschema")
            #expect(schema.status == 200)
            #expect(schema.text.contains("type QueryType {") && schema.text.contains("union Reference ="))
            #expect(schema.header("Content-Type") == "text/x-graphql-schema;charset=iso-8859-1")
            // Cache-Control directives: names in lower case, values trimmed, commas inside quotes kept.
            let directives = AEMEmulator.directives(#"no-store, Max-Age = 300, no-cache="Set-Cookie, X",,"#)
            #expect(directives.map(\.name) == ["no-store", "max-age", "no-cache"])
            #expect(directives.map(\.value) == [nil, "300", #""Set-Cookie, X""#])
            // Latin-1 as declared: é is one byte, a character Latin-1 lacks is ?.
            #expect(AEMEmulator.latin1("\"Café\" 5 €") == Array("\"Caf".utf8) + [0xE9] + Array("\" 5 ?".utf8))
            let nowhere = try await client.get("/content/cq:graphql/nope/endpoint.GQLschema")
            #expect(nowhere.status == 404)
            #expect(nowhere.json?["errors"]?.arrayValue?.first?["errorType"] == .string("ServletError"))
            // A page is no GraphQL endpoint: Sling's own 404.
            let page = try await client.get("/content/wknd/us/en.html")
            #expect(page.status == 404)
            #expect(page.text == "Resource at '/content/wknd/us/en.html' not found: No resource found")
        }
        try await AEMHarness.run(options: .init(mode: .author)) { client in
            let exchange = try await client.get(
                "/graphql/execute.json/wknd-shared/adventures-all",
                headers: [("Authorization", "Basic YWRtaW46YWRtaW4=")])
            #expect(exchange.status == 200)
            #expect(exchange.header("Cache-Control")?.contains("s-maxage=60,") == true)
        }
    }

    @Test func imagesAreServedWithTheirContentType() async throws {
        try await AEMHarness.run { client in
            let cases = [
                ("/content/dam/wknd-shared/en/adventures/x/a.jpg", "image/jpeg", [UInt8]([0xFF, 0xD8])),
                ("/content/dam/wknd-shared/en/adventures/x/a.png", "image/png", [UInt8]([0x89, 0x50])),
                ("/adobe/dynamicmedia/deliver/dm-aid--abc/seo.webp?width=100", "image/webp", [UInt8]([0x52, 0x49])),
            ]
            for (path, type, magic) in cases {
                let exchange = try await client.get(path)
                #expect(exchange.status == 200, "\(path)")
                #expect(exchange.header("Content-Type") == type, "\(path)")
                #expect(Array(exchange.body.prefix(2)) == magic, "\(path)")
            }
        }
    }
}

struct AEMPersistenceTests {
    @Test func persistedQueriesSurviveARestartWithADataFile() async throws {
        let workspace = try AEMHarness.workspace()
        let data = FileManager.default.temporaryDirectory.appendingPathComponent("aem-\(UUID().uuidString).sqlite").path
        defer { try? FileManager.default.removeItem(atPath: data) }
        let first = try AEMEmulator(
            directory: workspace, dataFile: data, publishBase: "http://x", options: .init(mode: .author))
        try first.store.savePersistedQuery(
            AEMWorkspace.PersistedQuery(
                configuration: "wknd-shared", name: "kept", query: "{ adventureList { items { title } } }")
        )
        let second = try AEMEmulator(
            directory: workspace, dataFile: data, publishBase: "http://x", options: .init(mode: .author))
        #expect(try second.store.persistedQuery(configuration: "wknd-shared", name: "kept") != nil)
        #expect(try second.store.fragments(model: "adventure").count == 16)
        try? FileManager.default.removeItem(at: workspace.deletingLastPathComponent())
    }

    @Test func aDataFileMadeBeforeSurrogateControlStillOpens() async throws {
        let workspace = try AEMHarness.workspace()
        defer { try? FileManager.default.removeItem(at: workspace.deletingLastPathComponent()) }
        let data = FileManager.default.temporaryDirectory.appendingPathComponent("aem-\(UUID().uuidString).sqlite").path
        defer { try? FileManager.default.removeItem(atPath: data) }
        // The table as the previous version made it, written by an independent SQLite client.
        let python = Process()
        python.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        python.arguments = [
            "python3", "-c",
            """
            import sqlite3, sys
            c = sqlite3.connect(sys.argv[1])
            c.execute("CREATE TABLE persisted_query (configuration TEXT NOT NULL, name TEXT NOT NULL, "
                      "query TEXT NOT NULL, cache_control TEXT, PRIMARY KEY (configuration, name))")
            c.execute("INSERT INTO persisted_query VALUES ('wknd-shared', 'old', '{ adventureList { items { title } } }', "
                      "'max-age=5')")
            c.commit()
            """,
            data,
        ]
        try python.run()
        python.waitUntilExit()
        #expect(python.terminationStatus == 0)
        let emulator = try AEMEmulator(directory: workspace, dataFile: data, publishBase: "http://x")
        let old = try emulator.store.persistedQuery(configuration: "wknd-shared", name: "old")
        #expect(old?.cacheControl == "max-age=5" && old?.surrogateControl == nil)
    }
}
