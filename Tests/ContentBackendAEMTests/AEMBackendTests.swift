import ContentCore
import ContentJSON
import ContentTesting
import Foundation
import Testing

@testable import ContentBackendAEM

struct AEMBackendTests {
    private func backend(
        auth: AEMConfiguration.Auth? = nil,
        token: String? = nil,
        _ answer: @escaping @Sendable (HTTPTransportRequest) -> HTTPTransportResponse
    ) -> (AEMBackend, ScriptedTransport) {
        let transport = ScriptedTransport(answer)
        let configuration = AEMConfiguration(
            url: "https://publish.example.com/", configuration: "wknd-shared", auth: auth)
        let context = BackendContext(transport: transport, redactor: Redactor(secrets: [token].compactMap { $0 }))
        return (AEMBackend(name: "wknd", configuration: configuration, context: context, token: token), transport)
    }

    private static func json(_ status: Int, _ body: String, type: String = "application/json")
        -> @Sendable (HTTPTransportRequest) -> HTTPTransportResponse
    {
        { request in
            HTTPTransportResponse(
                status: status, headers: ["Content-Type": type], body: Array(body.utf8), url: request.url)
        }
    }

    @Test func sendsTheTokenAsABearerAndFindsListItems() async throws {
        let body = #"{"data":{"adventureList":{"items":[{"title":"A"},{"title":"B"}]}}}"#
        let (backend, transport) = backend(auth: .init(type: .token), token: "t0ken-value", Self.json(200, body))
        let result = try await backend.execute(ContentRequest(operation: "adventures-all"))
        #expect(
            transport.requests.first?.url
                == "https://publish.example.com/graphql/execute.json/wknd-shared/adventures-all")
        #expect(transport.requests.first?.headers["Authorization"] == "Bearer t0ken-value")
        #expect(result.metadata.itemsPath?.description == "data.adventureList.items")
    }

    @Test func paginatedItemsAreTheEdgeNodes() async throws {
        let body =
            #"{"data":{"adventurePaginated":{"edges":[{"cursor":"c","node":{"title":"A"}}],"pageInfo":{"hasNextPage":false}}}}"#
        let (backend, _) = backend(Self.json(200, body))
        let result = try await backend.execute(ContentRequest(operation: "wknd-shared/page"))
        #expect(result.metadata.itemsPath?.description == "data.adventurePaginated.edges[].node")
    }

    @Test func adHocQueriesGoToTheEndpointPathAdobeDocumentsAndTheDispatcherAllows() async throws {
        let (backend, transport) = backend(Self.json(200, #"{"data":{"adventureList":{"items":[]}}}"#))
        _ = try await backend.executeAdHoc(query: "{ adventureList { items { title } } }", variables: [:])
        #expect(transport.requests.first?.method == .post)
        #expect(
            transport.requests.first?.url == "https://publish.example.com/content/_cq_graphql/wknd-shared/endpoint.json"
        )
    }

    @Test func anUnknownConfigurationSaysSoAndWhatToCheck() async throws {
        let servletError =
            #"{"errors":[{"errorType":"ServletError","message":"Internal Servlet Failure","details":"#
            + #""No suitable endpoint found."}]}"#
        let (backend, _) = backend(Self.json(404, servletError))
        let error = await #expect(throws: AEMError.self) {
            try await backend.execute(ContentRequest(operation: "nope/adventures-all"))
        }
        #expect(error?.description.contains("no GraphQL endpoint on publish.example.com") == true, "\(error)")
        #expect(error?.description.contains("check the configuration name: the backend's `configuration`") == true)
        #expect(
            error?.description.hasPrefix("https://publish.example.com/graphql/execute.json/nope/adventures-all") == true
        )
        #expect(error?.category == .httpStatus)
    }

    @Test func missingQueryPointsAtTheList() async throws {
        let (backend, _) = backend(Self.json(404, #"{"message":"PersistenceError: not found"}"#))
        let error = await #expect(throws: AEMError.self) {
            try await backend.execute(ContentRequest(operation: "wknd-shared/nope"))
        }
        #expect(
            error?.description
                == "persisted query wknd-shared/nope not found on publish.example.com; `content aem list` shows what exists"
        )
        #expect(error?.category == .httpStatus)
    }

    @Test func unauthorizedNamesTheAuthMode() async throws {
        let (backend, _) = backend(Self.json(401, "{}"))
        let error = await #expect(throws: AEMError.self) {
            try await backend.execute(ContentRequest(operation: "q"))
        }
        #expect(error?.description.contains("auth type 'none'") == true)
        #expect(error?.description.contains("AEM_TOKEN") == true)
    }

    @Test func htmlInsteadOfJSONIsNamedWithItsFirstLine() async throws {
        let (backend, _) = backend(Self.json(200, "<!DOCTYPE html>\n<title>Sign in</title>", type: "text/html"))
        let error = await #expect(throws: AEMError.self) {
            try await backend.execute(ContentRequest(operation: "q"))
        }
        #expect(error?.kind == .notJSON)
        #expect(error?.description.contains("<!DOCTYPE html>") == true)
    }

    @Test func graphQLErrorsBecomeDiagnosticsNextToDataAndAFailureWithout() async throws {
        let partial =
            #"{"data":{"adventureList":{"items":[]}},"errors":[{"message":"boom","path":["adventureList","items",0]}]}"#
        let (withData, _) = backend(Self.json(200, partial))
        let result = try await withData.execute(ContentRequest(operation: "q"))
        #expect(result.metadata.diagnostics == [Diagnostic(.error, "boom", at: "data.adventureList.items.0")])

        let (withoutData, _) = backend(Self.json(200, #"{"errors":[{"message":"Variable \"$slug\" is required"}]}"#))
        let failure = await #expect(throws: GraphQLFailure.self) {
            try await withoutData.execute(ContentRequest(operation: "q"))
        }
        #expect(failure?.category == .operationFailed)
        #expect(failure?.description.contains("$slug") == true)
    }

    @Test func secretsStayOutOfErrors() async throws {
        let (backend, _) = backend(
            auth: .init(type: .token), token: "s3cret-value", Self.json(500, "server error s3cret-value"))
        let error = await #expect(throws: AEMError.self) {
            try await backend.execute(ContentRequest(operation: "q"))
        }
        #expect(error?.description.contains("HTTP 500") == true)
        #expect(error?.description.contains("s3cret-value") == false)
    }

    @Test func imageReferencesGainAbsoluteURLs() {
        let item: JSONValue = .object([
            "primaryImage": .object([
                "_path": .string("/content/dam/a.jpg"), "_dynamicUrl": .string("/adobe/dynamicmedia/deliver/x.jpg"),
            ]),
            "local": .object(["_path": .string("/content/dam/b.png"), "_dynamicUrl": .null]),
            "other": .object(["_path": .string("/content/dam/fragment")]),
        ])
        let enriched = ImageReference.addURLs(item, base: "https://publish.example.com")
        #expect(
            enriched["primaryImage"]?["url"] == .string("https://publish.example.com/adobe/dynamicmedia/deliver/x.jpg"))
        #expect(enriched["local"]?["url"] == .string("https://publish.example.com/content/dam/b.png"))
        #expect(enriched["other"]?["url"] == nil)
    }

    @Test func cacheLifetimeFollowsCacheControl() {
        #expect(ResponseCache.lifetime("max-age=60,s-maxage=7200") == 60)
        #expect(ResponseCache.lifetime("private, max-age=60") == nil)
        #expect(ResponseCache.lifetime("no-store") == nil)
        #expect(ResponseCache.lifetime(nil) == nil)
    }

    /// The items of an `--all` walk, or the error that ended it.
    private static func drain(_ result: ContentResult) async -> (titles: [String], error: (any Error)?) {
        guard case .items(let stream) = result.body else { return ([], nil) }
        var titles: [String] = []
        do {
            for try await item in stream { titles.append(item["title"]?.stringValue ?? "?") }
        } catch {
            return (titles, error)
        }
        return (titles, nil)
    }

    /// A list answer of `count` titled items, whatever the variables: a query that declares neither paging pair, which
    /// AEM answers in full because it ignores variables a query does not declare.
    private static func fullList(_ count: Int) -> @Sendable (HTTPTransportRequest) -> HTTPTransportResponse {
        { request in
            if request.url.contains("/graphql/list.json") {
                return HTTPTransportResponse(status: 404, headers: [:], body: [], url: request.url)
            }
            let items = (0..<count).map { #"{"title":"T\#($0)"}"# }.joined(separator: ",")
            let body = #"{"data":{"adventureList":{"items":[\#(items)]}}}"#
            return HTTPTransportResponse(
                status: 200, headers: ["Content-Type": "application/json"], body: Array(body.utf8), url: request.url)
        }
    }

    @Test func allOfAQueryThatIgnoresLimitIsRefusedRatherThanRepeated() async throws {
        let (backend, transport) = backend(Self.fullList(16))
        // More items than a page holds: the query does not take $limit, and walking its offset would never end.
        let error = await #expect(throws: AEMError.self) {
            _ = try await backend.executeAllPages(ContentRequest(operation: "wknd-shared/adventures-all"), pageSize: 5)
        }
        #expect(error?.description.contains("answers to neither") == true, "\(String(describing: error))")
        #expect(transport.requests.count <= 3, "\(transport.requests.map(\.url))")
        // As many items as a page holds, again at every offset: refused at the second page, which is not written.
        let (exact, _) = self.backend(Self.fullList(5))
        let walked = try await exact.executeAllPages(
            ContentRequest(operation: "wknd-shared/adventures-all"), pageSize: 5)
        let (repeated, ended) = await Self.drain(walked)
        #expect(repeated.count == 5, "\(repeated)")
        #expect((ended as? AEMError)?.description.contains("answers to neither") == true)
        // A page that holds them all is the whole answer.
        let whole = try await backend.executeAllPages(
            ContentRequest(operation: "wknd-shared/adventures-all"), pageSize: 50)
        let (titles, failure) = await Self.drain(whole)
        #expect(titles.count == 16 && failure == nil, "\(titles) \(String(describing: failure))")
    }

    @Test func allStopsWhenACursorComesBackUnchanged() async throws {
        let (backend, transport) = backend { request in
            if request.url.contains("/graphql/list.json") {
                return HTTPTransportResponse(status: 404, headers: [:], body: [], url: request.url)
            }
            // The same first page, whatever $after says: a query that does not declare it.
            let body =
                #"{"data":{"adventurePaginated":{"edges":[{"cursor":"c1","node":{"title":"A"}}],"#
                + #""pageInfo":{"hasNextPage":true,"endCursor":"c1"}}}}"#
            return HTTPTransportResponse(
                status: 200, headers: ["Content-Type": "application/json"], body: Array(body.utf8), url: request.url)
        }
        let result = try await backend.executeAllPages(
            ContentRequest(operation: "wknd-shared/adventures-paginated"), pageSize: 1)
        let (titles, failure) = await Self.drain(result)
        #expect(titles == ["A"], "\(titles)")
        #expect((failure as? AEMError)?.description.contains("answers to neither") == true)
        #expect(transport.requests.count < 6)
    }

    @Test func allPagesTheWayTheListedQueryDeclares() async throws {
        let query =
            "query($offset: Int, $limit: Int) { adventureList(offset: $offset, limit: $limit) { items { title } } }"
        let (backend, transport) = backend { request in
            let body: String
            if request.url.contains("/graphql/list.json") {
                let entry: JSONValue = .object([
                    "path": .object(["shortForm": .string("/wknd-shared/by-offset")]),
                    "data": .object(["query": .string(query)]),
                ])
                body = JSONValue.array([.object(["queries": .array([entry])])]).jsonText
            } else {
                body = #"{"data":{"adventureList":{"items":[{"title":"A"},{"title":"B"}]}}}"#
            }
            return HTTPTransportResponse(
                status: 200, headers: ["Content-Type": "application/json"], body: Array(body.utf8), url: request.url)
        }
        let result = try await backend.executeAllPages(ContentRequest(operation: "wknd-shared/by-offset"), pageSize: 5)
        let (titles, failure) = await Self.drain(result)
        #expect(titles == ["A", "B"] && failure == nil)
        // The list says the query takes $offset and $limit: no request tried $first.
        #expect(transport.requests.allSatisfy { !$0.url.contains("first") }, "\(transport.requests.map(\.url))")
    }
}
