package import ContentJSON
package import GraphQL

/// Parsing and validating GraphQL text, the one way every emulator, workspace reader and generator does it.
///
/// The text is scanned with the lexer's own rules before GraphQLSwift's recursive parser sees it (tokens and
/// nesting within ``GraphQLLimits``), the parsed document is measured with its fragments expanded (depth, fields,
/// aliases, fragments, directives), and only then validated, so no text of any size or shape can exhaust the stack
/// or make validation's quadratic rules run long. Errors carry their line and column.
package enum GraphQLSource {
    /// Parses a document within `limits`.
    ///
    /// - Parameters:
    ///   - text: The GraphQL text.
    ///   - path: Where it came from, for errors.
    ///   - limits: How large and deep it may be; a workspace file's by default.
    /// - Returns: The document.
    /// - Throws: ``GraphQLSourceError`` for text over a limit or not valid GraphQL syntax.
    package static func parse(_ text: String, path: String, limits: GraphQLLimits = .files)
        throws(GraphQLSourceError) -> Document
    {
        guard text.utf8.count <= limits.characters else {
            throw GraphQLSourceError(
                file: path,
                "the text is \(text.utf8.count) bytes long; at most \(limits.characters) are allowed"
                    + limits.advice("characters"), limit: "characters")
        }
        let scan = GraphQLTextScan(text, maximumTokens: limits.tokens, maximumDepth: limits.depth)
        switch scan.stop {
        case nil:
            break
        case .syntax(let message):
            throw GraphQLSourceError(file: path, line: scan.line, column: scan.column, "GraphQL syntax: \(message)")
        case .tooManyTokens:
            throw GraphQLSourceError(
                file: path, line: scan.line, column: scan.column,
                "the text has more than \(limits.tokens) tokens\(limits.advice("tokens"))", limit: "tokens")
        case .tooDeep:
            throw GraphQLSourceError(
                file: path, line: scan.line, column: scan.column,
                "the text nests more than \(limits.depth) levels deep\(limits.advice("depth"))",
                limit: "depth")
        }
        let document: Document
        do {
            document = try GraphQL.parse(source: Source(body: text, name: path))
        } catch let error as GraphQLError {
            let location = error.locations.first
            throw GraphQLSourceError(
                file: path, line: location?.line, column: location?.column, "GraphQL syntax: \(error.message)")
        } catch {
            throw GraphQLSourceError(file: path, "GraphQL syntax: \(error)")
        }
        try check(document, path: path, limits: limits)
        return document
    }

    /// Parses a document within `limits` and validates it against a schema, reporting the first problem (and how
    /// many more).
    ///
    /// - Parameters:
    ///   - text: The GraphQL text.
    ///   - path: Where it came from, for errors.
    ///   - schema: The schema it must be valid against.
    ///   - limits: How large and deep it may be.
    ///   - rules: The validation rules: GraphQL's, and any a service adds.
    /// - Returns: The document.
    /// - Throws: ``GraphQLSourceError`` at the first problem's line and column.
    package static func parseAndValidate(
        _ text: String, path: String, schema: GraphQLSchema, limits: GraphQLLimits = .files,
        rules: [@Sendable (ValidationContext) -> Visitor] = specifiedRules
    ) throws(GraphQLSourceError) -> Document {
        let document = try parse(text, path: path, limits: limits)
        let problems = validate(schema: schema, ast: document, rules: rules)
        if let first = problems.first {
            let location = first.locations.first
            let more = problems.count > 1 ? " (and \(problems.count - 1) more)" : ""
            throw GraphQLSourceError(
                file: path, line: location?.line, column: location?.column, first.message + more)
        }
        return document
    }

    /// Parses and validates a request's query, as a server answers it: every problem, each as a GraphQL error.
    ///
    /// - Parameters:
    ///   - text: The query text.
    ///   - schema: The schema.
    ///   - limits: The server's limits.
    ///   - rules: The validation rules: GraphQL's, and any a service adds.
    /// - Returns: The document, or the errors to answer with (one for text that does not parse or passes a
    ///   limit, every validation problem otherwise).
    package static func request(
        _ text: String, schema: GraphQLSchema, limits: GraphQLLimits,
        rules: [@Sendable (ValidationContext) -> Visitor] = specifiedRules
    ) -> Result<Document, GraphQLRequestErrors> {
        parsedRequest(text, limits: limits).flatMap { validated($0, schema: schema, rules: rules) }
    }

    /// Parses a request's query within the server's limits, for a caller that reads the document (its declared
    /// variables, say) before it is validated with ``validated(_:schema:)``.
    ///
    /// - Parameters:
    ///   - text: The query text.
    ///   - limits: The server's limits.
    /// - Returns: The document, or the one error to answer with.
    package static func parsedRequest(_ text: String, limits: GraphQLLimits) -> Result<Document, GraphQLRequestErrors> {
        do {
            return .success(try parse(text, path: "request", limits: limits))
        } catch {
            return .failure(GraphQLRequestErrors(errors: [error], stage: error.limit == nil ? .syntax : .limit))
        }
    }

    /// Validates a parsed request against the schema.
    ///
    /// - Parameters:
    ///   - document: A document ``parsedRequest(_:limits:)`` parsed.
    ///   - schema: The schema.
    ///   - rules: The validation rules: GraphQL's, and any a service adds.
    /// - Returns: The document, or every validation problem.
    package static func validated(
        _ document: Document, schema: GraphQLSchema, rules: [@Sendable (ValidationContext) -> Visitor] = specifiedRules
    ) -> Result<Document, GraphQLRequestErrors> {
        let problems = validate(schema: schema, ast: document, rules: rules)
        guard problems.isEmpty else {
            return .failure(
                GraphQLRequestErrors(
                    errors: problems.map {
                        GraphQLSourceError(
                            file: "request", line: $0.locations.first?.line, column: $0.locations.first?.column,
                            $0.message)
                    },
                    stage: .validation))
        }
        return .success(document)
    }

    /// Refuses a parsed document that passes a limit once its fragments are expanded.
    private static func check(_ document: Document, path: String, limits: GraphQLLimits) throws(GraphQLSourceError) {
        var fragments = 0
        for case let fragment as FragmentDefinition in document.definitions {
            fragments += 1
            if fragments > limits.fragments {
                let location = fragment.loc?.startToken
                throw GraphQLSourceError(
                    file: path, line: location?.line, column: location?.column,
                    "the document defines more than \(limits.fragments) fragments"
                        + limits.advice("fragments"), limit: "fragments")
            }
        }
        let measured = GraphQLDocumentCost(document, maximumDepth: limits.depth)
        let over: (name: String, message: String)? =
            if measured.directives > limits.directives {
                (
                    "directives",
                    "one node has \(measured.directives) directives; at most \(limits.directives) are allowed"
                )
            } else if measured.cost.depth > limits.depth {
                ("depth", "the selections nest more than \(limits.depth) levels deep with fragments expanded")
            } else if measured.cost.aliases > limits.aliases {
                (
                    "aliases",
                    "an operation has \(measured.cost.aliases) aliases with fragments expanded; at most "
                        + "\(limits.aliases) are allowed"
                )
            } else if measured.cost.fields > limits.fields {
                (
                    "fields",
                    "an operation selects \(measured.cost.fields) fields with fragments expanded; at most "
                        + "\(limits.fields) are allowed"
                )
            } else {
                nil
            }
        guard let over else { return }
        let location = over.name == "directives" ? measured.directivesLocation?.startToken : nil
        throw GraphQLSourceError(
            file: path, line: location?.line, column: location?.column,
            "\(over.message)\(limits.advice(over.name))", limit: over.name)
    }
}

/// Why a server refuses a request's query: GraphQL errors, each with its line and column.
package struct GraphQLRequestErrors: Error {
    /// The errors.
    package var errors: [GraphQLSourceError]
    /// Which check refused the query.
    package var stage: Stage

    /// A check a query passes before it executes.
    package enum Stage: Sendable {
        /// It does not parse.
        case syntax
        /// It passes one of the server's ``GraphQLLimits``.
        case limit
        /// It is not valid against the schema.
        case validation
    }

    /// The errors as a GraphQL response's `errors` array members: `message` and `locations`.
    package var json: [JSONValue] {
        errors.map { error in
            var object: JSONObject = ["message": .string(error.message)]
            if let line = error.line {
                object["locations"] = .array([
                    .object(["line": .number(JSONNumber(line)), "column": .number(JSONNumber(error.column ?? 1))])
                ])
            }
            return .object(object)
        }
    }

    /// The first error's message, with how many more there are.
    package var summary: String {
        guard let first = errors.first else { return "the query is not valid" }
        return errors.count > 1 ? "\(first.message) (and \(errors.count - 1) more)" : first.message
    }
}
