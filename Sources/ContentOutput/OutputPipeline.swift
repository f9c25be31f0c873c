public import ContentCore
internal import ContentJSON

/// Renders any ``ContentResult`` in any format: the one place output is produced.
///
/// It finds the items (`--items`, else the backend's path), applies the field selection (`--fields`,
/// else the backend's default columns), and writes each item as it comes. Tabular formats first
/// gather a window of items to learn the columns; JSON and NDJSON write every item at once.
///
/// ```swift
/// var sink = FileDescriptorSink()
/// let summary = try await OutputPipeline(settings: settings).render(result, to: &sink)
/// ```
public struct OutputPipeline: Sendable {
    /// How to render.
    public var settings: OutputSettings
    /// How many items a tabular format looks at to decide its columns and widths.
    public var window: Int

    /// What rendering produced, besides the bytes.
    public struct Summary: Sendable, Equatable {
        /// How many items were written.
        public var itemCount: Int
        /// Problems worth telling the user, such as columns that appeared after the header.
        public var diagnostics: [Diagnostic]
    }

    /// Creates a pipeline.
    ///
    /// - Parameters:
    ///   - settings: How to render.
    ///   - window: How many items tabular formats look at first.
    public init(settings: OutputSettings, window: Int = 1000) {
        self.settings = settings
        self.window = max(1, window)
    }

    /// Renders a result and flushes the sink.
    ///
    /// - Parameters:
    ///   - result: The result.
    ///   - sink: Where the bytes go.
    /// - Returns: What was written.
    /// - Throws: ``OutputError``, or what the result's stream throws.
    public func render(_ result: ContentResult, to sink: inout some OutputSink) async throws -> Summary {
        let summary: Summary
        if settings.raw {
            summary = try await renderRaw(result, to: &sink)
        } else {
            var source = try items(of: result)
            source.transform = result.metadata.itemTransform
            let fields =
                try settings.fields
                ?? (result.metadata.columns.isEmpty ? nil : FieldSelection(columns: result.metadata.columns))
            summary = try await render(&source, fields: fields, to: &sink)
        }
        try sink.flush()
        // A cancelled stream ends like a finished one; an interrupt must not look like success.
        try Task.checkCancellation()
        return summary
    }

    /// Renders items a synchronous reader hands out one at a time, then flushes the sink.
    ///
    /// The reader is a file read in constant memory, say; `--items` and `--raw` are its business, not
    /// applied here.
    ///
    /// - Parameters:
    ///   - reader: Where the items come from.
    ///   - sink: Where the bytes go.
    /// - Returns: What was written.
    /// - Throws: ``OutputError``, or what the reader throws.
    public func render(items reader: some ItemReader, to sink: inout some OutputSink) async throws -> Summary {
        var source = ItemSource(.reader(ItemSource.ReaderBox(reader)))
        let summary = try await render(&source, fields: settings.fields, to: &sink)
        try sink.flush()
        try Task.checkCancellation()
        return summary
    }

    private func render(_ source: inout ItemSource, fields: FieldSelection?, to sink: inout some OutputSink)
        async throws -> Summary
    {
        switch settings.format {
        case .json: return try await renderJSON(&source, fields: fields, to: &sink)
        case .ndjson, .jsonl: return try await renderNDJSON(&source, fields: fields, to: &sink)
        case .csv:
            var renderer = DelimitedRenderer(dialect: .csv, crlf: settings.crlf)
            return try await renderTabular(&source, fields: fields, renderer: &renderer, to: &sink)
        case .tsv:
            var renderer = DelimitedRenderer(dialect: .tsv, crlf: settings.crlf)
            return try await renderTabular(&source, fields: fields, renderer: &renderer, to: &sink)
        case .markdown:
            var renderer = MarkdownRenderer()
            return try await renderTabular(&source, fields: fields, renderer: &renderer, to: &sink)
        case .table:
            if case .single(let raw) = source.origin {
                let item = source.transform.map { $0(raw) } ?? raw
                let cells = RowFlattener().flatten(fields.map { .object($0.project(item)) } ?? item)
                try KeyValueRenderer(settings: settings).render(cells, to: &sink)
                return Summary(itemCount: 1, diagnostics: [])
            }
            var renderer = TableRenderer(settings: settings)
            return try await renderTabular(&source, fields: fields, renderer: &renderer, to: &sink)
        }
    }

    // MARK: - Finding the items

    /// The items of a result: an array's elements, one object, or a stream.
    struct ItemSource {
        enum Origin {
            case single(JSONValue)
            case array([JSONValue], next: Int)
            case stream(AsyncThrowingStream<JSONValue, any Error>.Iterator)
            case reader(ReaderBox)
        }

        /// Holds a reader so reading mutates it in place rather than a copy of its buffer.
        final class ReaderBox {
            var reader: any ItemReader
            var count = 0

            init(_ reader: some ItemReader) {
                self.reader = reader
            }
        }

        var origin: Origin
        var transform: (@Sendable (JSONValue) -> JSONValue)?

        init(_ origin: Origin) {
            self.origin = origin
        }

        mutating func next() async throws -> JSONValue? {
            guard let item = try await nextRaw() else { return nil }
            return transform.map { $0(item) } ?? item
        }

        var isSingle: Bool {
            if case .single = origin { return true }
            return false
        }

        private mutating func nextRaw() async throws -> JSONValue? {
            switch origin {
            case .single(let item):
                origin = .array([], next: 0)
                return item
            case .array(let items, let next):
                guard next < items.count else { return nil }
                if next % 1024 == 0 { try Task.checkCancellation() }
                origin = .array(items, next: next + 1)
                return items[next]
            case .stream(var iterator):
                let item = try await iterator.next()
                origin = .stream(iterator)
                return item
            case .reader(let box):
                box.count += 1
                if box.count % 1024 == 0 { try Task.checkCancellation() }
                return try box.reader.next()
            }
        }
    }

    func items(of result: ContentResult) throws(OutputError) -> ItemSource {
        switch result.body {
        case .items(let stream):
            return ItemSource(.stream(stream.makeAsyncIterator()))
        case .document(let document):
            guard let path = settings.itemsPath ?? result.metadata.itemsPath else {
                return Self.source(for: document)
            }
            guard let value = document.value(at: path) else {
                throw .itemsNotFound(
                    path: path.description, available: document.keys(deepestAlong: path),
                    given: settings.itemsPath != nil)
            }
            return Self.source(for: value)
        }
    }

    private static func source(for value: JSONValue) -> ItemSource {
        if case .array(let elements) = value { return ItemSource(.array(elements, next: 0)) }
        return ItemSource(.single(value))
    }

    // MARK: - Formats

    private func renderRaw(_ result: ContentResult, to sink: inout some OutputSink) async throws -> Summary {
        let writer = JSONWriter(pretty: settings.pretty, color: settings.color)
        var buffer: [UInt8] = []
        switch result.body {
        case .document(let document):
            writer.write(document, to: &buffer)
            buffer.append(UInt8(ascii: "\n"))
            try sink.write(buffer)
            return Summary(itemCount: 1, diagnostics: [])
        case .items(let stream):
            var count = 0
            for try await item in stream {
                buffer.removeAll(keepingCapacity: true)
                JSONWriter(pretty: false, color: settings.color).write(item, to: &buffer)
                buffer.append(UInt8(ascii: "\n"))
                try sink.write(buffer)
                count += 1
            }
            return Summary(itemCount: count, diagnostics: [])
        }
    }

    private func renderJSON(_ source: inout ItemSource, fields: FieldSelection?, to sink: inout some OutputSink)
        async throws -> Summary
    {
        let writer = JSONWriter(pretty: settings.pretty, color: settings.color)
        var buffer: [UInt8] = []
        if source.isSingle, let item = try await source.next() {
            writer.write(fields.map { .object($0.project(item)) } ?? item, to: &buffer)
            buffer.append(UInt8(ascii: "\n"))
            try sink.write(buffer)
            return Summary(itemCount: 1, diagnostics: [])
        }
        var count = 0
        try sink.write("[")
        while let item = try await source.next() {
            buffer.removeAll(keepingCapacity: true)
            if count > 0 { buffer.append(UInt8(ascii: ",")) }
            if settings.pretty { buffer.append(contentsOf: "\n  ".utf8) }
            writer.write(fields.map { .object($0.project(item)) } ?? item, level: 1, to: &buffer)
            try sink.write(buffer)
            count += 1
        }
        try sink.write(settings.pretty && count > 0 ? "\n]\n" : "]\n")
        return Summary(itemCount: count, diagnostics: [])
    }

    private func renderNDJSON(_ source: inout ItemSource, fields: FieldSelection?, to sink: inout some OutputSink)
        async throws -> Summary
    {
        var buffer: [UInt8] = []
        var count = 0
        while let item = try await source.next() {
            buffer.removeAll(keepingCapacity: true)
            (fields.map { .object($0.project(item)) } ?? item).write(to: &buffer)
            buffer.append(UInt8(ascii: "\n"))
            try sink.write(buffer)
            count += 1
        }
        return Summary(itemCount: count, diagnostics: [])
    }

    private func renderTabular(
        _ source: inout ItemSource,
        fields: FieldSelection?,
        renderer: inout some TabularRenderer,
        to sink: inout some OutputSink
    ) async throws -> Summary {
        let flattener = RowFlattener()
        func cells(_ item: JSONValue) -> [JSONMember] {
            if let fields { return fields.project(item).members }
            return flattener.flatten(item)
        }
        var columns = ColumnSet(fields?.fields.map(\.name) ?? [])
        var sample: [[JSONMember]] = []
        var failure: (any Error)?
        // Known columns and a format that does not measure rows: every row can go out as soon as it is read.
        let sampleSize = fields != nil && !renderer.usesSample ? 0 : window
        do {
            while sample.count < sampleSize, let item = try await source.next() {
                let row = cells(item)
                if fields == nil { for cell in row { columns.insert(cell.key) } }
                sample.append(row)
            }
        } catch {
            // Malformed input after some rows: those rows still come out, then the error.
            failure = error
        }
        guard !sample.isEmpty || fields != nil else {
            if let failure { throw failure }
            return Summary(itemCount: 0, diagnostics: [])
        }
        let aligned = sample.map(columns.align)
        try renderer.begin(columns: columns.names, sample: aligned, to: &sink)
        for row in aligned { try renderer.write(row, to: &sink) }
        if let failure {
            try renderer.finish(to: &sink)
            throw failure
        }
        var count = sample.count
        if let fields, source.transform == nil, case .reader(let box) = source.origin,
            var reader = box.reader as? any ItemTextReader,
            var projection = JSONTextProjection(paths: fields.fields.map(\.path))
        {
            // The fields are found in each item's text and written from there: no item is built.
            defer { box.reader = reader }
            while try reader.nextLocated(
                &projection, { text, located in try renderer.write(located, in: text, to: &sink) })
            {
                count += 1
                if count % 1024 == 0 { try Task.checkCancellation() }
            }
        }
        var late = ColumnSet()
        while let item = try await source.next() {
            if let fields {
                // A projection's cells are the columns, in order: nothing to align.
                try renderer.write(fields.fields.map { item.value(at: $0.path) ?? .null }, to: &sink)
            } else {
                let row = flattener.flatten(item)
                for cell in row where columns.position(of: cell.key) == nil { late.insert(cell.key) }
                try renderer.write(columns.align(row), to: &sink)
            }
            count += 1
        }
        try renderer.finish(to: &sink)
        var diagnostics: [Diagnostic] = []
        if !late.names.isEmpty {
            diagnostics.append(
                Diagnostic(
                    .warning,
                    "columns first seen after the first \(window) items were left out: "
                        + "\(late.names.joined(separator: ", ")); name them with --fields"
                )
            )
        }
        return Summary(itemCount: count, diagnostics: diagnostics)
    }
}
