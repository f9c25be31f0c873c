import ContentEmulatorTesting
import ContentJSON
import ContentTesting
import Foundation
import Testing

@testable import ContentAEMEmulator

struct AEMEmulatorTests {
    private func items(_ exchange: AEMHarness.Exchange, _ field: String) -> [JSONValue] {
        exchange.json?["data"]?[field]?["items"]?.arrayValue ?? []
    }

    @Test func allAdventuresReturnsTheSixteenWKNDTitles() async throws {
        let exchange = try await AEMHarness.run { try await $0.get("/graphql/execute.json/wknd-shared/adventures-all") }
        #expect(exchange.status == 200)
        let titles = items(exchange, "adventureList").compactMap { $0["title"]?.stringValue }
        #expect(titles.count == 16)
        #expect(titles.contains("Bali Surf Camp"))
        #expect(titles.contains("Downhill Skiing in Jackson Hole, Wyoming"))
        if let facts = try WKNDFacts.adventures() {
            #expect(Set(titles) == Set(facts.map(\.title)))
        }
    }

    @Test func variablesAreReadInEveryEncodingTheClientsUse() async throws {
        let forms = [
            "/graphql/execute.json/wknd-shared/adventure-by-slug%3Bslug%3Dcycling-tuscany;",
            "/graphql/execute.json/wknd-shared/adventure-by-slug;slug=cycling-tuscany",
            "/graphql/execute.json/wknd-shared/adventure-by-slug%3bslug%3dcycling-tuscany",
        ]
        try await AEMHarness.run { client in
            for form in forms {
                let exchange = try await client.get(form)
                #expect(exchange.status == 200, "\(form)")
                #expect(items(exchange, "adventureList").first?["title"] == .string("Cycling Tuscany"), "\(form)")
            }
            let posted = try await client.post(
                "/graphql/execute.json/wknd-shared/adventure-by-slug",
                json: #"{"variables":{"slug":"yosemite-backpacking"}}"#
            )
            #expect(items(posted, "adventureList").first?["title"] == .string("Yosemite Backpacking"))
        }
    }

    @Test func paginationWalksEveryAdventureOnceInPagesOfFive() async throws {
        let titles = try await AEMHarness.run { client in
            var seen: [String] = []
            var after: String?
            var pages = 0
            repeat {
                var path = "/graphql/execute.json/wknd-shared/adventures-paginated;first=5"
                if let after { path += ";after=\(after)" }
                let page = try await client.get(path)
                let connection = page.json?["data"]?["adventurePaginated"]
                let edges = connection?["edges"]?.arrayValue ?? []
                #expect(edges.count <= 5)
                seen += edges.compactMap { $0["node"]?["title"]?.stringValue }
                after =
                    connection?["pageInfo"]?["hasNextPage"] == .bool(true)
                    ? connection?["pageInfo"]?["endCursor"]?.stringValue : nil
                pages += 1
            } while after != nil && pages < 10
            return seen
        }
        #expect(titles.count == 16)
        #expect(Set(titles).count == 16)
        #expect(titles == titles.sorted { $0.lowercased() < $1.lowercased() })
    }

    @Test func priceFilterAndSortGiveTheRightSetInOrder() async throws {
        let exchange = try await AEMHarness.run {
            try await $0.get("/graphql/execute.json/wknd-shared/adventure-by-price;price=1000;priceOperator=LOWER")
        }
        let prices = items(exchange, "adventureList").compactMap { item -> Double? in
            if case .number(let number) = item["price"] { return number.doubleValue }
            return nil
        }
        #expect(!prices.isEmpty)
        #expect(prices.allSatisfy { $0 < 1000 })
        #expect(prices == prices.sorted())
        if let facts = try WKNDFacts.adventures() {
            #expect(prices == facts.map(\.price).filter { $0 < 1000 }.sorted())
        }
    }

    @Test func activityFilterIgnoresCaseWhenAsked() async throws {
        let exchange = try await AEMHarness.run {
            try await $0.get("/graphql/execute.json/wknd-shared/adventures-by-activity;activity=CYCLING")
        }
        let found = items(exchange, "adventureList")
        #expect(!found.isEmpty)
        #expect(found.allSatisfy { $0["activity"] == .string("Cycling") })
        if let facts = try WKNDFacts.adventures() {
            #expect(found.count == facts.filter { $0.activity == "Cycling" }.count)
        }
    }

    @Test func filterThroughAFragmentReference() async throws {
        let exchange = try await AEMHarness.run {
            try await $0.get("/graphql/execute.json/wknd-shared/articles-by-author;firstName=Stacey;lastName=Roswells")
        }
        let titles = items(exchange, "articleList").compactMap { $0["title"]?.stringValue }
        #expect(titles == ["A Beginner's Guide to Ski Touring", "Aloha Spirits in Northern Norway"])
    }

    @Test func richTextIsServedInEveryFormat() async throws {
        let exchange = try await AEMHarness.run {
            try await $0.get("/graphql/execute.json/wknd-shared/article-by-slug;slug=ski-touring-guide")
        }
        let main = items(exchange, "articleList").first?["main"]
        #expect(
            main?["plaintext"]
                == .string(
                    "Before you go\n\nLearn the transitions at the resort first, and read the avalanche bulletin every day."
                ))
        #expect(main?["markdown"]?.stringValue?.hasPrefix("## Before you go\n\nLearn the *transitions*") == true)
        #expect(main?["markdown"]?.stringValue?.contains("[avalanche bulletin](https://example.com/avalanche)") == true)
        #expect(main?["json"]?.arrayValue?.first?["nodeType"] == .string("header"))
        #expect(main?["html"]?.stringValue?.hasPrefix("<h2>Before you go</h2>") == true)
    }

    @Test func etagRevalidationAnswers304() async throws {
        try await AEMHarness.run { client in
            let first = try await client.get("/graphql/execute.json/wknd-shared/adventures-all")
            let etag = try #require(first.header("ETag"))
            #expect(first.header("Cache-Control")?.contains("max-age=60") == true)
            let again = try await client.get(
                "/graphql/execute.json/wknd-shared/adventures-all", headers: [("If-None-Match", etag)])
            #expect(again.status == 304)
            #expect(again.body.isEmpty)
            let stale = try await client.get(
                "/graphql/execute.json/wknd-shared/adventures-all", headers: [("If-None-Match", "\"other\"")])
            #expect(stale.status == 200)
            // As RFC 9110 compares them: weakly, in a list, and * for any.
            for held in ["W/\(etag)", "\"other\", \(etag)", "*", "\"other\",W/\(etag)"] {
                let answer = try await client.get(
                    "/graphql/execute.json/wknd-shared/adventures-all", headers: [("If-None-Match", held)])
                #expect(answer.status == 304, "\(held)")
            }
            for other in ["W/\"other\"", "\"other\", \"another\"", "", "\"x\(etag.dropFirst())"] {
                let answer = try await client.get(
                    "/graphql/execute.json/wknd-shared/adventures-all", headers: [("If-None-Match", other)])
                #expect(answer.status == 200, "\(other)")
            }
        }
    }

    /// The GraphQL servlet called without a path: Adobe's troubleshooting page for persisted queries gives its answer,
    /// 400 with "Suffix: '/' does not contain a path".
    @Test func anExecuteWithoutAQueryPathIs400() async throws {
        try await AEMHarness.run { client in
            for path in ["/graphql/execute.json", "/graphql/execute.json/"] {
                let answer = try await client.get(path)
                #expect(answer.status == 400, "\(path)")
                #expect(answer.text.contains("Suffix: '/' does not contain a path"), "\(path): \(answer.text)")
            }
        }
    }

    @Test func listShowsThePersistedQueries() async throws {
        try await AEMHarness.run { client in
            let all = try await client.get("/graphql/list.json")
            #expect(all.status == 200)
            let group = all.json?.arrayValue?.first
            #expect(group?["configurationName"] == .string("wknd-shared"))
            let names = group?["queries"]?.arrayValue?.compactMap { $0["path"]?["shortForm"]?.stringValue } ?? []
            #expect(names.contains("/wknd-shared/adventures-all"))
            let missing = try await client.get("/graphql/list.json/nope")
            #expect(missing.status == 404)
        }
    }

    @Test func errorsAreShapedAsAEMShapesThem() async throws {
        try await AEMHarness.run { client in
            let unknownQuery = try await client.get("/graphql/execute.json/wknd-shared/no-such-query")
            #expect(unknownQuery.status == 404)
            let persistence = unknownQuery.json?["errors"]?.arrayValue?.first
            #expect(persistence?["errorType"] == .string("PersistenceError"))
            #expect(persistence?["message"] == .string("Could not find Persisted Query"))
            #expect(
                persistence?["details"]
                    == .string(
                        "Configuration: 'wknd-shared' and Query Name: 'no-such-query' does not resolve to an existing "
                            + "Persistent Query"))
            let servletError =
                #"{"errors":[{"errorType":"ServletError","message":"Internal Servlet Failure","details":"#
                + #""No suitable endpoint found."}]}"#
            let unknownConfig = try await client.get("/graphql/execute.json/no-such-config/adventures-all")
            #expect(unknownConfig.status == 404)
            #expect(unknownConfig.text == servletError)
            // A configuration without a query name finds no endpoint either, nor does a list of one without queries.
            for path in ["/graphql/execute.json/wknd-shared", "/graphql/list.json/no-such-config"] {
                let noEndpoint = try await client.get(path)
                #expect(noEndpoint.status == 404, "\(path)")
                #expect(noEndpoint.text == servletError, "\(path)")
                #expect(noEndpoint.header("Content-Type")?.hasPrefix("application/json") == true, "\(path)")
            }
            let missingVariable = try await client.get("/graphql/execute.json/wknd-shared/adventure-by-slug")
            #expect(missingVariable.status == 200)
            #expect(missingVariable.json?["errors"]?.arrayValue?.isEmpty == false)
        }
    }

    @Test func hostileInputGetsAClearErrorNeverACrash() async throws {
        let deep =
            "query Deep { adventureList { items { " + String(repeating: "a { ", count: 1000)
            + String(repeating: "} ", count: 1003)
        let workspace = try AEMHarness.workspace(extraQueries: ["deep": deep])
        // Live: the URL length limit belongs to the HTTP server, which the in-process router skips.
        try await AEMHarness.run(workspace: workspace, mode: .live) { client in
            let semicolon = try await client.get("/graphql/execute.json/wknd-shared/adventure-by-slug;slug=a;b")
            #expect(semicolon.status == 400)
            #expect(semicolon.text.contains("malformed variable segment"))
            // A variable the query does not declare is ignored, as AEM's graphql-java ignores it.
            let unknown = try await client.get(
                "/graphql/execute.json/wknd-shared/adventure-by-slug;slug=bali-surf-camp;nope=1")
            #expect(unknown.status == 200, "\(unknown.text)")
            #expect(unknown.json?["errors"] == nil, "\(unknown.text)")
            #expect(items(unknown, "adventureList").count == 1, "\(unknown.text)")
            let huge = String(repeating: "x", count: 1 << 20)
            let big = try await client.post(
                "/graphql/execute.json/wknd-shared/adventure-by-slug",
                json: #"{"variables":{"slug":"\#(huge)"}}"#
            )
            #expect(big.status == 200)
            #expect(items(big, "adventureList").isEmpty)
            // A 1 MB variable in the URL is refused by the HTTP layer rather than parsed.
            let longURL = try await client.get("/graphql/execute.json/wknd-shared/adventure-by-slug;slug=\(huge)")
            #expect(longURL.status == 400)
            let nested = try await client.get("/graphql/execute.json/wknd-shared/deep")
            #expect(nested.status == 200)
            #expect(nested.text.contains("levels deep"))
            let badJSON = try await client.post("/graphql/execute.json/wknd-shared/adventures-all", json: "{not json")
            #expect(badJSON.status == 400)
            // The server still answers after all that.
            let after = try await client.get("/graphql/execute.json/wknd-shared/adventures-all")
            #expect(after.status == 200)
        }
    }

    @Test func introspectionDescribesTheGeneratedSchema() async throws {
        let query =
            "query Types { __type(name: \"AdventureModel\") { fields { name } } __schema { queryType { name } } }"
        let workspace = try AEMHarness.workspace(extraQueries: ["types": query])
        let exchange = try await AEMHarness.run(workspace: workspace) {
            try await $0.get("/graphql/execute.json/wknd-shared/types")
        }
        let names =
            exchange.json?["data"]?["__type"]?["fields"]?.arrayValue?.compactMap { $0["name"]?.stringValue } ?? []
        #expect(Set(names).isSuperset(of: ["_path", "_id", "_variation", "title", "slug", "price", "primaryImage"]))
        // The model's fields and AEM's system fields, under AEM's root type name.
        #expect(
            Set(names).isSuperset(of: ["_metadata", "_variations", "_model", "_tags"]) && names.count == 19, "\(names)")
        #expect(exchange.json?["data"]?["__schema"]?["queryType"]?["name"] == .string("QueryType"))
    }

    @Test func theNineWKNDOriginalsExecuteWithRealTitles() async throws {
        guard let queries = Locations.corpusFolder("aem/wknd-shared/persisted-queries") else { return }
        let workspace = try AEMHarness.workspace(queries: queries)
        let cases: [(String, String, String)] = [
            ("adventures-all", "adventureList", "Bali Surf Camp"),
            ("adventure-by-slug;slug=bali-surf-camp", "adventureList", "Bali Surf Camp"),
            (
                "adventure-by-path;adventurePath=/content/dam/wknd-shared/en/adventures/cycling-tuscany/cycling-tuscany",
                "adventureByPath", "Cycling Tuscany"
            ),
            (
                "adventure-by-price;price=400;priceOperator=LOWER_EQUAL", "adventureList",
                "Downhill Skiing in Jackson Hole, Wyoming"
            ),
            ("adventures-by-activity;activity=surfing", "adventureList", "Surf Camp in Costa Rica"),
            (
                "article-by-author;authorFirstName=Jacob;authorLastName=Wester", "articleList",
                "Western Australia by Camper Van"
            ),
            (
                "article-by-path;articlePath=/content/dam/wknd-shared/en/magazine/ski-touring/ski-touring-guide",
                "articleByPath", "A Beginner's Guide to Ski Touring"
            ),
            (
                "article-by-slug;slug=aloha-spirits-in-northern-norway", "articleList",
                "Aloha Spirits in Northern Norway"
            ),
            ("articles-all;first=10", "articlePaginated", "A Beginner's Guide to Ski Touring"),
        ]
        try await AEMHarness.run(workspace: workspace) { client in
            for (spec, field, title) in cases {
                let exchange = try await client.get("/graphql/execute.json/wknd-shared/\(spec)")
                #expect(exchange.status == 200, "\(spec)")
                #expect(exchange.json?["errors"] == nil, "\(spec): \(exchange.text.prefix(300))")
                #expect(exchange.text.contains("\"title\":\(JSONValue.string(title).jsonText)"), "\(spec)")
                #expect(exchange.json?["data"]?[field] != nil, "\(spec)")
            }
            // Without their required variables they fail as GraphQL errors, not crashes.
            for name in ["adventure-by-slug", "adventure-by-path", "adventure-by-price", "article-by-author"] {
                let exchange = try await client.get("/graphql/execute.json/wknd-shared/\(name)")
                #expect(exchange.status == 200, "\(name)")
                #expect(exchange.json?["errors"]?.arrayValue?.isEmpty == false, "\(name)")
            }
        }
    }
}
