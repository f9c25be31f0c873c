internal import ContentJSON
internal import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// `content format` of a large file as CSV or TSV with `--fields`, split between two cores by position in the file.
///
/// Reading is the slow part, and it cannot be shared out item by item: where an item ends is only known by reading
/// it. So a second thread starts at an item near the middle of the file and reads and renders the items from there
/// to the end, keeping its rows in memory, while this thread does the items before it; then its rows follow. Where
/// that item starts is guessed (an object after `},` near the middle), and used only once reading from the start
/// arrives exactly there between two items. A wrong guess, a failure past it, or more than ``rowMemoryLimit`` of
/// rows, and this thread simply reads on from there itself. The output, and any error and its position, are the
/// same as from one thread.
final class SplitItemRendering: Sendable {
    /// Files smaller than this are read by one thread: the second would barely have started.
    static let minimumSize = 16 << 20
    /// The most the second thread's rows may hold before it gives up (and this thread reads on alone).
    static let rowMemoryLimit = 24 << 20

    /// Where the second thread starts: the first byte of an item.
    let offset: Int
    private let settings: OutputSettings
    private let source: String
    private let outcome = SecondHalfOutcome()

    /// Starts the second thread, unless the split does not apply: a small file, another format, no `--fields`,
    /// one core, or no likely item start near the middle.
    ///
    /// - Parameters:
    ///   - reader: The reader of the whole file, started and inside the items array.
    ///   - path: The file.
    ///   - size: Its size.
    ///   - settings: How to render.
    ///   - minimumSize: The smallest file to split.
    init?(
        after reader: inout JSONItemReader, path: String, size: Int, settings: OutputSettings,
        minimumSize: Int = SplitItemRendering.minimumSize
    ) {
        guard size >= minimumSize, ProcessInfo.processInfo.activeProcessorCount >= 2,
            let rows = DelimitedRowWriter(settings: settings), let first = reader.nextItemOffset(),
            let offset = Self.likelyItemStart(in: path, near: size / 2, beginningLike: first)
        else { return nil }
        self.offset = offset
        self.settings = settings
        self.source = path
        let outcome = outcome
        let handover = ReaderHandover(reader)
        Thread.detachNewThread {
            Thread.current.name = "content-split"
            // Opened here, not before: the first thread starts on its items meanwhile.
            guard let input = try? FileDescriptorInput(opening: path, at: offset),
                let secondHalf = handover.reader.resuming(at: offset, from: input)
            else {
                outcome.finish(nil)
                return
            }
            outcome.finish(Self.render(secondHalf, rows: rows, until: outcome))
        }
    }

    /// Renders the items before ``offset`` here, then the second thread's rows, or the rest here when those are not
    /// to be used.
    ///
    /// - Parameter reader: The reader of the whole file (the one given to `init`).
    /// - Throws: What rendering the whole file on one thread would throw.
    func render(firstHalf reader: JSONItemReader) async throws {
        let itemsPath = settings.itemsPath
        let firstHalf = StoppingReader(reader, at: offset, source: source, itemsPath: itemsPath) { [outcome] in
            outcome.cancel()
        }
        do {
            try await printItems(firstHalf, settings: settings)
        } catch {
            outcome.cancel()
            throw error
        }
        guard firstHalf.reachedOffset else {
            // The guess was not an item start: this thread has read everything.
            outcome.cancel()
            return
        }
        FileDescriptorSink.ignoreBrokenPipeSignal()
        var sink = FileDescriptorSink()
        do {
            if let rows = outcome.wait() {
                try sink.write(rows)
            } else if var writer = DelimitedRowWriter(settings: settings) {
                // The second thread failed or gave up: read on from the same place, which puts any error where
                // one thread would.
                var reader = firstHalf.reader
                var count = 0
                while try Self.writeRow(&writer, ofNextItemIn: &reader, to: &sink, source: source, itemsPath: itemsPath)
                {
                    count += 1
                    if count % 1024 == 0 { try Task.checkCancellation() }
                }
            }
            try sink.flush()
        } catch OutputError.brokenPipe {
            return
        } catch {
            try? sink.flush()
            throw error
        }
    }

    /// Where an item likely starts near `middle`: the first `{` after `}` and `,` (whitespace aside) from there on
    /// that begins with the same bytes as the item at `first`, up to the colon after its first member name; failing
    /// that, the first such `{` at all.
    ///
    /// Items of one list mostly begin alike, and those bytes (a brace, then a quote) cannot occur inside a string,
    /// so what they find is an item unless objects nested in items begin like items do.
    static func likelyItemStart(in path: String, near middle: Int, beginningLike first: Int) -> Int? {
        let descriptor = open(path, O_RDONLY)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var head = [UInt8](repeating: 0, count: 64)
        let headCount = head.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, $0.count, off_t(first)) }
        let signature = head.prefix(max(0, headCount)).firstIndex(of: UInt8(ascii: ":")).map { head[...$0] } ?? []
        var window = [UInt8](repeating: 0, count: 1 << 18)
        let count = window.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, $0.count, off_t(middle)) }
        guard count > 0 else { return nil }
        func isWhitespace(_ byte: UInt8) -> Bool {
            byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\n") || byte == UInt8(ascii: "\r")
                || byte == UInt8(ascii: "\t")
        }
        var fallback: Int?
        var index = 0
        while index < count {
            defer { index += 1 }
            guard window[index] == UInt8(ascii: "}") else { continue }
            var next = index + 1
            while next < count, isWhitespace(window[next]) { next += 1 }
            guard next < count, window[next] == UInt8(ascii: ",") else { continue }
            next += 1
            while next < count, isWhitespace(window[next]) { next += 1 }
            guard next < count, window[next] == UInt8(ascii: "{") else { continue }
            if next + signature.count <= count, window[next..<(next + signature.count)].elementsEqual(signature) {
                return middle + next
            }
            if fallback == nil { fallback = middle + next }
        }
        return fallback
    }

    /// The second thread: rows of every item from the reader's start to the end of the input, or `nil` when it
    /// fails, is cancelled or the rows outgrow ``rowMemoryLimit``.
    private static func render(_ reader: JSONItemReader, rows: DelimitedRowWriter, until outcome: SecondHalfOutcome)
        -> [UInt8]?
    {
        var reader = reader
        var rows = rows
        var sink = MemorySink()
        do {
            while !outcome.isCancelled, sink.bytes.count <= rowMemoryLimit {
                guard try rows.writeRow(ofNextItemIn: &reader, to: &sink) else { return sink.bytes }
            }
        } catch {
            // This thread's errors are never shown: the first thread reads on and meets the same one in its place.
        }
        return nil
    }

    /// The row of the next item, with failures as `content format` reports them.
    private static func writeRow(
        _ writer: inout DelimitedRowWriter, ofNextItemIn reader: inout JSONItemReader, to sink: inout some OutputSink,
        source: String, itemsPath: JSONPath?
    ) throws -> Bool {
        try JSONInput.reportingFailures(source: source, itemsPath: itemsPath) {
            try writer.writeRow(ofNextItemIn: &reader, to: &sink)
        }
    }
}

/// Hands a reader to the second thread, the only place it is used after that.
private final class ReaderHandover: @unchecked Sendable {
    let reader: JSONItemReader

    init(_ reader: JSONItemReader) {
        self.reader = reader
    }
}

/// The second thread's rows, once it is done, and whether it should stop.
///
/// Every field is used with `condition` locked, hence `@unchecked Sendable`.
private final class SecondHalfOutcome: @unchecked Sendable {
    private let condition = NSCondition()
    private var rows: [UInt8]?
    private var finished = false
    private var cancelled = false

    var isCancelled: Bool {
        condition.lock()
        defer { condition.unlock() }
        return cancelled
    }

    func cancel() {
        condition.lock()
        cancelled = true
        condition.unlock()
    }

    func finish(_ rows: [UInt8]?) {
        condition.lock()
        self.rows = rows
        finished = true
        condition.broadcast()
        condition.unlock()
    }

    /// Waits for the second thread: its rows, or `nil` when they are not to be used.
    func wait() -> [UInt8]? {
        condition.lock()
        defer { condition.unlock() }
        while !finished { condition.wait() }
        return rows
    }
}

/// The items of the first stretch: the reader's items until it arrives at `offset`, where it stops, or all of them
/// when it passes `offset` between items without an item starting there.
private final class StoppingReader: ItemTextReader {
    /// The items, with failures as `content format` reports them.
    private var items: JSONInput.ReportingReader
    private let offset: Int
    private let passed: () -> Void
    private var watching = true
    /// Whether the reader stopped at `offset`, the next item starting there.
    private(set) var reachedOffset = false

    /// The reader, where it stopped.
    var reader: JSONItemReader { items.reader }

    init(
        _ reader: JSONItemReader, at offset: Int, source: String, itemsPath: JSONPath?,
        passed: @escaping () -> Void
    ) {
        items = JSONInput.ReportingReader(reader: reader, source: source, itemsPath: itemsPath)
        self.offset = offset
        self.passed = passed
    }

    /// Whether to stop before the next item.
    private func stopsHere() -> Bool {
        guard watching, let next = items.reader.nextItemOffset() else { return false }
        if next == offset {
            reachedOffset = true
            return true
        }
        if next > offset {
            watching = false
            passed()
        }
        return false
    }

    func next() throws -> JSONValue? {
        if stopsHere() { return nil }
        return try items.next()
    }

    func nextText(_ body: (UnsafeRawBufferPointer) throws -> Void) throws -> Bool {
        if stopsHere() { return false }
        return try items.nextText(body)
    }

    func nextLocated(
        _ projection: inout JSONTextProjection, _ body: (UnsafeRawBufferPointer, JSONTextProjection) throws -> Void
    ) throws -> Bool {
        if stopsHere() { return false }
        return try items.nextLocated(&projection, body)
    }
}
