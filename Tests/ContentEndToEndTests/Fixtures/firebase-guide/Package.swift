// swift-tools-version: 6.1
import PackageDescription

// An app made of Firebase's Data Connect Swift guide, built against the package `swift package
// generate-content-client` wrote for the movies connector (generate.swiftSdk: outputDir ../MoviesSDK).
let package = Package(
    name: "firebase-guide",
    platforms: [.macOS(.v15), .iOS(.v18), .tvOS(.v18), .watchOS(.v11), .visionOS(.v2)],
    dependencies: [.package(name: "MoviesSDK", path: "../MoviesSDK")],
    targets: [
        .executableTarget(name: "FirebaseGuide", dependencies: [.product(name: "MoviesSDK", package: "MoviesSDK")])
    ]
)
