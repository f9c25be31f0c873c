// swift-tools-version: 6.1
import PackageDescription

// An app that lists WKND adventures through a client generated at build time from ../aem's persisted queries.
let package = Package(
    name: "wknd-app",
    platforms: [.macOS(.v15), .iOS(.v18), .tvOS(.v18), .watchOS(.v11), .visionOS(.v2)],
    dependencies: [.package(name: "content", path: "../..")],
    targets: [
        .executableTarget(
            name: "WKNDApp",
            dependencies: [.product(name: "ContentKit", package: "content")],
            plugins: [.plugin(name: "ContentClientGenerator", package: "content")]
        )
    ]
)
