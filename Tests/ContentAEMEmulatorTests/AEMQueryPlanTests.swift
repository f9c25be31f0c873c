import ContentEmulatorTesting
import ContentGraphQL
import ContentJSON
import ContentTesting
import Foundation
import Testing

@testable import ContentAEMEmulator

/// A planned query answers byte for byte as GraphQLSwift's executor answers the same document, and a query the plan
/// cannot answer exactly goes to the executor.
struct AEMQueryPlanTests {
    /// A query, its variables, and whether the plan (not the executor) must answer it.
    struct Case: Sendable, CustomStringConvertible {
        var name: String
        var query: String
        var variables: JSONObject = JSONObject()
        var operationName: String?
        var planned: Bool

        var description: String { name }
    }

    static let cases: [Case] = [
        Case(
            name: "aliases, __typename and a repeated field merged",
            query: """
                { all: adventureList { items { __typename name: title title _path price tripLength title } }
                  __typename }
                """, planned: true),
        Case(
            name: "fragments and inline fragments on the Reference union",
            query: """
                fragment Image on ImageRef { _path mimeType width height _dynamicUrl _authorUrl }
                query Listing { adventureList(limit: 3, offset: 2, sort: "price DESC") {
                  items { title primaryImage { __typename ...Image ... on DocumentRef { format } } ...More }
                  _references { __typename ... on ImageRef { _path } ... on AdventureModel { title } } } }
                fragment More on AdventureModel { activity groupSize _model { title _path } _metadata { stringMetadata { name value } } }
                """, planned: true),
        Case(
            name: "rich text in every form, and system fields",
            query: """
                { adventureList(filter: {activity: {_expressions: [{value: "Surfing"}]}}) {
                  items { _id _variation _variations _tags description { html plaintext markdown json } itinerary { plaintext } } } }
                """, planned: true),
        Case(
            name: "a path and an asset transform from variables, defaults and an enum",
            query: """
                query ($path: String!, $format: AssetTransformFormat = PNG, $width: Int = 800, $seo: String) {
                  adventureByPath(_path: $path, _assetTransform: {format: $format, width: $width, seoName: $seo, preferWebp: true}) {
                    item { title primaryImage { ... on ImageRef { _dynamicUrl } } } _references { __typename } } }
                """,
            variables: [
                "path": .string("/content/dam/wknd-shared/en/adventures/bali-surf-camp/bali-surf-camp"),
                "width": .number(JSONNumber(640)),
            ],
            planned: true),
        Case(
            name: "fragment references followed, a list of numbers and a JSON field",
            query: """
                { trailList { items { name distances starts details notes { plaintext } stops { title price }
                  guide { __typename ... on DocumentRef { _path format } ... on PageRef { _path type } } } } }
                """, planned: true),
        Case(
            name: "the operation named",
            query: "query A { adventureList { items { title } } } ",
            operationName: "A", planned: true),
        Case(
            name: "a path with no fragment: the executor's error and partial data",
            query: """
                { adventureByPath(_path: "/content/dam/nothing") { item { title } } adventureList(limit: 1) { items { title } } }
                """, planned: false),
        Case(
            name: "a required variable left out",
            query: "query ($path: String!) { adventureByPath(_path: $path) { item { title } } }", planned: false),
        Case(
            name: "a variable of the wrong type",
            query: "query ($limit: Int) { adventureList(limit: $limit) { items { title } } }",
            variables: ["limit": .string("three")], planned: false),
        Case(
            name: "another operation named",
            query: "query A { adventureList { items { title } } } ",
            operationName: "B", planned: false),
        Case(
            name: "a directive",
            query: "query ($all: Boolean = true) { adventureList { items { title @include(if: $all) slug } } }",
            planned: false),
        Case(
            name: "a paginated list",
            query: "{ adventurePaginated(first: 2) { edges { cursor node { title } } pageInfo { hasNextPage } } }",
            planned: false),
    ]

    /// Runs `body` with the engine of an emulator over the sample workspace plus the trails.
    static func withEngine<Result: Sendable>(_ body: @Sendable (AEMGraphQLEngine) async throws -> Result)
        async throws -> Result
    {
        let workspace = try AEMHarness.workspace()
        defer { try? FileManager.default.removeItem(at: workspace.deletingLastPathComponent()) }
        try Data(AEMSchemaBehaviourTests.trailModel.utf8).write(
            to: workspace.appendingPathComponent("models/trail.yaml"))
        let folder = workspace.appendingPathComponent("fragments/trails")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        for (name, text) in AEMSchemaBehaviourTests.trails {
            try Data(text.utf8).write(to: folder.appendingPathComponent(name))
        }
        return try await EmulatorTesting.run(
            AEMEmulator.self, workspace: workspace.deletingLastPathComponent(), options: AEMEmulator.Options(),
            mode: .inProcess
        ) { emulator, _ in try await body(emulator.engine) }
    }

    /// The executor's answer: the same checked document with no plan.
    static func executorAnswer(
        _ engine: AEMGraphQLEngine, _ query: String, _ variables: JSONObject, _ operation: String?
    )
        async throws -> JSONValue
    {
        let checked = try engine.documents.request(query).get()
        return await engine.execute(
            .success(AEMGraphQLEngine.CheckedQuery(document: checked.document, prepared: nil)), variables: variables,
            operationName: operation)
    }

    @Test(arguments: cases) func aPlanAnswersAsTheExecutor(_ example: Case) async throws {
        try await Self.withEngine { engine in
            let checked = try engine.documents.request(example.query).get()
            let planAnswer = checked.prepared.flatMap {
                engine.run($0, variables: example.variables, operationName: example.operationName)
            }
            #expect((planAnswer != nil) == example.planned, "planned: \(String(describing: planAnswer?.jsonText))")
            let answer = await engine.execute(
                engine.documents.request(example.query), variables: example.variables,
                operationName: example.operationName)
            let expected = try await Self.executorAnswer(
                engine, example.query, example.variables, example.operationName)
            #expect(
                answer.serialized() == expected.serialized(), "plan: \(answer.jsonText)\nexecutor: \(expected.jsonText)"
            )
            // The answers are about the content, not empty on both sides.
            #expect(expected["data"] != nil || expected["errors"] != nil)
            if example.planned { #expect(expected["errors"] == nil, "\(expected.jsonText)") }
        }
    }

    /// Every persisted query of the sample and of the corpus, with values for its required variables, planned and
    /// executed.
    @Test func everyPersistedQueryAnswersAsTheExecutor() async throws {
        var folders = [Locations.examples.appendingPathComponent("aem/queries/wknd-shared")]
        if let corpus = Locations.corpusFolder("aem/wknd-shared/persisted-queries") { folders.append(corpus) }
        var queries: [(name: String, text: String)] = []
        for folder in folders {
            for file in try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
            where file.hasSuffix(".graphql") {
                let text = try String(contentsOf: folder.appendingPathComponent(file), encoding: .utf8)
                queries.append((name: "\(folder.lastPathComponent)/\(file)", text: text))
            }
        }
        let texts = queries
        let planned = try await Self.withEngine { engine in
            var planned = 0
            for query in texts {
                let variables = Self.requiredVariables(in: query.text)
                guard case .success(let checked) = engine.documents.request(query.text) else { continue }
                if let plan = checked.prepared, engine.run(plan, variables: variables, operationName: nil) != nil {
                    planned += 1
                }
                let answer = await engine.execute(.success(checked), variables: variables, operationName: nil)
                let expected = try await Self.executorAnswer(engine, query.text, variables, nil)
                #expect(answer.serialized() == expected.serialized(), "\(query.name)")
                // Each answers with content, or with a resolver's error at a path (a fragment the sample lacks).
                #expect(
                    expected["data"] != nil || expected["errors"]?.arrayValue?.first?["path"] != nil,
                    "\(query.name): \(expected.jsonText)")
            }
            return planned
        }
        // The listing queries have plans; only paginated ones go to the executor.
        #expect(planned >= texts.count / 2, "\(planned) of \(texts.count) planned")
    }

    /// Values for the required variables of the sample's and the corpus's queries, by name, of content the sample
    /// has.
    static let knownVariables: JSONObject = [
        "adventurePath": .string("/content/dam/wknd-shared/en/adventures/bali-surf-camp/bali-surf-camp"),
        "articlePath": .string("/content/dam/wknd-shared/en/magazine/ski-touring/ski-touring-guide"),
        "slug": .string("bali-surf-camp"), "activity": .string("Surfing"),
        "price": .number(JSONNumber(1200)), "priceOperator": .string("LOWER"),
        "firstName": .string("Stacey"), "lastName": .string("Roswells"),
        "authorFirstName": .string("Stacey"), "authorLastName": .string("Roswells"),
    ]

    /// The known values of the variables a query declares.
    static func requiredVariables(in text: String) -> JSONObject {
        var variables = JSONObject()
        for member in knownVariables.members where text.contains("$\(member.key):") {
            variables[member.key] = member.value
        }
        return variables
    }

    /// A planned run is held to the request's time as the executor is, and answers as it does past it.
    @Test func aPlannedRunPastItsTimeAnswersAsTheExecutor() async throws {
        var limits = GraphQLLimits()
        limits.seconds = 0
        let emulator = try AEMEmulator(
            directory: Locations.examples.appendingPathComponent("aem"), publishBase: "http://localhost",
            limits: limits)
        let checked = try emulator.engine.documents.request("{ adventureList { items { title } } }").get()
        let plan = try #require(checked.prepared)
        let answer = emulator.engine.run(plan, variables: JSONObject(), operationName: nil)
        #expect(answer?["data"] == nil)
        #expect(
            answer?["errors"]?.arrayValue?.first?["message"]?.stringValue
                == GraphQLExecutionTimeout(seconds: 0).description)
        // With time to run, the same plan answers.
        let unhurried = try AEMEmulator(
            directory: Locations.examples.appendingPathComponent("aem"), publishBase: "http://localhost")
        let planned = try #require(
            try unhurried.engine.documents.request("{ adventureList { items { title } } }").get().prepared)
        #expect(unhurried.engine.run(planned, variables: JSONObject(), operationName: nil)?["data"] != nil)
    }

    @Test func aRefusedQueryIsNotKeptAndAKeptOneIsCheckedOnce() async throws {
        try await Self.withEngine { engine in
            let before = engine.documents.count
            #expect(throws: GraphQLRequestErrors.self) { try engine.documents.request("{ nothing }").get() }
            #expect(engine.documents.count == before)
            _ = engine.documents.request("{ adventureList { items { title } } }")
            _ = engine.documents.request("{ adventureList { items { title } } }")
            #expect(engine.documents.count == before + 1)
        }
    }
}
