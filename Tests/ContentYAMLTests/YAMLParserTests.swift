import Testing

@testable import ContentYAML

// Expected positions are 1-based `line:column` and were worked out by hand from libyaml's marks: a node
// starts at its first character, or at its `&anchor` when it has one; an alias node starts at its `*`.

extension YAMLNode {
    /// The entries, when the node is a mapping.
    var mappingEntries: [YAMLMappingEntry]? {
        if case .mapping(let entries) = kind { return entries }
        return nil
    }

    /// The items, when the node is a sequence.
    var sequenceItems: [YAMLNode]? {
        if case .sequence(let items) = kind { return items }
        return nil
    }

    /// The scalar, when the node is one.
    var scalarValue: YAMLScalar? {
        if case .scalar(let scalar) = kind { return scalar }
        return nil
    }

    /// The scalar text of the entry for `key`, when there is one.
    func text(of key: String) -> String? {
        entry(key)?.value.scalarValue?.value
    }
}

private func parse(_ yaml: String, limits: YAMLLimits = .default) throws -> YAMLNode? {
    try YAMLParser(limits: limits).parse(yaml, file: "test.yaml")
}

/// The error parsing `yaml` throws; records an issue when it throws none.
private func parseError(
    _ yaml: String,
    limits: YAMLLimits = .default,
    sourceLocation: SourceLocation = #_sourceLocation
) throws -> YAMLError {
    let error = #expect(throws: YAMLError.self, sourceLocation: sourceLocation) {
        try YAMLParser(limits: limits).parse(yaml, file: "test.yaml")
    }
    return try #require(error, sourceLocation: sourceLocation)
}

/// The classic "billion laughs": nine levels of nine aliases each, a few hundred bytes standing for 9⁹ strings.
let billionLaughs = """
    a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]
    b: &b [*a,*a,*a,*a,*a,*a,*a,*a,*a]
    c: &c [*b,*b,*b,*b,*b,*b,*b,*b,*b]
    d: &d [*c,*c,*c,*c,*c,*c,*c,*c,*c]
    e: &e [*d,*d,*d,*d,*d,*d,*d,*d,*d]
    f: &f [*e,*e,*e,*e,*e,*e,*e,*e,*e]
    g: &g [*f,*f,*f,*f,*f,*f,*f,*f,*f]
    h: &h [*g,*g,*g,*g,*g,*g,*g,*g,*g]
    i: &i [*h,*h,*h,*h,*h,*h,*h,*h,*h]
    """

struct YAMLParserTests {
    // MARK: - Trees and positions

    @Test func mappingKeepsDocumentOrderAndPositions() throws {
        let root = try #require(try parse("zeta: 1\nalpha: 22\nmid: 333\n"))
        let entries = try #require(root.mappingEntries)
        #expect(entries.map(\.key) == ["zeta", "alpha", "mid"])
        #expect(
            entries.map(\.keyMark) == [
                YAMLMark(line: 1, column: 1), YAMLMark(line: 2, column: 1), YAMLMark(line: 3, column: 1),
            ])
        #expect(
            entries.map(\.value.mark) == [
                YAMLMark(line: 1, column: 7), YAMLMark(line: 2, column: 8), YAMLMark(line: 3, column: 6),
            ])
        #expect(entries.compactMap(\.value.scalarValue?.value) == ["1", "22", "333"])
        #expect(root.mark == YAMLMark(line: 1, column: 1))
    }

    @Test func nestedCollectionsStartWhereTheirFirstTokenIs() throws {
        let yaml = """
            server:
              hosts:
                - a.example.com
                - b.example.com
              flow: {x: 1}
            """
        let root = try #require(try parse(yaml))
        let server = try #require(root.entry("server")?.value)
        #expect(server.mark == YAMLMark(line: 2, column: 3))
        let hosts = try #require(server.entry("hosts")?.value)
        #expect(hosts.mark == YAMLMark(line: 3, column: 5))
        let items = try #require(hosts.sequenceItems)
        #expect(items.compactMap(\.scalarValue?.value) == ["a.example.com", "b.example.com"])
        #expect(items.map(\.mark) == [YAMLMark(line: 3, column: 7), YAMLMark(line: 4, column: 7)])
        let flow = try #require(server.entry("flow")?.value)
        #expect(flow.mark == YAMLMark(line: 5, column: 9))
        #expect(flow.text(of: "x") == "1")
    }

    @Test func scalarsKeepTheirStyleAndUnescapedText() throws {
        let yaml = #"""
            literal: |
              line one
              line two
            folded: >
              one
              two
            plain: a b
            single: 'it''s ${HOME}'
            double: "tab\there"
            """#
        let root = try #require(try parse(yaml))
        let literal = try #require(root.entry("literal")?.value.scalarValue)
        #expect(literal == YAMLScalar("line one\nline two\n", style: .block))
        let folded = try #require(root.entry("folded")?.value.scalarValue)
        #expect(folded == YAMLScalar("one two\n", style: .block))
        #expect(root.entry("plain")?.value.scalarValue == YAMLScalar("a b", style: .plain))
        #expect(root.entry("single")?.value.scalarValue == YAMLScalar("it's ${HOME}", style: .singleQuoted))
        #expect(root.entry("double")?.value.scalarValue == YAMLScalar("tab\there", style: .doubleQuoted))
    }

    @Test func tagsAreExpandedToTheirFullForm() throws {
        let root = try #require(try parse("number: !!str 123\ncustom: !thing x\nuntagged: y\n"))
        #expect(root.entry("number")?.value.scalarValue?.tag == "tag:yaml.org,2002:str")
        #expect(root.entry("custom")?.value.scalarValue?.tag == "!thing")
        #expect(root.entry("untagged")?.value.scalarValue?.tag == nil)
    }

    @Test(arguments: ["~", "null", "Null", "NULL", ""])
    func plainNullSpellingsAreNull(spelling: String) throws {
        let root = try #require(try parse("value: \(spelling)\n"))
        let scalar = try #require(root.entry("value")?.value.scalarValue)
        #expect(scalar.isNull)
        #expect(root.entry("value")?.value.kindName == "null")
    }

    @Test(arguments: ["'~'", "\"null\"", "!!str null", "nil", "none"])
    func quotedTaggedOrOtherWordsAreNotNull(spelling: String) throws {
        let root = try #require(try parse("value: \(spelling)\n"))
        let scalar = try #require(root.entry("value")?.value.scalarValue)
        #expect(!scalar.isNull)
        #expect(root.entry("value")?.value.kindName == "a scalar")
    }

    @Test func emptyOrCommentOnlyDocumentHasNoRoot() throws {
        #expect(try parse("") == nil)
        #expect(try parse("# nothing but a comment\n\n") == nil)
    }

    @Test func explicitDocumentMarkersAreAccepted() throws {
        let started = try #require(try parse("---\na: 1\n"))
        #expect(started.text(of: "a") == "1")
        #expect(started.mark == YAMLMark(line: 2, column: 1))
        let ended = try #require(try parse("a: 1\n...\n"))
        #expect(ended.text(of: "a") == "1")
    }

    @Test func removingEntryDropsOnlyThatKey() throws {
        let root = try #require(try parse("type: aem\nurl: x\nauth: none\n"))
        let trimmed = root.removingEntry("type")
        #expect(trimmed.mappingEntries?.map(\.key) == ["url", "auth"])
        #expect(trimmed.mark == root.mark)
        #expect(root.mappingEntries?.count == 3)
    }

    // MARK: - Anchors and aliases

    @Test func aliasRepeatsTheAnchoredNodeAtTheAliasPosition() throws {
        let root = try #require(try parse("base: &b {x: 1}\ncopy: *b\n"))
        let base = try #require(root.entry("base")?.value)
        let copy = try #require(root.entry("copy")?.value)
        #expect(base.mark == YAMLMark(line: 1, column: 7))
        #expect(copy.mark == YAMLMark(line: 2, column: 7))
        #expect(copy.mappingEntries?.map(\.key) == ["x"])
        #expect(copy.text(of: "x") == "1")
    }

    @Test func scalarAliasRepeatsTheScalar() throws {
        let root = try #require(try parse("a: &v 5\nb: *v\n"))
        #expect(root.text(of: "a") == "5")
        #expect(root.text(of: "b") == "5")
        #expect(root.entry("b")?.value.mark == YAMLMark(line: 2, column: 4))
    }

    @Test func aliasToAnUndefinedAnchorIsAnError() throws {
        let error = try parseError("a: 1\nb: *missing\n")
        #expect(error.mark == YAMLMark(line: 2, column: 4))
        #expect(error.message.contains("alias *missing refers to no anchor defined before it"))
    }

    @Test func aliasInsideItsOwnAnchorIsAnError() throws {
        let error = try parseError("a: &a [*a]\n")
        #expect(error.mark == YAMLMark(line: 1, column: 8))
        #expect(error.message.contains("*a"))
    }

    // MARK: - Merge keys

    @Test func mergedEntriesTakeThePlaceOfTheMergeKey() throws {
        let yaml = """
            base: &base {x: 1, y: 2}
            m:
              first: 0
              <<: *base
              last: 9
            """
        let root = try #require(try parse(yaml))
        let merged = try #require(root.entry("m")?.value)
        #expect(merged.mappingEntries?.map(\.key) == ["first", "x", "y", "last"])
        #expect(merged.text(of: "x") == "1")
        #expect(merged.entry("x")?.keyMark == YAMLMark(line: 1, column: 14))
    }

    @Test func explicitKeysWinOverMergedOnesWhereverTheyAre() throws {
        let yaml = """
            base: &base {host: a, port: 1}
            before:
              port: 2
              <<: *base
            after:
              <<: *base
              port: 3
            """
        let root = try #require(try parse(yaml))
        let before = try #require(root.entry("before")?.value)
        #expect(before.mappingEntries?.map(\.key) == ["port", "host"])
        #expect(before.text(of: "port") == "2")
        let after = try #require(root.entry("after")?.value)
        #expect(after.mappingEntries?.map(\.key) == ["host", "port"])
        #expect(after.text(of: "port") == "3")
        #expect(after.text(of: "host") == "a")
    }

    @Test func earlierMergeSourceWinsInAMergeList() throws {
        let yaml = """
            one: &one {host: a, port: 1}
            two: &two {host: b, port: 2, name: n}
            both:
              <<: [*one, *two]
            reversed:
              <<: [*two, *one]
            """
        let root = try #require(try parse(yaml))
        let both = try #require(root.entry("both")?.value)
        #expect(both.mappingEntries?.map(\.key) == ["host", "port", "name"])
        #expect(both.text(of: "host") == "a")
        #expect(both.text(of: "port") == "1")
        #expect(both.text(of: "name") == "n")
        let reversed = try #require(root.entry("reversed")?.value)
        #expect(reversed.text(of: "host") == "b")
        #expect(reversed.text(of: "port") == "2")
    }

    @Test func quotedMergeKeyIsAnOrdinaryKey() throws {
        let root = try #require(try parse("\"<<\": 1\n"))
        #expect(root.mappingEntries?.map(\.key) == ["<<"])
        #expect(root.text(of: "<<") == "1")
    }

    @Test func mergingAScalarIsAnError() throws {
        let error = try parseError("m:\n  <<: 5\n")
        #expect(error.mark == YAMLMark(line: 2, column: 7))
        #expect(error.message == "a `<<` merge takes a mapping or a list of mappings, found a scalar")
    }

    @Test func mergeListOfNonMappingsIsAnError() throws {
        let error = try parseError("m:\n  <<: [5]\n")
        #expect(error.mark == YAMLMark(line: 2, column: 8))
        #expect(error.message == "a `<<` merge takes mappings, found a scalar")
    }

    // MARK: - Keys

    @Test func duplicateKeyNamesBothPositions() throws {
        let error = try parseError("a: 1\nb: 2\na: 3\n")
        #expect(error.mark == YAMLMark(line: 3, column: 1))
        #expect(error.message.contains("duplicate key 'a'"))
        #expect(error.message.contains("first defined at 1:1"))
        #expect(error.description == "test.yaml:3:1: duplicate key 'a' (first defined at 1:1); keep only one")
    }

    @Test func duplicateKeyIsFoundInNestedMappingsAndAcrossQuoting() throws {
        let nested = try parseError("server:\n  host: a\n  port: 1\n  host: b\n")
        #expect(nested.mark == YAMLMark(line: 4, column: 3))
        #expect(nested.message.contains("first defined at 2:3"))
        let quoted = try parseError("name: x\n'name': y\n")
        #expect(quoted.mark == YAMLMark(line: 2, column: 1))
        #expect(quoted.message.contains("first defined at 1:1"))
    }

    @Test func sameKeyInSiblingMappingsIsNotADuplicate() throws {
        let root = try #require(try parse("a: {x: 1}\nb: {x: 2}\n"))
        #expect(root.entry("a")?.value.text(of: "x") == "1")
        #expect(root.entry("b")?.value.text(of: "x") == "2")
    }

    @Test func collectionKeysAreRejected() throws {
        let error = try parseError("? [a, b]\n: 1\n")
        #expect(error.mark == YAMLMark(line: 1, column: 3))
        #expect(error.message == "mapping keys must be scalars, found a sequence")
    }

    // MARK: - Limits

    @Test func aliasExpansionBoundIsExact() throws {
        let yaml = "a: &a [1, 2]\nb: [*a, *a]\n"
        // `a` stands for 3 nodes, so two aliases of it expand to 6.
        let root = try #require(try parse(yaml, limits: YAMLLimits(maxAliasExpansion: 6)))
        #expect(root.entry("b")?.value.sequenceItems?.count == 2)
        let error = try parseError(yaml, limits: YAMLLimits(maxAliasExpansion: 5))
        #expect(error.mark == YAMLMark(line: 2, column: 9))
        #expect(error.message.contains("aliases expand to more than 5 nodes at *a"))
    }

    @Test func billionLaughsIsStoppedQuicklyAtTheFirstAliasPastTheBound() throws {
        let start = ContinuousClock.now
        let error = try parseError(billionLaughs)
        let elapsed = ContinuousClock.now - start
        // Levels a–e stand for 74,718 nodes; the first `*e` on line 6 would add 66,430 more.
        #expect(error.mark == YAMLMark(line: 6, column: 8))
        #expect(error.message.contains("aliases expand to more than 100000 nodes at *e"))
        #expect(error.message.contains("alias bomb"))
        #expect(elapsed < .seconds(5))
    }

    @Test func nestingDeeperThanTheLimitIsAnError() throws {
        let error = try parseError("[[[[1]]]]", limits: YAMLLimits(maxDepth: 3))
        #expect(error.mark == YAMLMark(line: 1, column: 4))
        #expect(error.message == "collections nest more than 3 deep")
        let root = try #require(try parse("[[[1]]]", limits: YAMLLimits(maxDepth: 3)))
        #expect(root.sequenceItems?.count == 1)
    }

    @Test func blockMappingsCountTowardsTheDepth() throws {
        let error = try parseError("a:\n  b:\n    c: 1\n", limits: YAMLLimits(maxDepth: 2))
        #expect(error.mark == YAMLMark(line: 3, column: 5))
        #expect(error.message == "collections nest more than 2 deep")
    }

    @Test func defaultDepthLimitIsTwoHundred() throws {
        let deepest = String(repeating: "[", count: 200) + String(repeating: "]", count: 200)
        #expect(try parse(deepest) != nil)
        let tooDeep = String(repeating: "[", count: 201) + String(repeating: "]", count: 201)
        let error = try parseError(tooDeep)
        #expect(error.mark == YAMLMark(line: 1, column: 201))
        #expect(error.message == "collections nest more than 200 deep")
    }

    @Test func oversizedDocumentIsRejectedBeforeParsing() throws {
        let error = try parseError("a: 123456789", limits: YAMLLimits(maxDocumentBytes: 8))
        #expect(error.mark == nil)
        #expect(error.message == "document is 12 bytes, more than the 8 allowed")
        #expect(error.description == "test.yaml: document is 12 bytes, more than the 8 allowed")
    }

    // MARK: - Malformed documents

    @Test func secondDocumentIsRejectedAtItsMarker() throws {
        let error = try parseError("a: 1\n---\nb: 2\n")
        #expect(error.mark == YAMLMark(line: 2, column: 1))
        #expect(error.message.contains("expected one YAML document"))
        let emptySecond = try parseError("a: 1\n---\n")
        #expect(emptySecond.mark == YAMLMark(line: 2, column: 1))
    }

    @Test func mappingValueInsideAPlainScalarIsAnError() throws {
        let error = try parseError("a: b: c\n")
        #expect(error.mark == YAMLMark(line: 1, column: 5))
        #expect(error.message == "mapping values are not allowed in this context")
        #expect(error.description == "test.yaml:1:5: mapping values are not allowed in this context")
    }

    @Test func unclosedFlowSequenceIsReportedWhereTheParserGaveUp() throws {
        let error = try parseError("key: value\nlist: [1, 2\nother: 3\n")
        #expect(error.mark == YAMLMark(line: 3, column: 6))
        #expect(error.message.contains("did not find expected ',' or ']'"))
        #expect(error.message.contains("while parsing a flow sequence started at 2:7"))
        let atEnd = try parseError("a: [1, 2\n")
        #expect(atEnd.mark == YAMLMark(line: 2, column: 1))
    }

    @Test func tabIndentationIsAnError() throws {
        let error = try parseError("a:\n\tb: 1\n")
        #expect(error.mark == YAMLMark(line: 2, column: 1))
        #expect(error.message.contains("found character that cannot start any token"))
        let inBlock = try parseError("root:\n  a: 1\n\tb: 2\n")
        #expect(inBlock.mark == YAMLMark(line: 3, column: 1))
        #expect(inBlock.message.contains("tab"))
    }

    @Test func outdentedKeyIsAnError() throws {
        let error = try parseError("a:\n  b: 1\n c: 2\n")
        #expect(error.mark == YAMLMark(line: 3, column: 2))
        #expect(error.message.contains("did not find expected key"))
        #expect(error.message.contains("started at 1:1"))
    }

    @Test func unterminatedQuoteIsAnError() throws {
        let error = try parseError("a: \"abc\n")
        #expect(error.mark == YAMLMark(line: 2, column: 1))
        #expect(error.message.contains("while scanning a quoted scalar started at 1:4"))
    }

    @Test func controlCharacterIsRejected() throws {
        let error = try parseError("a: 1\nb: \u{1}\n")
        #expect(error.message.contains("control characters are not allowed"))
        #expect(error.mark == YAMLMark(line: 2, column: 4))

    }
}
