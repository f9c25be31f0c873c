package import ContentJSON
internal import GraphQL

/// What a GraphQL schema offers a client, read from its SDL.
///
/// That is every type with its kind, fields, arguments, input fields, enum values and union members, and every
/// directive with its arguments, each type written with its nullability. Descriptions, directives applied to
/// definitions, and order are left out: they do not change which documents validate.
///
/// Two shapes compare into the list of what one offers and the other does not, which is how the schema a local
/// emulator generates is held to the one the real service generated for the same workspace.
package struct GraphQLSchemaShape: Sendable, Equatable {
    /// A field, an input field or a directive: its type (none for a directive) and its arguments' types.
    package struct Member: Sendable, Equatable {
        package var type: String
        package var arguments: [String: String]
    }

    /// One named type.
    package struct TypeShape: Sendable, Equatable {
        /// `type`, `input`, `enum`, `scalar`, `union` or `interface`.
        package var kind: String
        /// Fields, or input fields.
        package var members: [String: Member] = [:]
        /// Enum values, or union members.
        package var values: Set<String> = []
    }

    package private(set) var types: [String: TypeShape] = [:]
    package private(set) var directives: [String: Member] = [:]

    /// The shape of SDL files read together; `extend` definitions add to the type they name.
    ///
    /// - Parameter files: Each file's path and text.
    /// - Throws: ``GraphQLSourceError`` at the file, line and column of a syntax error.
    package init(files: [(path: String, text: String)]) throws(GraphQLSourceError) {
        for file in files {
            // A file of comments alone defines nothing (the parser would call it a syntax error).
            let scan = GraphQLTextScan(file.text, maximumTokens: 1, maximumDepth: GraphQLLimits.files.depth)
            if scan.stop == nil, scan.tokens == 0 { continue }
            for definition in try GraphQLSource.parse(file.text, path: file.path).definitions {
                add(definition)
            }
        }
    }

    /// The shape of an introspection result (`{"data": {"__schema": …}}`, or the `__schema` object's parent), as a
    /// real service answers the standard introspection query; the introspection types themselves are left out.
    ///
    /// It is `nil` when the JSON holds no `__schema.types`.
    ///
    /// - Parameter introspection: The parsed JSON.
    package init?(introspection: JSONValue) {
        let schema = introspection["data"]?["__schema"] ?? introspection["__schema"]
        guard let entries = schema?["types"]?.arrayValue else { return nil }
        func written(_ reference: JSONValue?) -> String {
            switch reference?["kind"]?.stringValue {
            case "NON_NULL": return written(reference?["ofType"]) + "!"
            case "LIST": return "[" + written(reference?["ofType"]) + "]"
            default: return reference?["name"]?.stringValue ?? "?"
            }
        }
        func arguments(_ list: JSONValue?) -> [String: String] {
            var found: [String: String] = [:]
            for argument in list?.arrayValue ?? [] {
                if let name = argument["name"]?.stringValue { found[name] = written(argument["type"]) }
            }
            return found
        }
        let kinds = [
            "OBJECT": "type", "INPUT_OBJECT": "input", "ENUM": "enum", "SCALAR": "scalar", "UNION": "union",
            "INTERFACE": "interface",
        ]
        for entry in entries {
            guard let name = entry["name"]?.stringValue, !name.hasPrefix("__"),
                let kind = entry["kind"]?.stringValue.flatMap({ kinds[$0] })
            else { continue }
            var shape = TypeShape(kind: kind)
            for field in (entry["fields"]?.arrayValue ?? []) + (entry["inputFields"]?.arrayValue ?? []) {
                guard let fieldName = field["name"]?.stringValue else { continue }
                shape.members[fieldName] = Member(type: written(field["type"]), arguments: arguments(field["args"]))
            }
            for value in (entry["enumValues"]?.arrayValue ?? []) + (entry["possibleTypes"]?.arrayValue ?? []) {
                if let valueName = value["name"]?.stringValue { shape.values.insert(valueName) }
            }
            types[name] = shape
        }
        for directive in schema?["directives"]?.arrayValue ?? [] {
            if let name = directive["name"]?.stringValue {
                directives[name] = Member(type: "", arguments: arguments(directive["args"]))
            }
        }
    }

    private mutating func add(_ definition: any Definition) {
        switch definition {
        case let object as ObjectTypeDefinition:
            addFields(object.name.value, kind: "type", object.fields)
        case let extended as TypeExtensionDefinition:
            addFields(extended.definition.name.value, kind: "type", extended.definition.fields)
        case let interface as InterfaceTypeDefinition:
            addFields(interface.name.value, kind: "interface", interface.fields)
        case let extended as InterfaceExtensionDefinition:
            addFields(extended.definition.name.value, kind: "interface", extended.definition.fields)
        case let input as InputObjectTypeDefinition:
            addInputFields(input.name.value, input.fields)
        case let extended as InputObjectExtensionDefinition:
            addInputFields(extended.definition.name.value, extended.definition.fields)
        case let enumeration as EnumTypeDefinition:
            types[enumeration.name.value, default: TypeShape(kind: "enum")].values.formUnion(
                enumeration.values.map(\.name.value))
        case let extended as EnumExtensionDefinition:
            types[extended.definition.name.value, default: TypeShape(kind: "enum")].values.formUnion(
                extended.definition.values.map(\.name.value))
        case let union as UnionTypeDefinition:
            types[union.name.value, default: TypeShape(kind: "union")].values.formUnion(union.types.map(\.name.value))
        case let extended as UnionExtensionDefinition:
            types[extended.definition.name.value, default: TypeShape(kind: "union")].values.formUnion(
                extended.definition.types.map(\.name.value))
        case let scalar as ScalarTypeDefinition:
            types[scalar.name.value] = types[scalar.name.value] ?? TypeShape(kind: "scalar")
        case let directive as DirectiveDefinition:
            directives[directive.name.value] = Member(type: "", arguments: Self.arguments(directive.arguments))
        default:
            break
        }
    }

    private mutating func addFields(_ name: String, kind: String, _ fields: [FieldDefinition]) {
        var shape = types[name] ?? TypeShape(kind: kind)
        for field in fields {
            shape.members[field.name.value] = Member(
                type: Self.written(field.type), arguments: Self.arguments(field.arguments))
        }
        types[name] = shape
    }

    private mutating func addInputFields(_ name: String, _ fields: [InputValueDefinition]) {
        var shape = types[name] ?? TypeShape(kind: "input")
        for field in fields { shape.members[field.name.value] = Member(type: Self.written(field.type), arguments: [:]) }
        types[name] = shape
    }

    private static func arguments(_ values: [InputValueDefinition]) -> [String: String] {
        Dictionary(values.map { ($0.name.value, written($0.type)) }, uniquingKeysWith: { first, _ in first })
    }

    /// `[Movie!]!`.
    private static func written(_ type: any GraphQL.`Type`) -> String {
        switch type {
        case let nonNull as NonNullType: return written(nonNull.type) + "!"
        case let list as ListType: return "[" + written(list.type) + "]"
        case let named as NamedType: return named.name.value
        default: return "?"
        }
    }

    /// What this schema and a reference do not share, one line each, sorted: `missing` for what only the reference
    /// has, `extra` for what only this one has, and both types where they differ.
    ///
    /// - Parameter reference: The schema to match.
    /// - Returns: The differences; none when a document validates against one exactly when it validates against
    ///   the other.
    package func differences(from reference: GraphQLSchemaShape) -> [String] {
        var lines: [String] = []
        for name in Set(types.keys).union(reference.types.keys).sorted() {
            switch (types[name], reference.types[name]) {
            case (nil, let theirs?):
                lines.append("missing \(theirs.kind) \(name)")
            case (let ours?, nil):
                lines.append("extra \(ours.kind) \(name)")
            case (let ours?, let theirs?):
                guard ours.kind == theirs.kind else {
                    lines.append("\(name) is a \(ours.kind) here and a \(theirs.kind) in the reference")
                    continue
                }
                lines += Self.differences(ours.members, theirs.members, in: name, separator: ".")
                for value in theirs.values.subtracting(ours.values).sorted() {
                    lines.append("missing \(name).\(value)")
                }
                for value in ours.values.subtracting(theirs.values).sorted() { lines.append("extra \(name).\(value)") }
            case (nil, nil):
                break
            }
        }
        lines += Self.differences(directives, reference.directives, in: "", separator: "@")
        return lines
    }

    private static func differences(
        _ ours: [String: Member], _ theirs: [String: Member], in owner: String, separator: String
    ) -> [String] {
        var lines: [String] = []
        for name in Set(ours.keys).union(theirs.keys).sorted() {
            let path = owner + separator + name
            switch (ours[name], theirs[name]) {
            case (nil, let reference?):
                lines.append("missing \(path)" + (reference.type.isEmpty ? "" : ": \(reference.type)"))
            case (let here?, nil):
                lines.append("extra \(path)" + (here.type.isEmpty ? "" : ": \(here.type)"))
            case (let here?, let reference?):
                if here.type != reference.type {
                    lines.append("\(path): \(here.type) here, \(reference.type) in the reference")
                }
                for argument in Set(here.arguments.keys).union(reference.arguments.keys).sorted() {
                    switch (here.arguments[argument], reference.arguments[argument]) {
                    case (nil, let type?): lines.append("missing \(path)(\(argument): \(type))")
                    case (let type?, nil): lines.append("extra \(path)(\(argument): \(type))")
                    case (let a?, let b?) where a != b:
                        lines.append("\(path)(\(argument)): \(a) here, \(b) in the reference")
                    default: break
                    }
                }
            case (nil, nil):
                break
            }
        }
        return lines
    }
}
