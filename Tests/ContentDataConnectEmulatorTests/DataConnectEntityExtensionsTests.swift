import ContentEmulatorTesting
import ContentJSON
import Foundation
import Testing

@testable import ContentDataConnectEmulator

/// `extensions.dataConnect` of a response: where each entity is in `data`, its `_id`, and the action, as the SDKs'
/// caches read them (`path` with `entityId` or `entityIds`).
struct DataConnectEntityExtensionsTests {
    static let orbitOfGlass = DataConnectQueryLanguageTests.orbitOfGlass

    /// The entries of a response, by path written as JSON.
    static func entries(_ body: JSONValue?) -> [String: JSONValue] {
        var entries: [String: JSONValue] = [:]
        for entry in body?["extensions"]?["dataConnect"]?.arrayValue ?? [] {
            entries[entry["path"]?.jsonText ?? ""] = entry
        }
        return entries
    }

    @Test func eachObjectAndListOfATableIsNamedByItsIDAtItsResponsePath() async throws {
        try await DataConnectHarness.run { client async throws in
            let exchange = try await client.graphql(
                """
                {
                  picked: movie(id: "\(Self.orbitOfGlass)") { _id title reviews: reviews_on_movie { _id user { _id } } }
                  first: movies(orderBy: {title: ASC}, limit: 2) { _id title }
                }
                """)
            #expect(exchange.status == 200, "\(exchange.text)")
            let data = try #require(exchange.json?["data"])
            let entries = Self.entries(exchange.json)
            // Aliases are the path, as in data; each id is the row's _id.
            let picked = try #require(entries[#"["picked"]"#])
            #expect(picked["entityId"] == data["picked"]?["_id"])
            #expect(picked["action"]?.stringValue == "GET")
            let first = try #require(entries[#"["first"]"#])
            #expect(first["entityIds"]?.arrayValue == data["first"]?.arrayValue?.compactMap { $0["_id"] })
            #expect(first["entityIds"]?.arrayValue?.count == 2)
            #expect(first["action"]?.stringValue == "LIST")
            // Nested: a list under an object, and an object in each element of it, with indices in the path.
            let reviews = try #require(entries[#"["picked","reviews"]"#])
            let reviewRows = data["picked"]?["reviews"]?.arrayValue ?? []
            #expect(!reviewRows.isEmpty)
            #expect(reviews["entityIds"]?.arrayValue == reviewRows.compactMap { $0["_id"] })
            for (index, review) in reviewRows.enumerated() {
                let user = try #require(entries[#"["picked","reviews",\#(index),"user"]"#])
                #expect(user["entityId"] == review["user"]?["_id"])
            }
            // Ordered by path, so the same data is always the same bytes.
            let paths = (exchange.json?["extensions"]?["dataConnect"]?.arrayValue ?? []).map { $0["path"]?.jsonText }
            #expect(paths.first == #"["first"]"#)
            #expect(paths.count == 3 + reviewRows.count)
        }
    }

    @Test func aMutationNamesTheEntityItWroteAsAQueryWouldRead() async throws {
        try await DataConnectHarness.run { client async throws in
            let created = try await client.mutate(
                "createMovie", variables: #"{"title":"Entity","releaseYear":2026,"genre":"Test"}"#)
            let insert = try #require(Self.entries(created.json)[#"["movie_insert"]"#])
            #expect(insert["action"]?.stringValue == "CREATE")
            let id = try #require(created.json?["data"]?["movie_insert"]?["id"]?.stringValue)
            let read = try await client.data(#"{ movie(id: "\#(id)") { _id } }"#)
            #expect(insert["entityId"] == read["movie"]?["_id"])

            let updated = try await client.mutate(
                "updateMovieRating", variables: #"{"id":"\#(id)","rating":7}"#,
                token: DataConnectHarness.userToken("entity-user"))
            let update = try #require(Self.entries(updated.json)[#"["movie_update"]"#])
            #expect(update["action"]?.stringValue == "UPDATE")
            #expect(update["entityId"] == insert["entityId"])
        }
    }

    @Test func groupsAndRolledBackWritesNameNoEntity() async throws {
        let workspace = try DataConnectHarness.workspace(
            schema: "type Note @table { text: String! }\n",
            operations: """
                mutation refused @auth(level: PUBLIC) @transaction {
                  note_insert(data: { text: "kept?" })
                  query @check(expr: "false", message: "never") { notes { id } }
                }
                query counted @auth(level: PUBLIC) { notes { text _count } }
                """)
        defer { try? FileManager.default.removeItem(at: workspace) }
        try await DataConnectHarness.run(workspace: workspace) { client async throws in
            let refused = try await client.mutate("refused", connector: "app")
            #expect(refused.json?["errors"] != nil, "\(refused.text)")
            #expect(refused.json?["extensions"] == nil, "\(refused.text)")
            _ = try await client.graphql(#"mutation { note_insert(data: { text: "one" }) }"#)
            let counted = try await client.query("counted", connector: "app")
            #expect(counted.json?["data"]?["notes"]?.arrayValue?.count == 1, "\(counted.text)")
            #expect(counted.json?["extensions"] == nil, "\(counted.text)")
        }
    }
}
