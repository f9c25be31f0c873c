public import ContentCore
internal import ContentJSON
internal import Foundation

extension AEMBackend {
    /// How `content aem fragment` fills a fragment's references (Content Fragment Delivery's `references`).
    public enum DeliveryReferences: String, Sendable, CaseIterable {
        case none
        case directHydrated = "direct-hydrated"
        case allHydrated = "all-hydrated"
    }

    /// The fragments under a folder through Content Fragment Delivery with OpenAPI (`GET /adobe/contentFragments`):
    /// the first page, or every page streamed by its cursor.
    ///
    /// - Parameters:
    ///   - folder: The DAM folder (`/content/dam/wknd-shared`), or every fragment.
    ///   - all: Whether to follow `cursor` to the last page.
    ///   - limit: Items per page (1–50).
    /// - Returns: The fragments as items.
    /// - Throws: ``AEMError`` and transport failures.
    public func deliveryFragments(folder: String?, all: Bool, limit: Int?) async throws -> ContentResult {
        let first = try await deliveryPage(folder: folder, limit: limit, cursor: nil)
        guard all else {
            return ContentResult(body: .items(Self.stream(first.items)))
        }
        let (stream, continuation) = AsyncThrowingStream.makeStream(of: JSONValue.self)
        let producer = Task {
            do {
                var page = first
                while true {
                    for item in page.items { continuation.yield(item) }
                    guard let cursor = page.cursor else { break }
                    try Task.checkCancellation()
                    page = try await self.deliveryPage(folder: folder, limit: limit, cursor: cursor)
                }
                continuation.finish()
            } catch {
                continuation.finish(throwing: error)
            }
        }
        continuation.onTermination = { _ in producer.cancel() }
        return ContentResult(body: .items(stream))
    }

    /// One fragment through Content Fragment Delivery with OpenAPI, by its id or its DAM path.
    ///
    /// - Parameters:
    ///   - idOrPath: The fragment's id, or its path (starting with `/`).
    ///   - references: How its references are filled in.
    ///   - depth: How deep `all-hydrated` goes.
    /// - Returns: The fragment as a document.
    /// - Throws: ``AEMError`` and transport failures.
    public func deliveryFragment(_ idOrPath: String, references: DeliveryReferences, depth: Int?) async throws
        -> ContentResult
    {
        var components = URLComponents()
        var query: [URLQueryItem] = []
        if idOrPath.hasPrefix("/") {
            components.path = "/adobe/contentFragments/byPath"
            query.append(URLQueryItem(name: "path", value: idOrPath))
        } else {
            components.path = "/adobe/contentFragments/" + idOrPath
        }
        if references != .none { query.append(URLQueryItem(name: "references", value: references.rawValue)) }
        if let depth { query.append(URLQueryItem(name: "depth", value: String(depth))) }
        components.queryItems = query.isEmpty ? nil : query
        let response = try await context.transport.send(
            HTTPTransportRequest(
                method: .get, url: base + (components.percentEncodedURL), headers: headers, isRetryable: true))
        let document = try decode(response, persisted: "fragment \(idOrPath)")
        return ContentResult(body: .document(document), metadata: .init(httpStatus: response.status))
    }

    private struct DeliveryPage {
        var items: [JSONValue]
        var cursor: String?
    }

    private func deliveryPage(folder: String?, limit: Int?, cursor: String?) async throws -> DeliveryPage {
        var components = URLComponents()
        components.path = "/adobe/contentFragments"
        var query: [URLQueryItem] = []
        if let folder { query.append(URLQueryItem(name: "path", value: folder)) }
        if let limit { query.append(URLQueryItem(name: "limit", value: String(limit))) }
        if let cursor { query.append(URLQueryItem(name: "cursor", value: cursor)) }
        components.queryItems = query.isEmpty ? nil : query
        let response = try await context.transport.send(
            HTTPTransportRequest(
                method: .get, url: base + components.percentEncodedURL, headers: headers, isRetryable: true))
        let document = try decode(response, persisted: "fragments of \(folder ?? "/")")
        guard let items = document["items"]?.arrayValue else {
            throw AEMError(
                kind: .malformedResponse,
                description: "\(context.redactor.redact(url: response.url)): expected { items, cursor }")
        }
        return DeliveryPage(items: items, cursor: document["cursor"]?.stringValue)
    }

    private static func stream(_ items: [JSONValue]) -> AsyncThrowingStream<JSONValue, any Error> {
        AsyncThrowingStream { continuation in
            for item in items { continuation.yield(item) }
            continuation.finish()
        }
    }
}

extension URLComponents {
    /// The path and query, percent-encoded, with `+` and `=` in values encoded too (a cursor is base64).
    fileprivate var percentEncodedURL: String {
        var copy = self
        copy.percentEncodedQueryItems = queryItems?.map { item in
            URLQueryItem(
                name: item.name,
                value: item.value?.addingPercentEncoding(
                    withAllowedCharacters: .alphanumerics.union(.init(charactersIn: "-._~/"))))
        }
        return copy.string ?? path
    }
}
