import ContentAEM
import ContentGraphQL
import ContentJSON
import ContentTesting
import Foundation
import Testing

/// The schema the emulator generates held to a real AEM's: the corpus's introspection of an AEM as a Cloud Service
/// instance (the WKND models of 2021).
///
/// The emulator generates the schema for the same models, read from the dump itself, and the two must agree on
/// every type, field, argument, input field, enum value and union member the real one has, with nullability.
/// What the emulator has beyond it must be what newer AEM added since (the corpus README lists it).
struct AEMSchemaConformanceTests {
    /// The models of the dump, as model files would declare them: every `AllFragmentModels` member, each field
    /// typed back from its GraphQL type.
    static func models(in reference: GraphQLSchemaShape) throws -> [ContentFragmentModel] {
        let members = reference.types["AllFragmentModels"]?.values.sorted() ?? []
        return try members.map { typeName in
            var fields: [String: JSONValue] = [:]
            for (name, member) in reference.types[typeName]?.members ?? [:] where !name.hasPrefix("_") {
                let multiple = member.type.hasPrefix("[")
                let named = member.type.trimmingCharacters(in: CharacterSet(charactersIn: "[]!"))
                var spec: [String: JSONValue] = ["multiple": .bool(multiple)]
                switch named {
                case "String": spec["type"] = .string("text")
                case "MultiFormatString": spec["type"] = .string("multiline")
                case "Reference": spec["type"] = .string("contentReference")
                case "Float": spec["type"] = .string("number")
                case "Int": spec["type"] = .string("integer")
                case "Boolean": spec["type"] = .string("boolean")
                case "Calendar": spec["type"] = .string("datetime")
                case "Date": spec["type"] = .string("date")
                case "Time": spec["type"] = .string("time")
                case "Json": spec["type"] = .string("json")
                default:
                    spec["type"] = .string("fragmentReference")
                    spec["model"] = .string(Self.modelName(named))
                }
                fields[name] = .object(JSONObject(spec.map { JSONMember($0.key, $0.value) }))
            }
            let model: JSONValue = .object([
                "name": .string(Self.modelName(typeName)),
                "fields": .object(JSONObject(fields.map { JSONMember($0.key, $0.value) })),
            ])
            return try JSONDecoder().decode(ContentFragmentModel.self, from: Data(model.serialized()))
        }
    }

    /// `AdventureModel` → `adventure`.
    static func modelName(_ typeName: String) -> String {
        let stem = typeName.hasSuffix("Model") ? String(typeName.dropLast(5)) : typeName
        return stem.prefix(1).lowercased() + stem.dropFirst()
    }

    /// Whether a line names what AEM added after 2021 (offset/limit/sort paging, by-id lookups, cursors, asset
    /// transforms, `_id`, `_tags`, `_instances`, image delivery fields).
    static func isNewer(_ line: String) -> Bool {
        guard line.hasPrefix("extra ") else { return false }
        let newer = [
            "Edge", "Connection", "PageInfo", "AssetTransform", "SmartCrop", "ById", "Paginated", "._id", "._tags",
            "._instances", "._dynamicUrl", "._dmS7Url", "._smartCrops", "(sort:", "(offset:", "(limit:",
            "(includeVariations:", "(_assetTransform:",
        ]
        return newer.contains { line.contains($0) }
    }

    @Test func theGeneratedSchemaHasTheShapesOfARealAEM() throws {
        guard let folder = TestLocations.corpusFolder("aem/schema") else { return }
        let text = try String(
            contentsOf: folder.appendingPathComponent("aem-introspection-wknd-2021.json"), encoding: .utf8)
        let dump = try JSONParser().parse(text)
        let reference = try #require(GraphQLSchemaShape(introspection: dump))
        let models = try Self.models(in: reference)
        #expect(models.map { $0.name } == ["adventure", "article"])
        let generated = try GraphQLSchemaShape(files: [("generated", AEMSchemaDefinition.sdl(for: models))])
        // Built-in scalars and directives are declared by introspection only.
        let builtIn =
            ["String", "Int", "Float", "Boolean", "ID"].map { "missing scalar \($0)" }
            + ["include", "skip", "deprecated", "specifiedBy"].map { "missing @\($0)" }
        let differences = generated.differences(from: reference).filter { !builtIn.contains($0) }
        let unexplained = differences.filter { !Self.isNewer($0) }
        #expect(unexplained == [], "\(unexplained.joined(separator: "\n"))")
        // What is newer is there: the comparison compares.
        #expect(differences.contains("extra QueryType.adventurePaginated: AdventureModelConnection!"))
    }
}
