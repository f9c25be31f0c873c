import ContentAEM
import ContentTesting
import Foundation
import GraphQL
import OrderedCollections
import Testing

/// The AEM workspace model: content fragment models and persisted queries as files say them, and the schema AEM
/// derives from the models.
struct AEMDefinitionsTests {
    @Test func theSampleWorkspaceHasItsModelsAndQueries() throws {
        let definitions = try AEMDefinitions(directory: TestLocations.examples.appendingPathComponent("aem"))
        #expect(Set(definitions.models.map(\.name)) == ["adventure", "article", "author"])
        let queries = Set(definitions.queries.map { "\($0.configuration)/\($0.name)" })
        #expect(queries.contains("wknd-shared/adventures-all"))
        #expect(queries.contains("wknd-shared/adventure-by-slug"))
        #expect(definitions.queries.allSatisfy { $0.file.hasSuffix("\($0.name).graphql") })
    }

    @Test func eachModelBecomesListByPathAndPaginatedQueries() throws {
        let definitions = try AEMDefinitions(directory: TestLocations.examples.appendingPathComponent("aem"))
        let schema = try definitions.schema()
        let query = try #require(schema.queryType)
        let fields = Set(try query.fields().keys)
        for root in ["adventureList", "adventureByPath", "adventurePaginated", "articleList", "authorByPath"] {
            #expect(fields.contains(root), "\(root) is missing from \(fields.sorted())")
        }
        let adventure = try #require(schema.getType(name: "AdventureModel") as? GraphQLObjectType)
        let adventureFields = try adventure.fields()
        #expect(adventureFields["title"] != nil)
        #expect(adventureFields["_path"] != nil)
    }

    @Test func aModelWithAnUnknownFieldTypeIsRefusedAtItsFile() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        try directory.write(
            "name: gadget\nfields:\n  title: { type: text }\n  weight: { type: kilograms }\n",
            to: "aem/models/gadget.yaml")
        do {
            _ = try AEMDefinitions(directory: URL(fileURLWithPath: directory.path("aem")))
            Issue.record("a model with an unknown field type was accepted")
        } catch {
            #expect(error.file?.hasSuffix("gadget.yaml") == true, "\(error)")
            #expect(error.description.contains("kilograms"), "\(error)")
        }
    }

    @Test(arguments: [
        (
            "name: gadget\nfields:\n  _id: { type: text }\n", "field '_id' of model 'gadget': a field name is letters"
        ),
        ("name: gadget\nfields:\n  my-field: { type: text }\n", "field 'my-field' of model 'gadget'"),
        (
            "name: gadget\nfields:\n  part: { type: fragmentReference, model: widget }\n",
            "refers to model 'widget', which no file under models/ defines; set model: to one of gadget"
        ),
        (
            "name: gadget\nfields:\n  part: { type: fragmentReference }\n",
            "refers to model '', which no file under models/ defines"
        ),
    ])
    func aModelAEMCouldNotTypeIsRefusedAtItsFile(model: String, message: String) throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        try directory.write(model, to: "aem/models/gadget.yaml")
        #expect {
            _ = try AEMDefinitions(directory: URL(fileURLWithPath: directory.path("aem")))
        } throws: { error in
            let error = error as? AEMDefinitionError
            return error?.file?.hasSuffix("gadget.yaml") == true && error?.description.contains(message) == true
        }
    }

    @Test func twoModelsOfOneTypeNameAreRefused() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        try directory.write("name: author\nfields:\n  name: { type: text }\n", to: "aem/models/a.yaml")
        try directory.write("name: Author\nfields:\n  name: { type: text }\n", to: "aem/models/b.yaml")
        #expect {
            _ = try AEMDefinitions(directory: URL(fileURLWithPath: directory.path("aem")))
        } throws: { error in
            "\(error)".contains("both make the type AuthorModel")
        }
    }
}
