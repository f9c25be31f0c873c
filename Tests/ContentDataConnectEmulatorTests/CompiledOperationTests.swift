import ContentDataConnectPostgres
import ContentGraphQL
import ContentJSON
import ContentTesting
import Foundation
import Testing

@testable import ContentDataConnect
@testable import ContentDataConnectEmulator

/// Planned queries (``CompiledOperation``) against the general executor: the same request must give the same bytes
/// either way, and a request the plan cannot answer exactly must be left to the executor.
struct CompiledOperationTests {
    /// Every filter, order and paging form a plan takes, over every column type, with the variables in every
    /// position: lists, defaults, nulls, enums, aliases and `_id`.
    static let schema = """
        enum Mood { CALM, LOUD }
        type Track @table {
          title: String!
          plays: Int
          length: Float
          big: Int64
          live: Boolean
          released: Date
          added: Timestamp
          mood: Mood
          tags: [String]
          extra: Any
        }
        """

    static let operations = """
        query all @auth(level: PUBLIC) {
          tracks(orderBy: { title: ASC }) { id title plays length big live released added mood tags extra }
        }
        query filtered($title: String, $min: Int, $moods: [Mood!], $tag: String, $live: Boolean, $limit: Int = 3,
          $offset: Int, $order: OrderDirection = DESC) @auth(level: PUBLIC) {
          hits: tracks(
            where: { _and: [{ title: { contains: $title } }, { plays: { ge: $min } }, { mood: { in: $moods } },
              { tags: { includes: $tag } }, { live: { eq: $live } }] }
            orderBy: [{ plays: $order }, { title: ASC }], limit: $limit, offset: $offset
          ) { key: _id name: title plays mood }
          count: tracks(where: { big: { gt: "5" } }) { title big }
        }
        query one($id: UUID!) @auth(level: PUBLIC) { track(id: $id) { id title tags } }
        query moods @auth(level: PUBLIC) { tracks(distinct: true, orderBy: { mood: ASC }) { mood } }
        query byKey($key: Track_Key!) @auth(level: PUBLIC) { track(key: $key) { title } }
        query counted @auth(level: PUBLIC) { tracks { _count } }
        mutation add($title: String!, $plays: Int, $mood: Mood) @auth(level: PUBLIC) {
          track_insert(data: { title: $title, plays: $plays, mood: $mood, tags: ["new"], live: true })
        }
        mutation addWithID($id: UUID!, $title: String!) @auth(level: PUBLIC) {
          track_insert(data: { id: $id, title: $title, added_expr: "request.time" })
        }
        mutation put($id: UUID!, $title: String!, $plays: Int) @auth(level: PUBLIC) {
          saved: track_upsert(data: { id: $id, title: $title, plays: $plays })
        }
        mutation two($title: String!) @auth(level: PUBLIC) {
          first: track_insert(data: { title: $title })
          second: track_insert(data: { title: $title })
        }
        mutation checked($title: String!) @auth(level: PUBLIC) @transaction {
          track_insert(data: { title: $title })
        }
        """

    static let seed = """
        mutation seed @transaction {
          track_insertMany(data: [
            { id: "11111111111111111111111111111111", title: "Alpha", plays: 10, length: 3.5, big: "9007199254740993",
              live: true, released: "2020-02-29", added: "2024-01-02T03:04:05.123456Z", mood: CALM,
              tags: ["a", "b"], extra: { nested: [1, 2.5, null] } },
            { id: "22222222222222222222222222222222", title: "Beta", plays: 30, length: 4, big: "7",
              live: false, released: "1999-12-31", added: "1970-01-01T00:00:00Z", mood: LOUD, tags: [],
              extra: "text" },
            { id: "33333333333333333333333333333333", title: "Gamma", plays: null, mood: LOUD, tags: ["b"] },
            { id: "44444444444444444444444444444444", title: "Delta \\"quoted\\"", plays: 20, mood: CALM }
          ])
        }
        """

    /// An engine over the workspace above, seeded.
    static func engine(postgres: PostgresSettings? = nil) async throws -> DataConnectEngine {
        let folder = try DataConnectHarness.workspace([
            "dataconnect.yaml":
                "serviceId: test\nlocation: us-central1\nschema:\n  source: ./schema\nconnectorDirs: [./app]\n",
            "schema/schema.gql": schema,
            "app/connector.yaml": "connectorId: app\n",
            "app/ops.gql": operations,
            "seed_data.gql": seed,
        ])
        defer { try? FileManager.default.removeItem(at: folder) }
        return try await DataConnectEngine(
            workspace: try DataConnectWorkspace.load(from: folder), dataFile: nil, limits: GraphQLLimits(),
            postgres: postgres)
    }

    /// The answer of the plan and of the general executor for one request.
    static func bothWays(_ engine: DataConnectEngine, _ name: String, _ variables: String) async throws -> (
        planned: String?, general: String
    ) {
        let prepared = try #require(engine.operations["app"]?[name])
        let plan = try #require(prepared.plan, "\(name) has no plan")
        let given = try #require(try JSONParser().parse(variables).objectValue)
        let planned = await engine.run(plan, variables: given, auth: .anonymous)
        let general = await engine.run(
            document: prepared.document, operationName: name, variables: given, auth: .anonymous, isAdmin: false)
        return (planned.map(Self.text), Self.text(general))
    }

    /// Closes an engine's store, which removes its temporary database file.
    static func close(_ engine: DataConnectEngine) {
        let store = engine.store
        Task { await store.close() }
    }

    /// The answer to `one` for a track's id.
    static func track(_ engine: DataConnectEngine, id: String) async -> String {
        text(
            await engine.execute(
                connector: "app", operationName: "one", kind: .query, variables: ["id": .string(id)],
                auth: .anonymous))
    }

    /// The answer to `filtered` for the tracks whose titles contain `title`, unlimited.
    static func titled(_ engine: DataConnectEngine, _ title: String) async -> String {
        text(
            await engine.execute(
                connector: "app", operationName: "filtered", kind: .query,
                variables: ["title": .string(title), "limit": .null], auth: .anonymous))
    }

    static func text(_ outcome: DataConnectEngine.Outcome) -> String {
        switch outcome {
        case .response(let body): return String(decoding: body.serialized(), as: UTF8.self)
        case .failure(let failure): return "failure \(failure.code) \(failure.message)"
        }
    }

    static let requests = [
        ("all", "{}"),
        ("filtered", "{}"),
        ("filtered", #"{"title": "a", "limit": 10}"#),
        ("filtered", #"{"min": 15, "order": "ASC", "limit": null}"#),
        ("filtered", #"{"moods": ["LOUD"], "tag": "b", "offset": 1}"#),
        ("filtered", #"{"moods": "CALM", "live": true}"#),
        ("filtered", #"{"moods": [], "limit": 0}"#),
        ("filtered", #"{"title": null, "min": null, "moods": null, "tag": null, "live": false}"#),
        ("one", #"{"id": "11111111111111111111111111111111"}"#),
        ("one", #"{"id": "11111111-1111-1111-1111-111111111111"}"#),
        ("one", #"{"id": "99999999999999999999999999999999"}"#),
        ("moods", "{}"),
    ]

    @Test(arguments: Self.requests)
    func aPlanAnswersByteForByteAsTheExecutor(name: String, variables: String) async throws {
        let engine = try await Self.engine()
        defer { Self.close(engine) }
        let (planned, general) = try await Self.bothWays(engine, name, variables)
        #expect(planned == general)
        #expect(general.hasPrefix(#"{"data":"#), "\(general)")
    }

    /// The same on PostgreSQL, where a plan of one root field runs its one statement as a transaction by itself, and
    /// a plan of several (`filtered`) reads them in one read-only transaction.
    @Test func aPlanAnswersAsTheExecutorOnPostgreSQL() async throws {
        guard case .postgres(let server)? = DataConnectHarness.Engine.all.last else { return }
        try await DataConnectHarness.withDatabase(on: server) { url in
            let engine = try await Self.engine(postgres: PostgresSettings(url: url, connections: 4))
            var answers: [(planned: String?, general: String)] = []
            do {
                for (name, variables) in Self.requests {
                    answers.append(try await Self.bothWays(engine, name, variables))
                }
                let put = #"{"id": "55555555555555555555555555555555", "title": "Epsilon", "plays": 5}"#
                answers.append(try await Self.bothWays(engine, "put", put))
            } catch {
                await engine.store.close()
                throw error
            }
            await engine.store.close()
            for (planned, general) in answers {
                #expect(planned == general)
                #expect(general.hasPrefix(#"{"data":"#), "\(general)")
            }
        }
    }

    /// On PostgreSQL a planned insert is one statement, run without `BEGIN` and `COMMIT`: one that fails leaves
    /// nothing and goes to the executor, and leaves its connection ready for the next (the pool has one, which the
    /// writes after it, sent side by side, all wait for), and those each commit.
    @Test func plannedStatementsOnPostgreSQLCommitAloneAndFailAlone() async throws {
        guard case .postgres(let server)? = DataConnectHarness.Engine.all.last else {
            print("note: skipping planned statements on PostgreSQL: CONTENT_TEST_POSTGRES is not set")
            return
        }
        try await DataConnectHarness.withDatabase(on: server) { url in
            let engine = try await Self.engine(postgres: PostgresSettings(url: url, connections: 1))
            let plan = try #require(engine.operations["app"]?["addWithID"]?.plan)
            let taken: JSONObject = ["id": .string("11111111111111111111111111111111"), "title": .string("Again")]
            let refused = await engine.run(plan, variables: taken, auth: .anonymous)
            let outcomes = await withTaskGroup(of: String?.self) { group in
                for number in 0..<24 {
                    let variables: JSONObject = [
                        "id": .string(String(format: "%032x", 0xC000 + number)), "title": .string("Side \(number)"),
                    ]
                    group.addTask { await engine.run(plan, variables: variables, auth: .anonymous).map(Self.text) }
                }
                return await group.reduce(into: []) { $0.append($1) }
            }
            let again = await Self.titled(engine, "Again")
            let side = await Self.titled(engine, "Side")
            let seeded = await Self.track(engine, id: "11111111111111111111111111111111")
            await engine.store.close()
            #expect(refused == nil)
            #expect(again.contains(#""hits":[]"#), "\(again)")
            #expect(seeded.contains(#""title":"Alpha""#), "\(seeded)")
            #expect(outcomes.allSatisfy { $0?.contains(#""action":"CREATE""#) == true }, "\(outcomes)")
            #expect(side.components(separatedBy: #""name":"Side "#).count - 1 == 24, "\(side)")
        }
    }

    /// A planned read whose filter reaches a `@view` stays read-only on PostgreSQL.
    ///
    /// Every query of the executor runs in a read-only transaction, so a view whose SELECT calls a function that
    /// writes is refused, not run. A read of tables alone runs as a statement of its own. An operation whose root
    /// field is a view has no plan.
    @Test func aPlannedReadOfAViewStaysReadOnlyOnPostgreSQL() async throws {
        guard case .postgres(let server)? = DataConnectHarness.Engine.all.last else {
            print("note: skipping the read-only view test on PostgreSQL: CONTENT_TEST_POSTGRES is not set")
            return
        }
        try await DataConnectHarness.withDatabase(on: server) { url in
            let admin = try await PostgresDatabase(location: try PostgresLocation(url: url), connections: 1)
            try await admin.withSession { try await $0.run("CREATE SEQUENCE ticket_numbers") }
            let folder = try DataConnectHarness.workspace([
                "dataconnect.yaml":
                    "serviceId: test\nlocation: us-central1\nschema:\n  source: ./schema\nconnectorDirs: [./app]\n",
                "schema/schema.gql": """
                type Show @table { title: String! }
                type Ticket @view(sql: "SELECT id AS show_id, nextval('ticket_numbers') AS number FROM show") {
                  show: Show
                  number: Int64
                }
                """,
                "app/connector.yaml": "connectorId: app\n",
                "app/ops.gql": """
                query ticketed @auth(level: PUBLIC) {
                  shows(where: { tickets_on_show: { exist: { number: { gt: "0" } } } }) { title }
                }
                query shows @auth(level: PUBLIC) { shows { title } }
                """,
                "seed_data.gql": #"mutation seed { show_insert(data: { title: "Matinee" }) }"#,
            ])
            defer { try? FileManager.default.removeItem(at: folder) }
            let engine = try await DataConnectEngine(
                workspace: try DataConnectWorkspace.load(from: folder), dataFile: nil, limits: GraphQLLimits(),
                postgres: PostgresSettings(url: url, connections: 2))
            var answers: [String: (planned: String?, general: String)] = [:]
            do {
                for name in ["ticketed", "shows"] {
                    let prepared = try #require(engine.operations["app"]?[name])
                    let plan = try #require(prepared.plan, "\(name) has no plan")
                    let planned = await engine.run(plan, variables: [:], auth: .anonymous)
                    let general = await engine.run(
                        document: prepared.document, operationName: name, variables: [:], auth: .anonymous,
                        isAdmin: false)
                    answers[name] = (planned.map(Self.text), Self.text(general))
                }
            } catch {
                await engine.store.close()
                await admin.close()
                throw error
            }
            await engine.store.close()
            let sequence = try await admin.withSession {
                try await $0.rows("SELECT CASE WHEN is_called THEN 1 ELSE 0 END AS called FROM ticket_numbers")
            }
            await admin.close()
            #expect(answers["ticketed"]?.planned == nil, "\(String(describing: answers["ticketed"]))")
            #expect(
                answers["ticketed"]?.general.contains("read-only transaction") == true,
                "\(String(describing: answers["ticketed"]))")
            let shows = try #require(answers["shows"])
            #expect(shows.planned == shows.general)
            #expect(shows.general.hasPrefix(#"{"data":{"shows":[{"title":"Matinee"}]}"#), "\(shows.general)")
            #expect(sequence.first?["called"] == .integer(0), "\(sequence)")
        }
    }

    @Test func operationsOfOtherShapesHaveNoPlan() async throws {
        let engine = try await Self.engine()
        defer { Self.close(engine) }
        let operations = try #require(engine.operations["app"])
        // An input-object variable, an aggregate, two root fields and @transaction all need the executor.
        for name in ["byKey", "counted", "two", "checked"] {
            #expect(operations[name]?.plan == nil, "\(name)")
        }
        for name in ["all", "filtered", "one", "moods", "add", "addWithID", "put"] {
            #expect(operations[name]?.plan != nil, "\(name)")
        }
    }

    /// Values the types refuse, and a limit the resolver refuses: the plan stands aside and the executor words it.
    @Test(arguments: [
        ("filtered", #"{"min": "ten"}"#),
        ("filtered", #"{"min": 1.5}"#),
        ("filtered", #"{"moods": ["QUIET"]}"#),
        ("filtered", #"{"moods": [null]}"#),
        ("filtered", #"{"limit": -1}"#),
        ("one", #"{"id": "not-a-uuid"}"#),
    ])
    func whatThePlanCannotAnswerExactlyGoesToTheExecutor(name: String, variables: String) async throws {
        let engine = try await Self.engine()
        defer { Self.close(engine) }
        let (planned, general) = try await Self.bothWays(engine, name, variables)
        #expect(planned == nil, "\(planned ?? "")")
        let answered = await engine.execute(
            connector: "app", operationName: name, kind: .query,
            variables: try #require(try JSONParser().parse(variables).objectValue), auth: .anonymous)
        // The same answer, less the errors' locations, which ExecuteQuery does not give.
        let withLocations = await engine.run(
            document: try #require(engine.operations["app"]?[name]).document, operationName: name,
            variables: try #require(try JSONParser().parse(variables).objectValue), auth: .anonymous, isAdmin: false)
        #expect(Self.text(answered) == Self.text(DataConnectEngine.withoutLocations(withLocations)))
        #expect(Self.text(answered).contains("locations") == false, "\(Self.text(answered))")
        #expect(general.contains("error") || general.hasPrefix("failure"), "\(general)")
    }

    /// Planned reads use connections of their own: a write acknowledged before the read began is in its answer.
    @Test func aPlannedReadSeesEveryAcknowledgedWrite() async throws {
        let engine = try await Self.engine()
        defer { Self.close(engine) }
        for number in 1...20 {
            let added = await engine.execute(
                connector: "app", operationName: "add", kind: .mutation,
                variables: ["title": .string("New \(number)"), "plays": .number(JSONNumber(1000 + number))],
                auth: .anonymous)
            #expect(Self.text(added).contains("track_insert"), "\(Self.text(added))")
            let names = await Self.titled(engine, "New")
            #expect(names.contains("\"New \(number)\""), "\(names)")
        }
    }

    /// The example's list by genre, the query the load benchmark drives, keeps its plan.
    @Test func theExampleQueriesArePlanned() async throws {
        let folder = try DataConnectHarness.exampleWorkspace()
        defer { try? FileManager.default.removeItem(at: folder) }
        let engine = try await DataConnectEngine(
            workspace: try DataConnectWorkspace.load(from: folder), dataFile: nil, limits: GraphQLLimits())
        defer { Self.close(engine) }
        let movies = try #require(engine.operations["movies"])
        for name in ["listMoviesByGenre", "listMovies", "searchMovies"] {
            let prepared = try #require(movies[name])
            #expect(prepared.plan != nil, "\(name)")
        }
        let prepared = try #require(movies["listMoviesByGenre"])
        let plan = try #require(prepared.plan)
        for genre in ["Sci-Fi", "Drama", "none"] {
            let planned = await engine.run(plan, variables: ["genre": .string(genre)], auth: .anonymous)
            let general = await engine.run(
                document: prepared.document, operationName: "listMoviesByGenre",
                variables: ["genre": .string(genre)], auth: .anonymous, isAdmin: false)
            #expect(planned.map(Self.text) == Self.text(general))
        }
    }

    /// A planned upsert answers as the executor's does for the same row, and the row is written.
    @Test func aPlannedWriteAnswersAsTheExecutorAndCommits() async throws {
        let engine = try await Self.engine()
        defer { Self.close(engine) }
        let variables = #"{"id": "55555555555555555555555555555555", "title": "Epsilon", "plays": 5}"#
        let (planned, general) = try await Self.bothWays(engine, "put", variables)
        #expect(planned == general)
        #expect(general.contains(#""saved":{"id":"55555555555555555555555555555555"}"#), "\(general)")
        #expect(general.contains(#""action":"UPSERT""#), "\(general)")
        let read = await Self.track(engine, id: "55555555555555555555555555555555")
        #expect(read.contains(#""title":"Epsilon""#), "\(read)")
    }

    /// A write that fails in the plan is rolled back and run again by the executor, which words the error once.
    @Test func aFailedPlannedWriteLeavesNothingAndTheExecutorWordsIt() async throws {
        let engine = try await Self.engine()
        defer { Self.close(engine) }
        let prepared = try #require(engine.operations["app"]?["addWithID"])
        let plan = try #require(prepared.plan)
        let taken: JSONObject = ["id": .string("11111111111111111111111111111111"), "title": .string("Again")]
        #expect(await engine.run(plan, variables: taken, auth: .anonymous) == nil)
        let answered = Self.text(
            await engine.execute(
                connector: "app", operationName: "addWithID", kind: .mutation, variables: taken, auth: .anonymous))
        #expect(answered.contains("errors"), "\(answered)")
        let read = await Self.titled(engine, "Again")
        #expect(read.contains(#""hits":[]"#), "\(read)")
        let fresh: JSONObject = ["id": .string("66666666666666666666666666666666"), "title": .string("Zeta")]
        let added = await engine.run(plan, variables: fresh, auth: .anonymous).map(Self.text)
        #expect(added?.contains(#""action":"CREATE""#) == true, "\(added ?? "")")
    }

    /// Writes that arrive together run in one transaction, each under its own savepoint: those that fail leave
    /// nothing and go to the executor, the others are all committed and answered.
    @Test func plannedWritesTogetherCommitTheirOwnAndFailTheirOwn() async throws {
        let engine = try await Self.engine()
        defer { Self.close(engine) }
        let plan = try #require(engine.operations["app"]?["addWithID"]?.plan)
        let outcomes = await withTaskGroup(of: (Int, String?).self) { group in
            for number in 0..<48 {
                // Every fourth reuses a seeded row's id, which the insert refuses.
                let id = number % 4 == 3 ? "11111111111111111111111111111111" : String(format: "%032x", 0xB000 + number)
                let variables: JSONObject = ["id": .string(id), "title": .string("Batch \(number)")]
                group.addTask {
                    (number, await engine.run(plan, variables: variables, auth: .anonymous).map(Self.text))
                }
            }
            var outcomes: [Int: String?] = [:]
            for await (number, outcome) in group { outcomes[number] = outcome }
            return outcomes
        }
        for (number, outcome) in outcomes {
            if number % 4 == 3 {
                #expect(outcome == nil, "\(number): \(outcome ?? "")")
            } else {
                #expect(outcome?.contains(#""action":"CREATE""#) == true, "\(number): \(outcome ?? "nil")")
            }
        }
        let read = await Self.titled(engine, "Batch")
        let rows = read.components(separatedBy: #""name":"Batch "#).count - 1
        #expect(rows == 36, "\(read)")
        let seeded = await Self.track(engine, id: "11111111111111111111111111111111")
        #expect(seeded.contains(#""title":"Alpha""#), "\(seeded)")
    }

    /// A write whose client has gone while it waited for its batch is not run: nothing is written.
    @Test func aPlannedWriteWhoseClientLeftBeforeItsBatchIsNotRun() async throws {
        let engine = try await Self.engine()
        defer { Self.close(engine) }
        let store = try #require(engine.store as? DataConnectStore)
        let plan = try #require(engine.operations["app"]?["addWithID"]?.plan)
        // The writing connection is held, so the write waits in its batch.
        let (release, releasing) = AsyncStream.makeStream(of: Void.self)
        let (held, holding) = AsyncStream.makeStream(of: Void.self)
        let holder = Task {
            await store.lock.withLock {
                holding.yield()
                for await _ in release { break }
            }
        }
        for await _ in held { break }
        let variables: JSONObject = ["id": .string("77777777777777777777777777777777"), "title": .string("Left")]
        let writer = Task { await engine.run(plan, variables: variables, auth: .anonymous) }
        // Its batch waits for the lock behind the holder.
        while await store.lock.waiting == 0 { try await Task.sleep(for: .milliseconds(5)) }
        writer.cancel()
        releasing.yield()
        await holder.value
        #expect(await writer.value == nil)
        let read = await Self.track(engine, id: "77777777777777777777777777777777")
        #expect(read.contains(#""track":null"#), "\(read)")
    }
}
