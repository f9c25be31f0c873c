/// Items as compact JSON text, back to back in one buffer: what one thread reads and another turns into values.
///
/// Building a ``JSONValue`` allocates for every object and long string, and memory allocated on one thread
/// and freed on another defeats the allocator's per-thread caches. A batch is one growing buffer, so the
/// reading thread allocates almost nothing, and the values are built, used and freed on the thread that
/// renders them.
public struct JSONItemBatch: Sendable {
    private var bytes: [UInt8] = []
    private var ends: [Int] = []
    private let maxDepth: Int

    /// An empty batch.
    ///
    /// - Parameter maxDepth: How deeply values may nest, as for the reader that fills it.
    public init(maxDepth: Int = 512) {
        self.maxDepth = maxDepth
        bytes.reserveCapacity(1 << 16)
    }

    /// How many items the batch holds.
    public var count: Int { ends.count }

    /// Reads the next item of `reader` into the batch (only what its `keeping` paths read).
    ///
    /// - Returns: Whether there was an item; `false` after the last.
    /// - Throws: ``JSONItemReaderError``, as ``JSONItemReader/next()`` would.
    public mutating func append(from reader: inout JSONItemReader) throws(JSONItemReaderError) -> Bool {
        guard try reader.nextEncoded(into: &bytes) else { return false }
        ends.append(bytes.count)
        return true
    }

    /// Calls `body` with the JSON text of the item at `position`, for readers that need only parts of it.
    ///
    /// - Parameters:
    ///   - position: The item's position in the batch.
    ///   - body: What to do with the text; it must not keep the buffer.
    /// - Returns: What `body` returns.
    public func withText<Result>(at position: Int, _ body: (UnsafeRawBufferPointer) throws -> Result) rethrows
        -> Result
    {
        let range = textRange(at: position)
        return try bytes.withUnsafeBytes { raw in try body(UnsafeRawBufferPointer(rebasing: raw[range])) }
    }

    /// The item at `position`: the value ``JSONItemReader/next()`` would have returned.
    ///
    /// - Throws: ``JSONParseError`` only if the text is not JSON, which the reader has already ruled out.
    public func item(at position: Int) throws(JSONParseError) -> JSONValue {
        let range = textRange(at: position)
        var failure: JSONParseError?
        // An optional and a separate error rather than a Result, so nothing generic is looked up per item.
        let value: JSONValue? = bytes.withUnsafeBytes { raw in
            var reader = JSONReader(bytes: UnsafeRawBufferPointer(rebasing: raw[range]), maxDepth: maxDepth)
            reader.trustsUTF8 = true
            do throws(JSONParseError) {
                return try reader.parseDocument()
            } catch {
                failure = error
                return nil
            }
        }
        guard let value else { throw failure ?? JSONParseError(offset: 0, line: 1, column: 1, message: "no item") }
        return value
    }

    /// Where the item at `position` is in `bytes`.
    private func textRange(at position: Int) -> Range<Int> {
        (position == 0 ? 0 : ends[position - 1])..<ends[position]
    }
}
