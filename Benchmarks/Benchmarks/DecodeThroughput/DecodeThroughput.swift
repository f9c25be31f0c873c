import Benchmark
import BenchmarkInputs
import ContentCore
import ContentJSON
import ContentOutput
import Foundation

/// Decode throughput of parsing, typed decoding and the `content format` path.
///
/// Foundation's `JSONDecoder` and `JSONSerialization` run on the same bytes as the baseline for the project's
/// parser and its `JSONModelDecoder`; `items/` is the streaming extraction of the AEM items with a `--fields`
/// projection, and the format benchmarks go bytes → items → CSV, NDJSON or a table, through the streaming
/// reader `content format` uses and through a whole-document parse. Each reports MB/s of input besides
/// package-benchmark's own metrics (its throughput is iterations per second).
let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(
        metrics: [.inputMegabytesPerSecond, .wallClock, .throughput, .mallocCountTotal, .peakMemoryResident],
        maxDuration: .seconds(5), maxIterations: 50)

    let fieldPaths = "title,activity,price,tripLength,primaryImage._dynamicUrl"
    for count in [1_000, 10_000, 100_000] {
        // Inputs are built in `setup`, outside the measurement, and only in the process that needs them.
        let aemSetup: Benchmark.BenchmarkSetupHook = { _ = Inputs.aem(count) }
        let moviesSetup: Benchmark.BenchmarkSetupHook = { _ = Inputs.movies(count) }

        measure("parse/aem-\(count)", setup: aemSetup) { benchmark in
            let aem = Inputs.aem(count)
            try await benchmark.measuringInput(bytes: aem.count) {
                for _ in benchmark.scaledIterations {
                    blackHole(try JSONParser().parse(aem))
                }
            }
        }
        measure("parse/dataconnect-\(count)", setup: moviesSetup) { benchmark in
            let movies = Inputs.movies(count)
            try await benchmark.measuringInput(bytes: movies.count) {
                for _ in benchmark.scaledIterations {
                    blackHole(try JSONParser().parse(movies))
                }
            }
        }
        measure("decode/JSONDecoder/aem-\(count)", setup: aemSetup) { benchmark in
            let data = Data(Inputs.aem(count))
            try await benchmark.measuringInput(bytes: data.count) {
                for _ in benchmark.scaledIterations {
                    blackHole(try JSONDecoder().decode(AdventureList.self, from: data))
                }
            }
        }
        measure("decode/JSONModelDecoder/aem-\(count)", setup: aemSetup) { benchmark in
            let aem = Inputs.aem(count)
            try await benchmark.measuringInput(bytes: aem.count) {
                for _ in benchmark.scaledIterations {
                    blackHole(try JSONModelDecoder().decode(AdventureList.self, from: aem))
                }
            }
        }
        measure("decode/JSONDecoder/dataconnect-\(count)", setup: moviesSetup) { benchmark in
            let data = Data(Inputs.movies(count))
            try await benchmark.measuringInput(bytes: data.count) {
                for _ in benchmark.scaledIterations {
                    blackHole(try JSONDecoder().decode(MovieList.self, from: data))
                }
            }
        }
        measure("decode/JSONModelDecoder/dataconnect-\(count)", setup: moviesSetup) { benchmark in
            let movies = Inputs.movies(count)
            try await benchmark.measuringInput(bytes: movies.count) {
                for _ in benchmark.scaledIterations {
                    blackHole(try JSONModelDecoder().decode(MovieList.self, from: movies))
                }
            }
        }
        measure("items/aem-\(count)", setup: aemSetup) { benchmark in
            let aem = Inputs.aem(count)
            let paths = try FieldSelection(parsing: fieldPaths).fields.map(\.path)
            let itemsPath = try JSONPath(parsing: "data.adventureList.items")
            try await benchmark.measuringInput(bytes: aem.count) {
                for _ in benchmark.scaledIterations {
                    var reader = JSONItemReader(input: JSONMemoryInput(aem), itemsPath: itemsPath, keeping: paths)
                    _ = try reader.start()
                    var count = 0
                    while try reader.next() != nil { count += 1 }
                    blackHole(count)
                }
            }
        }
        measure("decode/JSONSerialization/aem-\(count)", setup: aemSetup) { benchmark in
            let data = Data(Inputs.aem(count))
            try await benchmark.measuringInput(bytes: data.count) {
                for _ in benchmark.scaledIterations {
                    blackHole(try JSONSerialization.jsonObject(with: data))
                }
            }
        }
        for format in [OutputFormat.csv, .ndjson, .table] {
            let settings = OutputSettings(
                format: format,
                itemsPath: try? JSONPath(parsing: "data.adventureList.items"),
                fields: try? FieldSelection(parsing: fieldPaths))
            measure("format/\(format.rawValue)/aem-\(count)", setup: aemSetup) { benchmark in
                let aem = Inputs.aem(count)
                try await benchmark.measuringInput(bytes: aem.count) {
                    for _ in benchmark.scaledIterations {
                        let reader = try startedReader(aem, settings: settings)
                        var sink = MemorySink()
                        _ = try await OutputPipeline(settings: settings).render(items: reader, to: &sink)
                        blackHole(sink.bytes.count)
                    }
                }
            }
            // What `content format FILE` runs on a file under 16 MB, on one thread here: the kept members of each
            // item copied out as text; CSV rows are then found in that text, NDJSON and tables read values from it.
            measure("format/\(format.rawValue)-from-text/aem-\(count)", setup: aemSetup) { benchmark in
                let aem = Inputs.aem(count)
                try await benchmark.measuringInput(bytes: aem.count) {
                    for _ in benchmark.scaledIterations {
                        let reader = BatchTextReader(try startedReader(aem, settings: settings))
                        var sink = MemorySink()
                        _ = try await OutputPipeline(settings: settings).render(items: reader, to: &sink)
                        blackHole(sink.bytes.count)
                    }
                }
            }
            guard format == .csv else { continue }
            // What each of the two threads of `content format FILE -o csv --fields …` runs on a larger file: each
            // row's fields found where its item lies in the read buffer, in the pass that reads the item.
            measure("format/\(format.rawValue)-in-place/aem-\(count)", setup: aemSetup) { benchmark in
                let aem = Inputs.aem(count)
                guard var rows = DelimitedRowWriter(settings: settings) else { return }
                try await benchmark.measuringInput(bytes: aem.count) {
                    for _ in benchmark.scaledIterations {
                        var reader = try startedReader(aem, settings: settings)
                        var sink = MemorySink()
                        while try rows.writeRow(ofNextItemIn: &reader, to: &sink) {}
                        blackHole(sink.bytes.count)
                    }
                }
            }
            measureWholeDocument("format/\(format.rawValue)-whole-document/aem-\(count)", count, settings)
        }
        // What `content aem adventures -o json` does with a response: every item, whole, parsed and written out.
        measureWholeDocument(
            "format/json-whole-document/aem-\(count)", count,
            OutputSettings(format: .json, itemsPath: try? JSONPath(parsing: "data.adventureList.items")))
    }
}

/// Registers a benchmark that parses the AEM response of `count` items whole and renders it with `settings`.
func measureWholeDocument(_ name: String, _ count: Int, _ settings: OutputSettings) {
    let setup: Benchmark.BenchmarkSetupHook = { _ = Inputs.aem(count) }
    measure(name, setup: setup) { benchmark in
        let aem = Inputs.aem(count)
        try await benchmark.measuringInput(bytes: aem.count) {
            for _ in benchmark.scaledIterations {
                var sink = MemorySink()
                let result = ContentResult(body: .document(try JSONParser().parse(aem)))
                _ = try await OutputPipeline(settings: settings).render(result, to: &sink)
                blackHole(sink.bytes.count)
            }
        }
    }
}

/// A streaming reader over `bytes` as `content format` makes one, already at the first item.
func startedReader(_ bytes: [UInt8], settings: OutputSettings) throws -> JSONItemReader {
    var reader = JSONItemReader(
        input: JSONMemoryInput(bytes), itemsPath: settings.itemsPath, keeping: settings.fields?.fields.map(\.path))
    _ = try reader.start()
    return reader
}

/// Items as `content format` hands them from a file, on one thread.
///
/// They are copied in batches of compact text and each row is read from its item's text; the reading thread of
/// the real path is this reader's `refill`, run inline.
struct BatchTextReader: ItemTextReader {
    private var reader: JSONItemReader
    private var batch = JSONItemBatch()
    private var position = 0

    init(_ reader: JSONItemReader) {
        self.reader = reader
    }

    mutating func next() throws -> JSONValue? {
        guard try refill() else { return nil }
        position += 1
        return try batch.item(at: position - 1)
    }

    mutating func nextText(_ body: (UnsafeRawBufferPointer) throws -> Void) throws -> Bool {
        guard try refill() else { return false }
        position += 1
        try batch.withText(at: position - 1, body)
        return true
    }

    /// Whether an item is left, reading the next batch when this one is used up.
    private mutating func refill() throws -> Bool {
        guard position == batch.count else { return true }
        batch = JSONItemBatch()
        position = 0
        while batch.count < 256, try batch.append(from: &reader) {}
        return batch.count > 0
    }
}

/// Registers a benchmark whose input is built by `setup`, outside the measured time.
func measure(
    _ name: String, setup: @escaping Benchmark.BenchmarkSetupHook,
    _ body: @escaping Benchmark.BenchmarkAsyncThrowingClosure
) {
    Benchmark(name, closure: body, setup: setup)
}

extension BenchmarkMetric {
    /// Megabytes (10^6 bytes) of input read per second of the measured iterations.
    static let inputMegabytesPerSecond = BenchmarkMetric.custom(
        "Input (MB/s)", polarity: .prefersLarger, useScalingFactor: false)
}

extension Benchmark {
    /// Runs `iterations` as the measured part of this benchmark, each reading `bytes` bytes of input, and records
    /// ``BenchmarkMetric/inputMegabytesPerSecond``; what the closure did before (building inputs) is not measured.
    func measuringInput(bytes: Int, _ iterations: () async throws -> Void) async throws {
        startMeasurement()
        let start = ContinuousClock.now
        try await iterations()
        let elapsed = ContinuousClock.now - start
        stopMeasurement()
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        guard seconds > 0 else { return }
        let megabytes = Double(bytes) * Double(scaledIterations.count) / 1e6
        measurement(.inputMegabytesPerSecond, Int((megabytes / seconds).rounded()))
    }
}
