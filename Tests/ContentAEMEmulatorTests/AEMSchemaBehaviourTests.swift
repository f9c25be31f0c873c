import ContentEmulatorTesting
import ContentJSON
import Foundation
import Testing

@testable import ContentAEMEmulator

/// Queries written for a real AEM run here the same way: its operators, filter inputs, the `Reference` union,
/// system fields, multi-value fields and their `_apply` modes.
struct AEMSchemaBehaviourTests {
    /// A model with multi-value fields of several kinds, and two of its fragments, beside the WKND sample.
    static let trailModel = """
        name: trail
        title: Trail
        fields:
          name: { type: text }
          stops: { type: fragmentReference, model: adventure, multiple: true }
          distances: { type: number, multiple: true }
          starts: { type: time, multiple: true }
          notes: { type: multiline, multiple: true }
          guide: { type: contentReference }
          details: { type: json }
        """

    static let trails = [
        "coast.yaml": """
        _path: /content/dam/wknd-shared/en/trails/coast
        _model: trail
        name: Coast
        stops:
          - /content/dam/wknd-shared/en/adventures/bali-surf-camp/bali-surf-camp
          - /content/dam/wknd-shared/en/adventures/surf-camp-in-costa-rica/surf-camp-costa-rica
        distances: [12.5, 30]
        starts: ["08:00:00", "14:30:00"]
        notes:
          - "<p>Bring <b>sunscreen</b></p>"
          - "<p>Low tide at noon</p><p><img src=\\"/content/dam/wknd-shared/en/trails/map.png\\"></p><p>Then <a href=\\"/content/dam/wknd-shared/en/adventures/tahoe-skiing/tahoe-skiing\\">Tahoe</a></p>"
        guide: /content/dam/wknd-shared/en/trails/coast-guide.pdf
        details: { level: 2, dogs: true, tags: [sand, rock] }
        """,
        "ridge.yaml": """
        _path: /content/dam/wknd-shared/en/trails/ridge
        _model: trail
        name: Ridge
        stops: [/content/dam/wknd-shared/en/adventures/tahoe-skiing/tahoe-skiing]
        distances: [40]
        starts: []
        guide: /content/wknd/us/en/trails/ridge
        """,
    ]

    /// Runs each query as a persisted query of a workspace that has the trails, and answers the responses.
    static func run(_ queries: [String: String]) async throws -> [String: JSONValue] {
        let workspace = try AEMHarness.workspace(extraQueries: queries)
        try Data(trailModel.utf8).write(to: workspace.appendingPathComponent("models/trail.yaml"))
        let folder = workspace.appendingPathComponent("fragments/trails")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        for (name, text) in trails { try Data(text.utf8).write(to: folder.appendingPathComponent(name)) }
        return try await AEMHarness.run(workspace: workspace) { client in
            var answers: [String: JSONValue] = [:]
            for name in queries.keys {
                answers[name] = try await client.get("/graphql/execute.json/wknd-shared/\(name)").json ?? .null
            }
            return answers
        }
    }

    static func titles(_ answer: JSONValue?, _ list: String = "adventureList") -> [String] {
        (answer?["data"]?[list]?["items"]?.arrayValue ?? []).compactMap { $0["title"]?.stringValue }.sorted()
    }

    @Test func numberDateAndIDOperatorsAreAEMs() async throws {
        let answers = try await Self.run([
            "equal":
                "{ adventureList(filter: {price: {_expressions: [{value: 5000, _operator: EQUAL}]}}) { items { title } } }",
            "near": """
            { adventureList(filter: {price: {_expressions: [{value: 4990, _operator: EQUAL, _sensitiveness: 20}]}}) {
              items { title } } }
            """,
            "unequal": """
            { adventureList(filter: {groupSize: {_expressions: [{value: 6, _operator: UNEQUAL}]}}) { items { title } } }
            """,
            "path": """
            { adventureList(filter: {_path: {_expressions: [
              {value: "/content/dam/wknd-shared/en/adventures/bali", _operator: STARTS_WITH}]}}) { items { title } } }
            """,
            "oldEquals":
                "{ adventureList(filter: {price: {_expressions: [{value: 5000, _operator: EQUALS}]}}) { items { title } } }",
            "stringStartsWith": """
            { adventureList(filter: {title: {_expressions: [{value: "Bali", _operator: STARTS_WITH}]}}) { items { title } } }
            """,
        ])
        let atFiveThousand = Self.titles(answers["equal"])
        #expect(atFiveThousand.contains("Bali Surf Camp"), "\(String(describing: answers["equal"]))")
        #expect(Self.titles(answers["near"]) == atFiveThousand)
        #expect(!Self.titles(answers["unequal"]).isEmpty)
        #expect(Self.titles(answers["path"]) == ["Bali Surf Camp"])
        // What 2021's operators no longer are: the number operator EQUALS, and STARTS_WITH outside `_path`.
        #expect(answers["oldEquals"]?.jsonText.contains("EQUALS") == true)
        #expect(answers["oldEquals"]?["data"] == nil)
        #expect(answers["stringStartsWith"]?["errors"] != nil)
    }

    @Test func aFilterValueLeftOutIsNoCondition() async throws {
        let workspaceQuery = """
            query Cheaper($max: Float) {
              adventureList(filter: {price: {_expressions: [{value: $max, _operator: LOWER}]}}) { items { title } }
            }
            """
        let answers = try await Self.run(["cheaper": workspaceQuery, "all": "{ adventureList { items { title } } }"])
        #expect(Self.titles(answers["cheaper"]).count == 16)
        #expect(Self.titles(answers["cheaper"]) == Self.titles(answers["all"]))
    }

    @Test func richTextFiltersOnItsFormats() async throws {
        let answers = try await Self.run([
            "plain": """
            { adventureList(filter: {description: {plaintext: {_expressions: [
              {value: "REEF BREAKS", _operator: CONTAINS, _ignoreCase: true}]}}}) { items { title } } }
            """,
            "html": """
            { adventureList(filter: {description: {html: {_expressions: [
              {value: "<p>Six days", _operator: CONTAINS}]}}}) { items { title } } }
            """,
        ])
        #expect(Self.titles(answers["plain"]) == ["Bali Surf Camp"])
        #expect(Self.titles(answers["html"]) == ["Bali Surf Camp"])
    }

    @Test func multiValueFieldsFilterByApplyMode() async throws {
        let query = { (filter: String) in "{ trailList(filter: {\(filter)}) { items { name } } }" }
        let answers = try await Self.run([
            "once": query("distances: {_expressions: [{value: 35, _operator: GREATER}]}"),
            "all": query("distances: {_expressions: [{value: 10, _operator: GREATER, _apply: ALL}]}"),
            "allLong": query("distances: {_expressions: [{value: 20, _operator: GREATER, _apply: ALL}]}"),
            "startsAll": query("starts: {_expressions: [{value: \"09:00:00\", _operator: BEFORE, _apply: ALL}]}"),
            "startsEmpty": query(
                "starts: {_expressions: [{value: \"09:00:00\", _operator: BEFORE, _apply: ALL_OR_EMPTY}]}"),
            "instances": query(
                "distances: {_expressions: [{value: 5, _operator: GREATER, _apply: INSTANCES, _instances: 2}]}"),
            "values": query("distances: {_expressions: [{values: [12.5, 30], _operator: EQUAL}]}"),
            "tags":
                "{ adventureList(filter: {tags: {_expressions: [{value: \"wknd-shared:activity/surfing\"}]}}) { items { title } } }",
            "stops": query(
                "stops: {_match: {activity: {_expressions: [{value: \"Surfing\"}]}}, _apply: ALL}"),
            "notes": query("notes: {_match: {plaintext: {_expressions: [{value: \"tide\", _operator: CONTAINS}]}}}"),
        ])
        func names(_ key: String) -> [String] {
            (answers[key]?["data"]?["trailList"]?["items"]?.arrayValue ?? []).compactMap { $0["name"]?.stringValue }
                .sorted()
        }
        #expect(names("once") == ["Ridge"], "\(String(describing: answers["once"]))")
        #expect(names("all") == ["Coast", "Ridge"])
        #expect(names("allLong") == ["Ridge"])
        // ALL needs at least one value; ALL_OR_EMPTY takes none as a match.
        #expect(names("startsAll") == [])
        #expect(names("startsEmpty").contains("Ridge"))
        #expect(names("instances") == ["Coast"])
        #expect(names("values") == ["Coast"])
        #expect(Self.titles(answers["tags"]).contains("Bali Surf Camp"))
        #expect(names("stops") == ["Coast"])
        #expect(names("notes") == ["Coast"])
    }

    @Test func referencesAreTheUnionOfAssetsPagesAndFragments() async throws {
        let answers = try await Self.run([
            "refs": """
            { trailList(sort: "name") { items {
              name
              guide { __typename ... on DocumentRef { _path format } ... on PageRef { _path type } }
              stops { __typename title }
              details
              notes { plaintext }
              starts
            } } }
            """,
            "image": """
            { adventureByPath(_path: "/content/dam/wknd-shared/en/adventures/bali-surf-camp/bali-surf-camp") {
              item { primaryImage { __typename ... on ImageRef { _path type mimeType } } }
              _references { __typename ... on ImageRef { _path } }
            } }
            """,
        ])
        let items = answers["refs"]?["data"]?["trailList"]?["items"]?.arrayValue ?? []
        #expect(items.count == 2, "\(String(describing: answers["refs"]))")
        let coast = items.first
        #expect(coast?["guide"]?["__typename"] == .string("DocumentRef"))
        #expect(coast?["guide"]?["format"] == .string("application/pdf"))
        #expect(
            coast?["stops"]?.arrayValue?.compactMap { $0["__typename"]?.stringValue } == [
                "AdventureModel", "AdventureModel",
            ])
        #expect(coast?["details"]?["level"] == .number(JSONNumber(2)))
        #expect(coast?["details"]?["tags"]?.arrayValue?.count == 2)
        #expect(coast?["notes"]?.arrayValue?.last?["plaintext"] == .string("Low tide at noon\n\n\n\nThen Tahoe"))
        #expect(coast?["starts"]?.arrayValue?.count == 2)
        let ridge = items.last
        #expect(ridge?["guide"]?["__typename"] == .string("PageRef"))
        #expect(ridge?["guide"]?["type"] == .string("page"))
        let image = answers["image"]?["data"]?["adventureByPath"]?["item"]?["primaryImage"]
        #expect(image?["__typename"] == .string("ImageRef"))
        #expect(image?["mimeType"] == .string("image/jpeg"))
        #expect(image?["type"] == .string("image"))
    }

    @Test func whatRichTextShowsOrLinksToIsAmongTheReferences() async throws {
        let answers = try await Self.run([
            "coast": """
            { trailByPath(_path: "/content/dam/wknd-shared/en/trails/coast") {
              _references { __typename ... on ImageRef { _path mimeType } ... on AdventureModel { title }
                ... on DocumentRef { _path } }
            } }
            """
        ])
        let references = answers["coast"]?["data"]?["trailByPath"]?["_references"]?.arrayValue ?? []
        let kinds = references.compactMap { $0["__typename"]?.stringValue }
        // The two stops, the guide (a PDF), the map the notes show and the adventure they link to.
        #expect(kinds.filter { $0 == "AdventureModel" }.count == 3, "\(kinds)")
        #expect(kinds.contains("DocumentRef"))
        #expect(
            references.contains {
                $0["_path"] == .string("/content/dam/wknd-shared/en/trails/map.png")
                    && $0["mimeType"] == .string("image/png")
            })
    }

    @Test func systemFieldsAndLookupById() async throws {
        let answers = try await Self.run([
            "system": """
            { adventureByPath(_path: "/content/dam/wknd-shared/en/adventures/bali-surf-camp/bali-surf-camp") {
              item { _id _variation _variations _tags _model { _path title } _metadata { stringMetadata { name value } } }
            } }
            """
        ])
        let item = answers["system"]?["data"]?["adventureByPath"]?["item"]
        #expect(item?["_model"]?["_path"] == .string("/conf/wknd-shared/settings/dam/cfm/models/adventure"))
        #expect(item?["_model"]?["title"] == .string("Adventure"))
        #expect(item?["_variations"] == .array([]) && item?["_tags"] == .array([]))
        #expect(item?["_metadata"]?["stringMetadata"] == .array([]))
        let id = try #require(item?["_id"]?.stringValue)
        let byID = try await Self.run([
            "byId": "{ adventureById(_id: \"\(id)\") { item { title } } }",
            "unknown": "{ adventureById(_id: \"nope\") { item { title } } }",
            "unset": "query($n: Int!) { adventureList(limit: $n) { items { title } } }",
        ])
        #expect(byID["byId"]?["data"]?["adventureById"]?["item"]?["title"] == .string("Bali Surf Camp"))
        #expect(byID["unknown"]?.jsonText.contains("no adventure content fragment has the id nope") == true)
        // The error reached the non-null root, so data is null, as graphql-java writes it; an error before execution
        // (a required variable left out) leaves data out.
        #expect(byID["unknown"]?["data"] == .some(.null), "\(byID["unknown"]?.jsonText ?? "")")
        #expect(byID["unset"]?["errors"] != nil, "\(byID["unset"]?.jsonText ?? "")")
        #expect(byID["unset"]?["data"] == nil, "\(byID["unset"]?.jsonText ?? "")")
    }

    /// A …Paginated list goes by fragment id, and a sort breaks its ties by id; a …List keeps path order.
    ///
    /// "By default, paging uses the UUID of the repository node … When `sort` is used, the UUID is implicitly used to
    /// ensure a unique sort" (Adobe, "AEM GraphQL API for use with Content Fragments", Paging).
    @Test func paginatedListsGoByIdAndBreakSortTiesById() async throws {
        let answers = try await Self.run([
            "byId": "{ adventurePaginated(first: 100) { edges { node { _id _path } } } }",
            "byPrice": #"{ adventurePaginated(first: 100, sort: "price DESC") { edges { node { _id price } } } }"#,
            "list": "{ adventureList { items { _path } } }",
        ])
        let nodes =
            answers["byId"]?["data"]?["adventurePaginated"]?["edges"]?.arrayValue?.compactMap { $0["node"] } ?? []
        let ids = nodes.compactMap { $0["_id"]?.stringValue }
        #expect(ids.count == 16 && ids == ids.sorted(), "\(ids)")
        #expect(nodes.compactMap { $0["_path"]?.stringValue } != nodes.compactMap { $0["_path"]?.stringValue }.sorted())
        let priced =
            answers["byPrice"]?["data"]?["adventurePaginated"]?["edges"]?.arrayValue?.compactMap { $0["node"] } ?? []
        let pairs = priced.compactMap { node in node["price"]?.numberValue.map { ($0, node["_id"]?.stringValue ?? "") }
        }
        #expect(pairs.count == 16)
        for (earlier, later) in zip(pairs, pairs.dropFirst()) {
            #expect(earlier.0 > later.0 || (earlier.0 == later.0 && earlier.1 < later.1), "\(earlier) \(later)")
        }
        #expect(Set(pairs.map(\.0)).count < pairs.count, "the sample has equal prices, so ties are tested")
        let paths = try #require(
            answers["list"]?["data"]?["adventureList"]?["items"]?.arrayValue?.compactMap { $0["_path"]?.stringValue })
        #expect(paths.count == 16 && paths == paths.sorted(), "\(paths)")
    }

    @Test func cursorsHoldTheIdAndTheSortValueAndSortsFollowReferences() async throws {
        let answers = try await Self.run([
            "sorted": "{ adventurePaginated(first: 2, sort: \"title ASC\") { edges { cursor node { _id title } } } }",
            "plain": "{ adventurePaginated(first: 1) { edges { cursor node { _id } } pageInfo { endCursor } } }",
            "byAuthor": "{ articleList(sort: \"authorFragment.lastName DESC, title\") { items { title } } }",
            "badSort": "{ articleList(sort: \"authorFragment.nope\") { items { title } } }",
            "badCursor": "{ adventurePaginated(after: \"bm9wZQ==\") { edges { cursor } } }",
        ])
        func decoded(_ cursor: JSONValue?) -> String? {
            cursor?.stringValue.flatMap { Data(base64Encoded: $0) }.map { String(decoding: $0, as: UTF8.self) }
        }
        let sorted = answers["sorted"]?["data"]?["adventurePaginated"]?["edges"]?.arrayValue ?? []
        #expect(sorted.count == 2)
        for edge in sorted {
            let title = edge["node"]?["title"]?.stringValue ?? "?"
            let id = edge["node"]?["_id"]?.stringValue ?? "?"
            #expect(decoded(edge["cursor"]) == title + "\n" + id)
        }
        let plain = answers["plain"]?["data"]?["adventurePaginated"]
        let edge = plain?["edges"]?.arrayValue?.first
        #expect(edge != nil && decoded(edge?["cursor"]) == edge?["node"]?["_id"]?.stringValue)
        #expect(plain?["pageInfo"]?["endCursor"] == edge?["cursor"])
        // Stacey Roswells wrote two of the articles, Jacob Wester one: Wester first, descending.
        let articles = (answers["byAuthor"]?["data"]?["articleList"]?["items"]?.arrayValue ?? []).compactMap {
            $0["title"]?.stringValue
        }
        #expect(
            articles == [
                "Western Australia by Camper Van", "A Beginner's Guide to Ski Touring",
                "Aloha Spirits in Northern Norway",
            ])
        #expect(answers["badSort"]?.jsonText.contains("the author model has no field nope") == true)
        #expect(answers["badCursor"]?.jsonText.contains("after is not the cursor of a adventure in this list") == true)
    }

    @Test func assetTransformsShapeTheDynamicMediaURL() async throws {
        let path = "/content/dam/wknd-shared/en/adventures/bali-surf-camp/bali-surf-camp"
        let answers = try await Self.run([
            "plain":
                "{ adventureByPath(_path: \"\(path)\", _assetTransform: {format: PNG}) { item { primaryImage { ... on ImageRef { _dynamicUrl } } } } }",
            "shaped": """
            { adventureByPath(_path: "\(path)", _assetTransform: {format: WEBP, seoName: "bali", quality: 60, width: 400,
              crop: {xOrigin: 10, yOrigin: 20, width: 300, height: 200}, size: {width: 150, height: 100},
              rotation: R90, flip: HORIZONTAL_AND_VERTICAL}) { item { primaryImage { ... on ImageRef { _dynamicUrl } } } } }
            """,
            "noFormat": "{ adventureByPath(_path: \"\(path)\", _assetTransform: {width: 400}) { item { title } } }",
            "squared": """
            { adventureByPath(_path: "\(path)", _assetTransform: {format: JPG, crop: {xOrigin: 5, yOrigin: 6, height: 70},
              size: {width: 150}}) { item { primaryImage { ... on ImageRef { _dynamicUrl } } } } }
            """,
            "noOrigin": """
            { adventureByPath(_path: "\(path)", _assetTransform: {format: JPG, crop: {width: 10, height: 10}}) {
              item { title } } }
            """,
        ])
        func url(_ key: String) -> String? {
            answers[key]?["data"]?["adventureByPath"]?["item"]?["primaryImage"]?["_dynamicUrl"]?.stringValue
        }
        // Without a quality, AEM delivers at 80.
        #expect(
            url("plain")?.hasSuffix("/adobestock-175749320.png?quality=80") == true,
            "\(String(describing: url("plain")))")
        #expect(
            url("shaped")?.hasSuffix(
                "/bali.webp?width=400&crop=10,20,300,200&size=150,100&rotate=90&flip=hv&quality=60") == true,
            "\(String(describing: url("shaped")))")
        // A dimension left out is the other one; `format` and a frame's origin are required, as on AEM.
        #expect(
            url("squared")?.hasSuffix("/adobestock-175749320.jpg?crop=5,6,70,70&size=150,150&quality=80") == true,
            "\(String(describing: url("squared")))")
        #expect(answers["noFormat"]?["errors"] != nil)
        #expect(
            answers["noOrigin"]?["errors"]?.jsonText.contains("xOrigin") == true,
            "\(answers["noOrigin"]?.jsonText ?? "")")
    }

    @Test func referencesLoadOnlyWhenSelectedSoCyclesStayCheap() async throws {
        let workspace = try AEMHarness.workspace(extraQueries: [
            "nodes": "{ nodeList { items { _path next { _path } } } }",
            "loop": "{ nodeByPath(_path: \"/content/dam/nodes/n0\") { item { next { next { _path } } } } }",
            "pointed": """
            { nodeByPath(_path: "/content/dam/nodes/n0") { item { pointer { __typename ... on AdventureModel { title } } } } }
            """,
        ])
        try Data(
            """
            name: node
            fields:
              next: { type: fragmentReference, model: node, multiple: true }
              pointer: { type: contentReference }
              extra: { type: json, multiple: true }
            """.utf8
        ).write(to: workspace.appendingPathComponent("models/node.yaml"))
        let folder = workspace.appendingPathComponent("fragments/nodes")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        // Thirty fragments, each pointing at all thirty: rendered eagerly four levels deep, that is 25 million.
        let all = (0..<30).map { "/content/dam/nodes/n\($0)" }
        for index in 0..<30 {
            let text = """
                _path: /content/dam/nodes/n\(index)
                _model: node
                next: [\(all.joined(separator: ", "))]
                pointer: /content/dam/wknd-shared/en/adventures/bali-surf-camp/bali-surf-camp
                extra: { one: 1 }
                """
            try Data(text.utf8).write(to: folder.appendingPathComponent("n\(index).yaml"))
        }
        let answers = try await AEMHarness.run(workspace: workspace) { client in
            var answers: [String: JSONValue] = [:]
            for name in ["nodes", "loop", "pointed"] {
                answers[name] = try await client.get("/graphql/execute.json/wknd-shared/\(name)").json ?? .null
            }
            return answers
        }
        let items = answers["nodes"]?["data"]?["nodeList"]?["items"]?.arrayValue ?? []
        #expect(items.count == 30)
        #expect(items.allSatisfy { $0["next"]?.arrayValue?.count == 30 })
        let deepest = answers["loop"]?["data"]?["nodeByPath"]?["item"]?["next"]?.arrayValue?.first?["next"]?.arrayValue
        #expect(deepest?.count == 30)
        // A content reference to a fragment is that fragment, typed by its model.
        let pointer = answers["pointed"]?["data"]?["nodeByPath"]?["item"]?["pointer"]
        #expect(pointer?["__typename"] == .string("AdventureModel"))
        #expect(pointer?["title"] == .string("Bali Surf Camp"))
    }

    @Test func instantsCompareAsInstantsWhateverTheirOffset() {
        #expect(FragmentFilter.instant("2021-05-01T10:00:00Z") == FragmentFilter.instant("2021-05-01T12:00:00+02:00"))
        #expect(FragmentFilter.instant("2021-05-01T10:00:00.000Z") == FragmentFilter.instant("2021-05-01T10:00:00Z"))
        #expect(
            (FragmentFilter.instant("2021-05-01T09:59:59.500Z") ?? 0)
                < (FragmentFilter.instant("2021-05-01T10:00:00Z") ?? 0))
        // Dates and times of day are not instants: they compare as text.
        #expect(FragmentFilter.instant("2021-05-01") == nil && FragmentFilter.instant("08:00:00") == nil)
        #expect(FragmentFilter.instant("not a date at all, not even close") == nil)
    }
}
