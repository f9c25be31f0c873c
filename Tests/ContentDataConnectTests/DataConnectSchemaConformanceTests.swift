import ContentDataConnect
import ContentTesting
import Foundation
import Testing

/// The generated schema held to the one Firebase's emulator generated for the FlutterFire example.
///
/// The reference is `.dataconnect/schema` in the corpus: every type, field, argument, input field and enum value,
/// with nullability, the same. A new difference (a name, a type, a nullability, an argument) fails here with its line.
struct DataConnectSchemaConformanceTests {
    @Test func flutterFireHasNoDifferences() throws {
        guard let folder = TestLocations.corpusFolder("dataconnect/flutterfire-example") else { return }
        let workspace = try DataConnectWorkspace.load(from: folder)
        let differences = try DataConnectSchemaComparison.differences(
            of: workspace, reference: folder.appendingPathComponent(".dataconnect/schema"))
        #expect(differences == [], "\(differences.joined(separator: "\n"))")
    }

    @Test func aMissingReferenceFolderIsNamed() throws {
        let workspace = try DataConnectWorkspace.load(
            from: TestLocations.examples.appendingPathComponent("dataconnect"))
        #expect {
            try DataConnectSchemaComparison.differences(of: workspace, reference: URL(fileURLWithPath: "/nonexistent"))
        } throws: { error in
            "\(error)".contains("/nonexistent: no such folder; --compare takes the .dataconnect/schema folder")
        }
    }
}
