import BenchmarkInputs
import ContentJSON
import Foundation

// Foundation's `JSONDecoder` and `JSONModelDecoder` taking turns on the same bytes, in one process.
//
// `swift package benchmark` runs each benchmark in a process of its own, one after another, so on a machine
// whose speed wanders the two sides of a ratio can meet different weather. Here every decode by one is followed
// by a decode by the other, and the ratio is taken from the two medians (and the two fastest runs).
//
//   swift run -c release DecoderComparison                     # every input
//   swift run -c release DecoderComparison dataconnect-10000   # the inputs named

/// One input and how to decode it both ways; each closure returns the item count, which both must agree on.
struct Comparison {
    var name: String
    var bytes: [UInt8]
    var rounds: Int
    var ours: ([UInt8]) throws -> Int
    var foundation: (Data) throws -> Int
}

func comparisons(named names: Set<String>) -> [Comparison] {
    var all: [Comparison] = []
    for count in [1_000, 10_000, 100_000] {
        let rounds = count >= 100_000 ? 6 : count >= 10_000 ? 20 : 40
        if names.isEmpty || names.contains("aem-\(count)") {
            all.append(
                Comparison(
                    name: "aem-\(count)", bytes: Inputs.aem(count), rounds: rounds,
                    ours: {
                        try JSONModelDecoder().decode(AdventureList.self, from: $0).data.adventureList.items.count
                    },
                    foundation: {
                        try JSONDecoder().decode(AdventureList.self, from: $0).data.adventureList.items.count
                    }
                ))
        }
        if names.isEmpty || names.contains("dataconnect-\(count)") {
            all.append(
                Comparison(
                    name: "dataconnect-\(count)", bytes: Inputs.movies(count), rounds: rounds,
                    ours: { try JSONModelDecoder().decode(MovieList.self, from: $0).data.movies.count },
                    foundation: { try JSONDecoder().decode(MovieList.self, from: $0).data.movies.count }))
        }
    }
    return all
}

/// Milliseconds `body` takes.
func milliseconds(_ body: () throws -> Int) rethrows -> (Double, Int) {
    let start = DispatchTime.now().uptimeNanoseconds
    let count = try body()
    return (Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6, count)
}

let selected = comparisons(named: Set(CommandLine.arguments.dropFirst()))
print("| input | MB | Foundation p50 | JSONModelDecoder p50 | ratio p50 | ratio p0 |")
print("|-------|---:|---------------:|---------------------:|----------:|---------:|")
for comparison in selected {
    let data = Data(comparison.bytes)
    var ours: [Double] = []
    var foundation: [Double] = []
    do {
        for _ in 0..<comparison.rounds {
            let (mine, mineCount) = try milliseconds { try comparison.ours(comparison.bytes) }
            let (theirs, theirCount) = try milliseconds { try comparison.foundation(data) }
            guard mineCount == theirCount else {
                FileHandle.standardError.write(
                    Data("\(comparison.name): \(mineCount) items here, \(theirCount) by Foundation\n".utf8))
                exit(1)
            }
            ours.append(mine)
            foundation.append(theirs)
        }
    } catch {
        FileHandle.standardError.write(Data("\(comparison.name): \(error)\n".utf8))
        exit(1)
    }
    ours.sort()
    foundation.sort()
    let (mineMedian, theirMedian) = (ours[ours.count / 2], foundation[foundation.count / 2])
    let megabytes = Double(comparison.bytes.count) / 1e6
    print(
        String(
            format: "| %@ | %.1f | %.1f ms | %.1f ms | %.2f× | %.2f× |", comparison.name, megabytes, theirMedian,
            mineMedian, theirMedian / mineMedian, foundation[0] / ours[0]))
}
