package import GraphQL
internal import OrderedCollections

/// Building an executable schema from SDL, the one way the emulators and the generators do it.
package enum GraphQLSchemaBuilding {
    /// Builds the schema the SDL describes, with every input object's fields made once.
    ///
    /// GraphQLSwift's `buildSchema` gives each input object a thunk that rebuilds its field map from the AST, and
    /// its `GraphQLInputObjectType` (unlike its object types) calls the thunk on every coercion of an argument or
    /// variable: a third of a Data Connect query's CPU time went there, for filter types of dozens of fields.
    /// The thunks are replaced with their result here, as the type's documentation allows before execution.
    ///
    /// - Parameter source: The SDL.
    /// - Returns: The schema.
    /// - Throws: GraphQLSwift's error for SDL that does not make a valid schema.
    package static func build(source: String) throws -> GraphQLSchema {
        let schema = try buildSchema(source: source)
        for type in schema.typeMap.values {
            guard let input = type as? GraphQLInputObjectType else { continue }
            let fields = try input.fields()
            input.fields = { fields }
        }
        return schema
    }
}
