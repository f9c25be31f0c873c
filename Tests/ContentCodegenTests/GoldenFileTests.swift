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
}
