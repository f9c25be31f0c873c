internal import ContentGraphQL
internal import ContentYAML
package import Foundation
package import GraphQL
internal import OrderedCollections

/// An AEM workspace's definitions: its content fragment models (`models/*.yaml`) and persisted queries
/// (`queries/<configuration>/<name>.graphql`), read the same way by the emulator that serves them and the
/// generator that types them.
package struct AEMDefinitions: Sendable {
    /// A persisted query file.
    package struct PersistedQuery: Sendable, Equatable {
        /// The configuration folder, such as `wknd-shared`.
        package var configuration: String
        /// The file name without `.graphql`, such as `adventures-all`.
        package var name: String
        /// The GraphQL text.
        package var query: String
        /// The file, for positions.
        package var file: String
    }

    package var models: [ContentFragmentModel]
    package var queries: [PersistedQuery]

    /// Definitions already read.
    package init(models: [ContentFragmentModel], queries: [PersistedQuery] = []) {
        self.models = models
        self.queries = queries
    }

    /// Reads the models and queries under a workspace folder.
    ///
    /// - Parameter directory: The folder holding `models/` and `queries/`.
    /// - Throws: ``AEMDefinitionError`` with the file, line and column.
    package init(directory: URL) throws(AEMDefinitionError) {
        models = []
        var files: [String] = []
        for file in Self.files(in: directory.appendingPathComponent("models"), ending: ".yaml") {
            let text = try Self.read(file)
            do {
                models.append(
                    try YAMLDecoder(environment: [:]).decode(ContentFragmentModel.self, from: text, file: file.path))
                files.append(file.path)
            } catch {
                throw AEMDefinitionError(
                    file: error.file, line: error.mark?.line, column: error.mark?.column,
                    (error.keyPath.isEmpty ? "" : "\(error.keyPath): ") + error.message)
            }
        }
        try Self.check(models, files: files)
        queries = []
        let queryRoot = directory.appendingPathComponent("queries")
        let configurations = (try? FileManager.default.contentsOfDirectory(atPath: queryRoot.path))?.sorted() ?? []
        for configuration in configurations {
            for file in Self.files(in: queryRoot.appendingPathComponent(configuration), ending: ".graphql") {
                queries.append(
                    PersistedQuery(
                        configuration: configuration, name: file.deletingPathExtension().lastPathComponent,
                        query: try Self.read(file), file: file.path))
            }
        }
    }

    /// Refuses models whose schema AEM could not generate, naming the file: two with one type name (`author`,
    /// `Author`), a field name GraphQL does not take or AEM keeps for its own fields (a leading `_`), and a fragment
    /// reference to a model there is not.
    private static func check(_ models: [ContentFragmentModel], files: [String]) throws(AEMDefinitionError) {
        var typeNames: [String: String] = [:]
        for (model, file) in zip(models, files) {
            if let other = typeNames[model.typeName] {
                throw AEMDefinitionError(
                    file: file,
                    "model '\(model.name)' and the model of \(other) both make the type \(model.typeName); rename one")
            }
            typeNames[model.typeName] = file
        }
        let names = Set(models.map(\.name))
        for (model, file) in zip(models, files) {
            for field in model.fields {
                let valid =
                    field.name.first.map { $0.isASCII && $0.isLetter } == true
                    && field.name.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_") }
                guard valid else {
                    throw AEMDefinitionError(
                        file: file,
                        "field '\(field.name)' of model '\(model.name)': a field name is letters, digits and _, starting "
                            + "with a letter (names starting with _ are AEM's own fields)")
                }
                if field.type == .fragmentReference, field.model.map(names.contains) != true {
                    throw AEMDefinitionError(
                        file: file,
                        "field '\(field.name)' of model '\(model.name)' refers to model '\(field.model ?? "")', which "
                            + "no file under models/ defines; set model: to one of "
                            + names.sorted().joined(separator: ", "))
                }
            }
        }
    }

    /// The files under a folder whose names end in `suffix`, in path order.
    package static func files(in directory: URL, ending suffix: String) -> [URL] {
        guard let enumerator = FileManager.default.enumerator(at: directory, includingPropertiesForKeys: nil) else {
            return []
        }
        var found: [URL] = []
        for case let url as URL in enumerator where url.lastPathComponent.hasSuffix(suffix) {
            found.append(url)
        }
        return found.sorted { $0.path < $1.path }
    }

    private static func read(_ file: URL) throws(AEMDefinitionError) -> String {
        guard let data = FileManager.default.contents(atPath: file.path) else {
            throw AEMDefinitionError(file: file.path, "cannot read the file")
        }
        return String(decoding: data, as: UTF8.self)
    }

    /// The schema AEM generates for the models.
    ///
    /// The `Reference` union (assets and fragments a content reference or `_references` holds) needs a type
    /// resolver, which SDL cannot carry: it is made here, from the union the SDL declares, and every field typed
    /// with the declared one is retyped with it before the final schema is assembled.
    package func schema() throws -> GraphQLSchema {
        let built = try GraphQLSchemaBuilding.build(source: AEMSchemaDefinition.sdl(for: models))
        guard let declared = built.getType(name: "Reference") as? GraphQLUnionType else { return built }
        let references = try GraphQLUnionType(
            name: "Reference",
            resolveType: { value, _ in
                let item = value as? [String: any Sendable]
                guard let typeName = item?["__typename"] as? String else {
                    throw ReferenceFailure(path: item?["_path"] as? String ?? "?")
                }
                return typeName
            },
            types: try declared.types()
        )
        func retyped(_ type: any GraphQLOutputType) -> (any GraphQLOutputType)? {
            if let list = type as? GraphQLList, let element = list.ofType as? any GraphQLOutputType {
                return retyped(element).map { GraphQLList($0) }
            }
            if let required = type as? GraphQLNonNull, let inner = required.ofType as? any GraphQLOutputType,
                let replaced = retyped(inner) as? any GraphQLNullableType
            {
                return GraphQLNonNull(replaced)
            }
            return (type as? GraphQLUnionType)?.name == "Reference" ? references : nil
        }
        var types: [any GraphQLNamedType] = [references]
        for (name, type) in built.typeMap where name != "Reference" && !name.hasPrefix("__") {
            types.append(type)
            guard let object = type as? GraphQLObjectType else { continue }
            var fields = try object.fields()
            var changed = false
            for (fieldName, field) in fields {
                guard let replaced = retyped(field.type) else { continue }
                fields[fieldName] = GraphQLField(type: replaced, description: field.description)
                changed = true
            }
            if changed { object.fields = { fields } }
        }
        return try GraphQLSchema(query: built.queryType, types: types)
    }
}

/// A reference to something the workspace's models cannot type: a fragment whose model is gone.
struct ReferenceFailure: Error, CustomStringConvertible {
    let path: String

    var description: String {
        "the reference to \(path) is a content fragment of a model this workspace does not define (a data file may "
            + "predate a model change): restore the model, or remove the data file"
    }
}

/// A problem in an AEM workspace's models or queries, at its file, line and column.
package struct AEMDefinitionError: Error, Sendable, Hashable, CustomStringConvertible {
    package var file: String?
    package var line: Int?
    package var column: Int?
    package var message: String

    package init(file: String? = nil, line: Int? = nil, column: Int? = nil, _ message: String) {
        self.file = file
        self.line = line
        self.column = column
        self.message = message
    }

    /// `file:line:column: message`, with as much of the place as is known.
    package var description: String {
        var place = file.map { "\($0):" } ?? ""
        if let line { place += "\(line):" + (column.map { "\($0):" } ?? "") }
        return place.isEmpty ? message : "\(place) \(message)"
    }
}
