import ContentKit
import Foundation
import Testing

/// The client generated from `Fixtures/awkward-dataconnect` (`Golden/AwkwardDataConnect.swift`) against the
/// Data Connect emulator over loopback HTTP: variables named like the client's own members reach the service,
/// renamed enum cases keep their GraphQL values, and `@include`/`@skip` fields decode when left out.
struct AwkwardClientLoopbackTests {
    private static func withAwkward(_ body: @Sendable (AwkwardConnector) async throws -> Void) async throws {
        let workspace = GoldenWorkspaces.fixtures.appendingPathComponent("awkward-dataconnect")
        try await LoopbackContentClient.withDataConnect(
            workspace: workspace, connector: AwkwardConnector.connectorConfig, project: "awkward"
        ) {
            let connector = AwkwardConnector(dataConnect: $0)
            _ = try await connector.addMovieMutation.execute(
                data: .init(title: "Alpha", rating: .pg13_, container: "box", encoder: "utf8", description: "kept"))
            _ = try await connector.addMovieMutation.execute(data: .init(title: "Beta", rating: .aB_))
            try await body(connector)
        }
    }

    @Test func variablesNamedLikeTheClientsMembersReachTheService() async throws {
        try await Self.withAwkward { awkward in
            #expect(try await awkward.findMoviesQuery.execute(self: "Alpha").data.movies.map(\.title) == ["Alpha"])
            #expect(try await awkward.findMoviesQuery.execute(client: "Beta").data.movies.map(\.title) == ["Beta"])
            #expect(try await awkward.findMoviesQuery.execute(backend: "Beta").data.movies.map(\.title) == ["Beta"])
            #expect(try await awkward.findMoviesQuery.execute(dataConnect: "Beta").data.movies.map(\.title) == ["Beta"])
            #expect(try await awkward.findMoviesQuery.execute(service: "Alpha").data.movies.map(\.title) == ["Alpha"])
            let reference = await awkward.findMoviesQuery.ref(dataConnect: "Alpha")
            #expect(try await reference.execute().data.movies.map(\.title) == ["Alpha"])
            let boxed = try await awkward.findMoviesQuery.execute(container: "box").data.movies
            #expect(boxed.map(\.title) == ["Alpha"])
            #expect(boxed.first?.encoder == "utf8")
            #expect(try await awkward.findMoviesQuery.execute(encoder: "utf8").data.movies.map(\.title) == ["Alpha"])
            #expect(try await awkward.findMoviesQuery.execute(in: "kept").data.movies.map(\.title) == ["Alpha"])
        }
    }

    @Test func enumCasesThatSpellAlikeKeepTheirOwnValues() async throws {
        try await Self.withAwkward { awkward in
            let ratings = try await awkward.listAliasedQuery.execute().data.ratings.compactMap(\.rating)
            #expect(Set(ratings) == [.pg13_, .aB_])
            #expect(AwkwardConnector.Rating.pg13.rawValue == "PG13")
            #expect(AwkwardConnector.Rating.pg13_.rawValue == "Pg13")
            #expect(AwkwardConnector.Rating.allCases_.rawValue == "ALL_CASES")
            #expect(AwkwardConnector.Rating.allCases.count == 10)
        }
    }

    @Test func fieldsADirectiveLeavesOutDecodeAsNil() async throws {
        try await Self.withAwkward { awkward in
            let without = try await awkward.listMaybeQuery.execute(withRating: false).data.movies
            #expect(without.map(\.title).sorted() == ["Alpha", "Beta"])
            #expect(without.allSatisfy { $0.id == nil && $0.container == nil })
            #expect(Set(without.compactMap(\.rating)) == [.pg13_, .aB_])
            let with = try await awkward.listMaybeQuery.execute(withRating: true).data.movies
            #expect(with.allSatisfy { $0.id != nil && $0.rating == nil })
            #expect(with.compactMap(\.container) == ["box"])
        }
    }

    @Test func aliasesThatDifferOnlyInCaseDecodeIntoTheirOwnStructs() async throws {
        try await Self.withAwkward { awkward in
            let aliased = try await awkward.listAliasedQuery.execute().data
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
