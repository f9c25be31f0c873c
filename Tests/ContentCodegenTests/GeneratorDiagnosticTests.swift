import ContentCodegen
import Foundation
import Testing

/// Mistakes in the inputs come out as `file:line:column: error: message`, which SwiftPM shows as build
/// diagnostics on the offending line.
struct GeneratorDiagnosticTests {
    /// A one-table workspace with `operations` as its connector's `queries.gql`.
    private static func workspace(
        _ operations: String, configuration: String = "dataconnect: dataconnect\n", extraFiles: [String: String] = [:]
    ) throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "content-codegen-\(UUID().uuidString)")
        let files = [
            "dataconnect/dataconnect.yaml": """
            specVersion: v1
            serviceId: shop
            location: us-central1
            schema:
              source: ./schema
            connectorDirs: [./shop]
            """,
            "dataconnect/schema/schema.gql": "type Item @table {\n  name: String!\n  price: Int64\n}\n",
            "dataconnect/shop/connector.yaml": "connectorId: shop\n",
            "dataconnect/shop/queries.gql": operations,
            "content-client.yaml": configuration,
        ].merging(extraFiles) { _, extra in extra }
        for (path, text) in files {
            let url = folder.appendingPathComponent(path)
            try FileManager.default.createDirectory(
                at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try text.write(to: url, atomically: true, encoding: .utf8)
        }
        return folder
    }

    private static func diagnostic(
        _ operations: String, configuration: String = "dataconnect: dataconnect\n", extraFiles: [String: String] = [:]
    ) throws -> GeneratorDiagnostic? {
        let folder = try workspace(operations, configuration: configuration, extraFiles: extraFiles)
        defer { try? FileManager.default.removeItem(at: folder) }
        do {
            _ = try ContentClientGenerator.generate(
                configurationFile: folder.appendingPathComponent("content-client.yaml").path)
            return nil
        } catch {
            return error
        }
    }

    @Test func aFieldTheTableLacksPointsAtItsLineAndColumn() throws {
        let found = try #require(try Self.diagnostic("query listItems {\n  items {\n    name\n    colour\n  }\n}\n"))
        #expect(found.file?.hasSuffix("shop/queries.gql") == true)
        #expect(found.line == 4)
        #expect(found.column == 5)
        #expect(found.message.contains("colour"))
        #expect(found.description.hasSuffix("queries.gql:4:5: error: \(found.message)"))
    }

    @Test func aVariableOfUnknownTypeIsReportedWhereItIsDeclared() throws {
        let found = try #require(
            try Self.diagnostic("query byName($name: Strin!) {\n  items(where: { name: { eq: $name } }) { name }\n}\n"))
        #expect(found.line == 1)
        #expect(found.message.contains("Strin"))
    }

    @Test func malformedGraphQLIsASyntaxErrorWithItsPosition() throws {
        let found = try #require(try Self.diagnostic("query broken {\n  items { name \n"))
        #expect(found.file?.hasSuffix("queries.gql") == true)
        #expect(found.line != nil)
        #expect(found.message.contains("GraphQL syntax"))
    }

    @Test func anUnknownConfigurationKeyPointsIntoTheYAML() throws {
        let found = try #require(
            try Self.diagnostic(
                "query listItems { items { name } }\n", configuration: "dataconnect: dataconnect\nacess: public\n"))
        #expect(found.file?.hasSuffix("content-client.yaml") == true)
        #expect(found.line == 2)
        #expect(found.message.contains("acess"))
    }

    @Test func anUnknownConnectorNamesTheOnesThereAre() throws {
        let found = try #require(
            try Self.diagnostic(
                "query listItems { items { name } }\n", configuration: "dataconnect: dataconnect\nconnectors: [shopp]\n"
            ))
        #expect(found.message.contains("'shopp'"))
        #expect(found.message.contains("shop"))
    }

    @Test func hostileNamesStillMakeValidSwiftNames() throws {
        let folder = try Self.workspace(
            "query default($in: String) {\n  class: items(where: { name: { eq: $in } }) { self: name }\n}\n")
        defer { try? FileManager.default.removeItem(at: folder) }
        let source = try ContentClientGenerator.generate(
            configurationFile: folder.appendingPathComponent("content-client.yaml").path)
        #expect(source.contains("let defaultQuery: DefaultQuery\n"))
        #expect(source.contains("func execute(`in`: String? = nil, fetchPolicy: QueryFetchPolicy = .preferCache)"))
        #expect(source.contains("func ref(`in`: String? = nil) -> Ref"))
        #expect(source.contains("let `class`: [Class]"))
        #expect(source.contains("let `self`: String"))
    }

    @Test func aFieldNamedLikeASwiftTypeDoesNotShadowIt() throws {
        // `string` selects an object: its struct must not be called `String`, or `name: String` would mean it.
        let folder = try Self.workspace("query listItems {\n  string: items { name }\n}\n")
        defer { try? FileManager.default.removeItem(at: folder) }
        let source = try ContentClientGenerator.generate(
            configurationFile: folder.appendingPathComponent("content-client.yaml").path)
        #expect(source.contains("let string: [String_]"))
        #expect(source.contains("struct String_: Decodable"))
        #expect(source.contains("let name: String\n"))
    }

    @Test func operationsWhoseTypesWouldShareANameAreReported() throws {
        let found = try #require(
            try Self.diagnostic("query getItem { items { name } }\n\nquery GetItem { items { price } }\n"))
        #expect(found.line == 3)
        #expect(found.message.contains("GetItemQuery"))
        #expect(found.message.contains("getItem"))
    }

    @Test func aVariableNamedLikeTheFetchPolicyParameterIsReported() throws {
        let found = try #require(
            try Self.diagnostic(
                "query listItems($fetchPolicy: String) {\n  items(where: { name: { eq: $fetchPolicy } }) { name }\n}\n")
        )
        #expect(found.line == 1)
        #expect(found.message.contains("$fetchPolicy"))
        #expect(found.message.contains("rename the variable"))
    }

    @Test func anOperationNamedLikeASchemaTypeIsReported() throws {
        let found = try #require(
            try Self.diagnostic(
                "query list { items { name } }\n",
                extraFiles: [
                    "dataconnect/schema/schema.gql": "enum ListQuery { A }\ntype Item @table {\n  name: String!\n}\n"
                ]))
        #expect(found.message.contains("ListQuery"))
        #expect(found.message.contains("schema type"))
    }

    @Test func aConnectorListedTwiceIsReported() throws {
        let found = try #require(
            try Self.diagnostic(
                "query listItems { items { name } }\n",
                configuration: "dataconnect: dataconnect\nconnectors: [shop, shop]\n"))
        #expect(found.message.contains("'shop' more than once"))
    }

    @Test func connectorIdsThatMakeOneTypeNameAreReported() throws {
        let found = try #require(
            try Self.diagnostic(
                "query listItems { items { name } }\n",
                extraFiles: [
                    "dataconnect/dataconnect.yaml": """
                    specVersion: v1
                    serviceId: shop
                    location: us-central1
                    schema:
                      source: ./schema
                    connectorDirs: [./shop, ./shop2]
                    """,
                    "dataconnect/shop/connector.yaml": "connectorId: shop-app\n",
                    "dataconnect/shop2/connector.yaml": "connectorId: shop_app\n",
                    "dataconnect/shop2/queries.gql": "query listAgain { items { name } }\n",
                ]))
        #expect(found.message.contains("ShopAppConnector"))
        #expect(found.message.contains("'shop-app'") && found.message.contains("'shop_app'"))
    }

    @Test func schemaTypesThatMakeOneSwiftNameAreReported() throws {
        let found = try #require(
            try Self.diagnostic(
                "query byKind($a: kind, $b: Kind) {\n  items(where: { a: { eq: $a }, b: { eq: $b } }) { name }\n}\n",
                extraFiles: [
                    "dataconnect/schema/schema.gql":
                        "enum kind { X }\nenum Kind { Y }\ntype Item @table {\n  name: String!\n  a: kind\n  b: Kind\n}\n"
                ]))
        #expect(found.message.contains("Kind"))
        #expect(found.message.contains("rename one"))
    }

    @Test func aSingularThatIsASwiftTypeGetsAnUnderscore() throws {
        // `types` → `Type` would be the metatype keyword; `strings` → `String` would hide Swift's.
        let folder = try Self.workspace("query listItems {\n  types: items { name }\n  strings: items { name }\n}\n")
        defer { try? FileManager.default.removeItem(at: folder) }
        let source = try ContentClientGenerator.generate(
            configurationFile: folder.appendingPathComponent("content-client.yaml").path)
        #expect(source.contains("let types: [Type_]"))
        #expect(source.contains("let strings: [String_]"))
    }
}
