import ContentJSON
import ContentTesting
import Foundation
import Testing

@testable import ContentDataConnect

struct DataConnectSchemaTests {
    /// `examples/dataconnect/schema/schema.gql` in the repository.
    private static let exampleSchemaFile = TestLocations.examples.appendingPathComponent(
        "dataconnect/schema/schema.gql")

    private func exampleSchema() throws -> DataConnectSchema {
        let data = try #require(FileManager.default.contents(atPath: Self.exampleSchemaFile.path))
        let text = try #require(String(data: data, encoding: .utf8))
        return try DataConnectSchema.parse(files: [(Self.exampleSchemaFile.path, text)])
    }

    private func parse(_ text: String) throws -> DataConnectSchema {
        try DataConnectSchema.parse(files: [("schema.gql", text)])
    }

    private func table(_ name: String, in schema: DataConnectSchema) throws -> DataConnectSchema.Table {
        try #require(schema.table(name), "no table \(name)")
    }

    // MARK: - The example schema

    @Test func exampleTablesTakeSnakeCaseSQLNamesOrTheDeclaredName() throws {
        let schema = try exampleSchema()
        #expect(
            schema.tables.map(\.typeName)
                == ["Movie", "MovieMetadata", "Actor", "MovieActor", "User", "Review", "GenreSummary"])
        #expect(
            schema.tables.map(\.sqlName)
                == ["movie", "movie_metadata", "actor", "movie_actor", "user", "reviews", "genre_summary"])
        #expect(schema.tables.map(\.isView) == [false, false, false, false, false, false, true])
        #expect(schema.enums.isEmpty)
    }

    @Test func exampleTablesDeriveSingularAndPluralFieldNames() throws {
        let schema = try exampleSchema()
        #expect(
            schema.tables.map(\.singular)
                == ["movie", "movieMetadata", "actor", "movieActor", "user", "review", "genreSummary"])
        #expect(
            schema.tables.map(\.plural)
                == ["movies", "movieMetadatas", "actors", "movieActors", "users", "reviews", "genreSummaries"])
    }

    @Test func tableWithoutAKeyGainsAGeneratedUUIDIdFirst() throws {
        let movie = try table("Movie", in: try exampleSchema())
        #expect(movie.key == ["id"])
        let id = try #require(movie.columns.first)
        #expect(id.field == "id")
        #expect(id.sqlName == "id")
        #expect(id.type == .uuid)
        #expect(id.isRequired)
        #expect(id.isList == false)
        #expect(id.defaultValue == .expression("uuidV4()"))
        #expect(id.foreignKeyOf == nil)
        #expect(movie.keyColumns.map(\.field) == ["id"])
    }

    @Test func declaredIdFieldKeepsItsTypeAndDefault() throws {
        let user = try table("User", in: try exampleSchema())
        #expect(user.key == ["id"])
        #expect(user.columns.map(\.field) == ["id", "username"])
        let id = try #require(user.column("id"))
        #expect(id.type == .string)
        #expect(id.isRequired)
        #expect(id.defaultValue == .expression("auth.uid"))
        // `@col(dataType:)` does not rename the column.
        #expect(user.column("username")?.sqlName == "username")
    }

    @Test func requiredUniqueReferenceBecomesAUniqueForeignKeyColumn() throws {
        let metadata = try table("MovieMetadata", in: try exampleSchema())
        #expect(metadata.columns.map(\.field) == ["id", "movieId", "director", "runtimeMinutes", "budget"])
        #expect(metadata.column("movie") == nil)
        let movieId = try #require(metadata.column("movieId"))
        #expect(movieId.sqlName == "movie_id")
        #expect(movieId.type == .uuid)
        #expect(movieId.isRequired)
        #expect(movieId.foreignKeyOf == "movie")
        let reference = try #require(metadata.reference("movie"))
        #expect(reference.target == "Movie")
        #expect(reference.isRequired)
        #expect(reference.isUnique)
        #expect(reference.columns.map(\.local) == ["movieId"])
        #expect(reference.columns.map(\.target) == ["id"])
        #expect(metadata.uniques == [["movieId"]])
        #expect(metadata.key == ["id"])
    }

    @Test func keyOfTwoReferencesBecomesTheirForeignKeyColumns() throws {
        let schema = try exampleSchema()
        let review = try table("Review", in: schema)
        #expect(review.key == ["movieId", "userId"])
        #expect(review.columns.map(\.field) == ["movieId", "userId", "rating", "text", "reviewDate"])
        #expect(review.column("movieId")?.type == .uuid)
        // The foreign key takes the type of the key it points at: User's id is a String.
        #expect(review.column("userId")?.type == .string)
        #expect(review.column("userId")?.foreignKeyOf == "user")
        #expect(review.column("id") == nil)
        #expect(review.references.map(\.field) == ["movie", "user"])
        #expect(review.references.allSatisfy { !$0.isUnique })
        #expect(review.uniques.isEmpty)
        let join = try table("MovieActor", in: schema)
        #expect(join.key == ["movieId", "actorId"])
        #expect(join.columns.map(\.field) == ["movieId", "actorId", "role"])
        #expect(join.keyColumns.map(\.type) == [.uuid, .uuid])
    }

    @Test func exampleColumnsTakeSnakeCaseSQLNames() throws {
        let schema = try exampleSchema()
        let movie = try table("Movie", in: schema)
        #expect(
            movie.columns.map(\.sqlName)
                == ["id", "title", "release_year", "genre", "rating", "description", "tags", "added_at"])
        #expect(movie.column("releaseYear")?.sqlName == "release_year")
        #expect(try table("MovieMetadata", in: schema).column("runtimeMinutes")?.sqlName == "runtime_minutes")
        #expect(try table("Review", in: schema).column("reviewDate")?.sqlName == "review_date")
    }

    @Test func exampleColumnTypesListsAndDefaultsFollowTheDeclarations() throws {
        let schema = try exampleSchema()
        let movie = try table("Movie", in: schema)
        #expect(movie.columns.map(\.type) == [.uuid, .string, .int, .string, .float, .string, .string, .timestamp])
        #expect(movie.column("tags")?.isList == true)
        #expect(movie.column("tags")?.isRequired == false)
        #expect(movie.column("title")?.isRequired == true)
        #expect(movie.column("releaseYear")?.isRequired == false)
        #expect(movie.column("addedAt")?.defaultValue == .expression("request.time"))
        #expect(try table("MovieMetadata", in: schema).column("budget")?.type == .int64)
        #expect(try table("Actor", in: schema).column("born")?.type == .date)
        #expect(try table("MovieActor", in: schema).column("role")?.defaultValue == .value(.string("supporting")))
    }

    @Test func movieGainsBackReferenceAndManyToManyRelations() throws {
        let movie = try table("Movie", in: try exampleSchema())
        #expect(
            movie.relations.map(describe) == [
                "movieMetadata_on_movie <- MovieMetadata.movie (single)",
                "movieActors_on_movie <- MovieActor.movie",
                "actors_via_MovieActor: Actor through MovieActor.movie/actor",
                "reviews_on_movie <- Review.movie",
                "users_via_Review: User through Review.movie/user",
            ])
        #expect(
            movie.relations.map(\.resultType) == ["MovieMetadata", "MovieActor", "Actor", "Review", "User"])
    }

    @Test func actorAndUserGainTheRelationsOfTheTablesThatPointAtThem() throws {
        let schema = try exampleSchema()
        #expect(
            try table("Actor", in: schema).relations.map(describe) == [
                "movieActors_on_actor <- MovieActor.actor",
                "movies_via_MovieActor: Movie through MovieActor.actor/movie",
            ])
        #expect(
            try table("User", in: schema).relations.map(describe) == [
                "reviews_on_user <- Review.user",
                "movies_via_Review: Movie through Review.user/movie",
            ])
        #expect(try table("MovieMetadata", in: schema).relations.isEmpty)
        #expect(try table("Review", in: schema).relations.isEmpty)
    }

    /// The names operations written against the service use for these shapes (Firebase's Android SDK tests a
    /// schema like this one): an acronym type, a type ending in a capital, and a join table whose two references
    /// point at one table.
    @Test func generatedNamesFollowTheServiceForAcronymsCapitalsAndSelfJoins() throws {
        let schema = try parse(
            """
            type UUIDVariants @table { value: UUID }
            type ChildA @table { value: String }
            type ChildB @table { value: String }
            type Pairing @table(key: ["childA", "childB"]) { childA: ChildA!, childB: ChildB! }
            type Member @table { name: String }
            type Follow @table(key: ["follower", "followee"]) { follower: Member!, followee: Member! }
            """)
        let variants = try table("UUIDVariants", in: schema)
        #expect(variants.singular == "uUIDVariants")
        #expect(variants.plural == "uUIDVariantss")
        #expect(try table("ChildB", in: schema).plural == "childBS")
        #expect(
            try table("ChildA", in: schema).relations.map(\.name) == ["pairings_on_childA", "childBS_via_Pairing"])
        // `…_on_followee` lists followees: the members this one follows.
        #expect(
            try table("Member", in: schema).relations.map(describe) == [
                "follows_on_follower <- Follow.follower",
                "follows_on_followee <- Follow.followee",
                "members_via_Follow_on_followee: Member through Follow.follower/followee",
                "members_via_Follow_on_follower: Member through Follow.followee/follower",
            ])
    }

    @Test func tablePositionsPointAtTheirDeclarations() throws {
        let schema = try exampleSchema()
        let movie = try table("Movie", in: schema)
        #expect(movie.position.file == Self.exampleSchemaFile.path)
        #expect(movie.position.line == 3)
        #expect(movie.position.column == 1)
        #expect(try table("MovieMetadata", in: schema).position.line == 14)
        #expect(try table("Review", in: schema).position.line == 40)
    }

    // MARK: - Inline schemas

    @Test func tableDirectiveArgumentsOverrideTheDerivedNames() throws {
        let schema = try parse(
            """
            type Person @table(name: "people_tbl", singular: "human", plural: "humans", key: "email") {
              email: String!
              displayName: String @col(name: "shown_as")
            }
            """)
        let person = try table("Person", in: schema)
        #expect(person.sqlName == "people_tbl")
        #expect(person.singular == "human")
        #expect(person.plural == "humans")
        #expect(person.key == ["email"])
        // A declared key means no generated id.
        #expect(person.columns.map(\.field) == ["email", "displayName"])
        #expect(person.columns.map(\.sqlName) == ["email", "shown_as"])
    }

    @Test func defaultDirectiveKeepsConstantsExpressionsAndSQL() throws {
        let schema = try parse(
            """
            type Setting @table {
              label: String @default(value: "none")
              level: Int @default(value: 3)
              enabled: Boolean @default(value: true)
              ratio: Float @default(value: 0.5)
              codes: [Int] @default(value: [1, 2])
              note: String @default(value: null)
              createdAt: Timestamp @default(expr: "request.time")
              slug: String @default(sql: "gen_slug()")
              plain: String
            }
            """)
        let setting = try table("Setting", in: schema)
        let expected: [ColumnDefault?] = [
            .expression("uuidV4()"),
            .value(.string("none")),
            .value(.number(JSONNumber(3))),
            .value(.bool(true)),
            .value(.number(JSONNumber(text: "0.5"))),
            .value(.array([.number(JSONNumber(1)), .number(JSONNumber(2))])),
            .value(.null),
            .expression("request.time"),
            .sql("gen_slug()"),
            nil,
        ]
        #expect(setting.columns.map(\.defaultValue) == expected)
    }

    @Test func refDirectiveNamesTheForeignKeyAndTheReferencedField() throws {
        let schema = try parse(
            """
            type Studio @table(key: "code") {
              code: String!
              name: String! @unique
            }
            type Film @table {
              title: String!
              studio: Studio @ref(fields: "studioCode", references: "code")
              distributor: Studio @ref(references: "name")
            }
            """)
        let film = try table("Film", in: schema)
        #expect(film.columns.map(\.field) == ["id", "title", "studioCode", "distributorName"])
        let studioCode = try #require(film.column("studioCode"))
        #expect(studioCode.sqlName == "studio_code")
        #expect(studioCode.type == .string)
        #expect(studioCode.isRequired == false)
        #expect(studioCode.foreignKeyOf == "studio")
        let studio = try #require(film.reference("studio"))
        #expect(studio.target == "Studio")
        #expect(studio.isRequired == false)
        #expect(studio.columns.map(\.local) == ["studioCode"])
        #expect(studio.columns.map(\.target) == ["code"])
        let distributor = try #require(film.reference("distributor"))
        #expect(distributor.columns.map(\.local) == ["distributorName"])
        #expect(distributor.columns.map(\.target) == ["name"])
        #expect(film.column("distributorName")?.sqlName == "distributor_name")
        #expect(try table("Studio", in: schema).uniques == [["name"]])
    }

    @Test func refToAnExistingColumnMakesThatColumnTheForeignKey() throws {
        let schema = try parse(
            """
            type Studio @table(key: "code") {
              code: String!
            }
            type Film @table {
              studioCode: String
              studio: Studio @ref(fields: "studioCode")
            }
            """)
        let film = try table("Film", in: schema)
        #expect(film.columns.map(\.field) == ["id", "studioCode"])
        #expect(film.column("studioCode")?.foreignKeyOf == "studio")
        #expect(film.reference("studio")?.columns.map(\.target) == ["code"])
    }

    @Test func referenceToACompositeKeyMakesOneForeignKeyColumnPerKeyField() throws {
        let schema = try parse(
            """
            type Edition @table(key: ["isbn", "printing"]) {
              isbn: String!
              printing: Int!
            }
            type Copy @table {
              edition: Edition!
              shelf: String
            }
            """)
        let edition = try table("Edition", in: schema)
        #expect(edition.key == ["isbn", "printing"])
        #expect(edition.column("id") == nil)
        let copy = try table("Copy", in: schema)
        #expect(copy.columns.map(\.field) == ["id", "editionIsbn", "editionPrinting", "shelf"])
        #expect(copy.columns.map(\.sqlName) == ["id", "edition_isbn", "edition_printing", "shelf"])
        #expect(copy.columns.map(\.type) == [.uuid, .string, .int, .string])
        #expect(copy.column("editionIsbn")?.isRequired == true)
        #expect(copy.column("editionPrinting")?.foreignKeyOf == "edition")
        let reference = try #require(copy.reference("edition"))
        #expect(reference.columns.map(\.local) == ["editionIsbn", "editionPrinting"])
        #expect(reference.columns.map(\.target) == ["isbn", "printing"])
        #expect(edition.relations.map(describe) == ["copies_on_edition <- Copy.edition"])
    }

    @Test func optionalReferenceMakesAnOptionalForeignKey() throws {
        let schema = try parse(
            """
            type Category @table {
              name: String!
              parent: Category
            }
            """)
        let category = try table("Category", in: schema)
        #expect(category.columns.map(\.field) == ["id", "name", "parentId"])
        let parentId = try #require(category.column("parentId"))
        #expect(parentId.isRequired == false)
        #expect(parentId.type == .uuid)
        let parent = try #require(category.reference("parent"))
        #expect(parent.isRequired == false)
        #expect(parent.isUnique == false)
        #expect(category.relations.map(describe) == ["categories_on_parent <- Category.parent"])
    }

    @Test func listColumnsAreMarkedAsLists() throws {
        let schema = try parse(
            """
            type Post @table {
              tags: [String]
              scores: [Int!]!
              title: String
            }
            """)
        let post = try table("Post", in: schema)
        let tags = try #require(post.column("tags"))
        #expect(tags.isList)
        #expect(tags.isRequired == false)
        #expect(tags.type == .string)
        let scores = try #require(post.column("scores"))
        #expect(scores.isList)
        #expect(scores.isRequired)
        #expect(scores.type == .int)
        #expect(post.column("title")?.isList == false)
    }

    @Test func enumsBecomeEnumerationColumnsWhereverTheyAreDeclared() throws {
        let schema = try parse(
            """
            type Show @table {
              genre: Genre!
              moods: [Genre]
            }
            enum Genre {
              DRAMA
              COMEDY
            }
            """)
        #expect(schema.enums == ["Genre": ["DRAMA", "COMEDY"]])
        let show = try table("Show", in: schema)
        #expect(show.column("genre")?.type == .enumeration("Genre"))
        #expect(show.column("genre")?.isRequired == true)
        #expect(show.column("moods")?.type == .enumeration("Genre"))
        #expect(show.column("moods")?.isList == true)
        #expect(ScalarType.enumeration("Genre").description == "Genre")
    }

    @Test func uniqueDirectivesMakeUniqueConstraintsOnColumns() throws {
        let schema = try parse(
            """
            type Owner @table {
              name: String!
            }
            type Pet @table(plural: "critters") @unique(fields: ["owner", "name"]) {
              owner: Owner!
              name: String!
              chip: String @unique
            }
            """)
        let pet = try table("Pet", in: schema)
        // A reference in @unique(fields:) stands for its foreign-key columns.
        #expect(pet.uniques == [["ownerId", "name"], ["chip"]])
        #expect(pet.reference("owner")?.isUnique == false)
        // The back reference is named after the plural the table declares.
        #expect(try table("Owner", in: schema).relations.map(describe) == ["critters_on_owner <- Pet.owner"])
    }

    @Test func referenceThatIsTheWholeKeyIsOneToOne() throws {
        let schema = try parse(
            """
            type Account @table {
              email: String!
            }
            type Profile @table(key: "account") {
              account: Account!
              bio: String
            }
            """)
        let profile = try table("Profile", in: schema)
        #expect(profile.key == ["accountId"])
        #expect(profile.columns.map(\.field) == ["accountId", "bio"])
        #expect(profile.reference("account")?.isUnique == true)
        #expect(profile.uniques == [["accountId"]])
        let account = try table("Account", in: schema)
        #expect(account.relations.map(describe) == ["profile_on_account <- Profile.account (single)"])
    }

    @Test func typesWithoutTheTableDirectiveAreNotTables() throws {
        let schema = try parse(
            """
            type Point {
              x: Int
            }
            type Place @table {
              name: String
            }
            """)
        #expect(schema.tables.map(\.typeName) == ["Place"])
        #expect(schema.table("Point") == nil)
    }

    @Test func filesAreReadTogetherSoReferencesCrossFiles() throws {
        let schema = try DataConnectSchema.parse(files: [
            ("a.gql", "type Review @table {\n  movie: Movie!\n}\n"),
            ("b.gql", "type Movie @table {\n  title: String!\n}\n"),
        ])
        let review = try table("Review", in: schema)
        #expect(review.column("movieId")?.type == .uuid)
        #expect(review.position.file == "a.gql")
        #expect(try table("Movie", in: schema).position.file == "b.gql")
    }

    // MARK: - Errors

    @Test func syntaxErrorReportsFileLineAndColumn() throws {
        let error = try #require(
            schemaError {
                try DataConnectSchema.parse(files: [
                    ("good.gql", "type Movie @table {\n  title: String!\n}\n"),
                    ("schema.gql", "type Actor @table {\n  name String!\n}\n"),
                ])
            })
        #expect(error.file == "schema.gql")
        #expect(error.line == 2)
        #expect(error.column == 8)
        #expect(error.message.hasPrefix("GraphQL syntax: "))
        #expect(error.description.hasPrefix("schema.gql:2:8: GraphQL syntax: "))
    }

    @Test func unknownFieldTypeIsReportedAtTheField() throws {
        let error = try #require(
            schemaError {
                try parse("type Movie @table {\n  title: String!\n  studio: Studio\n}\n")
            })
        #expect(
            error.description
                == "schema.gql:3:3: Movie.studio has type Studio, which is neither a scalar, an enum nor a @table type")
    }

    @Test func aListOfTableRowsIsExplainedAsARelation() throws {
        let error = try #require(
            schemaError {
                try parse("type Movie @table {\n  actors: [Actor]\n}\ntype Actor @table {\n  name: String\n}\n")
            })
        #expect(error.description.hasPrefix("schema.gql:2:3: Movie.actors is a list of Actor"))
    }

    @Test func tableLevelUniqueOnAReferenceMakesItOneToOne() throws {
        let schema = try parse(
            """
            type Movie @table { title: String }
            type Poster @table @unique(fields: ["movie"]) { movie: Movie!, url: String }
            """)
        let movie = try #require(schema.table("Movie"))
        #expect(movie.relations.map(\.name) == ["poster_on_movie"])
        #expect(schema.table("Poster")?.uniques == [["movieId"]])
    }

    @Test func indexDirectivesOnFieldsAndTypesBecomeIndexes() throws {
        let schema = try parse(
            """
            type Movie @table @index(fields: ["title", "studio"]) { title: String @index, year: Int, studio: Studio }
            type Studio @table { name: String }
            """)
        #expect(schema.table("Movie")?.indexes == [["title", "studioId"], ["title"]])
        #expect(try exampleSchema().table("Movie")?.indexes == [["genre"]])
    }

    @Test func irregularPluralsKeepTheCaseOfTheirWord() {
        #expect(DataConnectNaming.plural("salesperson") == "salespeople")
        #expect(DataConnectNaming.plural("favoritePerson") == "favoritePeople")
        #expect(DataConnectNaming.plural("Person") == "People")
        #expect(DataConnectNaming.plural("grandchild") == "grandchildren")
    }

    @Test func keyNamingAMissingFieldIsRefused() throws {
        let error = try #require(
            schemaError {
                try parse("type Movie @table(key: \"slug\") {\n  title: String!\n}\n")
            })
        #expect(
            error
                == DataConnectWorkspaceError(
                    file: "schema.gql", line: 1, column: 1,
                    "@table(key:) of Movie names slug, which is not a field of Movie"))
    }

    @Test func keyThatRefersBackToItselfIsRefused() throws {
        let error = try #require(
            schemaError {
                try parse("type Node @table(key: \"parent\") {\n  parent: Node!\n}\n")
            })
        #expect(
            error.description == "schema.gql:2:3: the key of Node refers back to itself through references")
    }

    @Test func emptyColumnNameIsRefused() throws {
        let error = try #require(
            schemaError {
                try parse("type Movie @table {\n  title: String @col(name: \"\")\n}\n")
            })
        #expect(error.description == "schema.gql:1:1: Movie.title has an empty column name")
    }

    @Test func refNamingMoreFieldsThanTheKeyHasIsRefused() throws {
        let error = try #require(
            schemaError {
                try parse(
                    """
                    type Studio @table(key: "code") {
                      code: String!
                    }
                    type Film @table {
                      studio: Studio @ref(fields: ["a", "b"])
                    }
                    """)
            })
        #expect(error.description == "schema.gql:5:3: @ref on Film.studio names 2 fields for 1 referenced ones")
    }

    @Test func refToAMissingFieldIsRefused() throws {
        let error = try #require(
            schemaError {
                try parse(
                    """
                    type Studio @table(key: "code") {
                      code: String!
                    }
                    type Film @table {
                      studio: Studio @ref(references: "nope")
                    }
                    """)
            })
        #expect(error.description == "schema.gql:5:3: Studio has no field nope for Film.studio to reference")
    }

    // MARK: - Naming

    @Test(arguments: [
        ("imageUrl", "image_url"),
        ("MovieMetadata", "movie_metadata"),
        ("URLPath", "url_path"),
        ("releaseYear", "release_year"),
        ("movieID", "movie_id"),
        ("address2Line", "address2_line"),
        ("already_snake", "already_snake"),
        ("title", "title"),
    ])
    func snakeCaseSplitsWordsAndAcronyms(name: String, expected: String) {
        #expect(DataConnectNaming.snakeCase(name) == expected)
    }

    @Test(arguments: [
        ("MovieActor", "movieActor"),
        ("UUIDVariants", "uUIDVariants"),
        ("URL", "uRL"),
        ("Movie", "movie"),
        ("movie", "movie"),
    ])
    func singularLowersTheFirstCharacterOnly(name: String, expected: String) {
        #expect(DataConnectNaming.singular(name) == expected)
    }

    /// The names Firebase generates (the flutterfire reference schema) and the names operations written against
    /// the service use (FriendlyFlix, the Android SDK's test connectors).
    @Test(arguments: [
        ("movie", "movies"),
        ("category", "categories"),
        ("box", "boxes"),
        ("day", "days"),
        ("person", "people"),
        ("directedBy", "directedBies"),
        ("timestampHolder", "timestampHolders"),
        ("movieMetadata", "movieMetadatas"),
        ("manyToManyChildB", "manyToManyChildBS"),
        ("manyToManySelfChild", "manyToManySelfChildren"),
        ("zwda6x9zyy", "zwda6x9zyys"),
        ("status", "statuses"),
        ("church", "churches"),
        ("child", "children"),
        ("favoritePerson", "favoritePeople"),
        ("series", "seriess"),
        ("knife", "knives"),
        ("quiz", "quizzes"),
    ])
    func pluralFollowsTheServiceRules(word: String, expected: String) {
        #expect(DataConnectNaming.plural(word) == expected)
    }

    @Test func everyInflectionRuleCompiles() {
        for (find, _) in DataConnectNaming.inflectionRules {
            #expect((try? Regex(find)) != nil, "\(find)")
        }
    }

    // MARK: - SDL

    @Test func sdlHasSingleRowAndListQueryFieldsForEachTable() throws {
        let sdl = DataConnectSDL.make(try exampleSchema())
        let query = try #require(block("type Query", in: sdl))
        // A UUID id takes no `id_expr` (Firebase's generated schema); a String one does (FriendlyFlix calls it).
        #expect(query.contains("  movie(id: UUID, key: Movie_Key, first: Movie_FirstRow): Movie\n"))
        #expect(
            query.contains(
                "  movies(where: Movie_Filter, orderBy: [Movie_Order!], offset: Int, limit: Int = 100, "
                    + "distinct: Boolean = false, having: Movie_Having): [Movie!]!\n"))
        #expect(query.contains("  user(id: String, id_expr: String_Expr, key: User_Key, first: User_FirstRow): User\n"))
        // A composite key is picked by `key:` only.
        #expect(query.contains("  review(key: Review_Key, first: Review_FirstRow): Review\n"))
        #expect(query.contains("  movieMetadatas(where: MovieMetadata_Filter, "))
    }

    @Test func sdlDeclaresKeyInputsAndKeyOutputScalars() throws {
        let sdl = DataConnectSDL.make(try exampleSchema())
        #expect(sdl.contains("input Movie_Key {\n  id: UUID\n  id_expr: UUID_Expr\n}\n"))
        #expect(sdl.contains("scalar Movie_KeyOutput\n"))
        #expect(sdl.contains("input User_Key {\n  id: String\n  id_expr: String_Expr\n}\n"))
        #expect(
            sdl.contains(
                "input Review_Key {\n  movieId: UUID\n  movieId_expr: UUID_Expr\n  userId: String\n"
                    + "  userId_expr: String_Expr\n}\n"))
        #expect(sdl.contains("input Movie_FirstRow {\n  where: Movie_Filter\n  orderBy: [Movie_Order!]\n}\n"))
    }

    @Test func sdlHasMutationFieldsForEachTable() throws {
        let sdl = DataConnectSDL.make(try exampleSchema())
        let mutation = try #require(block("type Mutation", in: sdl))
        // Typed as the service types them; the executed schema relaxes them (see the next test).
        #expect(mutation.contains("  movie_insert(data: Movie_Data!): Movie_KeyOutput!\n"))
        #expect(mutation.contains("  movie_insertMany(data: [Movie_Data!]!): [Movie_KeyOutput!]!\n"))
        #expect(
            mutation.contains(
                "  movie_update(id: UUID, key: Movie_Key, first: Movie_FirstRow, data: Movie_Data!): Movie_KeyOutput\n")
        )
        #expect(mutation.contains("  movie_deleteMany(where: Movie_Filter, all: Boolean = false): Int!\n"))
        #expect(mutation.contains("  review_upsert(data: Review_Data!): Review_KeyOutput!\n"))
        #expect(mutation.contains("  query: Query\n"))
        #expect(mutation.contains("  movieActor_delete(key: MovieActor_Key, first: MovieActor_FirstRow): "))
    }

    @Test func sdlObjectTypesCarryColumnsReferencesAndRelations() throws {
        let sdl = DataConnectSDL.make(try exampleSchema())
        let movie = try #require(block("type Movie", in: sdl))
        #expect(movie.contains("  id: UUID!\n"))
        #expect(movie.contains("  releaseYear: Int\n"))
        #expect(movie.contains("  tags: [String]\n"))
        #expect(movie.contains("  addedAt: Timestamp!\n"))
        #expect(movie.contains("  movieMetadata_on_movie: MovieMetadata\n"))
        #expect(
            movie.contains(
                "  reviews_on_movie(where: Review_Filter, orderBy: [Review_Order!], offset: Int, limit: Int = 100, "
                    + "distinct: Boolean = false, having: Review_Having): [Review!]!\n"))
        // Many-to-many fields filter and order the join table's rows, as the service generates them.
        #expect(
            movie.contains(
                "  actors_via_MovieActor(where: MovieActor_Filter, orderBy: [MovieActor_Order!], offset: Int, "
                    + "limit: Int = 100, distinct: Boolean = false, having: MovieActor_Having): [Actor!]!\n"))
        // Aggregates, as the service types them.
        for line in [
            "_count: Int!", "title_count(distinct: Boolean = false): Int!",
            "rating_avg(distinct: Boolean = false): Float",
            "releaseYear_sum(distinct: Boolean = false): Int", "releaseYear_max: Int", "addedAt_min: Timestamp",
        ] {
            #expect(movie.contains("  \(line)\n"), "\(line)")
        }
        #expect(!movie.contains("tags_count"))
        let metadata = try #require(block("type MovieMetadata", in: sdl))
        #expect(metadata.contains("  movieId: UUID!\n"))
        #expect(metadata.contains("  movie: Movie!\n"))
        let filter = try #require(block("input Movie_Filter", in: sdl))
        #expect(filter.contains("  _and: [Movie_Filter!]\n"))
        #expect(filter.contains("  title: String_Filter\n"))
        #expect(filter.contains("  tags: String_ListFilter\n"))
        #expect(filter.contains("  movieMetadata_on_movie: MovieMetadata_Filter\n"))
        #expect(filter.contains("  reviews_on_movie: Review_ListFilter\n"))
        let order = try #require(block("input Movie_Order", in: sdl))
        #expect(order.contains("  rating: OrderDirection\n"))
        #expect(!order.contains("tags"))
        let metadataOrder = try #require(block("input MovieMetadata_Order", in: sdl))
        #expect(metadataOrder.contains("  movie: Movie_Order\n"))
    }

    @Test func theExecutedSchemaLetsAFailedRootFieldOfAMutationBeNullBesideTheOthers() throws {
        let sdl = DataConnectSDL.make(try exampleSchema(), forExecution: true)
        let mutation = try #require(block("type Mutation", in: sdl))
        #expect(mutation.contains("  movie_insert(data: Movie_Data!): Movie_KeyOutput\n"))
        #expect(mutation.contains("  movie_insertMany(data: [Movie_Data!]!): [Movie_KeyOutput!]\n"))
        #expect(mutation.contains("  movie_deleteMany(where: Movie_Filter, all: Boolean = false): Int\n"))
    }

    @Test func sdlDataInputsOfferExpressionsAndRelativeDatesAndTimes() throws {
        let sdl = DataConnectSDL.make(try exampleSchema())
        let actor = try #require(block("input Actor_Data", in: sdl))
        for line in ["born: Date", "born_expr: Date_Expr", "born_date: Date_Relative", "born_update: [Date_Update!]"] {
            #expect(actor.contains("  \(line)\n"), "\(line)")
        }
        let movie = try #require(block("input Movie_Data", in: sdl))
        for line in [
            "addedAt: Timestamp", "addedAt_expr: Timestamp_Expr", "addedAt_time: Timestamp_Relative",
            "addedAt_update: [Timestamp_Update!]", "tags_update: [String_ListUpdate!]",
        ] {
            #expect(movie.contains("  \(line)\n"), "\(line)")
        }
        #expect(movie.contains("  tags: [String]\n"))
        #expect(!movie.contains("tags_expr"))
        #expect(movie.contains("  releaseYear: Int\n  releaseYear_expr: Int_Expr\n"))
        let review = try #require(block("input Review_Data", in: sdl))
        #expect(review.contains("  reviewDate_date: Date_Relative\n"))
        #expect(review.contains("  userId_expr: String_Expr\n"))
        #expect(review.contains("  movie: Movie_Key\n"))
        #expect(review.contains("  user: User_Key\n"))
    }

    @Test func sdlLeavesRelativeFormsOffListColumns() throws {
        let sdl = DataConnectSDL.make(
            try parse("type Log @table {\n  days: [Date]\n  stamps: [Timestamp]\n  at: Timestamp\n}\n"))
        let data = try #require(block("input Log_Data", in: sdl))
        #expect(data.contains("  days: [Date]\n"))
        #expect(!data.contains("days_date"))
        #expect(!data.contains("stamps_time"))
        #expect(data.contains("  at_time: Timestamp_Relative\n"))
    }

    @Test func sdlDeclaresEnumsAndTheirFilters() throws {
        let sdl = DataConnectSDL.make(
            try parse("enum Genre { DRAMA COMEDY }\ntype Show @table {\n  genre: Genre!\n  moods: [Genre]\n}\n"))
        #expect(sdl.contains("enum Genre { DRAMA COMEDY }\n"))
        #expect(sdl.contains("input Genre_Filter {\n"))
        #expect(sdl.contains("input Genre_ListFilter {\n"))
        let show = try #require(block("type Show", in: sdl))
        #expect(show.contains("  genre: Genre!\n"))
        let filter = try #require(block("input Show_Filter", in: sdl))
        #expect(filter.contains("  genre: Genre_Filter\n"))
        #expect(filter.contains("  moods: Genre_ListFilter\n"))
        let data = try #require(block("input Show_Data", in: sdl))
        #expect(data.contains("  genre: Genre\n"))
        #expect(!data.contains("genre_expr"))
    }

    @Test func sdlWithoutTablesStillHasQueryAndMutationRoots() {
        let sdl = DataConnectSDL.make(DataConnectSchema(tables: [], enums: [:]))
        #expect(
            sdl.contains("type Query {\n  _service: _Service!\n  _select(sql: SQL_Query!, params: SQL_Params): [Any]\n")
        )
        #expect(
            sdl.contains("type Mutation {\n  query: Query\n  _execute(sql: SQL_Mutation!, params: SQL_Params): Int\n"))
        #expect(sdl.hasPrefix("scalar UUID\n"))
    }

    @Test func sdlFilterInputsMatchEachScalar() throws {
        let sdl = DataConnectSDL.make(try exampleSchema())
        let string = try #require(block("input String_Filter", in: sdl))
        #expect(string.contains("  contains: String\n"))
        let date = try #require(block("input Date_Filter", in: sdl))
        #expect(date.contains("  eq_date: Date_Relative\n"))
        let timestamp = try #require(block("input Timestamp_Filter", in: sdl))
        #expect(timestamp.contains("  gt_expr: Timestamp_Expr\n"))
        let boolean = try #require(block("input Boolean_Filter", in: sdl))
        #expect(!boolean.contains("  gt: "))
        let int = try #require(block("input Int_Filter", in: sdl))
        #expect(int.contains("  gt: Int\n"))
    }

    @Test func typeReferencePrintsGraphQLNotation() {
        let ids = TypeReference.nonNull(.list(.nonNull(.named("UUID"))))
        #expect(ids.description == "[UUID!]!")
        #expect(ids.namedType == "UUID")
        #expect(ids.isRequired)
        let tags = TypeReference.list(.named("String"))
        #expect(tags.description == "[String]")
        #expect(tags.isRequired == false)
        #expect(TypeReference.nonNull(.named("Movie_Key")).description == "Movie_Key!")
    }

    @Test func scalarTypesRoundTripTheirGraphQLNames() {
        let names = ["String", "Int", "Int64", "Float", "Boolean", "UUID", "Date", "Timestamp", "Any", "Vector"]
        #expect(names.compactMap(ScalarType.init(builtIn:)).map(\.description) == names)
        #expect(ScalarType(builtIn: "Movie") == nil)
    }
}

/// `<name> <- <Source>.<field>` for a back reference, `<name>: <Target> through <Join>.<near>/<far>` otherwise.
private func describe(_ relation: DataConnectSchema.Relation) -> String {
    switch relation.kind {
    case .backReference(let source, let field, let isSingle):
        return "\(relation.name) <- \(source).\(field)" + (isSingle ? " (single)" : "")
    case .manyToMany(let join, let near, let far, let target):
        return "\(relation.name): \(target) through \(join).\(near)/\(far)"
    }
}

/// The block `header { … }` of an SDL text, from its header line to its closing brace.
private func block(_ header: String, in sdl: String) -> String? {
    guard let start = sdl.range(of: "\n\(header) {\n") else { return nil }
    guard let end = sdl.range(of: "\n}\n", range: start.upperBound..<sdl.endIndex) else { return nil }
    return String(sdl[start.upperBound..<end.upperBound])
}

/// The workspace error `body` throws, or `nil` (recording an issue) when it throws none or another kind.
private func schemaError<T>(
    _ body: () throws -> T, sourceLocation: SourceLocation = #_sourceLocation
) -> DataConnectWorkspaceError? {
    do {
        _ = try body()
        Issue.record("expected a DataConnectWorkspaceError, but nothing was thrown", sourceLocation: sourceLocation)
        return nil
    } catch let error as DataConnectWorkspaceError {
        return error
    } catch {
        Issue.record("expected a DataConnectWorkspaceError, got \(error)", sourceLocation: sourceLocation)
        return nil
    }
}

struct ConnectorDocumentTests {
    /// A file that ends in a lone `\r` and the line break that joins the next file are one line for GraphQL, so
    /// positions in the next file stay right.
    @Test func positionsStayRightAfterAFileEndingInACarriageReturn() throws {
        let operation = ConnectorFiles.File(
            path: "a.gql", text: "query q { movies { ...F } }\r",
            definitions: try GraphQLText.definitions("query q { movies { ...F } }\r", path: "a.gql"))
        let fragmentText = "fragment F on Movie {\n  nope\n}\n"
        let fragment = ConnectorFiles.File(
            path: "b.gql", text: fragmentText, definitions: try GraphQLText.definitions(fragmentText, path: "b.gql"))
        let operations = try ConnectorOperation.operations(in: ConnectorFiles(files: [operation, fragment]), file: 0)
        let document = try #require(operations.first?.document)
        #expect(document.segments.map(\.firstLine) == [1, 2])
        #expect(document.position(line: 3, column: 3) == SourcePosition(file: "b.gql", line: 2, column: 3))
    }
}
