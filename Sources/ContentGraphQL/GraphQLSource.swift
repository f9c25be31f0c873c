package import GraphQL

/// Parsing and validating GraphQL text, the one way every emulator, workspace reader and generator does it: nesting
/// measured before the recursive parser sees the text, errors at their line and column.
package enum GraphQLSource {
    /// Parses a document.
    ///
    /// - Parameters:
    ///   - text: The GraphQL text.
    ///   - path: Where it came from, for errors.
    /// - Returns: The document.
    /// - Throws: ``GraphQLSourceError`` for text nested too deeply or not valid GraphQL syntax.
    package static func parse(_ text: String, path: String) throws(GraphQLSourceError) -> Document {
        if let depth = GraphQLNesting.depth(text) {
            throw GraphQLSourceError(
                file: path, "nests \(depth) levels deep; at most \(GraphQLNesting.limit) are allowed")
        }
        do {
            return try GraphQL.parse(source: Source(body: text, name: path))
        } catch let error as GraphQLError {
            let location = error.locations.first
            throw GraphQLSourceError(
                file: path, line: location?.line, column: location?.column, "GraphQL syntax: \(error.message)")
        } catch {
            throw GraphQLSourceError(file: path, "GraphQL syntax: \(error)")
        }
    }

    /// Parses a document and validates it against a schema, reporting the first problem (and how many more).
    ///
    /// - Parameters:
    ///   - text: The GraphQL text.
    ///   - path: Where it came from, for errors.
    ///   - schema: The schema it must be valid against.
    /// - Returns: The document.
    /// - Throws: ``GraphQLSourceError`` at the first problem's line and column.
    package static func parseAndValidate(_ text: String, path: String, schema: GraphQLSchema)
        throws(GraphQLSourceError) -> Document
    {
        let document = try parse(text, path: path)
        let problems = validate(schema: schema, ast: document)
        if let first = problems.first {
            let location = first.locations.first
            let more = problems.count > 1 ? " (and \(problems.count - 1) more)" : ""
            throw GraphQLSourceError(
                file: path, line: location?.line, column: location?.column, first.message + more)
        }
        return document
    }
}
