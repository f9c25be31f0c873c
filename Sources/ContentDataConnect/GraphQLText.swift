internal import ContentGraphQL
internal import ContentJSON
internal import GraphQL

/// Reading GraphQL source with GraphQLSwift's parser, and the small AST questions the workspace asks.
enum GraphQLText {
    /// Parses a file, turning a syntax error into a positioned workspace error.
    static func parse(_ text: String, path: String) throws(DataConnectWorkspaceError) -> Document {
        do {
            return try GraphQLSource.parse(text, path: path)
        } catch {
            throw DataConnectWorkspaceError(error)
        }
    }

    /// The definitions of a file; none for a file of comments and blank lines, which Firebase accepts (the
    /// parser alone would call it a syntax error, "Unexpected <EOF>").
    static func definitions(_ text: String, path: String) throws(DataConnectWorkspaceError) -> [any Definition] {
        let scan = GraphQLTextScan(text, maximumTokens: 1, maximumDepth: GraphQLLimits.files.depth)
        if scan.stop == nil, scan.tokens == 0 { return [] }
        return try parse(text, path: path).definitions
    }

    /// Where a node starts.
    static func position(_ location: Location?, path: String) -> SourcePosition {
        SourcePosition(file: path, line: location?.startToken.line ?? 1, column: location?.startToken.column ?? 1)
    }

    /// The named type under list and non-null wrappers, whether it is a list, and whether it is required.
    static func unwrap(_ type: any GraphQL.`Type`) -> (name: String, isList: Bool, isRequired: Bool) {
        switch type {
        case let nonNull as NonNullType:
            let inner = unwrap(nonNull.type)
            return (inner.name, inner.isList, true)
        case let list as ListType:
            return (unwrap(list.type).name, true, false)
        case let named as NamedType:
            return (named.name.value, false, false)
        default:
            return ("", false, false)
        }
    }

    /// A string argument of a directive.
    static func string(_ directive: Directive?, _ argument: String) -> String? {
        guard let value = directive?.arguments.first(where: { $0.name.value == argument })?.value else { return nil }
        return (value as? StringValue)?.value ?? (value as? EnumValue)?.value
    }

    /// A string-or-list-of-strings argument of a directive (`key: "id"` or `key: ["movie", "user"]`).
    static func strings(_ directive: Directive?, _ argument: String) -> [String]? {
        guard let value = directive?.arguments.first(where: { $0.name.value == argument })?.value else { return nil }
        if let single = value as? StringValue { return [single.value] }
        if let list = value as? ListValue {
            return list.values.compactMap { ($0 as? StringValue)?.value ?? ($0 as? EnumValue)?.value }
        }
        return nil
    }

    /// A constant literal as JSON; `nil` when it holds a variable.
    static func json(_ value: any Value) -> JSONValue? {
        GraphQLJSON.literal(value)
    }
}
