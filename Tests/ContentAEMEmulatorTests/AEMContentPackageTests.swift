import ContentAEM
import ContentEmulatorTesting
import ContentJSON
import ContentTesting
import Foundation
import Testing

@testable import ContentAEMEmulator

/// An AEM project's content package, as Adobe's archetype lays it out, served with no AEM: its models, fragments
/// and their values, and what it cannot read reported with file and line while the rest loads.
struct AEMContentPackageTests {
    static let package = TestLocations.examples.appendingPathComponent("aem-package")

    @Test func theExamplePackageServesItsModelsAndFragments() async throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("package-\(UUID().uuidString)")
        try FileManager.default.copyItem(at: Self.package, to: root)
        let query = """
            { trailList(sort: "name") { items { _path name lengthKm climb familyFriendly opened difficulty highlights
              summary { plaintext } guide { name } map { ... on ImageRef { _path } } } } }
            """
        let body = JSONValue.object(["query": .string(query)]).jsonText
        let exchange = try await AEMHarness.run(workspace: root.appendingPathComponent("aem")) { client in
            try await client.post("/content/cq:graphql/global/endpoint.json", json: body)
        }
        let items = exchange.json?["data"]?["trailList"]?["items"]?.arrayValue ?? []
        #expect(items.count == 2, "\(exchange.text)")
        let coastal = items.first
        #expect(coastal?["_path"] == .string("/content/dam/trails/en/coastal-path"))
        #expect(coastal?["lengthKm"]?.jsonText == "12.5" && coastal?["climb"]?.jsonText == "240")
        #expect(coastal?["familyFriendly"] == .bool(true))
        #expect(coastal?["opened"] == .string("2019-05-01"))
        #expect(coastal?["difficulty"] == .string("easy"))
        #expect(
            coastal?["highlights"]
                == .array([.string("Lighthouse"), .string("Seal colony"), .string("Cove, north side")]))
        #expect(coastal?["summary"]?["plaintext"] == .string("Cliffs, coves and seals."))
        #expect(coastal?["guide"]?["name"] == .string("Mara Lind"))
        #expect(coastal?["map"]?["_path"] == .string("/content/dam/trails/en/coastal-path/map.png"))
        #expect(items.last?["guide"] == .null)
    }

    @Test func whatCannotBeReadIsReportedWithItsFileAndLineAndTheRestLoads() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("package-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        try FileManager.default.copyItem(at: Self.package, to: root)
        let jcr = root.appendingPathComponent("ui.content/src/main/content/jcr_root")
        let broken = jcr.appendingPathComponent("content/dam/trails/en/broken")
        try FileManager.default.createDirectory(at: broken, withIntermediateDirectories: true)
        try Data("<?xml version=\"1.0\"?>\n<jcr:root xmlns:jcr=\"http://www.jcp.org/jcr/1.0\">\n  <oops\n".utf8)
            .write(to: broken.appendingPathComponent(".content.xml"))
        let model = jcr.appendingPathComponent("conf/trails/settings/dam/cfm/models/odd")
        try FileManager.default.createDirectory(at: model, withIntermediateDirectories: true)
        try Data(
            """
            <?xml version="1.0"?>
            <jcr:root xmlns:jcr="http://www.jcp.org/jcr/1.0">
              <jcr:content jcr:title="Odd">
                <a metaType="text-single" name="label" valueType="string"/>
                <b metaType="hologram" name="vision" valueType="string"/>
              </jcr:content>
            </jcr:root>
            """.utf8
        ).write(to: model.appendingPathComponent(".content.xml"))
        let emulator = try AEMEmulator(
            directory: root.appendingPathComponent("aem"), publishBase: "http://x",
            contentPackages: AEMContentPackage.roots(in: root))
        #expect(emulator.notes.contains { $0.contains("broken/.content.xml:") && $0.contains("not well-formed XML") })
        #expect(emulator.notes.contains { $0.contains("odd/.content.xml:5: field 'vision' has metaType 'hologram'") })
        #expect(try emulator.store.fragments(model: "trail").count == 2)
        #expect(emulator.engine.models["odd"]?.fields.map(\.name) == ["label"])
    }

    @Test func fileVaultValuesAreReadAsJCRWritesThem() {
        #expect(AEMContentPackage.fileVaultValues("{Long}[1,2]") == ["1", "2"])
        #expect(AEMContentPackage.fileVaultValues(#"[a\,b,c]"#) == ["a,b", "c"])
        #expect(AEMContentPackage.fileVaultValues("[]") == [])
        #expect(AEMContentPackage.fileVaultValues("{Boolean}true") == ["true"])
        #expect(AEMContentPackage.fileVaultValues("plain") == ["plain"])
    }

    @Test func onlyAProjectsOwnContentFoldersAreRead() {
        #expect(AEMContentPackage.roots(in: Self.package).map(\.lastPathComponent) == ["jcr_root"])
        // The examples folder holds the package one level down, which is not its own content.
        #expect(AEMContentPackage.roots(in: TestLocations.examples).isEmpty)
    }
}
