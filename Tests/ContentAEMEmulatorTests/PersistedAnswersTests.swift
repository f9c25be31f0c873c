import ContentEmulatorTesting
import ContentJSON
import Foundation
import HTTPTypes
import Testing

@testable import ContentAEMEmulator

/// Persisted-query answers kept in memory: served again byte for byte with the same `ETag`, and never after a
/// persist that could change them.
struct PersistedAnswersTests {
    private let admin = ("Authorization", "Basic " + Data("admin:admin".utf8).base64EncodedString())

    @Test func anAnswerIsKeptUntilAPersistAndNoneOlderIsServedAfterIt() async throws {
        let admin = self.admin
        try await AEMHarness.runService(options: .init(mode: .author)) { emulator, client in
            let path = "/graphql/execute.json/wknd-shared/adventures-all"
            let first = try await client.get(path, headers: [admin])
            #expect(first.status == 200)
            #expect(emulator.answers.count == 1)
            let second = try await client.get(path, headers: [admin])
            #expect(second.text == first.text)
            #expect(second.header("ETag") == first.header("ETag"))
            let etag = try #require(first.header("ETag"))
            #expect(try await client.get(path, headers: [admin, ("If-None-Match", etag)]).status == 304)
            #expect(emulator.answers.count == 1)

            let updated = try await client.post(
                "/graphql/persist.json/wknd-shared/adventures-all",
                json: #"{"query":"{ adventureList(limit: 1) { items { title } } }"}"#, headers: [admin])
            #expect(updated.status == 200)
            #expect(emulator.answers.count == 0)
            let after = try await client.get(path, headers: [admin])
            #expect(after.json?["data"]?["adventureList"]?["items"]?.arrayValue?.count == 1, "\(after.text)")
            #expect(after.header("ETag") != etag)
            // The old ETag names bytes that are gone: the client gets the new ones, not a 304.
            #expect(try await client.get(path, headers: [admin, ("If-None-Match", etag)]).status == 200)
        }
    }

    @Test func variablesAreKeptApartAndPostedOnesByMeaning() {
        let slug = PersistedAnswers.key(
            configuration: "wknd-shared", name: "adventure-by-slug", segments: ["slug=bali-surf-camp"], posted: nil)
        let other = PersistedAnswers.key(
            configuration: "wknd-shared", name: "adventure-by-slug", segments: ["slug=yosemite"], posted: nil)
        #expect(slug != other)
        let posted = PersistedAnswers.key(
            configuration: "wknd-shared", name: "q", segments: [],
            posted: JSONObject([JSONMember("b", .number(JSONNumber(1))), JSONMember("a", .string("x"))]))
        let reordered = PersistedAnswers.key(
            configuration: "wknd-shared", name: "q", segments: [],
            posted: JSONObject([JSONMember("a", .string("x")), JSONMember("b", .number(JSONNumber(1)))]))
        #expect(posted == reordered)
        #expect(posted != PersistedAnswers.key(configuration: "wknd-shared", name: "q", segments: [], posted: nil))
    }

    @Test func theOldestAnswersGoPastEitherBound() {
        let answers = PersistedAnswers(maxEntries: 2, maxBytes: 10)
        func answer(_ size: Int) -> PersistedAnswers.Answer {
            .init(bytes: Array(repeating: 0x20, count: size), etag: "\"\(size)\"", headers: [:])
        }
        answers.keep(answer(4), for: "a")
        answers.keep(answer(4), for: "b")
        answers.keep(answer(1), for: "c")
        #expect(answers.answer(for: "a") == nil)
        #expect(answers.count == 2)
        // Three entries: the oldest goes; 1 + 8 bytes fit.
        answers.keep(answer(8), for: "d")
        #expect(answers.answer(for: "b") == nil && answers.answer(for: "c") != nil)
        // 8 + 3 bytes do not: the oldest goes again.
        answers.keep(answer(3), for: "e")
        #expect(answers.answer(for: "c") == nil && answers.answer(for: "d") == nil)
        #expect(answers.answer(for: "e")?.bytes.count == 3)
        // Larger than the whole bound: not kept, nothing dropped for it.
        answers.keep(answer(11), for: "f")
        #expect(answers.answer(for: "f") == nil)
        #expect(answers.count == 1)
    }
}
