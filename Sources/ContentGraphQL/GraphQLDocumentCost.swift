internal import GraphQL

/// What executing a parsed document could cost, with every fragment spread expanded: the deepest selection, the
/// fields and the aliases one operation asks for, and the most directives on one node.
///
/// The text scan bounds what the parser does; this bounds what validation and execution do, which follow fragment
/// spreads (a chain of fragments nests without a single deep brace). Fragments are measured once each and the sums
/// saturate, so a document of ``GraphQLLimits/tokens`` tokens is measured in time linear in its size even when its
/// fragments would expand exponentially. A spread of an unknown fragment or one on a cycle counts nothing here;
/// validation reports both.
struct GraphQLDocumentCost {
    /// One selection set's cost.
    struct Cost {
        var depth = 0
        var fields = 0
        var aliases = 0

        mutating func add(_ other: Cost, nesting: Int = 0) {
            depth = max(depth, Self.sum(other.depth, nesting))
            fields = Self.sum(fields, other.fields)
            aliases = Self.sum(aliases, other.aliases)
        }

        static func sum(_ first: Int, _ second: Int) -> Int {
            let (total, overflow) = first.addingReportingOverflow(second)
            return overflow ? Int.max : total
        }
    }

    /// The costliest operation's figures (each the maximum over the operations).
    var cost = Cost()
    /// The most directives on one node.
    var directives = 0
    /// Where that node is.
    var directivesLocation: Location?

    private var fragmentDefinitions: [String: FragmentDefinition] = [:]
    private var fragmentCosts: [String: Cost] = [:]
    private var expanding: Set<String> = []
    private let maximumLevel: Int

    /// Measures a document.
    ///
    /// - Parameters:
    ///   - document: The parsed document.
    ///   - maximumDepth: The depth past which nothing is followed: the cost is then ``Int/max`` deep.
    init(_ document: Document, maximumDepth: Int) {
        maximumLevel = maximumDepth
        for case let fragment as FragmentDefinition in document.definitions {
            fragmentDefinitions[fragment.name.value] = fragment
        }
        for definition in document.definitions {
            if let operation = definition as? OperationDefinition {
                count(operation.directives)
                for variable in operation.variableDefinitions { count(variable.directives) }
                let operationCost = measure(operation.selectionSet, level: 1)
                cost.depth = max(cost.depth, operationCost.depth)
                cost.fields = max(cost.fields, operationCost.fields)
                cost.aliases = max(cost.aliases, operationCost.aliases)
            } else if let fragment = definition as? FragmentDefinition {
                count(fragment.directives)
                _ = fragmentCost(fragment.name.value, level: 1)
            }
        }
    }

    private mutating func count(_ list: [Directive]) {
        if list.count > directives {
            directives = list.count
            directivesLocation = list.first?.loc
        }
    }

    /// A selection set's cost.
    ///
    /// `level` counts fields, spreads and inline fragments entered on the way here, so a
    /// chain of spreads cannot recurse deeper than a chain of fields may nest.
    private mutating func measure(_ set: SelectionSet, level: Int) -> Cost {
        var total = Cost()
        guard level <= maximumLevel else { return Cost(depth: .max) }
        for selection in set.selections {
            switch selection {
            case let field as Field:
                count(field.directives)
                var fieldCost = Cost(depth: 1, fields: 1, aliases: field.alias == nil ? 0 : 1)
                if let subselection = field.selectionSet {
                    let inner = measure(subselection, level: level + 1)
                    fieldCost.add(inner, nesting: 1)
                }
                total.add(fieldCost)
            case let spread as FragmentSpread:
                count(spread.directives)
                total.add(fragmentCost(spread.name.value, level: level + 1))
            case let inline as InlineFragment:
                count(inline.directives)
                total.add(measure(inline.selectionSet, level: level + 1))
            default:
                break
            }
        }
        return total
    }

    private mutating func fragmentCost(_ name: String, level: Int) -> Cost {
        if let known = fragmentCosts[name] { return known }
        guard let fragment = fragmentDefinitions[name], !expanding.contains(name) else { return Cost() }
        expanding.insert(name)
        let measured = measure(fragment.selectionSet, level: level)
        expanding.remove(name)
        fragmentCosts[name] = measured
        return measured
    }
}
