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
        for file in Self.files(in: directory.appendingPathComponent("models"), ending: ".yaml") {
            let text = try Self.read(file)
            do {
                models.append(
                    try YAMLDecoder(environment: [:]).decode(ContentFragmentModel.self, from: text, file: file.path))
            } catch {
                throw AEMDefinitionError(
                    file: error.file, line: error.mark?.line, column: error.mark?.column,
                    (error.keyPath.isEmpty ? "" : "\(error.keyPath): ") + error.message)
            }
        }
        var names: Set<String> = []
        for model in models where !names.insert(model.name).inserted {
            throw AEMDefinitionError("two models are named '\(model.name)'; model names must be unique")
        }
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

    /// The schema AEM generates for the models, with `_references` on every results type: a union of every
    /// model and `ImageRef`.
    ///
    /// The union needs a type resolver, which SDL cannot carry, so it is made here and added to the results
    /// types before the final schema is assembled.
    package func schema() throws -> GraphQLSchema {
        let built = try buildSchema(source: AEMSchemaDefinition.sdl(for: models))
        var members = models.compactMap { built.getType(name: $0.typeName) as? GraphQLObjectType }
        if let image = built.getType(name: "ImageRef") as? GraphQLObjectType { members.append(image) }
        let references = try GraphQLUnionType(
            name: "Reference",
            resolveType: { value, _ in
                ((value as? [String: any Sendable])?["__typename"] as? String) ?? "ImageRef"
            },
            types: members
        )
        for model in models {
            for suffix in ["Results", "Result"] {
                guard let results = built.getType(name: model.typeName + suffix) as? GraphQLObjectType else { continue }
                var fields = try results.fields()
                fields["_references"] = GraphQLField(type: GraphQLList(references))
                results.fields = { fields }
            }
        }
        return try GraphQLSchema(query: built.queryType, types: [references])
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
