import ContentEmulatorTesting
import ContentJSON
import Foundation
import Testing

@testable import ContentAEMEmulator

/// Content Fragment Delivery with OpenAPI, the REST API beside GraphQL: listing by folder with cursors, one fragment
/// by id or path with its references, the API's caching, and its errors.
struct AEMDeliveryTests {
    static let adventures = "/content/dam/wknd-shared/en/adventures"

    @Test func aFolderIsListedInPagesWithACursor() async throws {
        try await AEMHarness.run { client in
            let first = try await client.get("/adobe/contentFragments?path=\(Self.adventures)&limit=10")
            #expect(first.status == 200)
            #expect(
                first.header("Cache-Control")
                    == "max-age=300, s-maxage=3600, stale-while-revalidate=3600, stale-on-error=86400")
            let firstItems = first.json?["items"]?.arrayValue ?? []
            #expect(firstItems.count == 10)
            let cursor = try #require(first.json?["cursor"]?.stringValue)
            let escaped = cursor.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? cursor
            let second = try await client.get(
                "/adobe/contentFragments?path=\(Self.adventures)&limit=10&cursor=\(escaped)")
            let secondItems = second.json?["items"]?.arrayValue ?? []
            #expect(secondItems.count == 6)
            #expect(second.json?["cursor"] == nil)
            let paths = (firstItems + secondItems).compactMap { $0["path"]?.stringValue }
            #expect(Set(paths).count == 16 && paths == paths.sorted())
            #expect(paths.allSatisfy { $0.hasPrefix(Self.adventures + "/") })
            // A folder holds what is under it, not what merely starts with its name.
            let none = try await client.get("/adobe/contentFragments?path=\(Self.adventures)-x")
            #expect(none.json?["items"] == .array([]))
        }
    }

    @Test func oneFragmentByPathOrIdWithItsFieldsAndReferences() async throws {
        try await AEMHarness.run { client in
            let path = "/content/dam/wknd-shared/en/adventures/bali-surf-camp/bali-surf-camp"
            let byPath = try await client.get("/adobe/contentFragments/byPath?path=\(path)")
            #expect(byPath.status == 200)
            let fragment = try #require(byPath.json)
            #expect(fragment["path"] == .string(path))
            #expect(fragment["name"] == .string("bali-surf-camp"))
            #expect(fragment["title"] == .string("Bali Surf Camp"))
            #expect(fragment["fields"]?["price"]?.jsonText == "5000")
            #expect(fragment["fields"]?["description"]?["mimeType"] == .string("text/html"))
            #expect(fragment["fields"]?["description"]?["value"]?.stringValue?.hasPrefix("<p>") == true)
            #expect(fragment["references"] == nil)
            let id = try #require(fragment["id"]?.stringValue)
            let byID = try await client.get("/adobe/contentFragments/\(id)")
            #expect(byID.json == fragment)

            let articles = try await client.get("/adobe/contentFragments?path=/content/dam/wknd-shared/en/magazine")
            let article = (articles.json?["items"]?.arrayValue ?? []).first {
                $0["fields"]?["authorFragment"] != nil
            }
            let articleID = try #require(article?["id"]?.stringValue)
            let authorID = try #require(article?["fields"]?["authorFragment"]?.stringValue)
            let direct = try await client.get("/adobe/contentFragments/\(articleID)?references=direct-hydrated")
            let author = direct.json?["references"]?[authorID]
            #expect(author?["type"] == .string("content-fragment"))
            #expect(author?["value"]?["fields"]?["lastName"] != nil)
            #expect(author?["value"]?["references"] == nil)
            let assets = (direct.json?["references"]?.objectValue?.members ?? []).filter {
                $0.value["type"] == .string("asset")
            }
            #expect(assets.allSatisfy { $0.value["value"]?["mimeType"]?.stringValue?.hasPrefix("image/") == true })
            let deep = try await client.get("/adobe/contentFragments/\(articleID)?references=all-hydrated&depth=2")
            #expect(deep.json?["references"]?[authorID]?["value"]?["references"] != nil)
        }
    }

    @Test func revalidationAndErrors() async throws {
        try await AEMHarness.run { client in
            let listed = try await client.get("/adobe/contentFragments?path=\(Self.adventures)&limit=1")
            let etag = try #require(listed.header("ETag"))
            let again = try await client.get(
                "/adobe/contentFragments?path=\(Self.adventures)&limit=1", headers: [("If-None-Match", etag)])
            #expect(again.status == 304)
            let cases = [
                ("/adobe/contentFragments?limit=0", 400, "limit is a number from 1 to 50"),
                ("/adobe/contentFragments?cursor=%25%25", 400, "cursor is not one this API answered"),
                ("/adobe/contentFragments/nope", 404, "no content fragment nope"),
                ("/adobe/contentFragments/byPath", 400, "byPath needs ?path="),
            ]
            for (path, status, detail) in cases {
                let exchange = try await client.get(path)
                #expect(exchange.status == status, "\(path)")
                #expect(exchange.header("Content-Type")?.hasPrefix("application/problem+json") == true, "\(path)")
                #expect(exchange.json?["detail"]?.stringValue?.contains(detail) == true, "\(path): \(exchange.text)")
            }
            let listedOne = try #require(listed.json?["items"]?.arrayValue?.first?["id"]?.stringValue)
            let badMode = try await client.get("/adobe/contentFragments/\(listedOne)?references=everything")
            #expect(badMode.status == 400)
        }
    }

    @Test func pastThePlayedRateLimitA429SaysWhenToRetry() async throws {
        // Two an hour: however slow the machine, the bucket does not refill between these requests.
        try await AEMHarness.run(options: .init(deliveryRateLimit: RequestRate(requests: 2, per: .seconds(3600)))) {
            client in
            let statuses = try await (0..<3).asyncMap { _ in try await client.get("/adobe/contentFragments?limit=1") }
            #expect(statuses.map(\.status) == [200, 200, 429])
            let refused = try #require(statuses.last)
            // Half the period for the one token spent past the burst, less what the requests took.
            let retry = try #require(refused.header("Retry-After").flatMap { Int($0) })
            #expect((1...1800).contains(retry))
            #expect(refused.header("Content-Type") == "application/problem+json;charset=utf-8")
            #expect(
                refused.json
                    == .object([
                        "title": .string("Too Many Requests"), "status": .number(JSONNumber(429)),
                        "detail": .string(
                            "more than 2 requests every 3600 s to Content Fragment Delivery; retry after \(retry) s"),
                    ]))
            // GraphQL is not held to the delivery API's limit.
            let graphQL = try await client.get("/graphql/execute.json/wknd-shared/adventures-all")
            #expect(graphQL.status == 200)
        }
    }

    @Test func theBucketRefillsAtItsRate() {
        let limit = RequestRateLimit(rate: RequestRate(requests: 4))
        let start = ContinuousClock.now
        #expect((0..<4).map { _ in limit.take(now: start) } == [nil, nil, nil, nil])
        #expect(limit.take(now: start) == 1)
        // A quarter of a second gives one request back, and no more than the burst ever builds up.
        #expect(limit.take(now: start + .milliseconds(250)) == nil)
        #expect(limit.take(now: start + .milliseconds(250)) == 1)
        #expect((0..<5).map { _ in limit.take(now: start + .seconds(60)) } == [nil, nil, nil, nil, 1])
    }
}

extension Range<Int> {
    /// Runs `body` for each element in order, one after another.
    fileprivate func asyncMap<T>(_ body: (Int) async throws -> T) async rethrows -> [T] {
        var results: [T] = []
        for element in self { results.append(try await body(element)) }
        return results
    }
}
