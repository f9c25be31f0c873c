/// Where a ``JSONItemReader`` gets its bytes: a file, a pipe, memory.
public protocol JSONByteInput {
    /// Reads up to `buffer.count` bytes into the start of `buffer`.
    ///
    /// - Parameter buffer: Where to put the bytes.
    /// - Returns: How many bytes were read; 0 only at the end of the input.
    /// - Throws: A description of why reading failed.
    mutating func read(into buffer: UnsafeMutableRawBufferPointer) throws(JSONInputReadError) -> Int

    /// Whether ``restarted()`` can read the same bytes again: a file can, a pipe cannot.
    var isRestartable: Bool { get }

    /// A fresh input over the same bytes from the start (to find the line of an error without counting
    /// lines all along); `nil` when that is impossible.
    func restarted() -> Self?

    /// Whether a read now would return at once rather than wait for a writer (a file always would; a
    /// pipe only when bytes are waiting). The reader reads ahead only then, so live items are never held.
    func hasBytesReady() -> Bool
}

extension JSONByteInput {
    /// Unknown, so no reading ahead.
    public func hasBytesReady() -> Bool { false }
}

extension JSONByteInput {
    /// ``restarted()`` as an existential.
    func restartedInput() -> (any JSONByteInput)? { restarted() }
}

/// Reading the input failed (not malformed JSON: the file or pipe itself).
public struct JSONInputReadError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What failed, such as "read failed: Is a directory".
    public var description: String

    /// Creates an error.
    ///
    /// - Parameter description: What failed.
    public init(_ description: String) {
        self.description = description
    }
}

/// Bytes in memory as an input; `chunkSize` caps each read, to exercise refills in tests.
public struct JSONMemoryInput: JSONByteInput {
    private let bytes: [UInt8]
    private let chunkSize: Int
    private var position = 0

    /// Creates an input over bytes.
    ///
    /// - Parameters:
    ///   - bytes: The input.
    ///   - chunkSize: The most one read returns.
    public init(_ bytes: [UInt8], chunkSize: Int = .max) {
        self.bytes = bytes
        self.chunkSize = max(1, chunkSize)
    }

    /// Copies the next bytes.
    public mutating func read(into buffer: UnsafeMutableRawBufferPointer) -> Int {
        let count = min(buffer.count, chunkSize, bytes.count - position)
        guard count > 0, let destination = buffer.baseAddress else { return 0 }
        bytes.withUnsafeBytes { source in
            if let base = source.baseAddress { destination.copyMemory(from: base + position, byteCount: count) }
        }
        position += count
        return count
    }

    /// Memory can always be read again.
    public var isRestartable: Bool { true }

    /// Memory never waits.
    public func hasBytesReady() -> Bool { true }

    /// The same bytes from the start.
    public func restarted() -> JSONMemoryInput? {
        JSONMemoryInput(bytes, chunkSize: chunkSize)
    }
}

/// Why a ``JSONItemReader`` stopped.
public enum JSONItemReaderError: Error, Sendable, Hashable {
    /// The input is not JSON; the error has the byte offset, line and column in the whole input.
    case malformed(JSONParseError)
    /// No value at the items path; `available` are the member names where the path stopped matching.
    case itemsNotFound(available: [String])
    /// The input holds no JSON value at all.
    case empty
    /// The file or pipe could not be read.
    case input(JSONInputReadError)
}

/// Reads the items of a JSON input one at a time, in constant memory however large the input is.
///
/// The input is one or more JSON values (a document, or NDJSON). In each value the items are at
/// `itemsPath` (the value itself when there is none): an array's elements, or the value as one item.
/// Everything before and after the items is validated and skipped; inside each item, members no
/// `keeping` path reads are validated and skipped too, so a `--fields` projection never builds the
/// rich text it does not print. Memory is one read buffer plus the largest single item.
///
/// ```swift
/// var reader = JSONItemReader(input: JSONMemoryInput(bytes), itemsPath: path, keeping: [titlePath])
/// if case .items = try reader.start() {
///     while let item = try reader.next() { print(item) }
/// }
/// ```
///
/// When the path passes through several objects with the same member name, the first one is followed
/// (a whole-document read would take the last).
public struct JSONItemReader {
    /// What the input turned out to hold.
    public enum Start: Sendable, Hashable {
        /// Items, to be read with ``JSONItemReader/next()``.
        case items
        /// A single value that is not a list of items (one document whose items path leads to an object,
        /// say): render it as a whole.
        case value(JSONValue)
    }

    private enum Mode {
        /// Between values of the input: the next one is navigated when asked for.
        case betweenValues
        /// Inside the items array of a value, `depth` deep, below `enclosing` objects.
        case array(depth: Int, enclosing: Int, first: Bool)
        /// Items already in memory (a path through an array, or a value after the first).
        case buffered([JSONValue], next: Int)
        case finished
    }

    // An existential, not a generic parameter, so the reader is compiled (and optimised) once, here.
    private var input: any JSONByteInput
    private let steps: [JSONPath.Component]
    private let keep: JSONKeepTree?
    private let maxDepth: Int
    private var mode = Mode.betweenValues

    // The window: `storage[0..<filled]` holds the input from offset `base`; `position` is the cursor.
    private var storage: [UInt8]
    private var filled = 0
    private var position = 0
    private var base = 0
    private var isFinal = false
    // Line feeds before the window, and where the line at the window's start began, for error positions.
    private var linesBeforeWindow = 0
    private var lineStartBeforeWindow = 0

    /// Creates a reader.
    ///
    /// - Parameters:
    ///   - input: Where the bytes come from.
    ///   - itemsPath: Where the items are in each value; `nil` for the value itself.
    ///   - keeping: The paths each item is read for (`--fields`); `nil` keeps whole items.
    ///   - bufferSize: The read size (256 KiB: reading into it and skipping through it stay within a core's L2
    ///     cache); the buffer grows past it only for an item that is larger.
    ///   - maxDepth: How deeply arrays and objects may nest, as in ``JSONParser``.
    public init(
        input: some JSONByteInput, itemsPath: JSONPath?, keeping: [JSONPath]?, bufferSize: Int = 1 << 18,
        maxDepth: Int = 512
    ) {
        self.input = input
        self.steps = itemsPath?.components ?? []
        self.keep = keeping.map { JSONKeepTree(paths: $0) }
        self.maxDepth = maxDepth
        self.storage = [UInt8](repeating: 0, count: max(16, bufferSize))
    }

    /// Reads up to the first item, or the whole input when it is a single value that is not a list.
    ///
    /// - Returns: ``Start/items``, or the single value.
    /// - Throws: ``JSONItemReaderError``.
    public mutating func start() throws(JSONItemReaderError) -> Start {
        guard try skipToValue() else { throw .empty }
        switch try navigate() {
        case .array:
            return .items
        case .value(let value):
            guard try skipToValue() else {
                // An array found through an index step is still a list of items.
                if case .array(let elements) = value {
                    mode = .buffered(elements, next: 0)
                    return .items
                }
                mode = .finished
                return .value(value)
            }
            mode = .buffered(Self.items(of: value), next: 0)
            return .items
        }
    }

    /// Where the next item starts in the input (its first byte), without reading it.
    ///
    /// `nil` when the cursor is not before an item of an array being read. Lets a caller that expects an item at
    /// some offset tell when this reader gets there.
    public mutating func nextItemOffset() -> Int? {
        guard case .array(_, _, let first) = mode else { return nil }
        return try? attempt { skipper throws(JSONSkipFailure) -> Int? in
            let start = skipper.index
            defer { skipper.index = start }
            var byte = try skipper.peekAfterWhitespace("expected a JSON value")
            if !first {
                guard byte == UInt8(ascii: ",") else { return nil }
                skipper.index += 1
                byte = try skipper.peekAfterWhitespace("expected a JSON value")
            }
            guard byte != UInt8(ascii: "]") else { return nil }
            return skipper.index
        }.map { base + $0 }
    }

    /// A reader that reads on from `offset`, where an item of this reader's array begins, as this reader would.
    ///
    /// `input` holds this reader's input from `offset` on; the new reader reads that item and everything after it
    /// as this reader would once there. `nil` unless this reader is inside an array of items.
    ///
    /// Only the caller can know that an item begins at `offset` (this reader's ``nextItemOffset()`` saying so
    /// when it gets there); from anywhere else the new reader reads nonsense or fails. Its errors give offsets
    /// in the whole input but lines only when `input` can be restarted from the whole input's start.
    ///
    /// - Parameters:
    ///   - offset: Where `input` starts in this reader's input.
    ///   - input: The bytes from `offset` on.
    /// - Returns: The reader, or `nil`.
    public func resuming(at offset: Int, from input: some JSONByteInput) -> JSONItemReader? {
        guard case .array(let depth, let enclosing, _) = mode else { return nil }
        var reader = self
        reader.input = input
        reader.mode = .array(depth: depth, enclosing: enclosing, first: true)
        reader.storage = [UInt8](repeating: 0, count: storage.count)
        reader.filled = 0
        reader.position = 0
        reader.base = offset
        reader.isFinal = false
        reader.linesBeforeWindow = 0
        reader.lineStartBeforeWindow = 0
        return reader
    }

    /// The next item, or `nil` after the last.
    ///
    /// - Throws: ``JSONItemReaderError``.
    public mutating func next() throws(JSONItemReaderError) -> JSONValue? {
        try nextItem(
            reading: { skipper, keep, depth throws(JSONSkipFailure) in
                try skipper.readValue(keeping: keep, depth: depth)
            },
            taking: { $0 })
    }

    /// Appends the next item to `output` as compact JSON text (only what `keeping` reads), building no values.
    ///
    /// - Parameter output: Where the text goes, after what it holds already.
    /// - Returns: Whether there was an item.
    /// - Throws: ``JSONItemReaderError``.
    public mutating func nextEncoded(into output: inout [UInt8]) throws(JSONItemReaderError) -> Bool {
        let start = output.count
        let found: Bool? = try nextItem(
            reading: { skipper, keep, depth throws(JSONSkipFailure) in
                // A value cut short by the window is read again from its start: drop what the try wrote.
                output.removeSubrange(start...)
                try skipper.copyValue(keeping: keep, depth: depth, into: &output)
                return true
            },
            taking: { value in
                value.write(to: &output)
                return true
            })
        return found ?? false
    }

    /// Finds the paths of `projection` in the next item, then calls `body` with the item's text, to which the
    /// projection's slices are relative.
    ///
    /// An item of the array being streamed is located where it lies in the read buffer, copying and building
    /// nothing: ``nextEncoded(into:)`` and ``JSONTextProjection/locate(in:)`` in one pass over the item, the way
    /// rows of CSV are read from a large input. An item already in memory (of a value after the first, or past a
    /// path through an array) is written out as text and located there.
    ///
    /// - Parameters:
    ///   - projection: The paths to find; its ``JSONTextProjection/slices`` are the item's when `body` runs.
    ///   - body: What to do with the item's text and the projection; it must not keep the buffer.
    /// - Returns: Whether there was an item; `false` after the last (without calling `body`).
    /// - Throws: ``JSONItemReaderError`` as ``next()`` would throw it, or what `body` throws; a ``JSONParseError``
    ///   only as a safeguard, should the text written for an item already in memory not read back.
    public mutating func nextItem(
        locating projection: inout JSONTextProjection,
        _ body: (UnsafeRawBufferPointer, JSONTextProjection) throws -> Void
    ) throws -> Bool {
        // A value already in memory (after a path through an array, say) is written out to be located.
        var written: [UInt8] = []
        let found: Range<Int>?? = try nextItem(
            reading: { skipper, _, depth throws(JSONSkipFailure) in
                let start = skipper.index
                try projection.locate(&skipper, depth: depth)
                return start..<skipper.index
            },
            taking: { value in
                value.write(to: &written)
                return nil
            })
        guard let found else { return false }
        if let range = found {
            try storage.withUnsafeBytes { raw in try body(UnsafeRawBufferPointer(rebasing: raw[range]), projection) }
        } else {
            try written.withUnsafeBytes { text in
                // Under the reader's limit, which the value was read under.
                try projection.locate(in: text, maxDepth: maxDepth)
                try body(text, projection)
            }
        }
        return true
    }

    /// The next item, read from the window by `read` or taken from a value already in memory by `take`.
    private mutating func nextItem<Item>(
        reading read: (inout JSONSkipper, JSONKeepTree?, Int) throws(JSONSkipFailure) -> Item,
        taking take: (JSONValue) -> Item
    ) throws(JSONItemReaderError) -> Item? {
        while true {
            switch mode {
            case .finished:
                return nil
            case .buffered(let values, let next):
                if next < values.count {
                    mode = .buffered(values, next: next + 1)
                    return take(values[next])
                }
                mode = .betweenValues
            case .betweenValues:
                guard try skipToValue() else {
                    mode = .finished
                    return nil
                }
                if case .value(let value) = try navigate() { mode = .buffered(Self.items(of: value), next: 0) }
            case .array(let depth, let enclosing, let first):
                let keep = self.keep
                let item: Item? = try attempt { skipper throws(JSONSkipFailure) in
                    let byte = try skipper.peekAfterWhitespace(
                        first ? "expected a JSON value" : "expected ',' or ']' in an array")
                    if byte == UInt8(ascii: "]") {
                        skipper.index += 1
                        return nil
                    }
                    if !first {
                        guard byte == UInt8(ascii: ",") else {
                            throw skipper.malformed(
                                "expected ',' or ']' after an array element, found \(skipper.describeCurrent())")
                        }
                        skipper.index += 1
                        skipper.skipWhitespace()
                    }
                    return try read(&skipper, keep, depth)
                }
                guard let item else {
                    try closeObjects(enclosing)
                    mode = .betweenValues
                    continue
                }
                mode = .array(depth: depth, enclosing: enclosing, first: false)
                return item
            }
        }
    }

    private static func items(of value: JSONValue) -> [JSONValue] {
        if case .array(let elements) = value { return elements }
        return [value]
    }

    // MARK: - Navigating one value to its items

    private enum Navigation {
        /// The cursor is inside the items array, before its first element.
        case array
        /// The value at the path (the rest of the input value is already read).
        case value(JSONValue)
    }

    /// Follows the items path through one input value, starting on its first byte.
    private mutating func navigate() throws(JSONItemReaderError) -> Navigation {
        var depth = 0
        for (stepIndex, step) in steps.enumerated() {
            let name: String
            if case .member(let member) = step { name = member } else { name = "" }
            let isObject = try attempt { skipper throws(JSONSkipFailure) in
                try skipper.peekAfterWhitespace("expected a JSON value") == UInt8(ascii: "{")
            }
            if isObject, depth + 1 > maxDepth {
                throw malformed("objects and arrays nest deeper than \(maxDepth)")
            }
            guard case .member = step, isObject else {
                // Arrays and index steps: read this value whole and follow the rest of the path in memory.
                let value = try attempt { skipper throws(JSONSkipFailure) in try skipper.readValue(depth: depth) }
                try closeObjects(depth)
                let rest = JSONPath(Array(steps[stepIndex...]))
                guard let found = value.value(at: rest) else {
                    throw .itemsNotFound(available: value.keys(deepestAlong: rest))
                }
                guard let keep else { return .value(found) }
                if case .array(let elements) = found { return .value(.array(elements.map(keep.prune))) }
                return .value(keep.prune(found))
            }
            depth += 1
            var seen: [String] = []
            var first = true
            while true {
                let key: String? = try attempt { skipper throws(JSONSkipFailure) in
                    if first {
                        skipper.index += 1
                        if try skipper.peekAfterWhitespace("expected a member name in double quotes")
                            == UInt8(ascii: "}")
                        {
                            return nil
                        }
                        return try skipper.readMemberName()
                    }
                    switch try skipper.peekAfterWhitespace("expected ',' or '}' in an object") {
                    case UInt8(ascii: "}"): return nil
                    case UInt8(ascii: ","):
                        skipper.index += 1
                        return try skipper.readMemberName()
                    default:
                        throw skipper.malformed(
                            "expected ',' or '}' after an object member, found \(skipper.describeCurrent())")
                    }
                }
                first = false
                guard let key else { throw .itemsNotFound(available: seen) }
                if key == name { break }
                seen.append(key)
                try attempt { skipper throws(JSONSkipFailure) in try skipper.skipValue(depth: depth) }
            }
        }
        let isArray = try attempt { skipper throws(JSONSkipFailure) in
            try skipper.peekAfterWhitespace("expected a JSON value") == UInt8(ascii: "[")
        }
        guard isArray else {
            let keep = self.keep
            let value = try attempt { skipper throws(JSONSkipFailure) in
                try skipper.readValue(keeping: keep, depth: depth)
            }
            try closeObjects(depth)
            return .value(value)
        }
        guard depth + 1 <= maxDepth else { throw malformed("objects and arrays nest deeper than \(maxDepth)") }
        position += 1
        mode = .array(depth: depth + 1, enclosing: depth, first: true)
        return .array
    }

    /// Reads the rest of the `count` objects the cursor is inside, innermost first.
    private mutating func closeObjects(_ count: Int) throws(JSONItemReaderError) {
        for depth in stride(from: count, to: 0, by: -1) {
            while true {
                let closed = try attempt { skipper throws(JSONSkipFailure) in
                    switch try skipper.peekAfterWhitespace("expected ',' or '}' in an object") {
                    case UInt8(ascii: "}"):
                        skipper.index += 1
                        return true
                    case UInt8(ascii: ","):
                        skipper.index += 1
                        _ = try skipper.readMemberName()
                        try skipper.skipValue(depth: depth)
                        return false
                    default:
                        throw skipper.malformed(
                            "expected ',' or '}' after an object member, found \(skipper.describeCurrent())")
                    }
                }
                if closed { break }
            }
        }
    }

    // MARK: - The window

    /// Skips whitespace up to the next value; `false` at the end of the input.
    private mutating func skipToValue() throws(JSONItemReaderError) -> Bool {
        while true {
            let found = storage.withUnsafeBytes { raw in
                var skipper = JSONSkipper(
                    bytes: UnsafeRawBufferPointer(rebasing: raw[0..<filled]), index: position, isFinal: isFinal)
                skipper.skipWhitespace()
                return (skipper.index, skipper.index < filled)
            }
            position = found.0
            if found.1 { return true }
            if isFinal { return false }
            try refill()
        }
    }

    /// Runs `body` on the window from the cursor, reading more and running it again when it needs more.
    ///
    /// It starts again from the same place each time; the cursor moves only when `body` succeeds.
    private mutating func attempt<Result>(
        _ body: (inout JSONSkipper) throws(JSONSkipFailure) -> Result
    ) throws(JSONItemReaderError) -> Result {
        while true {
            let outcome: Swift.Result<(Result, Int), JSONSkipFailure> = storage.withUnsafeBytes { raw in
                var skipper = JSONSkipper(
                    bytes: UnsafeRawBufferPointer(rebasing: raw[0..<filled]), index: position, isFinal: isFinal,
                    maxDepth: maxDepth)
                do throws(JSONSkipFailure) {
                    let value = try body(&skipper)
                    return .success((value, skipper.index))
                } catch {
                    return .failure(error)
                }
            }
            switch outcome {
            case .success(let (value, end)):
                position = end
                return value
            case .failure(.needMore):
                try refill()
            case .failure(.malformed(let offset, let message)):
                throw malformed(message, atWindowOffset: offset)
            }
        }
    }

    /// Drops the bytes before the cursor, grows the buffer when the cursor's value fills it, and reads.
    private mutating func refill() throws(JSONItemReaderError) {
        guard !isFinal else { return }
        if position > 0 {
            let (end, kept) = (position, filled - position)
            if !input.isRestartable {
                // A pipe cannot be read again to place an error, so count lines as they go by.
                let dropped = storage.withUnsafeBytes { raw in
                    JSONBytes.lineFeeds(in: UnsafeRawBufferPointer(rebasing: raw[0..<end]))
                }
                linesBeforeWindow += dropped.count
                if let start = dropped.lastLineStart { lineStartBeforeWindow = base + start }
            }
            storage.withUnsafeMutableBytes { raw in
                if let start = raw.baseAddress { start.copyMemory(from: start + end, byteCount: kept) }
            }
            base += position
            filled -= position
            position = 0
        }
        // Read until the unfinished value has doubled, while reads do not wait: a value that needs more is
        // skipped again from its start, so reading a pipe's 64 KiB at a time would make a large value
        // quadratic, and waiting for a writer that has paused would hold back the items already complete.
        let wanted = max(1, filled)
        if storage.count - filled < wanted {
            storage.append(contentsOf: repeatElement(0, count: max(storage.count, filled + wanted - storage.count)))
        }
        var input = self.input
        let start = filled
        let result: Swift.Result<Int, JSONInputReadError> = storage.withUnsafeMutableBytes { raw in
            var end = start
            do throws(JSONInputReadError) {
                repeat {
                    let count = try input.read(into: UnsafeMutableRawBufferPointer(rebasing: raw[end...]))
                    if count == 0 { return .success(-(end - start) - 1) }
                    end += count
                } while end - start < wanted && end < raw.count && input.hasBytesReady()
                return .success(end - start)
            } catch {
                return .failure(error)
            }
        }
        self.input = input
        switch result {
        case .success(let count) where count < 0:
            // The end of the input (after `-count - 1` more bytes).
            isFinal = true
            filled += -count - 1
        case .success(let count):
            filled += count
        case .failure(let error):
            throw .input(error)
        }
    }

    private func malformed(_ message: String, atWindowOffset offset: Int? = nil) -> JSONItemReaderError {
        let offset = min(offset ?? position, filled)
        let global = base + offset
        if base > 0, input.isRestartable, var fresh = input.restartedInput(),
            let (line, lineStart) = Self.line(of: global, readingAgain: &fresh)
        {
            return .malformed(
                JSONParseError(offset: global, line: line, column: global - lineStart + 1, message: message))
        }
        var line = linesBeforeWindow + 1
        var lineStart = lineStartBeforeWindow
        storage.withUnsafeBytes { raw in
            let lines = JSONBytes.lineFeeds(in: UnsafeRawBufferPointer(rebasing: raw[0..<offset]))
            line += lines.count
            if let start = lines.lastLineStart { lineStart = base + start }
        }
        return .malformed(JSONParseError(offset: global, line: line, column: global - lineStart + 1, message: message))
    }

    /// The line of an offset and where that line starts, reading the input again from its start.
    private static func line(of offset: Int, readingAgain input: inout any JSONByteInput) -> (Int, Int)? {
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        var read = 0
        var line = 1
        var lineStart = 0
        while read < offset {
            let wanted = min(buffer.count, offset - read)
            let count: Int? = buffer.withUnsafeMutableBytes { raw in
                try? input.read(into: UnsafeMutableRawBufferPointer(rebasing: raw[0..<wanted]))
            }
            guard let count, count > 0 else { return nil }
            let lines = buffer.withUnsafeBytes {
                JSONBytes.lineFeeds(in: UnsafeRawBufferPointer(rebasing: $0[0..<count]))
            }
            line += lines.count
            if let start = lines.lastLineStart { lineStart = read + start }
            read += count
        }
        return (line, lineStart)
    }
}
