import Benchmark
import ContentCore
import ContentJSON
import ContentOutput
import Foundation

/// Decode throughput of parsing, typed decoding and the `content format` path.
///
/// Foundation's `JSONDecoder` and `JSONSerialization` run on the same bytes as the baseline; the format
/// benchmarks go bytes → items → CSV, NDJSON or a table with a `--fields` projection. Throughput counts
/// iterations per second; the input sizes are printed at start, so MB/s follows.
let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(
        metrics: [.wallClock, .throughput, .mallocCountTotal, .peakMemoryResident],
        maxDuration: .seconds(5), maxIterations: 50)

    for count in [1_000, 10_000] {
        let aem = Inputs.aemResponse(items: count)
        let movies = Inputs.moviesResponse(rows: count * 10)
        print("input aem-\(count): \(aem.count) bytes; movies-\(count * 10): \(movies.count) bytes")

        Benchmark("parse/aem-\(count)") { benchmark in
            for _ in benchmark.scaledIterations {
                blackHole(try JSONParser().parse(aem))
            }
        }
        Benchmark("parse/dataconnect-\(count * 10)") { benchmark in
            for _ in benchmark.scaledIterations {
                blackHole(try JSONParser().parse(movies))
            }
        }
        Benchmark("decode/JSONDecoder/aem-\(count)") { benchmark in
            let data = Data(aem)
            for _ in benchmark.scaledIterations {
                blackHole(try JSONDecoder().decode(AdventureList.self, from: data))
            }
        }
        Benchmark("decode/JSONSerialization/aem-\(count)") { benchmark in
            let data = Data(aem)
            for _ in benchmark.scaledIterations {
                blackHole(try JSONSerialization.jsonObject(with: data))
            }
        }
        for format in [OutputFormat.csv, .ndjson, .table] {
            Benchmark("format/\(format.rawValue)/aem-\(count)") { benchmark in
                let settings = OutputSettings(
                    format: format,
                    itemsPath: try JSONPath(parsing: "data.adventureList.items"),
                    fields: try FieldSelection(parsing: "title,activity,price,tripLength,primaryImage._dynamicUrl"))
                for _ in benchmark.scaledIterations {
                    var sink = MemorySink()
                    let result = ContentResult(body: .document(try JSONParser().parse(aem)))
                    _ = try await OutputPipeline(settings: settings).render(result, to: &sink)
                    blackHole(sink.bytes.count)
                }
            }
        }
    }
}
