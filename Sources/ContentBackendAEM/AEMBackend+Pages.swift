package import ContentCore
internal import ContentJSON
internal import Foundation

extension AEMBackend {
    /// Every page of a query, streamed: a …Paginated query follows `pageInfo.endCursor` with `first`
    /// and `after`; a …List query walks `offset` and `limit` until a short page.
    ///
    /// The query must declare those variables. Which pair it takes is read from the server's `list.json`; where the
    /// server does not list the query, it is learned from the first page. AEM ignores a variable a query does not
    /// declare (graphql-java coerces the declared ones only), so a first page with more items than asked for is a
    /// query that does not take `$limit`, and a cursor that comes back unchanged one that does not take `$after`.
    ///
    /// - Parameters:
    ///   - request: The operation and its other variables.
    ///   - pageSize: Items per page (1–100), 50 when not given.
    /// - Returns: The items as they arrive.
    /// - Throws: ``AEMError`` when the query can be paged neither way.
    package func executeAllPages(_ request: ContentRequest, pageSize: Int?) async throws -> ContentResult {
        let size = pageSize ?? 50
        let declared = await listedVariables(of: request.operation)
        func declares(_ names: String...) -> Bool {
            declared.map { list in names.allSatisfy { list[$0] != nil } } ?? true
        }
        var cursorVariables = request.variables
        cursorVariables["first"] = .number(JSONNumber(size))
        if declares("first", "after"), let first = try await page(request, variables: cursorVariables),
            first.connection != nil
        {
            return stream(request, first: first, size: size, variables: cursorVariables, kind: .cursor)
        }
        var offsetVariables = request.variables
        offsetVariables["offset"] = .number(JSONNumber(0))
        offsetVariables["limit"] = .number(JSONNumber(size))
        if declares("offset", "limit"), let first = try await page(request, variables: offsetVariables),
            let items = first.items, items.count <= size
        {
            return stream(request, first: first, size: size, variables: offsetVariables, kind: .offset)
        }
        throw Self.unpageable(request.operation)
    }

    private static func unpageable(_ operation: String) -> AEMError {
        AEMError(
            kind: .usage,
            description: "--all pages a …Paginated query declaring $first and $after, or a …List query declaring "
                + "$offset and $limit; \(operation) answers to neither"
        )
    }

    private enum PagingKind {
        case cursor
        case offset
    }

    /// One page, or nil when the server refused the paging variables.
    private struct Page {
        var items: [JSONValue]?
        var connection: JSONValue?
    }

    private func page(_ request: ContentRequest, variables: JSONObject) async throws -> Page? {
        var paged = request
        paged.variables = variables
        // Cursors are base64 and may end in '=', which a GET URL cannot carry: such pages go by POST.
        let outgoing: HTTPTransportRequest
        do {
            outgoing = try httpRequest(for: paged)
        } catch {
            outgoing = postRequest(for: paged)
        }
        let response = try await context.transport.send(outgoing)
        if response.status == 400 { return nil }
        let (configuration, name) = address(of: request.operation)
        let document = try decode(response, persisted: "\(configuration)/\(name)")
        guard let field = document["data"]?.objectValue?.members.first?.value, document["errors"] == nil else {
            return nil
        }
        if let edges = field["edges"]?.arrayValue {
            return Page(items: edges.compactMap { $0["node"] }, connection: field)
        }
        return Page(items: field["items"]?.arrayValue, connection: nil)
    }

    private func stream(
        _ request: ContentRequest,
        first: Page,
        size: Int,
        variables: JSONObject,
        kind: PagingKind
    ) -> ContentResult {
        let (stream, continuation) = AsyncThrowingStream.makeStream(of: JSONValue.self)
        let showProgress = isatty(2) == 1
        let producer = Task {
            do {
                var current = first
                var variables = variables
                var fetched = 0
                var pages = 1
                var previous: [JSONValue]?
                paging: while true {
                    // The cursor sent comes back as the page's end with more to come: the query does not take $after
                    // and would answer this page forever. Nothing of it is written twice.
                    let info = current.connection?["pageInfo"]
                    if case .cursor = kind, let sent = variables["after"], info?["endCursor"] == sent,
                        info?["hasNextPage"] == .bool(true)
                    {
                        throw Self.unpageable(request.operation)
                    }
                    let items = current.items ?? []
                    // The same items again at the next offset: the query does not take $offset (AEM ignores a
                    // variable a query does not declare) and would answer this page forever.
                    if case .offset = kind, !items.isEmpty, items == previous {
                        throw Self.unpageable(request.operation)
                    }
                    previous = items
                    for item in items { continuation.yield(item) }
                    fetched += items.count
                    if showProgress {
                        FileHandle.standardError.write(Data("\rcontent: \(fetched) items in \(pages) pages".utf8))
                    }
                    switch kind {
                    case .cursor:
                        guard info?["hasNextPage"] == .bool(true), let cursor = info?["endCursor"]?.stringValue else {
                            break paging
                        }
                        variables["after"] = .string(cursor)
                    case .offset:
                        guard items.count >= size else { break paging }
                        variables["offset"] = .number(JSONNumber(fetched))
                    }
                    try Task.checkCancellation()
                    guard let next = try await page(request, variables: variables) else {
                        throw AEMError(
                            kind: .malformedResponse, description: "page \(pages + 1) of \(request.operation) failed")
                    }
                    current = next
                    pages += 1
                }
                if showProgress { FileHandle.standardError.write(Data("\n".utf8)) }
                continuation.finish()
            } catch {
                continuation.finish(throwing: error)
            }
        }
        continuation.onTermination = { _ in producer.cancel() }
        let origin = base
        return ContentResult(
            body: .items(stream),
            metadata: .init(itemTransform: { ImageReference.addURLs($0, base: origin) })
        )
    }
}
