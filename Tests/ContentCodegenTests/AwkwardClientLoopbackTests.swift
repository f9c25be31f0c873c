import ContentKit
import Foundation
import Testing

/// The client generated from `Fixtures/awkward-dataconnect` (`Golden/AwkwardDataConnect.swift`) against the
/// Data Connect emulator over loopback HTTP: variables named like the client's own members reach the service,
/// renamed enum cases keep their GraphQL values, and `@include`/`@skip` fields decode when left out.
struct AwkwardClientLoopbackTests {
    private static func withAwkward(_ body: @Sendable (AwkwardConnector) async throws -> Void) async throws {
        let workspace = GoldenWorkspaces.fixtures.appendingPathComponent("awkward-dataconnect")
        try await LoopbackContentClient.withDataConnect(workspace: workspace, project: "awkward") {
            let connector = AwkwardConnector(client: $0)
            _ = try await connector.addMovie(
                data: .init(title: "Alpha", rating: .pg13_, container: "box", encoder: "utf8", description: "kept"))
            _ = try await connector.addMovie(data: .init(title: "Beta", rating: .aB_))
            try await body(connector)
        }
    }

    @Test func variablesNamedLikeTheClientsMembersReachTheService() async throws {
        try await Self.withAwkward { awkward in
            #expect(try await awkward.findMovies(self: "Alpha").movies.map(\.title) == ["Alpha"])
            #expect(try await awkward.findMovies(client: "Beta").movies.map(\.title) == ["Beta"])
            #expect(try await awkward.findMovies(backend: "Beta").movies.map(\.title) == ["Beta"])
            let boxed = try await awkward.findMovies(container: "box").movies
            #expect(boxed.map(\.title) == ["Alpha"])
            #expect(boxed.first?.encoder == "utf8")
            #expect(try await awkward.findMovies(encoder: "utf8").movies.map(\.title) == ["Alpha"])
            #expect(try await awkward.findMovies(in: "kept").movies.map(\.title) == ["Alpha"])
        }
    }

    @Test func enumCasesThatSpellAlikeKeepTheirOwnValues() async throws {
        try await Self.withAwkward { awkward in
            let ratings = try await awkward.listAliased().ratings.compactMap(\.rating)
            #expect(Set(ratings) == [.pg13_, .aB_])
            #expect(AwkwardConnector.Rating.pg13.rawValue == "PG13")
            #expect(AwkwardConnector.Rating.pg13_.rawValue == "Pg13")
            #expect(AwkwardConnector.Rating.allCases_.rawValue == "ALL_CASES")
            #expect(AwkwardConnector.Rating.allCases.count == 10)
        }
    }

    @Test func fieldsADirectiveLeavesOutDecodeAsNil() async throws {
        try await Self.withAwkward { awkward in
            let without = try await awkward.listMaybe(withRating: false).movies
            #expect(without.map(\.title).sorted() == ["Alpha", "Beta"])
            #expect(without.allSatisfy { $0.id == nil && $0.container == nil })
            #expect(Set(without.compactMap(\.rating)) == [.pg13_, .aB_])
            let with = try await awkward.listMaybe(withRating: true).movies
            #expect(with.allSatisfy { $0.id != nil && $0.rating == nil })
            #expect(with.compactMap(\.container) == ["box"])
        }
    }

    @Test func aliasesThatDifferOnlyInCaseDecodeIntoTheirOwnStructs() async throws {
        try await Self.withAwkward { awkward in
            let aliased = try await awkward.listAliased()
            #expect(aliased.types.isEmpty)
            #expect(aliased.a.map(\.title).sorted() == ["Alpha", "Beta"])
            #expect(Set(aliased.A.compactMap(\.rating)) == [.pg13_, .aB_])
            #expect(aliased.strings.count == 2)
            // `_metadata` and an alias `metadata` get structs of their own; outside a search both are empty.
            #expect(aliased.underscored.count == 2)
            #expect(Set(aliased.underscored.map(\._id)).count == 2)
            #expect(aliased.underscored.allSatisfy { $0._metadata?.relevance == nil && $0.metadata?.distance == nil })
        }
    }
}
