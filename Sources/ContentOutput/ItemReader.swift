public import ContentJSON

/// Hands out items one at a time, synchronously: a streaming reader over a file or pipe.
public protocol ItemReader {
    /// The next item, or `nil` after the last.
    ///
    /// - Returns: The item.
    /// - Throws: Why reading failed.
    mutating func next() throws -> JSONValue?
}

extension JSONItemReader: ItemReader {}

/// A reader that can also hand out each item as its JSON text.
///
/// CSV with `--fields` needs a few members of each item: found in the text with a ``JSONTextProjection``,
/// they are written without the item ever being built. A caller may mix ``next()`` and ``nextText(_:)``.
public protocol ItemTextReader: ItemReader {
    /// Calls `body` with the next item's JSON text.
    ///
    /// Not generic, so a call through `any ItemTextReader` looks up no metadata: it runs once per item.
    ///
    /// - Parameter body: What to do with the text; it must not keep the buffer.
    /// - Returns: Whether there was an item; `false` after the last (without calling `body`).
    /// - Throws: Why reading failed, or what `body` threw.
    mutating func nextText(_ body: (UnsafeRawBufferPointer) throws -> Void) throws -> Bool

    /// Finds `projection`'s paths in the next item and calls `body` with the item's text, which the projection's
    /// slices are relative to.
    ///
    /// A reader of the input itself finds them in the one pass that reads the item; the default locates them in
    /// the text ``nextText(_:)`` gives.
    ///
    /// - Parameters:
    ///   - projection: The paths to find.
    ///   - body: What to do with the text and the projection; it must not keep the buffer.
    /// - Returns: Whether there was an item; `false` after the last (without calling `body`).
    /// - Throws: Why reading failed, where the item is not JSON, or what `body` threw.
    mutating func nextLocated(
        _ projection: inout JSONTextProjection, _ body: (UnsafeRawBufferPointer, JSONTextProjection) throws -> Void
    ) throws -> Bool
}

extension ItemTextReader {
    /// Locates the paths in the text of ``nextText(_:)``.
    ///
    /// - Parameters:
    ///   - projection: The paths to find.
    ///   - body: What to do with the text and the projection; it must not keep the buffer.
    /// - Returns: Whether there was an item.
    /// - Throws: Why reading failed, where the item is not JSON, or what `body` threw.
    public mutating func nextLocated(
        _ projection: inout JSONTextProjection, _ body: (UnsafeRawBufferPointer, JSONTextProjection) throws -> Void
    ) throws -> Bool {
        try nextText { text in
            try projection.locate(in: text)
            try body(text, projection)
        }
    }
}
