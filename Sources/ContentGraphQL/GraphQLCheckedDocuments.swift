package import GraphQL
internal import Synchronization

/// Request texts already parsed and validated against one schema, so a client that sends the same query again (an
/// app's ad-hoc queries are a handful of texts sent over and over) is not parsed and validated again.
///
/// Only documents that passed are kept: a refusal is answered from the text each time, so a client cannot fill the
/// cache with errors. What is kept is bounded by count and by the texts' total size, whatever clients send (a parsed
/// document holds every token of its text, a few hundred bytes each, so the bytes bound its memory too); when a new
/// document would pass either bound the oldest are dropped first. The schema never changes for the life of a
/// cache, so nothing kept goes stale. With each document the cache keeps what a service prepares from it once (a
/// plan, say).
package final class GraphQLCheckedDocuments<Prepared: Sendable>: Sendable {
    /// A document that passed, and what was prepared from it.
    package struct Checked: Sendable {
        package let document: Document
        package let prepared: Prepared

        /// A document and what was prepared from it (a test may pair one with nothing prepared).
        package init(document: Document, prepared: Prepared) {
            self.document = document
            self.prepared = prepared
        }
    }

    private let prepare: @Sendable (Document) -> Prepared
    private let schema: GraphQLSchema
    private let limits: GraphQLLimits
    private let rules: [@Sendable (ValidationContext) -> Visitor]
    private let maximumCount: Int
    private let maximumBytes: Int
    private let kept = Mutex(Kept())

    private struct Kept {
        /// Documents by text, and the texts in the order they were kept: the first is dropped first.
        var documents: [String: Checked] = [:]
        var order: [String] = []
        var start = 0
        var bytes = 0
    }

    /// A cache for requests against `schema`.
    ///
    /// - Parameters:
    ///   - schema: The schema documents are validated against.
    ///   - limits: The server's limits, applied as ``GraphQLSource/request(_:schema:limits:rules:)`` applies them.
    ///   - rules: The validation rules.
    ///   - maximumCount: How many documents are kept at most.
    ///   - maximumBytes: How many bytes of text are kept at most.
    ///   - prepare: What to make once from each document that passes.
    package init(
        schema: GraphQLSchema, limits: GraphQLLimits,
        rules: [@Sendable (ValidationContext) -> Visitor] = specifiedRules,
        maximumCount: Int = 128, maximumBytes: Int = 512 << 10,
        prepare: @escaping @Sendable (Document) -> Prepared
    ) {
        self.prepare = prepare
        self.schema = schema
        self.limits = limits
        self.rules = rules
        self.maximumCount = max(1, maximumCount)
        self.maximumBytes = max(0, maximumBytes)
    }

    /// The checked document for a request's text: the kept one, or the text parsed and validated now.
    ///
    /// - Parameter text: The query text.
    /// - Returns: What ``GraphQLSource/request(_:schema:limits:rules:)`` returns for it, with what was prepared.
    package func request(_ text: String) -> Result<Checked, GraphQLRequestErrors> {
        if let known = kept.withLock({ $0.documents[text] }) { return .success(known) }
        let checked = GraphQLSource.request(text, schema: schema, limits: limits, rules: rules).map {
            Checked(document: $0, prepared: prepare($0))
        }
        if case .success(let document) = checked { keep(document, for: text) }
        return checked
    }

    /// How many documents are kept now.
    package var count: Int { kept.withLock { $0.documents.count } }

    private func keep(_ document: Checked, for text: String) {
        let size = text.utf8.count
        guard size <= maximumBytes else { return }
        kept.withLock { kept in
            guard kept.documents[text] == nil else { return }
            while kept.documents.count >= maximumCount || kept.bytes + size > maximumBytes,
                kept.start < kept.order.count
            {
                let oldest = kept.order[kept.start]
                kept.start += 1
                if kept.documents.removeValue(forKey: oldest) != nil { kept.bytes -= oldest.utf8.count }
            }
            // The dropped texts' slots are reclaimed once they are half the list, so it stays within twice the count.
            if kept.start > 0, kept.start * 2 >= kept.order.count {
                kept.order.removeFirst(kept.start)
                kept.start = 0
            }
            kept.documents[text] = document
            kept.order.append(text)
            kept.bytes += size
        }
    }
}
