import ContentJSON
import ContentTesting
import Foundation
import Testing

@testable import ContentDataConnect

struct DataConnectWorkspaceTests {
    /// `examples/dataconnect` in the repository.
    private static let example = TestLocations.examples.appendingPathComponent("dataconnect")

    /// A small valid manifest: one schema folder and one connector folder.
    private static let manifest = """
        specVersion: "v1"
        serviceId: "svc"
        location: "europe-west1"
        schema:
          source: "./schema"
        connectorDirs: ["app"]

        """

    private static let schema = """
        type Movie @table {
          title: String!
        }

        """

    // MARK: - The example workspace

    @Test func loadingTheExampleReadsServiceIdentityAndSchema() throws {
        let workspace = try DataConnectWorkspace.load(from: Self.example)
        #expect(workspace.serviceID == "content-sample")
        #expect(workspace.location == "us-central1")
        #expect(workspace.directory.lastPathComponent == "dataconnect")
        #expect(workspace.notes.isEmpty)
        #expect(workspace.schemaFiles.map { URL(fileURLWithPath: $0.path).lastPathComponent } == ["schema.gql"])
        #expect(
            workspace.schema.tables.map(\.typeName)
                == ["Movie", "MovieMetadata", "Actor", "MovieActor", "User", "Review", "GenreSummary"])
    }

    @Test func loadingTheExampleFindsTheMoviesConnectorWithOperationsInFileOrder() throws {
        let workspace = try DataConnectWorkspace.load(from: Self.example)
        #expect(workspace.connectors.map(\.id) == ["movies"])
        let connector = try #require(workspace.connector("movies"))
        #expect(connector.defaultAuth == nil)
        #expect(URL(fileURLWithPath: connector.directory).lastPathComponent == "movies")
        // mutations.gql sorts before queries.gql.
        #expect(
            connector.operations.map(\.name) == [
                "createMovie", "updateMovieRating", "deleteMovie", "upsertUser", "addReview", "deleteReview",
                "listMoviesByGenre", "findMovies", "listGenres", "listMovies", "getMovieByKey", "searchMovies",
                "listMyReviews",
            ])
        #expect(
            connector.operations.map(\.kind)
                == [ConnectorOperation.Kind](repeating: .mutation, count: 6)
                + [ConnectorOperation.Kind](repeating: .query, count: 7))
    }

    @Test func connectorAndOperationLookupsReturnNilForUnknownNames() throws {
        let workspace = try DataConnectWorkspace.load(from: Self.example)
        #expect(workspace.connector("nope") == nil)
        let connector = try #require(workspace.connector("movies"))
        #expect(connector.operation("listMovies")?.name == "listMovies")
        #expect(connector.operation("listmovies") == nil)
    }

    @Test func exampleOperationSignaturesListTheirVariables() throws {
        let connector = try #require(try DataConnectWorkspace.load(from: Self.example).connector("movies"))
        #expect(connector.operation("listMoviesByGenre")?.signature == "listMoviesByGenre($genre: String!)")
        #expect(
            connector.operation("createMovie")?.signature
                == "createMovie($title: String!, $releaseYear: Int!, $genre: String!, $rating: Float, "
                + "$tags: [String!])")
        #expect(connector.operation("listMyReviews")?.signature == "listMyReviews")
    }

    @Test func exampleVariableDefaultsAreKeptAsJSON() throws {
        let connector = try #require(try DataConnectWorkspace.load(from: Self.example).connector("movies"))
        let listMovies = try #require(connector.operation("listMovies"))
        #expect(listMovies.variables.map(\.name) == ["orderByRating", "limit", "offset"])
        let limit = try #require(listMovies.variables.first { $0.name == "limit" })
        #expect(limit.type == .named("Int"))
        #expect(limit.defaultValue == .number(JSONNumber(50)))
        #expect(listMovies.variables[0].type == .named("OrderDirection"))
        #expect(listMovies.variables[0].defaultValue == nil)
    }

    @Test func exampleOperationAuthComesFromTheAuthDirective() throws {
        let connector = try #require(try DataConnectWorkspace.load(from: Self.example).connector("movies"))
        #expect(connector.operation("listMyReviews")?.auth == .level(.user))
        #expect(connector.operation("listMoviesByGenre")?.auth == .level(.public))
        #expect(connector.operation("createMovie")?.auth == .level(.public))
        #expect(connector.operation("updateMovieRating")?.auth == .level(.userEmailVerified))
        #expect(connector.operations.allSatisfy { $0.declaresAuth })
    }

    @Test func exampleAddReviewIsATransactionAndOthersAreNot() throws {
        let connector = try #require(try DataConnectWorkspace.load(from: Self.example).connector("movies"))
        #expect(connector.operation("addReview")?.isTransaction == true)
        #expect(connector.operation("createMovie")?.isTransaction == false)
        #expect(connector.operation("listMovies")?.isTransaction == false)
    }

    @Test func exampleOperationsRecordRootFieldsPositionsAndFileText() throws {
        let connector = try #require(try DataConnectWorkspace.load(from: Self.example).connector("movies"))
        let byGenre = try #require(connector.operation("listMoviesByGenre"))
        #expect(byGenre.rootFields == ["movies"])
        #expect(byGenre.position.file.hasSuffix("queries.gql"))
        #expect(byGenre.position.line == 2)
        #expect(byGenre.position.column == 1)
        #expect(byGenre.fileText.contains("query listMoviesByGenre($genre: String!)"))
        let addReview = try #require(connector.operation("addReview"))
        #expect(addReview.rootFields == ["review_upsert"])
        #expect(addReview.position.file.hasSuffix("mutations.gql"))
        #expect(addReview.position.line == 21)
        #expect(connector.operation("getMovieByKey")?.rootFields == ["movie"])
    }

    @Test func exampleSeedFileBesideTheManifestIsFound() throws {
        let workspace = try DataConnectWorkspace.load(from: Self.example)
        let seed = try #require(workspace.seedFile)
        #expect(seed.lastPathComponent == "seed_data.gql")
        #expect(FileManager.default.fileExists(atPath: seed.path))
    }

    @Test func loadingTheManifestPathDirectlyGivesTheSameWorkspace() throws {
        let workspace = try DataConnectWorkspace.load(from: Self.example.appendingPathComponent("dataconnect.yaml"))
        #expect(workspace.serviceID == "content-sample")
        #expect(workspace.connectors.map(\.id) == ["movies"])
    }

    // MARK: - Locating the manifest

    @Test func locateFollowsFirebaseJSONToACustomSourceFolder() throws {
        let folder = try ScratchFolder()
        defer { folder.remove() }
        try folder.write(#"{"dataconnect": {"source": "backend/dc"}}"#, to: "firebase.json")
        try folder.write(Self.manifest, to: "backend/dc/dataconnect.yaml")
        let found = try #require(DataConnectWorkspace.locate(from: folder.url))
        #expect(found.path == folder.url.appendingPathComponent("backend/dc/dataconnect.yaml").path)
    }

    @Test func locateReadsTheFirstEntryOfAFirebaseJSONDataconnectArray() throws {
        let folder = try ScratchFolder()
        defer { folder.remove() }
        try folder.write(#"{"dataconnect": [{"source": "first"}, {"source": "second"}]}"#, to: "firebase.json")
        try folder.write(Self.manifest, to: "first/dataconnect.yaml")
        try folder.write(Self.manifest, to: "second/dataconnect.yaml")
        let found = try #require(DataConnectWorkspace.locate(from: folder.url))
        #expect(found.path == folder.url.appendingPathComponent("first/dataconnect.yaml").path)
    }

    @Test func locatePrefersFirebaseJSONOverARootManifest() throws {
        let folder = try ScratchFolder()
        defer { folder.remove() }
        try folder.write(#"{"dataconnect": {"source": "custom"}}"#, to: "firebase.json")
        try folder.write(Self.manifest, to: "custom/dataconnect.yaml")
        try folder.write(Self.manifest, to: "dataconnect.yaml")
        let found = try #require(DataConnectWorkspace.locate(from: folder.url))
        #expect(found.path == folder.url.appendingPathComponent("custom/dataconnect.yaml").path)
    }

    @Test func locateFallsBackWhenFirebaseJSONNamesAFolderWithoutAManifest() throws {
        let folder = try ScratchFolder()
        defer { folder.remove() }
        try folder.write(#"{"dataconnect": {"source": "missing"}}"#, to: "firebase.json")
        try folder.write(Self.manifest, to: "dataconnect/dataconnect.yaml")
        let found = try #require(DataConnectWorkspace.locate(from: folder.url))
        #expect(found.path == folder.url.appendingPathComponent("dataconnect/dataconnect.yaml").path)
    }

    @Test func locateFindsDataconnectYAMLAtTheRoot() throws {
        let folder = try ScratchFolder()
        defer { folder.remove() }
        try folder.write(Self.manifest, to: "dataconnect.yaml")
        let found = try #require(DataConnectWorkspace.locate(from: folder.url))
        #expect(found.path == folder.url.appendingPathComponent("dataconnect.yaml").path)
    }

    @Test func locateFindsDataconnectYAMLInADataconnectSubfolder() throws {
        let folder = try ScratchFolder()
        defer { folder.remove() }
        try folder.write(Self.manifest, to: "dataconnect/dataconnect.yaml")
        let found = try #require(DataConnectWorkspace.locate(from: folder.url))
        #expect(found.path == folder.url.appendingPathComponent("dataconnect/dataconnect.yaml").path)
        // The repository's examples folder is laid out the same way.
        let examples = Self.example.deletingLastPathComponent()
        let example = try #require(DataConnectWorkspace.locate(from: examples))
        #expect(example.path == Self.example.appendingPathComponent("dataconnect.yaml").path)
    }

    @Test func locateAcceptsAManifestPath() throws {
        let folder = try ScratchFolder()
        defer { folder.remove() }
        let manifest = try folder.write(Self.manifest, to: "elsewhere/service.yaml")
        #expect(DataConnectWorkspace.locate(from: manifest)?.path == manifest.path)
    }

    @Test func locateReturnsNilForAnEmptyFolder() throws {
        let folder = try ScratchFolder()
        defer { folder.remove() }
        #expect(DataConnectWorkspace.locate(from: folder.url) == nil)
    }

    @Test func loadingAnEmptyFolderSaysWhatItExpected() throws {
        let folder = try ScratchFolder()
        defer { folder.remove() }
        let error = try #require(workspaceError { try DataConnectWorkspace.load(from: folder.url) })
        #expect(error.file == folder.url.path)
        #expect(error.line == nil)
        #expect(
            error.message
                == "no Data Connect workspace here: expected firebase.json with dataconnect.source, "
                + "dataconnect.yaml or dataconnect/dataconnect.yaml")
        #expect(error.description == "\(folder.url.path): \(error.message)")
    }

    // MARK: - Workspaces written from scratch

    @Test func loadingReadsSchemasConnectorsAuthModeAndNotesHTTPDataSources() throws {
        let folder = try ScratchFolder()
        defer { folder.remove() }
        try folder.write(
            """
            serviceId: "svc"
            location: "europe-west1"
            schemas:
              - source: "./main"
              - id: "weather"
                source: "./weather"
                datasource:
                  httpGraphql:
                    uri: "https://example.com/graphql"
            connectorDirs: ["app"]

            """, to: "dataconnect.yaml")
        try folder.write("type Movie @table {\n  title: String!\n}\n", to: "main/one.gql")
        try folder.write("type Actor @table {\n  name: String!\n}\n", to: "main/nested/two.gql")
        try folder.write("connectorId: app\nauthMode: PUBLIC\n", to: "app/connector.yaml")
        try folder.write("query listMovies {\n  movies { title }\n}\n", to: "app/ops.graphql")

        let workspace = try DataConnectWorkspace.load(from: folder.url)
        #expect(workspace.serviceID == "svc")
        #expect(workspace.location == "europe-west1")
        #expect(workspace.notes == ["schema weather is an HTTP GraphQL data source; its fields are not served"])
        // Schema files are read in path order, so nested/two.gql comes before one.gql.
        #expect(workspace.schemaFiles.count == 2)
        #expect(workspace.schema.tables.map(\.typeName) == ["Actor", "Movie"])
        let connector = try #require(workspace.connector("app"))
        #expect(connector.defaultAuth == .public)
        let operation = try #require(connector.operation("listMovies"))
        #expect(operation.declaresAuth == false)
        #expect(operation.auth == .level(.noAccess))
        #expect(workspace.seedFile == nil)
    }

    @Test func duplicateOperationNameAcrossTwoFilesIsReportedAtTheSecond() throws {
        let folder = try ScratchFolder()
        defer { folder.remove() }
        try folder.write(Self.manifest, to: "dataconnect.yaml")
        try folder.write(Self.schema, to: "schema/schema.gql")
        try folder.write("connectorId: app\n", to: "app/connector.yaml")
        try folder.write("query listMovies @auth(level: PUBLIC) { movies { title } }\n", to: "app/a.gql")
        try folder.write(
            "# The same name again.\nquery listMovies @auth(level: PUBLIC) { movies { title } }\n", to: "app/b.gql")
        let error = try #require(workspaceError { try DataConnectWorkspace.load(from: folder.url) })
        #expect(error.file?.hasSuffix("b.gql") == true)
        #expect(error.line == 2)
        #expect(error.column == 1)
        #expect(error.message.hasPrefix("a second operation is named listMovies (the first is at "))
        #expect(error.message.hasSuffix("a.gql:1:1)"))
    }

    @Test func twoConnectorsWithTheSameIdAreRefused() throws {
        let folder = try ScratchFolder()
        defer { folder.remove() }
        try folder.write(
            Self.manifest.replacingOccurrences(of: #"["app"]"#, with: #"["one", "two"]"#), to: "dataconnect.yaml")
        try folder.write(Self.schema, to: "schema/schema.gql")
        try folder.write("connectorId: app\n", to: "one/connector.yaml")
        try folder.write("connectorId: app\n", to: "two/connector.yaml")
        let error = try #require(workspaceError { try DataConnectWorkspace.load(from: folder.url) })
        #expect(error.file?.hasSuffix("two") == true)
        #expect(error.message.hasPrefix("connectorId app is also used by "))
        #expect(error.message.hasSuffix("one"))
    }

    @Test func connectorFolderWithoutConnectorYAMLIsRefused() throws {
        let folder = try ScratchFolder()
        defer { folder.remove() }
        try folder.write(Self.manifest, to: "dataconnect.yaml")
        try folder.write(Self.schema, to: "schema/schema.gql")
        try folder.write("query listMovies { movies { title } }\n", to: "app/queries.gql")
        let error = try #require(workspaceError { try DataConnectWorkspace.load(from: folder.url) })
        #expect(error.file?.hasSuffix("app") == true)
        #expect(error.message == "connector folder has no connector.yaml (listed in connectorDirs)")
    }

    @Test func schemaErrorsNameTheSchemaFile() throws {
        let folder = try ScratchFolder()
        defer { folder.remove() }
        try folder.write(Self.manifest, to: "dataconnect.yaml")
        try folder.write("type Movie @table {\n  title String!\n}\n", to: "schema/schema.gql")
        try folder.write("connectorId: app\n", to: "app/connector.yaml")
        let error = try #require(workspaceError { try DataConnectWorkspace.load(from: folder.url) })
        #expect(error.file?.hasSuffix("schema/schema.gql") == true)
        #expect(error.line == 2)
        #expect(error.column == 9)
        #expect(error.message.hasPrefix("GraphQL syntax: "))
    }

    @Test func manifestWithoutASchemaSourceIsRefused() throws {
        let folder = try ScratchFolder()
        defer { folder.remove() }
        let manifest = try folder.write("serviceId: svc\nlocation: here\n", to: "dataconnect.yaml")
        let error = try #require(workspaceError { try DataConnectWorkspace.load(from: folder.url) })
        #expect(error.file == manifest.path)
        #expect(error.message == "dataconnect.yaml has no schema.source (or schemas[].source) to read")
    }

    @Test func schemaSourceWithoutGQLFilesIsRefused() throws {
        let folder = try ScratchFolder()
        defer { folder.remove() }
        try folder.write(Self.manifest, to: "dataconnect.yaml")
        try folder.write("not a schema", to: "schema/README.md")
        let error = try #require(workspaceError { try DataConnectWorkspace.load(from: folder.url) })
        #expect(error.message.hasPrefix("schema source ./schema has no .gql files (looked in "))
    }

    @Test func malformedManifestReportsTheYAMLErrorPosition() throws {
        let folder = try ScratchFolder()
        defer { folder.remove() }
        let manifest = try folder.write("specVersion: \"v1\"\nserviceId: a: b\n", to: "dataconnect.yaml")
        let error = try #require(workspaceError { try DataConnectWorkspace.load(from: folder.url) })
        #expect(error.file == manifest.path)
        #expect(error.line == 2)
        #expect(error.column == 13)
        #expect(error.description == "\(manifest.path):2:13: mapping values are not allowed in this context")
    }

    @Test func manifestWithoutServiceIdIsRefused() throws {
        let folder = try ScratchFolder()
        defer { folder.remove() }
        let manifest = try folder.write(
            "location: \"us-central1\"\nschema:\n  source: \"./schema\"\n", to: "dataconnect.yaml")
        let error = try #require(workspaceError { try DataConnectWorkspace.load(from: folder.url) })
        #expect(error.file == manifest.path)
        #expect(error.line == 1)
        #expect(error.message.contains("missing required key 'serviceId'"))
        #expect(error.description.hasPrefix("\(manifest.path):1:"))
    }

    // MARK: - Connector operations

    @Test func operationParsingKeepsVariablesDefaultsAuthExpressionAndAliases() throws {
        let text = """
            query a(
              $ids: [UUID!]!
              $n: Int = 3
              $f: Movie_Filter = { title: { eq: "x" } }
            ) @auth(expr: "auth.uid != null") {
              first: movie(id: "x") { id }
              movies { id }
            }

            mutation b @transaction {
              movie_insert(data: { title: "x" })
            }

            """
        let operations = try ConnectorOperation.parse(text, path: "ops.gql")
        #expect(operations.map(\.name) == ["a", "b"])
        let query = operations[0]
        #expect(query.kind == .query)
        #expect(query.signature == "a($ids: [UUID!]!, $n: Int, $f: Movie_Filter)")
        #expect(query.variables.map(\.type.description) == ["[UUID!]!", "Int", "Movie_Filter"])
        #expect(query.variables[0].defaultValue == nil)
        #expect(query.variables[1].defaultValue == .number(JSONNumber(3)))
        #expect(query.variables[2].defaultValue == .object(["title": .object(["eq": .string("x")])]))
        #expect(query.auth == .expression("auth.uid != null"))
        #expect(query.auth.description == "expr: auth.uid != null")
        #expect(query.declaresAuth)
        #expect(query.rootFields == ["first", "movies"])
        #expect(query.isTransaction == false)
        #expect(query.fileText == text)
        let mutation = operations[1]
        #expect(mutation.kind == .mutation)
        #expect(mutation.isTransaction)
        #expect(mutation.auth == .level(.noAccess))
        #expect(mutation.declaresAuth == false)
        #expect(mutation.rootFields == ["movie_insert"])
        #expect(mutation.position == SourcePosition(file: "ops.gql", line: 10, column: 1))
    }

    @Test func anonymousOperationIsRefusedAtItsPosition() throws {
        let error = try #require(
            workspaceError { try ConnectorOperation.parse("# List.\nquery {\n  movies { id }\n}\n", path: "ops.gql") })
        #expect(
            error
                == DataConnectWorkspaceError(
                    file: "ops.gql", line: 2, column: 1, "a connector operation needs a name, so clients can call it"))
        #expect(error.description == "ops.gql:2:1: a connector operation needs a name, so clients can call it")
    }

    @Test func unknownAuthLevelIsRefusedWithTheAllowedLevels() throws {
        let error = try #require(
            workspaceError {
                try ConnectorOperation.parse("query q @auth(level: ADMIN) {\n  movies { id }\n}\n", path: "ops.gql")
            })
        #expect(error.file == "ops.gql")
        #expect(error.line == 1)
        #expect(error.column == 1)
        #expect(
            error.message
                == "@auth(level: ADMIN) on q is not one of PUBLIC, USER_ANON, USER, USER_EMAIL_VERIFIED, NO_ACCESS")
    }

    @Test func subscriptionsAreRefused() throws {
        let error = try #require(
            workspaceError { try ConnectorOperation.parse("subscription watch { movies { id } }\n", path: "ops.gql") })
        #expect(
            error
                == DataConnectWorkspaceError(
                    file: "ops.gql", line: 1, column: 1,
                    "watch is a subscription; Data Connect connectors have queries and mutations only"))
    }

    @Test func operationSyntaxErrorIsPositioned() throws {
        let error = try #require(
            workspaceError { try ConnectorOperation.parse("query q {\n  movies(limit: ) { id }\n}\n", path: "q.gql") })
        #expect(error.file == "q.gql")
        #expect(error.line == 2)
        #expect(error.column == 17)
        #expect(error.message.hasPrefix("GraphQL syntax: "))
        #expect(error.description.hasPrefix("q.gql:2:17: GraphQL syntax: "))
    }

    // MARK: - Values

    @Test func authPolicyDescribesItsLevelOrExpression() {
        #expect(AuthPolicy.level(.public).description == "PUBLIC")
        #expect(AuthPolicy.level(.userAnonymous).description == "USER_ANON")
        #expect(AuthPolicy.expression("auth.uid == vars.id").description == "expr: auth.uid == vars.id")
        #expect(
            AuthPolicy.Level.allCases.map(\.rawValue)
                == ["PUBLIC", "USER_ANON", "USER", "USER_EMAIL_VERIFIED", "NO_ACCESS"])
    }

    @Test func errorDescriptionReadsLikeACompilerMessage() {
        #expect(DataConnectWorkspaceError("no file").description == "no file")
        #expect(DataConnectWorkspaceError(file: "a.gql", "whole file").description == "a.gql: whole file")
        #expect(DataConnectWorkspaceError(file: "a.gql", line: 3, "no column").description == "a.gql:3:1: no column")
        #expect(
            DataConnectWorkspaceError(file: "a.gql", line: 3, column: 7, "exact").description == "a.gql:3:7: exact")
        #expect(SourcePosition(file: "a.gql", line: 4, column: 2).description == "a.gql:4:2")
    }
}

/// The workspace error `body` throws, or `nil` (recording an issue) when it throws none or another kind.
private func workspaceError<T>(
    _ body: () throws -> T, sourceLocation: SourceLocation = #_sourceLocation
) -> DataConnectWorkspaceError? {
    do {
        _ = try body()
        Issue.record("expected a DataConnectWorkspaceError, but nothing was thrown", sourceLocation: sourceLocation)
        return nil
    } catch let error as DataConnectWorkspaceError {
        return error
    } catch {
        Issue.record("expected a DataConnectWorkspaceError, got \(error)", sourceLocation: sourceLocation)
        return nil
    }
}

/// A fresh folder under the temporary directory that a test writes a workspace into; call ``remove()``.
private struct ScratchFolder {
    let url: URL

    init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("dataconnect-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    /// Writes `text` to `relative`, making the folders it needs.
    ///
    /// - Returns: The file's URL.
    @discardableResult
    func write(_ text: String, to relative: String) throws -> URL {
        let file = url.appendingPathComponent(relative)
        try FileManager.default.createDirectory(
            at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(text.utf8).write(to: file)
        return file
    }

    /// Deletes the folder and everything in it.
    func remove() {
        try? FileManager.default.removeItem(at: url)
    }

    @Test func operationsNestedTooDeeplyAreRefusedBeforeParsing() {
        let text = "query deep " + String(repeating: "{ movies ", count: 5_000) + String(repeating: "}", count: 5_000)
        do {
            _ = try ConnectorOperation.parse(text, path: "deep.gql")
            Issue.record("expected the operation to be refused")
        } catch {
            // Where the 65th level opens; a workspace file's limit is not one `serve --limit` raises.
            #expect(error.description == "deep.gql:1:588: the text nests more than 64 levels deep")
        }
    }
}
