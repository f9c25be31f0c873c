import ContentKit
import Foundation
import Testing

/// The generated WKND client (`Golden/WKNDSample.swift`, compiled into this target) against the AEM emulator
/// over loopback HTTP: persisted-query variables travel as `;name=value` and the results decode.
struct GeneratedAEMClientLoopbackTests {
    private static func withWKND(_ body: @Sendable (WkndSharedQueries) async throws -> Void) async throws {
        let examples = GoldenWorkspaces.repository.appendingPathComponent("examples")
        try await LoopbackContentClient.withAEM(workspace: examples, configuration: WkndSharedQueries.configuration) {
            try await body(WkndSharedQueries(aem: $0))
        }
    }

    @Test func everyAdventureComesBackWithItsImage() async throws {
        try await Self.withWKND { wknd in
            let adventures = try await wknd.adventuresAllQuery.execute().data.adventureList.items.compactMap { $0 }
            #expect(adventures.count == 16)
            #expect(adventures.contains { $0.title == "Bali Surf Camp" && $0.slug == "bali-surf-camp" })
            #expect(adventures.allSatisfy { $0.primaryImage?._path?.hasPrefix("/content/dam/") == true })
        }
    }

    @Test func aSlugVariableFindsOneAdventureWithItsRichText() async throws {
        try await Self.withWKND { wknd in
            let found = try await wknd.adventureBySlugQuery.execute(slug: "bali-surf-camp").data.adventureList.items
                .compactMap { $0 }
            #expect(found.count == 1)
            #expect(found.first?.title == "Bali Surf Camp")
            #expect(found.first?.description?.html?.contains("<p>") == true)
        }
    }

    @Test func anActivityFiltersTheList() async throws {
        try await Self.withWKND { wknd in
            let surfing = try await wknd.adventuresByActivityQuery.execute(activity: "Surfing").data.adventureList
                .items.compactMap { $0 }
            #expect(!surfing.isEmpty)
            #expect(surfing.allSatisfy { $0.activity == "Surfing" })
        }
    }

    /// A persisted query's answer is kept per variables: `.cacheOnly` gives it back without asking AEM, and other
    /// variables are not answered from it.
    @Test func aPersistedQueryIsCachedPerVariables() async throws {
        try await Self.withWKND { wknd in
            let served = try await wknd.adventuresByActivityQuery.execute(activity: "Surfing")
            #expect(served.source == .server)
            let cached = try await wknd.adventuresByActivityQuery.execute(activity: "Surfing", fetchPolicy: .cacheOnly)
            #expect(cached.source == .cache)
            #expect(cached.data == served.data)
            await #expect(throws: ContentClientError.notCached(operation: "wknd-shared/adventures-by-activity")) {
                _ = try await wknd.adventuresByActivityQuery.execute(activity: "Rock Climbing", fetchPolicy: .cacheOnly)
            }
        }
    }
}
