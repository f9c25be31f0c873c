// swift-tools-version: 6.1
import PackageDescription

// An app that lists movies through a client generated at build time from ../dataconnect.
let package = Package(
    name: "movies-app",
    platforms: [.macOS(.v15), .iOS(.v18), .tvOS(.v18), .watchOS(.v11), .visionOS(.v2)],
    dependencies: [.package(name: "content", path: "../..")],
    targets: [
        .executableTarget(
            name: "MoviesApp",
            dependencies: [.product(name: "ContentKit", package: "content")],
            plugins: [.plugin(name: "ContentClientGenerator", package: "content")]
        )
    ]
)
