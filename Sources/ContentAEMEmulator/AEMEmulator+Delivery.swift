internal import ContentAEM
internal import ContentJSON
internal import Foundation
internal import HTTPTypes
internal import Hummingbird

/// Content Fragment Delivery with OpenAPI: AEM's REST API for fragments, beside GraphQL.
///
/// As the corpus README gives it (Adobe's documentation, stable since 2025-04): `GET /adobe/contentFragments?path=
/// &limit=&cursor=` lists the fragments under a folder, recursively, as `{ items, cursor }`; `GET
/// /adobe/contentFragments/{id}?references=none|direct-hydrated|all-hydrated&depth=` and `GET
/// /adobe/contentFragments/byPath?path=` answer one. A fragment is `{ path, name, title, id, description, model { id },
/// fields, references }`, rich text `{ value, mimeType }`; references are keyed by id, each `{ type, value }`.
/// Answers carry the API's fixed caching and an `ETag`, and `If-None-Match` gets 304. No sign-in, as on publish.
extension AEMEmulator {
    /// The API's fixed `Cache-Control`.
    static let deliveryCacheControl = "max-age=300, s-maxage=3600, stale-while-revalidate=3600, stale-on-error=86400"

    /// The most items one page lists, and how many it lists unless asked.
    static let deliveryPageSize = 50

    func addDeliveryRoutes(to router: Router<BasicRequestContext>) {
        router.get("/adobe/contentFragments") { request, _ in
            if let refusal = self.overLimit() { return refusal }
            return self.deliveryList(request)
        }
        router.get("/adobe/contentFragments/byPath") { request, _ in
            if let refusal = self.overLimit() { return refusal }
            guard let path = request.uri.queryParameters.get("path"), !path.isEmpty else {
                return Self.problem(.badRequest, "byPath needs ?path=, the fragment's DAM path")
            }
            return self.deliveryOne(request, fragment: try self.store.fragment(path: path), named: path)
        }
        router.get("/adobe/contentFragments/{id}") { request, context in
            if let refusal = self.overLimit() { return refusal }
            let id = context.parameters.get("id") ?? ""
            return self.deliveryOne(request, fragment: try self.store.fragment(id: id), named: id)
        }
    }

    /// 429 with `Retry-After` when the played rate limit is spent; `nil` when the request may go on.
    private func overLimit() -> Response? {
        guard let deliveryLimit, let wait = deliveryLimit.take() else { return nil }
        var response = Self.problem(
            .tooManyRequests,
            "more than \(deliveryLimit.rate.requests) requests \(deliveryLimit.rate.periodText) to Content Fragment "
                + "Delivery; retry after \(wait) s")
        response.headers[.retryAfter] = String(wait)
        return response
    }

    private func deliveryList(_ request: Request) -> Response {
        let parameters = request.uri.queryParameters
        let folder = parameters.get("path") ?? "/"
        guard folder.hasPrefix("/") else { return Self.problem(.badRequest, "path is a folder such as /content/dam") }
        var limit = Self.deliveryPageSize
        if let text = parameters.get("limit") {
            guard let value = Int(text), (1...Self.deliveryPageSize).contains(value) else {
                return Self.problem(.badRequest, "limit is a number from 1 to \(Self.deliveryPageSize), was \(text)")
            }
            limit = value
        }
        var after: String?
        if let cursor = parameters.get("cursor") {
            guard let data = Data(base64Encoded: cursor), let path = String(data: data, encoding: .utf8) else {
                return Self.problem(
                    .badRequest, "cursor is not one this API answered; pass the cursor of the last page")
            }
            after = path
        }
        do {
            // One more than the page, to know whether another follows.
            let found = try store.fragments(under: folder, after: after, limit: limit + 1)
            let page = Array(found.prefix(limit))
            var body: JSONObject = ["items": .array(try page.map { try deliveryFragment($0, references: .none) })]
            if found.count > limit, let last = page.last {
                body["cursor"] = .string(Data(last.path.utf8).base64EncodedString())
            }
            return deliveryAnswer(request, .object(body))
        } catch {
            return Self.problem(.internalServerError, "\(error)")
        }
    }

    private func deliveryOne(_ request: Request, fragment: AEMWorkspace.Fragment?, named name: String) -> Response {
        guard let fragment else { return Self.problem(.notFound, "no content fragment \(name)") }
        let parameters = request.uri.queryParameters
        let mode = parameters.get("references") ?? "none"
        let depth: Int
        if let text = parameters.get("depth") {
            guard let value = Int(text), (0...10).contains(value) else {
                return Self.problem(.badRequest, "depth is a number from 0 to 10, was \(text)")
            }
            depth = value
        } else {
            depth = 1
        }
        let references: DeliveryReferences
        switch mode {
        case "none": references = .none
        case "direct-hydrated": references = .hydrated(depth: 1)
        case "all-hydrated": references = .hydrated(depth: max(depth, 1))
        default:
            return Self.problem(.badRequest, "references is none, direct-hydrated or all-hydrated, was \(mode)")
        }
        do {
            return deliveryAnswer(request, try deliveryFragment(fragment, references: references))
        } catch {
            return Self.problem(.internalServerError, "\(error)")
        }
    }

    /// How far a fragment's references are filled in.
    enum DeliveryReferences {
        case none
        /// Referenced fragments and assets, and theirs, this many levels deep.
        case hydrated(depth: Int)
    }

    /// A fragment as the API shapes it.
    func deliveryFragment(_ fragment: AEMWorkspace.Fragment, references: DeliveryReferences) throws -> JSONValue {
        let model = engine.models[fragment.model]
        var fields = JSONObject()
        var referenced: [String] = []
        for field in model?.fields ?? [] {
            guard let value = fragment.values[field.name], value != .null else { continue }
            func one(_ value: JSONValue) throws -> JSONValue {
                switch field.type {
                case .multiline:
                    return .object(["value": value, "mimeType": .string("text/html")])
                case .fragmentReference, .contentReference:
                    guard let path = value.stringValue else { return value }
                    referenced.append(path)
                    return .string(try store.fragment(path: path)?.id ?? stableUUID(path))
                default:
                    return value
                }
            }
            fields[field.name] = try value.arrayValue.map { .array(try $0.map(one)) } ?? one(value)
        }
        let name = fragment.path.split(separator: "/").last.map(String.init) ?? fragment.path
        var body: JSONObject = [
            "path": .string(fragment.path), "name": .string(name),
            "title": fragment.values["title"].flatMap(\.stringValue).map(JSONValue.string) ?? .string(name),
            "id": .string(fragment.id), "description": .string(""),
            "model": .object(["id": .string(stableUUID("model:" + fragment.model))]), "fields": .object(fields),
        ]
        if case .hydrated(let depth) = references, depth > 0 {
            var hydrated = JSONObject()
            for path in referenced {
                if let target = try store.fragment(path: path) {
                    let inner: DeliveryReferences = depth > 1 ? .hydrated(depth: depth - 1) : .none
                    hydrated[target.id] = .object([
                        "type": .string("content-fragment"), "value": try deliveryFragment(target, references: inner),
                    ])
                } else {
                    hydrated[stableUUID(path)] = .object([
                        "type": .string("asset"),
                        "value": .object([
                            "path": .string(path),
                            "mimeType": .string(
                                AEMGraphQLEngine.mimeType(AEMGraphQLEngine.fileExtension(ofPath: path))),
                        ]),
                    ])
                }
            }
            body["references"] = .object(hydrated)
        }
        return .object(body)
    }

    /// A 200 with the API's caching and an `ETag`, or 304 when the client holds it already.
    private func deliveryAnswer(_ request: Request, _ body: JSONValue) -> Response {
        Self.revalidated(
            request, bytes: AEMGraphQLEngine.wholeNumbers(body).serialized(),
            headers: [.contentType: "application/json;charset=utf-8", .cacheControl: Self.deliveryCacheControl])
    }

    /// An error as a problem document (RFC 9457): what failed, with its status.
    static func problem(_ status: HTTPResponse.Status, _ detail: String) -> Response {
        let body: JSONValue = .object([
            "title": .string(status.reasonPhrase), "status": .number(JSONNumber(status.code)),
            "detail": .string(detail),
        ])
        return Response(
            status: status, headers: [.contentType: "application/problem+json;charset=utf-8"],
            body: ResponseBody(byteBuffer: ByteBuffer(bytes: body.serialized())))
    }
}
