import ContentGraphQL
import Testing

struct GraphQLSchemaShapeTests {
    private func shape(_ text: String) throws -> GraphQLSchemaShape {
        try GraphQLSchemaShape(files: [("schema.gql", text)])
    }

    @Test func identicalSchemasWrittenDifferentlyHaveNoDifferences() throws {
        let ours = try shape(
            """
            type Query { movies(limit: Int = 100, where: Movie_Filter): [Movie!]! }
            type Movie { title: String! }
            input Movie_Filter { title: String_Filter }
            input String_Filter { eq: String }
            enum Genre { DRAMA SCIFI }
            directive @auth(level: String) on QUERY
            """)
        // Other order, descriptions, comments, directives on definitions, and an extension.
        let theirs = try shape(
            """
            # The reference.
            enum Genre { SCIFI DRAMA }
            \"""A film.\"""
            type Movie @table { title: String! }
            type Query
            extend type Query { movies(where: Movie_Filter, limit: Int): [Movie!]! @generated }
            input String_Filter { eq: String }
            input Movie_Filter { title: String_Filter }
            directive @auth(level: String) on QUERY | MUTATION
            """)
        #expect(ours.differences(from: theirs) == [])
    }

    @Test func everyKindOfDifferenceIsOneSortedLine() throws {
        let ours = try shape(
            """
            type Query { movie(id: UUID, id_expr: String): Movie, extra: Int }
            type Movie { title: String, year: Int! }
            input Movie_Filter { title: String }
            enum Genre { DRAMA OLD }
            scalar UUID
            union Result = Movie
            directive @check(message: String) on FIELD
            """)
        let theirs = try shape(
            """
            type Query { movie(id: UUID, key: Movie_Key): Movie }
            type Movie { title: String!, year: Int!, _id: ID! }
            input Movie_Key { id: UUID }
            type Movie_Filter { title: String }
            enum Genre { DRAMA NEW }
            scalar UUID
            union Result = Movie | Movie_Key
            directive @check(message: String!) on FIELD
            directive @redact on FIELD
            """)
        #expect(
            ours.differences(from: theirs) == [
                "missing Genre.NEW",
                "extra Genre.OLD",
                "missing Movie._id: ID!",
                "Movie.title: String here, String! in the reference",
                "Movie_Filter is a input here and a type in the reference",
                "missing input Movie_Key",
                "extra Query.extra: Int",
                "extra Query.movie(id_expr: String)",
                "missing Query.movie(key: Movie_Key)",
                "missing Result.Movie_Key",
                "@check(message): String here, String! in the reference",
                "missing @redact",
            ])
    }

    @Test func aFileOfCommentsDefinesNothingAndASyntaxErrorIsPlaced() throws {
        #expect(try shape("# nothing yet\n").types.isEmpty)
        #expect(throws: GraphQLSourceError.self) { try shape("type Query {\n  broken(\n}\n") }
        do {
            _ = try GraphQLSchemaShape(files: [("schema.gql", "type Query {\n  broken(\n}\n")])
        } catch {
            #expect(error.file == "schema.gql" && error.line == 3, "\(error)")
        }
    }
}
