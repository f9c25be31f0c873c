import ContentCodegen
import Foundation
import Testing

/// The packages `generate.swiftSdk` asks for: where they go, what they depend on, and the mistakes in the
/// connector's settings, each reported at its `connector.yaml`.
struct SwiftSDKPackageGeneratorTests {
    /// A copy of the sample workspace whose connector's `connector.yaml` ends with `generate`.
    private static func workspace(_ generate: String) throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("content-sdk-\(UUID().uuidString)")
        let workspace = folder.appendingPathComponent("dataconnect")
        try FileManager.default.copyItem(
            at: GoldenWorkspaces.repository.appendingPathComponent("examples/dataconnect"), to: workspace)
        let manifest = workspace.appendingPathComponent("movies/connector.yaml")
        let text = try String(contentsOf: manifest, encoding: .utf8)
        try (text + generate).write(to: manifest, atomically: true, encoding: .utf8)
        return workspace
    }

    @Test func aPackageGoesWhereOutputDirSaysAndDependsOnTheRuntimeByPath() throws {
        let workspace = try Self.workspace(
            "generate:\n  swiftSdk:\n    outputDir: ../../Apps/MoviesSDK\n    package: MoviesSDK\n")
        defer { try? FileManager.default.removeItem(at: workspace.deletingLastPathComponent()) }
        let runtime = workspace.deletingLastPathComponent().appendingPathComponent("vendor/content")
        let packages = try SwiftSDKPackageGenerator.packages(workspace: workspace, runtime: .path(runtime))
        let package = try #require(packages.first)
        #expect(packages.count == 1)
        #expect(package.name == "MoviesSDK")
        #expect(
            package.folder.path == workspace.deletingLastPathComponent().appendingPathComponent("Apps/MoviesSDK").path)
        let manifest = try #require(package.files["Package.swift"])
        #expect(manifest.contains(#".package(name: "content", path: "../../vendor/content")"#))
        let source = try #require(package.files["Sources/MoviesSDK/GeneratedContentClient.swift"])
        #expect(source.contains("@_exported import ContentKit"))
        #expect(source.contains("public static let moviesConnector"))
    }

    @Test func aRemoteRuntimeIsNamedByItsURLAndVersion() throws {
        let workspace = try Self.workspace("generate:\n  swiftSdk:\n    outputDir: ../../MoviesSDK\n")
        defer { try? FileManager.default.removeItem(at: workspace.deletingLastPathComponent()) }
        let packages = try SwiftSDKPackageGenerator.packages(
            workspace: workspace,
            runtime: .repository(url: "https://github.com/example/Content-Kit.git", version: "2.1.0", revision: "abc"))
        let package = try #require(packages.first)
        // Firebase's tools call a package with no name DataConnectGenerated.
        #expect(package.name == "DataConnectGenerated")
        let manifest = try #require(package.files["Package.swift"])
        #expect(manifest.contains(#".package(url: "https://github.com/example/Content-Kit.git", from: "2.1.0")"#))
        #expect(manifest.contains(#".product(name: "ContentKit", package: "content-kit")"#))
    }

    @Test func aPackageNameThatIsNoModuleNameIsReportedAtTheConnector() throws {
        let workspace = try Self.workspace(
            "generate:\n  swiftSdk:\n    outputDir: ../sdk\n    package: \"Movies SDK\"\n")
        defer { try? FileManager.default.removeItem(at: workspace.deletingLastPathComponent()) }
        #expect {
            _ = try SwiftSDKPackageGenerator.packages(workspace: workspace, runtime: .path(workspace))
        } throws: { error in
            let diagnostic = error as? GeneratorDiagnostic
            return diagnostic?.file?.hasSuffix("movies/connector.yaml") == true
                && diagnostic?.message.contains("'Movies SDK' is not a Swift module name") == true
        }
    }

    @Test func aWorkspaceWithoutSwiftSdkSaysWhatToAdd() throws {
        let workspace = try Self.workspace("")
        defer { try? FileManager.default.removeItem(at: workspace.deletingLastPathComponent()) }
        #expect {
            _ = try SwiftSDKPackageGenerator.packages(workspace: workspace, runtime: .path(workspace))
        } throws: { error in
            (error as? GeneratorDiagnostic)?.message.contains("no connector.yaml has generate.swiftSdk") == true
        }
    }
}
