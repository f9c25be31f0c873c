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

    /// A persisted query shipped as AEM stores it: a node whose `jcr:content` holds the text as binary `jcr:data`.
    @Test func thePackagesPersistedQueryRunsByName() async throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("package-\(UUID().uuidString)")
        try FileManager.default.copyItem(at: Self.package, to: root)
        let (all, short, list) = try await AEMHarness.run(workspace: root.appendingPathComponent("aem")) { client in
            (
                try await client.get("/graphql/execute.json/trails/trails-family-friendly"),
                try await client.get("/graphql/execute.json/trails/trails-family-friendly;maxKm=5"),
                try await client.get("/graphql/list.json/trails")
            )
        }
        #expect(all.status == 200)
        #expect(
            all.json?["data"]?["trailList"]?["items"]?.arrayValue?.compactMap { $0["name"]?.stringValue }
                == ["Coastal Path"], "\(all.text)")
        #expect(short.json?["data"]?["trailList"]?["items"] == .array([]))
        let entry = list.json?.arrayValue?.first?["queries"]?.arrayValue?.first
        #expect(
            entry?["path"]?["longForm"]
                == .string("/conf/trails/settings/graphql/persistentQueries/trails-family-friendly"))
    }

    @Test func misplacedPersistedQueriesAreReportedAndAEMQueriesWinOverAPackage() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("package-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        try FileManager.default.copyItem(at: Self.package, to: root)
        let graphql = root.appendingPathComponent("ui.content/src/main/content/jcr_root/conf/trails/settings/graphql")
        // The folder name AEM does not read, a query node without its text, and a name aem/queries also has.
        let misnamed = graphql.appendingPathComponent("persistedQueries/old")
        try FileManager.default.createDirectory(at: misnamed, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(
            at: graphql.appendingPathComponent("persistentQueries/empty"), withIntermediateDirectories: true)
        let aem = root.appendingPathComponent("aem/queries/trails")
        try FileManager.default.createDirectory(at: aem, withIntermediateDirectories: true)
        try Data("{ trailList { items { name } } }".utf8).write(
            to: aem.appendingPathComponent("trails-family-friendly.graphql"))
        let emulator = try AEMEmulator(
            directory: root.appendingPathComponent("aem"), publishBase: "http://x",
            contentPackages: AEMContentPackage.roots(in: root))
        #expect(
            emulator.notes.contains {
                $0.hasSuffix(
                    "graphql/persistedQueries: AEM reads persisted queries from persistentQueries, not persistedQueries; "
                        + "these are not loaded, as AEM would answer them 404")
            }, "\(emulator.notes)")
        #expect(
            emulator.notes.contains {
                $0.hasSuffix(
                    "persistentQueries/empty: a persisted query needs its text in _jcr_content/_jcr_data.binary, as "
                        + "FileVault writes jcr:content's jcr:data")
            })
        #expect(
            emulator.notes.contains(
                "persisted query trails/trails-family-friendly is in aem/queries and in a content package; "
                    + "aem/queries wins"))
        let kept = try emulator.store.persistedQuery(configuration: "trails", name: "trails-family-friendly")
        #expect(kept?.query == "{ trailList { items { name } } }")
        #expect(try emulator.store.persistedQuery(configuration: "trails", name: "empty") == nil)
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
