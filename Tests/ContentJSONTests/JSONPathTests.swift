import Testing

@testable import ContentJSON

/// The error parsing `text` as a path throws; records an issue when it throws none.
private func pathError(
    _ text: String,
    sourceLocation: SourceLocation = #_sourceLocation
) throws -> JSONPathError {
    let error = #expect(throws: JSONPathError.self, sourceLocation: sourceLocation) {
        try JSONPath(parsing: text)
    }
    return try #require(error, sourceLocation: sourceLocation)
}

/// The value `text` leads to in `value`.
private func follow(_ value: JSONValue, _ text: String) throws -> JSONValue? {
    try value.value(at: JSONPath(parsing: text))
}

private let document = """
    {
      "data": {
        "movies": [
          {"title": "A", "tags": ["x", "y"]},
          {"title": "B"}
        ],
        "odd.name": {"v": 1},
        "n": null,
        "dup": 1,
        "dup": 2
      }
    }
    """

struct JSONPathTests {
    // MARK: - Parsing

    @Test func parsesDottedMembersAndIndexes() throws {
        #expect(
            try JSONPath(parsing: "data.movies[0].title").components == [
                .member("data"), .member("movies"), .index(0), .member("title"),
            ])
        #expect(try JSONPath(parsing: "a.b[0]").components == [.member("a"), .member("b"), .index(0)])
        #expect(try JSONPath(parsing: "a[1][23]").components == [.member("a"), .index(1), .index(23)])
        #expect(try JSONPath(parsing: "[0].a").components == [.index(0), .member("a")])
        #expect(try JSONPath(parsing: "single").components == [.member("single")])
        #expect(try JSONPath(parsing: "").components.isEmpty)
    }

    @Test func bracketsAndQuotesHoldNamesWithDots() throws {
        #expect(try JSONPath(parsing: #"a["x.y"]"#).components == [.member("a"), .member("x.y")])
        #expect(try JSONPath(parsing: #"a["x.y"].z"#).components == [.member("a"), .member("x.y"), .member("z")])
        #expect(try JSONPath(parsing: #"["a[b"].c"#).components == [.member("a[b"), .member("c")])
        #expect(try JSONPath(parsing: #"a[""]"#).components == [.member("a"), .member("")])
        // A quoted number is a name, not an index.
        #expect(try JSONPath(parsing: #"a["0"]"#).components == [.member("a"), .member("0")])
    }

    // MARK: - Description

    @Test(arguments: [
        "data.movies[0].title", "a", "a.b[0]", #"a["x.y"]"#, #"a["x.y"].z"#, "[0].a", "a[1][2]", #"a[""]"#,
        #"["a[b"].c"#, "",
    ])
    func descriptionReproducesCanonicalText(text: String) throws {
        #expect(try JSONPath(parsing: text).description == text)
    }

    @Test func descriptionOfBuiltComponentsParsesBack() throws {
        let path = JSONPath([.member("x.y"), .index(3), .member("plain"), .member(""), .member("q\"uote")])
        #expect(path.description == #"["x.y"][3].plain[""].q"uote"#)
        #expect(try JSONPath(parsing: path.description) == path)
    }

    @Test func memberNameHoldingBothBracketsParsesBack() throws {
        // The description brackets a name holding `[`; the name's own `]` must not end the brackets early.
        let path = JSONPath([.member("odd[0]"), .member("b")])
        #expect(try JSONPath(parsing: path.description) == path)
    }

    // MARK: - Errors

    @Test func emptyMemberNameBetweenDotsIsAnError() throws {
        let error = try pathError("a..b")
        #expect(error.position == 2)
        #expect(error.message == "empty member name")
        #expect(error.path == "a..b")
    }

    @Test func leadingDotIsAnError() throws {
        let error = try pathError(".a")
        #expect(error.position == 0)
        #expect(error.message == "empty member name")
    }

    @Test func unclosedBracketIsAnError() throws {
        let error = try pathError("a[")
        #expect(error.position == 1)
        #expect(error.message.contains("without ']'"))
        #expect(error.description == "invalid path 'a[' at character 2: '[' without ']'")
    }

    @Test(arguments: ["a[x]", "a[-1]", "a[1.5]"])
    func bracketHoldingNeitherIndexNorQuotedNameIsAnError(text: String) throws {
        let error = try pathError(text)
        #expect(error.position == 1)
        #expect(error.message.contains("expected [N]"))
    }

    @Test func emptyBracketsMapTheRestOverAnArray() throws {
        let path = try JSONPath(parsing: "data.list.edges[].node.title")
        #expect(path.description == "data.list.edges[].node.title")
        let document = try JSONParser().parse(
            #"{"data":{"list":{"edges":[{"node":{"title":"a"}},{"node":{}},{"node":{"title":"b"}}]}}}"#)
        #expect(document.value(at: path) == .array([.string("a"), .string("b")]))
        #expect(document.value(at: try JSONPath(parsing: "data[]")) == nil)
    }

    @Test func unclosedQuotedNameIsAnError() throws {
        let error = try pathError(#"a["x]"#)
        #expect(error.position == 1)
        #expect(error.message == #"[" without "]"#)
    }

    @Test func errorPositionCountsCharactersNotBytes() throws {
        // `é` is one character, so the `[` is at character index 2.
        let error = try pathError("é.[")
        #expect(error.position == 2)
    }

    // MARK: - Following a path

    @Test func followsMembersAndIndexes() throws {
        let value = try JSONParser().parse(document)
        #expect(try follow(value, "data.movies[1].title") == .string("B"))
        #expect(try follow(value, "data.movies[0].tags[1]") == .string("y"))
        #expect(try follow(value, #"data["odd.name"].v"#) == .number(JSONNumber(text: "1")))
        #expect(try follow(value, "data.movies")?.arrayValue?.count == 2)
        #expect(try follow(value, "data.dup") == .number(JSONNumber(text: "2")))
    }

    @Test func presentNullIsAValueNotAMissingOne() throws {
        let value = try JSONParser().parse(document)
        let found = try follow(value, "data.n")
        #expect(found == .some(.null))
    }

    @Test func emptyPathIsTheWholeDocument() throws {
        let value = try JSONParser().parse(document)
        #expect(value.value(at: JSONPath([])) == value)
    }

    @Test(arguments: [
        "data.movies[2].title", "data.movies[0].tags[2]", "data.odd.name", "data.movies.title", "data[0]",
        "data.movies[0].title.length", "missing", "data.n.x", "data.movies[99]",
    ])
    func missingStepsGiveNil(text: String) throws {
        let value = try JSONParser().parse(document)
        #expect(try follow(value, text) == nil)
    }
}
