import ContentJSON
import ContentKit
import Testing

/// The connector cache on its own: keys, normalisation by the entity ids of `extensions.dataConnect`, its age
/// limit and its size limit.
struct EntityCacheTests {
    private static func parse(_ text: String) throws -> JSONValue {
        try JSONParser().parse(Array(text.utf8))
    }

    @Test func variablesInAnyMemberOrderMakeOneKey() {
        let one = EntityCache.key(operation: "movies/find", variables: ["a": .string("x"), "b": .bool(true)])
        let other = EntityCache.key(operation: "movies/find", variables: ["b": .bool(true), "a": .string("x")])
        #expect(one == other)
        #expect(one != EntityCache.key(operation: "movies/find", variables: ["a": .string("y"), "b": .bool(true)]))
        #expect(one != EntityCache.key(operation: "movies/other", variables: ["a": .string("x"), "b": .bool(true)]))
    }

    @Test func aLaterAnswerAboutAnEntityShowsInEveryCachedResultHoldingIt() async throws {
        let cache = EntityCache()
        let list = try Self.parse(#"{"movies":[{"id":"m1","title":"Old","rating":1},{"id":"m2","title":"Two"}]}"#)
        let listIDs = try Self.parse(#"{"dataConnect":[{"path":["movies"],"entityIds":["M1","M2"],"action":"LIST"}]}"#)
        await cache.store(data: list, extensions: listIDs, key: "list")
        let one = try Self.parse(#"{"movie":{"id":"m1","title":"New","rating":9,"director":{"name":"D"}}}"#)
        let oneID = try Self.parse(#"{"dataConnect":[{"path":["movie"],"entityId":"M1","action":"GET"}]}"#)
        await cache.store(data: one, extensions: oneID, key: "one")
        let merged = try #require(await cache.data(for: "list", maxAge: nil))
        // Only the fields the list selected, with their newest values; the list's order and other rows stay.
        #expect(
            merged == (try Self.parse(#"{"movies":[{"id":"m1","title":"New","rating":9},{"id":"m2","title":"Two"}]}"#)))
    }

    @Test func anAnswerWithoutEntityIdsIsKeptAsItCame() async throws {
        let cache = EntityCache()
        let data = try Self.parse(#"{"genres":[{"genre":"Drama","count":2}]}"#)
        await cache.store(data: data, extensions: nil, key: "genres")
        #expect(await cache.data(for: "genres", maxAge: nil) == data)
        #expect(await cache.data(for: "other", maxAge: nil) == nil)
    }

    @Test func anEntryOlderThanTheMaximumAgeIsNotAnswered() async throws {
        let cache = EntityCache()
        await cache.store(data: .object(["a": .bool(true)]), extensions: nil, key: "k")
        #expect(await cache.data(for: "k", maxAge: .seconds(60)) != nil)
        try await Task.sleep(for: .milliseconds(20))
        #expect(await cache.data(for: "k", maxAge: .milliseconds(1)) == nil)
        // `.cacheOnly` takes any age.
        #expect(await cache.data(for: "k", maxAge: nil) != nil)
    }

    @Test func theOldestEntryGoesWhenTheCacheIsFull() async throws {
        let cache = EntityCache(capacity: 2)
        for key in ["a", "b", "c"] {
            await cache.store(data: .object(["key": .string(key)]), extensions: nil, key: key)
            try await Task.sleep(for: .milliseconds(2))
        }
        #expect(await cache.data(for: "a", maxAge: nil) == nil)
        #expect(await cache.data(for: "b", maxAge: nil) != nil)
        #expect(await cache.data(for: "c", maxAge: nil) != nil)
    }

    @Test func extensionsThatPointNowhereAreIgnored() async throws {
        let cache = EntityCache()
        let data = try Self.parse(#"{"movies":[{"id":"m1"}]}"#)
        let odd = try Self.parse(
            #"{"dataConnect":[{"path":["missing",3],"entityId":"X"},{"path":"movies","entityIds":[1]},{"entityId":"Y"}]}"#
        )
        await cache.store(data: data, extensions: odd, key: "k")
        #expect(await cache.data(for: "k", maxAge: nil) == data)
    }

    /// A related row one answer has (`director: {…}`) is not overwritten by another answer's `null` for it, nor the
    /// other way round: related rows are linked entities, not values of the row.
    @Test func aNullRelationInOneAnswerDoesNotReplaceAnotherAnswersRow() async throws {
        let cache = EntityCache()
        let ids = try Self.parse(#"{"dataConnect":[{"path":["movie"],"entityId":"M1"}]}"#)
        await cache.store(
            data: try Self.parse(#"{"movie":{"title":"A","director":null,"tags":[]}}"#), extensions: ids, key: "a")
        let full = try Self.parse(#"{"movie":{"title":"B","director":{"name":"D"},"tags":[{"name":"t"}]}}"#)
        await cache.store(data: full, extensions: ids, key: "b")
        #expect(await cache.data(for: "b", maxAge: nil) == full)
        #expect(
            await cache.data(for: "a", maxAge: nil)
                == (try Self.parse(#"{"movie":{"title":"B","director":null,"tags":[]}}"#)))
    }

    /// One scope's answers (another endpoint, project or user) never change another's view of the same id.
    @Test func entitiesOfOneScopeStayOutOfAnothers() async throws {
        let cache = EntityCache()
        let ids = try Self.parse(#"{"dataConnect":[{"path":["movie"],"entityId":"M1"}]}"#)
        await cache.store(
            data: try Self.parse(#"{"movie":{"title":"Ana's"}}"#), extensions: ids, key: "a", scope: "ana")
        await cache.store(
            data: try Self.parse(#"{"movie":{"title":"Ben's"}}"#), extensions: ids, key: "b", scope: "ben")
        #expect(await cache.data(for: "a", maxAge: nil) == (try Self.parse(#"{"movie":{"title":"Ana's"}}"#)))
    }
}
