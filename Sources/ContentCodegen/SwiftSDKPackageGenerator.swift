internal import ContentDataConnect
public import Foundation

/// Writes the Swift package each connector's `generate.swiftSdk` asks for, as `firebase dataconnect:sdk:generate`
/// does: a library named `package` (`DataConnectGenerated` by default) in `outputDir`, relative to the connector's
/// folder, holding the connector's public client; it re-exports ContentKit, so an app imports the package alone.
public enum SwiftSDKPackageGenerator {
    /// One package to write.
    public struct Package: Sendable, Equatable {
        /// The folder it goes in.
        public var folder: URL
        /// The package's and its library's name.
        public var name: String
        /// Path (relative to ``folder``) → contents.
        public var files: [String: String]
    }

    /// Where the generated package gets ContentKit from.
    public enum Runtime: Sendable, Equatable {
        /// A folder on this machine, by a path relative to the package.
        case path(URL)
        /// A Git repository, at a version (`1.2.0`, taken as `from:`) or a revision.
        case repository(url: String, version: String?, revision: String)
    }

    /// The name Firebase's tools give a package when `generate.swiftSdk` names none.
    public static let defaultPackageName = "DataConnectGenerated"

    /// The packages a Data Connect workspace's connectors ask for.
    ///
    /// - Parameters:
    ///   - workspace: The folder with `dataconnect.yaml`.
    ///   - runtime: Where the package with ContentKit is: the generated package depends on it by path, or by the
    ///     URL and version the app itself names.
    /// - Returns: One package per connector with `generate.swiftSdk`, ordered by connector id.
    /// - Throws: ``GeneratorDiagnostic`` at the place of the first problem, including two connectors that write
    ///   the same folder, or none that asks for a package.
    public static func packages(workspace: URL, runtime: Runtime) throws(GeneratorDiagnostic) -> [Package] {
        let loaded: DataConnectWorkspace
        do {
            loaded = try DataConnectWorkspace.load(from: workspace)
        } catch {
            throw GeneratorDiagnostic(error)
        }
        var packages: [Package] = []
        for connector in loaded.connectors.sorted(by: { $0.id < $1.id }) {
            guard let sdk = connector.swiftSDK else { continue }
            let manifest = connector.directory + "/connector.yaml"
            let name = sdk.package ?? defaultPackageName
            guard !name.isEmpty, name.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" }),
                name.first?.isNumber == false
            else {
                throw GeneratorDiagnostic(
                    file: manifest,
                    "generate.swiftSdk.package '\(name)' is not a Swift module name; use letters, digits and _")
            }
            let folder = URL(fileURLWithPath: sdk.outputDir, relativeTo: URL(fileURLWithPath: connector.directory))
                .standardizedFileURL
            if let other = packages.first(where: { $0.folder.path == folder.path }) {
                throw GeneratorDiagnostic(
                    file: manifest,
                    "generate.swiftSdk.outputDir is \(folder.path), where package \(other.name) goes too")
            }
            let configuration = ClientGeneratorConfiguration(
                workspaces: [DataConnectClientGenerator.key: workspace.standardizedFileURL.path],
                connectors: [connector.id], access: .public)
            var source = try ContentClientGenerator.generate(
                configuration, relativeTo: workspace, source: "\(connector.id)/connector.yaml")
            // The app imports the package alone, as it imports Firebase's generated one with FirebaseDataConnect.
            source = source.replacingOccurrences(
                of: "\nimport ContentKit\n", with: "\n@_exported import ContentKit\n")
            packages.append(
                Package(
                    folder: folder, name: name,
                    files: [
                        "Package.swift": manifestText(
                            name: name, dependency: dependency(on: runtime, from: folder), connector: connector.id),
                        "Sources/\(name)/\(ContentClientGenerator.outputFileName)": source,
                    ]))
        }
        guard !packages.isEmpty else {
            throw GeneratorDiagnostic(
                file: workspace.appendingPathComponent("dataconnect.yaml").path,
                "no connector.yaml has generate.swiftSdk; add one, such as:\n"
                    + "generate:\n  swiftSdk:\n    outputDir: ../../app/MoviesSDK\n    package: MoviesSDK")
        }
        return packages
    }

    /// The manifest's dependency on ContentKit's package, and that package's identity.
    static func dependency(on runtime: Runtime, from folder: URL) -> (declaration: String, identity: String) {
        switch runtime {
        case .path(let package):
            let path = relativePath(from: folder, to: package.standardizedFileURL)
            return (".package(name: \"content\", path: \(SwiftName.literal(path)))", "content")
        case .repository(let url, let version, let revision):
            // The identity SwiftPM gives a URL: its last path component without `.git`, lower-cased.
            var last = url.split(separator: "/").last.map(String.init) ?? "content"
            if last.hasSuffix(".git") { last.removeLast(4) }
            let requirement =
                version.map { "from: \(SwiftName.literal($0))" } ?? "revision: \(SwiftName.literal(revision))"
            return (".package(url: \(SwiftName.literal(url)), \(requirement))", last.lowercased())
        }
    }

    private static func manifestText(
        name: String, dependency: (declaration: String, identity: String), connector: String
    ) -> String {
        """
        // swift-tools-version: 6.1
        // Generated by content-codegen from \(connector)/connector.yaml (generate.swiftSdk). Do not edit: change the
        // connector and run `swift package generate-content-client` again.
        import PackageDescription

        let package = Package(
            name: \(SwiftName.literal(name)),
            // grpc-swift 2, which the realtime stream runs on, needs these.
            platforms: [.macOS(.v15), .iOS(.v18), .tvOS(.v18), .watchOS(.v11), .visionOS(.v2)],
            products: [.library(name: \(SwiftName.literal(name)), targets: [\(SwiftName.literal(name))])],
            dependencies: [\(dependency.declaration)],
            targets: [
                .target(
                    name: \(SwiftName.literal(name)),
                    dependencies: [.product(name: "ContentKit", package: \(SwiftName.literal(dependency.identity)))])
            ]
        )

        """
    }

    /// `to` as a path relative to `from`, both folders.
    static func relativePath(from: URL, to: URL) -> String {
        let base = from.standardizedFileURL.pathComponents
        let target = to.standardizedFileURL.pathComponents
        var common = 0
        while common < base.count, common < target.count, base[common] == target[common] { common += 1 }
        let parts = Array(repeating: "..", count: base.count - common) + target[common...]
        return parts.isEmpty ? "." : parts.joined(separator: "/")
    }
}
