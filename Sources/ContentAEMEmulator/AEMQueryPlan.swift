internal import ContentAEM
internal import ContentGraphQL
internal import ContentJSON
internal import GraphQL
internal import OrderedCollections

/// A query planned once per document, for the shape apps send over and over: one operation whose root fields list
/// a model's fragments or pick one by path or id, selecting fields, references and `_references` through fragments
/// and inline fragments.
///
/// GraphQLSwift's executor completes every field of every item in a child task of its own, finds each field's value
/// through reflection and dynamic casts, and collects each object's fields from the document again. A plan collects
/// the fields once per object type (as GraphQLSwift's `collectFields` does: first appearance orders the keys, fields
/// of one key merge), and a request then calls the same code the resolvers call (``AEMGraphQLEngine/list(_:args:)``
/// and ``AEMGraphQLEngine/single(_:args:byID:)``, ``AEMGraphQLEngine/resolve(_:field:)``, ``AEMGraphQLEngine/references(of:transform:)``) and
/// completes the values in place, with GraphQLSwift's own serializers and its rules: a null in a list is left out,
/// a missing value is `null`.
///
/// A plan answers only when it is certain to answer as the executor would. A document of any other shape (several
/// operations, directives, arguments below the root, paginated lists, introspection, input-object variables) has no
/// plan, and a request whose variables GraphQL would refuse, or whose run meets any error (a fragment not found, a
/// null where the type forbids one), goes to the executor, which answers with its partial data and its words. The
/// tests run queries both ways and compare the bytes.
struct AEMQueryPlan: Sendable {
    let operationName: String?
    let variables: [GraphQLDeclaredVariable]
    let roots: [Root]

    /// A root field.
    struct Root: Sendable {
        /// The response key: the alias, or the field's name.
        let key: String
        let kind: Kind
        /// Every argument the field defines, as GraphQL hands them to the resolver.
        let arguments: [(name: String, value: GraphQLArgumentTemplate)]
        let output: Output
    }

    /// What a root field reads.
    enum Kind: Sendable {
        case list(ContentFragmentModel)
        case byPath(ContentFragmentModel)
        case byID(ContentFragmentModel)
        /// `__typename` of the query type.
        case typename(String)
    }

    /// How a value of a field's type is completed.
    indirect enum Output: Sendable {
        case nonNull(Output)
        case list(Output)
        case leaf(any GraphQLLeafType)
        case object(Object)
        /// A union or interface: the object plan for each possible type, by name.
        case abstract([String: Object])
    }

    /// The fields selected on one object type, in response order.
    struct Object: Sendable {
        let typeName: String
        let fields: [Selected]
    }

    /// A selected field of an object.
    struct Selected: Sendable {
        let key: String
        let source: Source
        let output: Output
    }

    /// Where a selected field's value comes from.
    enum Source: Sendable {
        case typename
        /// The rendered object's value of that name, as GraphQLSwift's default resolver reads it.
        case value(String)
        /// A reference field, loaded now (``AEMGraphQLEngine/resolve(_:field:)``).
        case reference(ContentFragmentModel.Field)
        /// `_references` of a list or a single result.
        case references
    }

    private typealias NotPlannable = GraphQLArgumentTemplate.NotPlannable

    /// How many fields a plan may hold once every possible type of every union is planned: beyond it the executor
    /// runs the document (it is within the server's limits, but would take long to plan).
    private static let maximumFields = 4_000

    /// Plans a validated document, or answers `nil` when its shape needs the executor.
    ///
    /// - Parameters:
    ///   - document: The validated document.
    ///   - schema: The schema it was validated against, with the engine's resolvers attached.
    ///   - models: The models, by name.
    init?(document: Document, schema: GraphQLSchema, models: [String: ContentFragmentModel]) {
        var operations: [OperationDefinition] = []
        var fragments: [String: FragmentDefinition] = [:]
        for definition in document.definitions {
            if let operation = definition as? OperationDefinition { operations.append(operation) }
            if let fragment = definition as? FragmentDefinition { fragments[fragment.name.value] = fragment }
        }
        guard operations.count == 1, let operation = operations.first, operation.operation == .query,
            operation.directives.isEmpty, let query = schema.queryType, let rootFields = try? query.fields()
        else { return nil }
        var builder = Builder(
            schema: schema, fragments: fragments,
            modelsByType: Dictionary(
                models.values.map { ($0.typeName, $0) }, uniquingKeysWith: { first, _ in first }))
        do {
            variables = try operation.variableDefinitions.map { definition throws(NotPlannable) in
                try GraphQLDeclaredVariable(definition, schema: schema)
            }
            var roots: [Root] = []
            for (key, fields) in try builder.collect([operation.selectionSet], on: query) {
                guard let field = fields.first else { continue }
                let name = field.name.value
                if name == "__typename" {
                    roots.append(
                        Root(key: key, kind: .typename(query.name), arguments: [], output: .leaf(GraphQLString)))
                    continue
                }
                guard fields.count == 1, let definition = rootFields[name],
                    let kind = Self.rootKind(name, models: models)
                else { throw NotPlannable() }
                roots.append(
                    Root(
                        key: key, kind: kind,
                        arguments: try GraphQLArgumentTemplate.arguments(of: field, definition: definition),
                        output: try builder.output(definition.type, fields: fields)))
            }
            self.roots = roots
        } catch {
            return nil
        }
        operationName = operation.name?.value
    }

    /// The model and kind of a root field the plan runs: `xList`, `xByPath`, `xById`.
    private static func rootKind(_ name: String, models: [String: ContentFragmentModel]) -> Kind? {
        let kinds: [(suffix: String, kind: (ContentFragmentModel) -> Kind)] = [
            ("List", Kind.list), ("ByPath", Kind.byPath), ("ById", Kind.byID),
        ]
        for (suffix, kind) in kinds where name.hasSuffix(suffix) {
            if let model = models[String(name.dropLast(suffix.count))] { return kind(model) }
        }
        return nil
    }

    /// Collects fields and plans outputs, counting what it plans.
    private struct Builder {
        let schema: GraphQLSchema
        let fragments: [String: FragmentDefinition]
        let modelsByType: [String: ContentFragmentModel]
        var planned = 0

        /// The fields the selection sets select on `type`, by response key, as GraphQLSwift's `collectFields`
        /// collects them.
        func collect(_ selectionSets: [SelectionSet], on type: GraphQLObjectType) throws(NotPlannable)
            -> OrderedDictionary<String, [Field]>
        {
            var fields = OrderedDictionary<String, [Field]>()
            var visited = Set<String>()
            for selectionSet in selectionSets {
                try collect(selectionSet, on: type, into: &fields, visited: &visited)
            }
            return fields
        }

        private func collect(
            _ selectionSet: SelectionSet, on type: GraphQLObjectType,
            into fields: inout OrderedDictionary<String, [Field]>,
            visited: inout Set<String>
        ) throws(NotPlannable) {
            for selection in selectionSet.selections {
                switch selection {
                case let field as Field:
                    guard field.directives.isEmpty else { throw NotPlannable() }
                    fields[field.alias?.value ?? field.name.value, default: []].append(field)
                case let inline as InlineFragment:
                    guard inline.directives.isEmpty else { throw NotPlannable() }
                    if matches(inline.typeCondition, type) {
                        try collect(inline.selectionSet, on: type, into: &fields, visited: &visited)
                    }
                case let spread as FragmentSpread:
                    guard spread.directives.isEmpty else { throw NotPlannable() }
                    let name = spread.name.value
                    guard visited.insert(name).inserted else { continue }
                    guard let fragment = fragments[name], fragment.directives.isEmpty else { throw NotPlannable() }
                    if matches(fragment.typeCondition, type) {
                        try collect(fragment.selectionSet, on: type, into: &fields, visited: &visited)
                    }
                default:
                    throw NotPlannable()
                }
            }
        }

        /// GraphQLSwift's `doesFragmentConditionMatch`.
        private func matches(_ condition: NamedType?, _ type: GraphQLObjectType) -> Bool {
            guard let condition, let conditional = schema.getType(name: condition.name.value) else { return true }
            if let object = conditional as? GraphQLObjectType { return object.name == type.name }
            if let abstract = conditional as? any GraphQLAbstractType {
                return schema.isSubType(abstractType: abstract, maybeSubType: type)
            }
            return false
        }

        /// How values of `type` are completed for the merged selections of `fields`.
        mutating func output(_ type: any GraphQLType, fields: [Field]) throws(NotPlannable) -> Output {
            switch type {
            case let nonNull as GraphQLNonNull:
                return .nonNull(try output(nonNull.ofType, fields: fields))
            case let list as GraphQLList:
                return .list(try output(list.ofType, fields: fields))
            case let leaf as any GraphQLLeafType:
                return .leaf(leaf)
            case let object as GraphQLObjectType:
                return .object(try self.object(object, fields: fields))
            case let abstract as any GraphQLAbstractType:
                var objects: [String: Object] = [:]
                for possible in schema.getPossibleTypes(abstractType: abstract) {
                    objects[possible.name] = try self.object(possible, fields: fields)
                }
                return .abstract(objects)
            default:
                throw NotPlannable()
            }
        }

        private mutating func object(_ type: GraphQLObjectType, fields: [Field]) throws(NotPlannable) -> Object {
            guard let definitions = try? type.fields() else { throw NotPlannable() }
            var selected: [Selected] = []
            for (key, merged) in try collect(fields.compactMap(\.selectionSet), on: type) {
                planned += 1
                guard planned <= AEMQueryPlan.maximumFields, let field = merged.first else { throw NotPlannable() }
                let name = field.name.value
                if name == "__typename" {
                    selected.append(Selected(key: key, source: .typename, output: .leaf(GraphQLString)))
                    continue
                }
                // Below the root only the engine's resolvers read arguments, and those it plans take none.
                guard merged.allSatisfy(\.arguments.isEmpty), let definition = definitions[name] else {
                    throw NotPlannable()
                }
                let source: Source
                if definition.resolve == nil {
                    source = .value(name)
                } else if let model = modelsByType[type.name],
                    let modelField = model.fields.first(where: { $0.name == name }),
                    modelField.type == .fragmentReference || modelField.type == .contentReference
                {
                    source = .reference(modelField)
                } else if name == "_references", type.name.hasSuffix("Result") || type.name.hasSuffix("Results") {
                    source = .references
                } else {
                    throw NotPlannable()
                }
                selected.append(Selected(key: key, source: source, output: try output(definition.type, fields: merged)))
            }
            return Object(typeName: type.name, fields: selected)
        }
    }
}

// MARK: - Running

extension AEMGraphQLEngine {
    /// A planned run that met something only the executor answers exactly.
    private struct NeedsExecutor: Error {}

    /// Runs a plan, or answers `nil` for the executor to run the document (see ``AEMQueryPlan``).
    ///
    /// - Parameters:
    ///   - plan: The plan.
    ///   - variables: The request's variables.
    ///   - operationName: The operation the request names, if any.
    /// - Returns: The response body, or `nil`.
    func run(_ plan: AEMQueryPlan, variables: JSONObject, operationName: String?) -> JSONValue? {
        guard operationName == nil || operationName == plan.operationName else { return nil }
        guard let coerced = GraphQLDeclaredVariable.coerced(plan.variables, given: GraphQLJSON.variables(variables))
        else { return nil }
        let data: OrderedDictionary<String, Map>
        do {
            // The executor's time budget, seen by every check the resolvers' code makes as it goes.
            data = try PlannedRun.$deadline.withValue(.now + .seconds(limits.seconds)) {
                try complete(plan.roots, coerced)
            }
        } catch is PlannedRun.TimedOut {
            // As the executor answers a run past its time.
            let message = GraphQLExecutionTimeout(seconds: limits.seconds).description
            return .object(["errors": .array([.object(["message": .string(message)])])])
        } catch {
            return nil
        }
        return .object(["data": Self.wholeNumbers(GraphQLJSON.json(.dictionary(data)))])
    }

    /// The root fields' values, or a throw for the executor to run the document.
    private func complete(_ roots: [AEMQueryPlan.Root], _ coerced: [String: Map]) throws
        -> OrderedDictionary<String, Map>
    {
        var data = OrderedDictionary<String, Map>()
        for root in roots {
            try Self.checkRequest()
            guard let args = GraphQLArgumentTemplate.filled(root.arguments, coerced) else { throw NeedsExecutor() }
            let value: [String: any Sendable]
            switch root.kind {
            case .typename(let name):
                data[root.key] = .string(name)
                continue
            case .list(let model): value = try list(model, args: args)
            case .byPath(let model): value = try single(model, args: args, byID: false)
            case .byID(let model): value = try single(model, args: args, byID: true)
            }
            data[root.key] = try complete(root.output, value) ?? .null
        }
        return data
    }

    /// A value completed as GraphQLSwift's `completeValue` completes it; `nil` for null.
    private func complete(_ output: AEMQueryPlan.Output, _ value: (any Sendable)?) throws -> Map? {
        if case .nonNull(let inner) = output {
            guard let completed = try complete(inner, value) else { throw NeedsExecutor() }
            return completed
        }
        guard let value else { return nil }
        switch output {
        case .nonNull:
            throw NeedsExecutor()
        case .list(let item):
            guard let elements = value as? [(any Sendable)?] else { throw NeedsExecutor() }
            var completed: [Map] = []
            completed.reserveCapacity(elements.count)
            for element in elements {
                try Self.checkRequest()
                // GraphQLSwift leaves a null out of a list.
                if let one = try complete(item, element) { completed.append(one) }
            }
            return .array(completed)
        case .leaf(let leaf):
            return try leaf.serialize(value: value)
        case .object(let object):
            guard let source = value as? [String: any Sendable] else { throw NeedsExecutor() }
            return try complete(object, source)
        case .abstract(let objects):
            guard let source = value as? [String: any Sendable], let typeName = source["__typename"] as? String,
                let object = objects[typeName]
            else { throw NeedsExecutor() }
            return try complete(object, source)
        }
    }

    private func complete(_ object: AEMQueryPlan.Object, _ source: [String: any Sendable]) throws
        -> Map
    {
        var fields = OrderedDictionary<String, Map>()
        fields.reserveCapacity(object.fields.count)
        for field in object.fields {
            let value: (any Sendable)?
            switch field.source {
            case .typename:
                fields[field.key] = .string(object.typeName)
                continue
            case .value(let name):
                value = source[name]
            case .reference(let modelField):
                value = try (source[Self.pendingKey(modelField.name)] as? PendingReference).flatMap {
                    try resolve($0, field: modelField)
                }
            case .references:
                value = try (source["_references"] as? PendingReferences).map {
                    try references(of: $0.fragments, transform: $0.transform)
                }
            }
            fields[field.key] = try complete(field.output, value) ?? .null
        }
        return .dictionary(fields)
    }
}
