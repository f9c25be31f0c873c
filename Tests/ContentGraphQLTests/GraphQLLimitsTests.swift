import ContentGraphQL
import ContentTesting
import Foundation
import GraphQL
import OrderedCollections
import Testing

/// Each limit a server holds a request to: refused with its name and the flag that raises it, measured with
/// fragments expanded, and fast however the text is shaped.
struct GraphQLLimitsTests {
    static let built: GraphQLSchema? = try? make()

    static func make() throws -> GraphQLSchema {
        let item = try GraphQLObjectType(
            name: "Item",
            fields: ["title": GraphQLField(type: GraphQLString), "price": GraphQLField(type: GraphQLInt)])
        let list = try GraphQLObjectType(name: "ItemList", fields: ["items": GraphQLField(type: GraphQLList(item))])
        let query = try GraphQLObjectType(
            name: "Query",
            fields: [
                "itemList": GraphQLField(type: list) { _, _, _, _ in
                    ["items": [["title": "one", "price": 1] as [String: any Sendable]]] as [String: any Sendable]
                },
                "slow": GraphQLField(type: GraphQLString) { _, _, _, _ in
                    try await Task.sleep(for: .seconds(30))
                    return "late"
                },
            ])
        return try GraphQLSchema(query: query)
    }

    static var schema: GraphQLSchema {
        get throws { try #require(built) }
    }

    static func refusal(_ text: String, _ limits: GraphQLLimits = GraphQLLimits()) throws -> GraphQLRequestErrors? {
        if case .failure(let refusal) = GraphQLSource.request(text, schema: try schema, limits: limits) {
            return refusal
        }
        return nil
    }

    @Test func aliasesAreCountedThroughFragments() throws {
        let fragment =
            "fragment F on ItemList { " + (0..<20).map { "t\($0): items { title }" }.joined(separator: " ")
            + " }"
        let spreads = (0..<6).map { "l\($0): itemList { ...F }" }.joined(separator: " ")
        // 6 aliased lists, each spreading 20 aliases: 126 with the fragment expanded, 26 as written.
        let refusal = try #require(try Self.refusal("{ \(spreads) } \(fragment)"))
        #expect(refusal.stage == .limit)
        #expect(refusal.summary.contains("126 aliases"), "\(refusal.summary)")
        #expect(refusal.summary.contains("content serve --limit aliases=N"))
        var raised = GraphQLLimits()
        try raised.set("aliases=200")
        #expect(try Self.refusal("{ \(spreads) } \(fragment)", raised) == nil)
    }

    /// Each of 30 fragments spreads the next twice: 2^30 fields expanded, which validation's overlap rule would
    /// compare pairwise; measuring visits each fragment once.
    @Test func exponentialFragmentsAreMeasuredWithoutExpanding() throws {
        var text = "{ itemList { ...F0 } } fragment F30 on ItemList { items { title } }"
        for level in 0..<30 { text += " fragment F\(level) on ItemList { ...F\(level + 1) ...F\(level + 1) }" }
        let refusal = try #require(try Self.refusal(text))
        #expect(refusal.summary.contains("fields"), "\(refusal.summary)")
    }

    @Test func aChainOfFragmentsNestsAsDeepAsItsFields() throws {
        var text = "{ itemList { ...F0 } }"
        for level in 0..<100 { text += " fragment F\(level) on ItemList { ...F\(level + 1) }" }
        text += " fragment F100 on ItemList { items { title } }"
        let refusal = try #require(try Self.refusal(text))
        #expect(refusal.summary.contains("nest more than 64 levels"), "\(refusal.summary)")
    }

    @Test func fragmentsDirectivesFieldsAndTextAreEachLimited() throws {
        let fragments = (0..<501).map { "fragment F\($0) on Item { title }" }.joined(separator: " ")
        #expect(try Self.refusal("{ itemList { items { title } } } \(fragments)")?.errors.first?.limit == "fragments")
        let directives = String(repeating: " @include(if: true)", count: 17)
        let directiveRefusal = try #require(try Self.refusal("{ itemList \(directives) { items { title } } }"))
        #expect(directiveRefusal.errors.first?.limit == "directives")
        #expect(directiveRefusal.errors.first?.column == 13)
        let fields = String(repeating: "title ", count: 5001)
        #expect(try Self.refusal("{ itemList { items { \(fields) } } }")?.errors.first?.limit == "fields")
        let long = "{ itemList { items { title } } }" + String(repeating: " ", count: 1 << 20)
        #expect(try Self.refusal(long)?.errors.first?.limit == "characters")
    }

    /// The inputs that took seconds to minutes of validation before the limits: each refused at once.
    @Test func quadraticValidationInputsAreRefusedBeforeValidation() throws {
        let inputs = [
            "{ itemList { items { title } } } "
                + (0..<20_000).map { "fragment F\($0) on Item { title }" }.joined(separator: " "),
            "{ itemList " + String(repeating: "@include(if: true) ", count: 10_000) + "{ items { title } } }",
            "{ itemList { items { " + String(repeating: "title ", count: 1_000_000) + "} } }",
            "{ " + (0..<1_000).map { "s\($0): __schema { types { name } }" }.joined(separator: " ") + " }",
        ]
        for input in inputs {
            let refusal = try #require(try Self.refusal(input))
            #expect(refusal.stage == .limit, "\(refusal.summary)")
        }
    }

    @Test func aValidRequestPassesAndAnInvalidOneListsEveryProblem() throws {
        guard
            case .success = GraphQLSource.request(
                "{ itemList { items { title } } }", schema: try Self.schema, limits: GraphQLLimits())
        else {
            Issue.record("a valid query was refused")
            return
        }
        let refusal = try #require(try Self.refusal("{ nope itemList { items { missing } } }"))
        #expect(refusal.stage == .validation)
        #expect(refusal.errors.count == 2)
        #expect(refusal.summary.contains("(and 1 more)"))
    }

    @Test func executionStopsWhenTheTimeRunsOut() async throws {
        var limits = GraphQLLimits()
        try limits.set("seconds=1")
        guard case .success(let document) = GraphQLSource.request("{ slow }", schema: try Self.schema, limits: limits)
        else {
            Issue.record("the query was refused")
            return
        }
        await #expect(throws: GraphQLExecutionTimeout.self) {
            _ = try await GraphQLExecution.execute(
                schema: try Self.schema, document: document, context: (), variables: [:], operationName: nil,
                limits: limits)
        }
    }

    @Test func anOversizedResponseIsNamedWithItsLimit() throws {
        var limits = GraphQLLimits()
        try limits.set("response-bytes=10")
        #expect(GraphQLExecution.oversized(10, limits: limits) == nil)
        let message = try #require(GraphQLExecution.oversized(11, limits: limits))
        #expect(message.contains("11 bytes; at most 10"))
        #expect(message.contains("--limit response-bytes=N"))
    }

    @Test(arguments: [
        ("aliases", "aliases is not NAME=VALUE"), ("bogus=1", "bogus is not a limit; names: characters, tokens"),
        ("depth=0", "depth=0: the value must be a whole number above 0"),
        ("depth=ten", "depth=ten: the value must be a whole number above 0"),
    ])
    func aBadLimitAssignmentSaysWhatIsWrong(assignment: String, message: String) {
        var limits = GraphQLLimits()
        #expect(throws: GraphQLLimitError.self) { try limits.set(assignment) }
        do {
            try limits.set(assignment)
        } catch {
            #expect(error.description.hasPrefix(message), "\(error)")
        }
        #expect(limits == GraphQLLimits())
    }

    /// The deepest nesting `--limit depth` allows is parsed, measured and validated on a task's stack; more is
    /// refused.
    @Test func theDeepestAllowedNestingRunsAndMoreIsRefused() async throws {
        var limits = GraphQLLimits()
        try limits.set("depth=\(GraphQLLimits.deepestAllowed)")
        // Selections nest one level less than the braces around them.
        let levels = GraphQLLimits.deepestAllowed - 1
        let text =
            "{" + String(repeating: "itemList { ", count: levels) + "__typename"
            + String(repeating: " }", count: levels) + "}"
        // An async test runs on a task, whose stack is the one a request handler has.
        var outcome = "accepted"
        if case .failure(let refusal) = GraphQLSource.request(text, schema: try Self.schema, limits: limits) {
            outcome = refusal.summary
        }
        // itemList cannot nest in itself in this schema, so validation refuses it: after parsing it whole.
        #expect(outcome.contains("Cannot query field") || outcome == "accepted", "\(outcome)")
        let value =
            "{a(s: " + String(repeating: "[", count: GraphQLLimits.deepestAllowed - 4) + "1"
            + String(repeating: "]", count: GraphQLLimits.deepestAllowed - 4) + ")}"
        #expect((try? GraphQLSource.parse(value, path: "q", limits: limits)) != nil)
        #expect(throws: GraphQLLimitError.self) { try limits.set("depth=\(GraphQLLimits.deepestAllowed + 1)") }
    }

    /// Every real query of the corpus and the samples passes the request limits with room to spare.
    @Test func everyRealQueryIsWellWithinTheDefaults() throws {
        var checked = 0
        // Queries and connector operations; schemas, preludes and seeds are files, not requests.
        for file in TestLocations.graphQLFiles()
        where file.pathExtension == "graphql" || file.lastPathComponent.contains("quer")
            || file.lastPathComponent.contains("mutation")
        {
            let text = try String(contentsOf: file, encoding: .utf8)
            var quarter = GraphQLLimits()
            quarter.tokens /= 4
            quarter.depth /= 4
            quarter.aliases /= 4
            _ = try GraphQLSource.parse(text, path: file.path, limits: quarter)
            checked += 1
        }
        #expect(checked >= 10)
    }
}
