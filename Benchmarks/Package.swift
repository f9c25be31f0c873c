// swift-tools-version: 6.1
import PackageDescription

// Decode-throughput benchmarks, kept apart so the main package builds and tests without them.
// Run from this folder: swift package benchmark
let package = Package(
    name: "content-benchmarks",
    platforms: [.macOS(.v15), .iOS(.v18), .tvOS(.v18), .watchOS(.v11), .visionOS(.v2)],
    dependencies: [
        .package(name: "content", path: ".."),
        .package(url: "https://github.com/ordo-one/benchmark.git", from: "1.38.1", traits: ["MallocInterposer"]),
        .package(url: "https://github.com/swift-server/async-http-client.git", from: "1.37.0"),
        .package(url: "https://github.com/apple/swift-nio.git", from: "2.101.2"),
    ],
    targets: [
        .target(
            name: "BenchmarkInputs",
            dependencies: [.product(name: "ContentJSON", package: "content")]
        ),
        .executableTarget(
            name: "DecodeThroughput",
            dependencies: [
                "BenchmarkInputs",
                .product(name: "Benchmark", package: "benchmark"),
                .product(name: "ContentCore", package: "content"),
                .product(name: "ContentJSON", package: "content"),
                .product(name: "ContentOutput", package: "content"),
            ],
            path: "Benchmarks/DecodeThroughput",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
        .executableTarget(
            name: "DecoderComparison",
            dependencies: ["BenchmarkInputs", .product(name: "ContentJSON", package: "content")]
        ),
        // The generated client's cost over one reused AsyncHTTPClient, against a running `content serve`.
        .executableTarget(
            name: "ClientOverhead",
            dependencies: [
                .product(name: "ContentKit", package: "content"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
            ],
            plugins: [.plugin(name: "ContentClientGenerator", package: "content")]
        ),
    ]
)
