import ContentCodegen
import Foundation
import Testing

/// Pins the generator's output for real workspaces: byte for byte against `Golden/`, and, because those files
/// are part of this target, compiled warning-free in Swift 6 mode with every build of the tests.
///
/// To update after an intended change: `CONTENT_UPDATE_GOLDEN=1 swift test --filter GoldenFileTests`.
struct GoldenFileTests {
    @Test(arguments: GoldenWorkspaces.all.map(\.golden))
    func generatedClientMatchesItsGoldenFile(golden: String) throws {
        let workspace = try #require(GoldenWorkspaces.all.first { $0.golden == golden })
        guard let configuration = try GoldenWorkspaces.configuration(for: workspace) else { return }
        defer { try? FileManager.default.removeItem(at: configuration.deletingLastPathComponent()) }
        let generated = try ContentClientGenerator.generate(configurationFile: configuration.path)
        let goldenFile = GoldenWorkspaces.goldenFolder.appendingPathComponent(golden)
        if ProcessInfo.processInfo.environment["CONTENT_UPDATE_GOLDEN"] == "1" {
            try generated.write(to: goldenFile, atomically: true, encoding: .utf8)
        }
        let expected = try String(contentsOf: goldenFile, encoding: .utf8)
        #expect(generated == expected, "regenerate with CONTENT_UPDATE_GOLDEN=1 if the change is intended")
    }

    @Test(arguments: GoldenWorkspaces.all.map(\.golden))
    func generationIsDeterministic(golden: String) throws {
        let workspace = try #require(GoldenWorkspaces.all.first { $0.golden == golden })
        guard let configuration = try GoldenWorkspaces.configuration(for: workspace) else { return }
        defer { try? FileManager.default.removeItem(at: configuration.deletingLastPathComponent()) }
        let first = try ContentClientGenerator.generate(configurationFile: configuration.path)
        let second = try ContentClientGenerator.generate(configurationFile: configuration.path)
        #expect(first == second)
        #expect(first.contains("struct "))
    }

    /// CRLF files (as Windows checkouts have them) make the same client: line breaks must not end up inside
    /// a doc comment or hide the comment above an operation.
    @Test(arguments: GoldenWorkspaces.all.filter { $0.fixture != nil }.map(\.golden))
    func windowsLineEndingsMakeTheSameClient(golden: String) throws {
        let workspace = try #require(GoldenWorkspaces.all.first { $0.golden == golden })
        let fixture = GoldenWorkspaces.fixtures.appendingPathComponent(try #require(workspace.fixture))
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("content-crlf-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let copy = folder.appendingPathComponent("workspace")
        let walker = try #require(FileManager.default.enumerator(at: fixture, includingPropertiesForKeys: nil))
        var converted = 0
        for case let file as URL in walker where !file.hasDirectoryPath {
            let relative = String(file.standardizedFileURL.path.dropFirst(fixture.standardizedFileURL.path.count + 1))
            let destination = copy.appendingPathComponent(relative)
            try FileManager.default.createDirectory(
                at: destination.deletingLastPathComponent(), withIntermediateDirectories: true)
            let text = try String(contentsOf: file, encoding: .utf8)
            try text.replacingOccurrences(of: "\n", with: "\r\n").write(
                to: destination, atomically: true, encoding: .utf8)
            converted += 1
        }
        #expect(converted >= 3)
        let configuration = folder.appendingPathComponent("content-client.yaml")
        try "\(workspace.isAEM ? "aem" : "dataconnect"): workspace   # a comment\r\n".write(
            to: configuration, atomically: true, encoding: .utf8)
        let generated = try ContentClientGenerator.generate(configurationFile: configuration.path)
        let expected = try String(
            contentsOf: GoldenWorkspaces.goldenFolder.appendingPathComponent(golden), encoding: .utf8)
        #expect(!generated.contains("\r"))
        #expect(generated == expected)
    }
}
