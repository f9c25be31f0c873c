import ContentKit
import Foundation
import Testing

/// The generated WKND client (`Golden/WKNDSample.swift`, compiled into this target) against the AEM emulator
/// over loopback HTTP: persisted-query variables travel as `;name=value` and the results decode.
struct GeneratedAEMClientLoopbackTests {
    private static func withWKND(_ body: @Sendable (WkndSharedQueries) async throws -> Void) async throws {
        let examples = GoldenWorkspaces.repository.appendingPathComponent("examples")
        try await LoopbackContentClient.withAEM(workspace: examples) { try await body(WkndSharedQueries(client: $0)) }
    }

    @Test func everyAdventureComesBackWithItsImage() async throws {
        try await Self.withWKND { wknd in
            let adventures = try await wknd.adventuresAll().adventureList.items.compactMap { $0 }
            #expect(adventures.count == 16)
            #expect(adventures.contains { $0.title == "Bali Surf Camp" && $0.slug == "bali-surf-camp" })
            #expect(adventures.allSatisfy { $0.primaryImage?._path?.hasPrefix("/content/dam/") == true })
        }
    }

    @Test func aSlugVariableFindsOneAdventureWithItsRichText() async throws {
        try await Self.withWKND { wknd in
            let found = try await wknd.adventureBySlug(slug: "bali-surf-camp").adventureList.items.compactMap { $0 }
            #expect(found.count == 1)
            #expect(found.first?.title == "Bali Surf Camp")
            #expect(found.first?.description?.html?.contains("<p>") == true)
        }
    }

    @Test func anActivityFiltersTheList() async throws {
        try await Self.withWKND { wknd in
            let surfing = try await wknd.adventuresByActivity(activity: "Surfing").adventureList.items.compactMap { $0 }
            #expect(!surfing.isEmpty)
            #expect(surfing.allSatisfy { $0.activity == "Surfing" })
        }
    }
}
