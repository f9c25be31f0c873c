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
}
