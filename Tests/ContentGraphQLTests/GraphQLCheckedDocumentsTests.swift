import ContentGraphQL
import GraphQL
import OrderedCollections
import Synchronization
import Testing

/// The documents a server keeps checked: only valid ones, bounded by count and by bytes, oldest dropped first.
struct GraphQLCheckedDocumentsTests {
    static func schema() throws -> GraphQLSchema {
        try GraphQLSchema(
            query: GraphQLObjectType(
                name: "Query", fields: ["a": GraphQLField(type: GraphQLString), "b": GraphQLField(type: GraphQLInt)]))
    }

    @Test func aDocumentIsPreparedOnceAndARefusalIsNotKept() throws {
        let prepared = PreparedCount()
        let documents = GraphQLCheckedDocuments(schema: try Self.schema(), limits: GraphQLLimits()) { _ in
            prepared.add()
        }
        _ = try documents.request("{ a }").get()
        _ = try documents.request("{ a }").get()
        #expect(prepared.value == 1)
        #expect(documents.count == 1)
        #expect(throws: GraphQLRequestErrors.self) { try documents.request("{ c }").get() }
        #expect(throws: GraphQLRequestErrors.self) { try documents.request("{ a").get() }
        #expect(documents.count == 1)
    }

    @Test func theOldestAreDroppedPastTheCount() throws {
        let documents = GraphQLCheckedDocuments(
            schema: try Self.schema(), limits: GraphQLLimits(), maximumCount: 3, prepare: { _ in () })
        for index in 0..<50 { _ = try documents.request("{ a \(String(repeating: " ", count: index)) }").get() }
        #expect(documents.count == 3)
        // The three newest are kept: asking for them again prepares nothing new.
        let prepared = PreparedCount()
        let counted = GraphQLCheckedDocuments(
            schema: try Self.schema(), limits: GraphQLLimits(), maximumCount: 2
        ) { _ in prepared.add() }
        _ = try counted.request("{ a }").get()
        _ = try counted.request("{ b }").get()
        _ = try counted.request("{ a b }").get()
        _ = try counted.request("{ a b }").get()
        _ = try counted.request("{ b }").get()
        #expect(prepared.value == 3)
        _ = try counted.request("{ a }").get()
        #expect(prepared.value == 4)
    }

    @Test func theTextsAreBoundedByBytes() throws {
        let documents = GraphQLCheckedDocuments(
            schema: try Self.schema(), limits: GraphQLLimits(), maximumBytes: 64, prepare: { _ in () })
        for index in 0..<20 { _ = try documents.request("{ a }" + String(repeating: " ", count: 20 + index)).get() }
        #expect(documents.count <= 2)
        // A text larger than the whole budget is answered and not kept.
        _ = try documents.request("{ b }" + String(repeating: " ", count: 100)).get()
        #expect(documents.count <= 2)
        #expect(documents.count >= 1)
    }
}

/// Counts preparations across the cache's threads.
final class PreparedCount: Sendable {
    private let count = Mutex(0)

    func add() {
        count.withLock { $0 += 1 }
    }

    var value: Int { count.withLock { $0 } }
}
