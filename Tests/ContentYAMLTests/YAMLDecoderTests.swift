import Testing

@testable import ContentYAML

// Expected positions are 1-based `line:column`, counted by hand: in `  port: abc` the value starts at 3:9
// when that is the third line. Every document is decoded as if from a file called `test.yaml`.

private func decode<T: Decodable>(
    _ type: T.Type,
    _ yaml: String,
    environment: [String: String] = [:],
    limits: YAMLLimits = .default
) throws -> T {
    try YAMLDecoder(environment: environment, limits: limits).decode(type, from: yaml, file: "test.yaml")
}

/// The error decoding `yaml` as `T` throws; records an issue when it throws none.
private func decodingError<T: Decodable>(
    _ type: T.Type,
    _ yaml: String,
    environment: [String: String] = [:],
    limits: YAMLLimits = .default,
    sourceLocation: SourceLocation = #_sourceLocation
) throws -> YAMLError {
    let error = #expect(throws: YAMLError.self, sourceLocation: sourceLocation) {
        try YAMLDecoder(environment: environment, limits: limits).decode(type, from: yaml, file: "test.yaml")
    }
    return try #require(error, sourceLocation: sourceLocation)
}

/// A document with one key, `value`, whose value starts at 1:8.
private struct Value<T: Decodable>: Decodable {
    var value: T
}

private struct Server: Decodable, Equatable {
    var host: String
    var port: Int?
}

private struct Site: Decodable {
    struct TLS: Decodable {
        var enabled: Bool
    }

    struct Endpoint: Decodable {
        var host: String
        var port: Int
        var tls: TLS?
    }

    var name: String
    var server: Endpoint
}

private enum AuthMode: String, Decodable, CaseIterable {
    case none, basic, token
}

struct YAMLDecoderTests {
    // MARK: - Scalars

    private struct Scalars: Decodable {
        var text: String
        var count: Int
        var ratio: Double
        var enabled: Bool
    }

    @Test func decodesEachScalarType() throws {
        let yaml = """
            text: hello world
            count: 42
            ratio: 2.5
            enabled: true
            """
        let scalars = try decode(Scalars.self, yaml)
        #expect(scalars.text == "hello world")
        #expect(scalars.count == 42)
        #expect(scalars.ratio == 2.5)
        #expect(scalars.enabled)
    }

    private struct Texts: Decodable {
        var block: String
        var number: String
        var boolean: String
        var escaped: String
        var single: String
    }

    @Test func anyScalarDecodesAsAString() throws {
        let yaml = #"""
            block: |
              line one
              line two
            number: 42
            boolean: true
            escaped: "tab\there"
            single: 'it''s'
            """#
        let texts = try decode(Texts.self, yaml)
        #expect(texts.block == "line one\nline two\n")
        #expect(texts.number == "42")
        #expect(texts.boolean == "true")
        #expect(texts.escaped == "tab\there")
        #expect(texts.single == "it's")
    }

    private struct Integers: Decodable {
        var decimal: Int
        var hex: Int
        var octal: Int
        var negative: Int
        var positive: Int
        var negativeHex: Int
        var largest: Int64
        var smallest: Int8
        var unsigned: UInt16
        var quoted: Int
        var leadingZero: Int
    }

    @Test func decodesDecimalHexadecimalAndOctalIntegers() throws {
        let yaml = """
            decimal: 1234
            hex: 0x1F
            octal: 0o17
            negative: -42
            positive: +7
            negativeHex: -0x10
            largest: 9223372036854775807
            smallest: -128
            unsigned: 65535
            quoted: "8080"
            leadingZero: 010
            """
        let integers = try decode(Integers.self, yaml)
        #expect(integers.decimal == 1234)
        #expect(integers.hex == 31)
        #expect(integers.octal == 15)
        #expect(integers.negative == -42)
        #expect(integers.positive == 7)
        #expect(integers.negativeHex == -16)
        #expect(integers.largest == Int64.max)
        #expect(integers.smallest == -128)
        #expect(integers.unsigned == 65535)
        #expect(integers.quoted == 8080)
        #expect(integers.leadingZero == 10)
    }

    @Test(arguments: ["300", "-129", "0x80"])
    func int8OutOfRangeNamesTheRange(text: String) throws {
        let error = try decodingError(Value<Int8>.self, "value: \(text)")
        #expect(error.message == "expected an integer from -128 to 127, found '\(text)'")
        #expect(error.mark == YAMLMark(line: 1, column: 8))
        #expect(error.keyPath == "value")
    }

    @Test func negativeUnsignedNamesTheRange() throws {
        let error = try decodingError(Value<UInt8>.self, "value: -1")
        #expect(error.message == "expected an integer from 0 to 255, found '-1'")
    }

    @Test(arguments: ["1.5", "1e3", "0x", "0o9", "12abc", "one", "1_000"])
    func nonIntegerIsRejected(text: String) throws {
        let error = try decodingError(Value<Int>.self, "value: \(text)")
        #expect(error.message == "expected an integer, found '\(text)'")
        #expect(error.mark == YAMLMark(line: 1, column: 8))
    }

    @Test func wrongTypeIsReportedAtTheValueWithItsKeyPath() throws {
        let yaml = """
            server:
              host: example.com
              port: abc
            """
        let error = try decodingError([String: Server].self, yaml)
        #expect(error.mark == YAMLMark(line: 3, column: 9))
        #expect(error.keyPath == "server.port")
        #expect(error.message == "expected an integer, found 'abc'")
        #expect(error.description == "test.yaml:3:9: server.port: expected an integer, found 'abc'")
    }

    private struct Doubles: Decodable {
        var decimal: Double
        var exponent: Double
        var infinity: Double
        var negativeInfinity: Double
        var notANumber: Double
        var integral: Double
        var single: Float
    }

    @Test func decodesDoublesIncludingInfinityAndNaN() throws {
        let yaml = """
            decimal: 1.5
            exponent: -2e3
            infinity: .inf
            negativeInfinity: -.Inf
            notANumber: .nan
            integral: 7
            single: 0.25
            """
        let doubles = try decode(Doubles.self, yaml)
        #expect(doubles.decimal == 1.5)
        #expect(doubles.exponent == -2000)
        #expect(doubles.infinity == .infinity)
        #expect(doubles.negativeInfinity == -.infinity)
        #expect(doubles.notANumber.isNaN)
        #expect(doubles.integral == 7)
        #expect(doubles.single == 0.25)
    }

    @Test(arguments: ["fast", "1.2.3", "0x10", "nan", "infinity"])
    func nonNumberIsRejected(text: String) throws {
        let error = try decodingError(Value<Double>.self, "value: \(text)")
        #expect(error.message == "expected a number, found '\(text)'")
        #expect(error.mark == YAMLMark(line: 1, column: 8))
    }

    private struct Booleans: Decodable {
        var a: Bool
        var b: Bool
        var c: Bool
        var d: Bool
    }

    @Test func decodesTrueAndFalse() throws {
        let booleans = try decode(Booleans.self, "a: true\nb: false\nc: True\nd: FALSE\n")
        #expect(booleans.a)
        #expect(!booleans.b)
        #expect(booleans.c)
        #expect(!booleans.d)
    }

    @Test(arguments: ["yes", "no", "on", "off", "y", "1"])
    func yaml11BooleanWordsAreRejected(word: String) throws {
        let error = try decodingError(Value<Bool>.self, "value: \(word)")
        #expect(error.message == "expected a boolean (true or false), found '\(word)'")
        #expect(error.mark == YAMLMark(line: 1, column: 8))
    }

    private struct Optionals: Decodable {
        var tilde: Int?
        var word: String?
        var empty: Double?
        var quotedNull: String?
        var quotedTilde: String?
        var present: Bool?
        var missing: Int?
    }

    @Test func nullAndMissingDecodeAsNilForOptionals() throws {
        let yaml = """
            tilde: ~
            word: null
            empty:
            quotedNull: "null"
            quotedTilde: '~'
            present: false
            """
        let optionals = try decode(Optionals.self, yaml)
        #expect(optionals.tilde == nil)
        #expect(optionals.word == nil)
        #expect(optionals.empty == nil)
        #expect(optionals.quotedNull == "null")
        #expect(optionals.quotedTilde == "~")
        #expect(optionals.present == false)
        #expect(optionals.missing == nil)
    }

    @Test func nullForARequiredValueIsAnError() throws {
        let tilde = try decodingError(Value<String>.self, "value: ~")
        #expect(tilde.message == "expected a string, found null")
        #expect(tilde.mark == YAMLMark(line: 1, column: 8))
        let empty = try decodingError(Value<Int>.self, "value:")
        #expect(empty.message == "expected an integer, found null")
        #expect(empty.mark == YAMLMark(line: 1, column: 7))
    }

    // MARK: - Structure

    @Test func decodesNestedStructs() throws {
        let yaml = """
            name: site
            server:
              host: example.com
              port: 8080
              tls:
                enabled: true
            """
        let site = try decode(Site.self, yaml)
        #expect(site.name == "site")
        #expect(site.server.host == "example.com")
        #expect(site.server.port == 8080)
        #expect(site.server.tls?.enabled == true)
    }

    @Test func missingRequiredKeyIsReportedAtItsMapping() throws {
        let yaml = """
            name: site
            server:
              host: example.com
            """
        let error = try decodingError(Site.self, yaml)
        #expect(error.mark == YAMLMark(line: 3, column: 3))
        #expect(error.keyPath == "server")
        #expect(error.message == "missing required key 'port'")
    }

    @Test func scalarWhereAMappingBelongsIsAnError() throws {
        let error = try decodingError(Site.self, "name: site\nserver: 5\n")
        #expect(error.mark == YAMLMark(line: 2, column: 9))
        #expect(error.keyPath == "server")
        #expect(error.message == "expected a mapping, found '5'")
    }

    @Test func mappingWhereASequenceBelongsIsAnError() throws {
        let error = try decodingError(Value<[Int]>.self, "value:\n  a: 1\n")
        #expect(error.mark == YAMLMark(line: 2, column: 3))
        #expect(error.message == "expected a sequence, found a mapping")
    }

    private struct Lists: Decodable {
        var ports: [Int]
        var hosts: [String]
        var servers: [Server]
        var maybe: [Int?]
        var empty: [String]
    }

    @Test func decodesSequences() throws {
        let yaml = """
            ports: [80, 443]
            hosts:
              - a.example.com
              - b.example.com
            servers:
              - host: one
                port: 1
              - host: two
            maybe: [1, ~, 3]
            empty: []
            """
        let lists = try decode(Lists.self, yaml)
        #expect(lists.ports == [80, 443])
        #expect(lists.hosts == ["a.example.com", "b.example.com"])
        #expect(lists.servers == [Server(host: "one", port: 1), Server(host: "two", port: nil)])
        #expect(lists.maybe == [1, nil, 3])
        #expect(lists.empty.isEmpty)
    }

    @Test func errorInASequenceNamesTheIndex() throws {
        let error = try decodingError(Value<[Int]>.self, "value: [80, http]")
        #expect(error.mark == YAMLMark(line: 1, column: 13))
        #expect(error.description == "test.yaml:1:13: value[1]: expected an integer, found 'http'")
    }

    private struct Dictionaries: Decodable {
        var headers: [String: String]
        var limits: [String: Int]
    }

    @Test func decodesDictionariesWithoutReportingTheirKeysAsUnknown() throws {
        let yaml = """
            headers:
              Accept: application/json
              X-Trace: "on"
            limits:
              a: 1
              b: 2
            """
        let dictionaries = try decode(Dictionaries.self, yaml)
        #expect(dictionaries.headers == ["Accept": "application/json", "X-Trace": "on"])
        #expect(dictionaries.limits == ["a": 1, "b": 2])
    }

    @Test func errorInADictionaryNamesTheKey() throws {
        let error = try decodingError(Value<[String: Int]>.self, "value: {a: 1, b: x}")
        #expect(error.keyPath == "value.b")
        #expect(error.mark == YAMLMark(line: 1, column: 18))
        #expect(error.message == "expected an integer, found 'x'")
    }

    @Test func numericLookingDictionaryKeyIsShownAsAKeyNotAnIndex() throws {
        let error = try decodingError(Value<[String: Int]>.self, "value:\n  \"404\": x\n")
        #expect(error.mark == YAMLMark(line: 2, column: 10))
        #expect(error.keyPath == "value.404")

    }

    private struct Captured: Decodable {
        var section: YAMLNode
    }

    @Test func capturedNodeKeepsMappingOrderAndIsNotCheckedForUnknownKeys() throws {
        let yaml = """
            section:
              zeta: 1
              alpha: 2
              mid: 3
            """
        let captured = try decode(Captured.self, yaml)
        let entries = try #require(captured.section.mappingEntries)
        #expect(entries.map(\.key) == ["zeta", "alpha", "mid"])
        #expect(entries.map(\.keyMark.line) == [2, 3, 4])
        #expect(captured.section.mark == YAMLMark(line: 2, column: 3))
    }

    @Test func emptyDocumentDecodesAsAnEmptyMapping() throws {
        let optionals = try decode(Optionals.self, "")
        #expect(optionals.tilde == nil)
        #expect(optionals.missing == nil)
        let commented = try decode([String: Int].self, "# all commented out\n")
        #expect(commented.isEmpty)
        let error = try decodingError([Int].self, "")
        #expect(error.mark == YAMLMark(line: 1, column: 1))
        #expect(error.message == "expected a sequence, found a mapping")
    }

    @Test func explicitlyStartedEmptyDocumentDecodesAsAnEmptyMapping() throws {
        let optionals = try decode(Optionals.self, "---\n# all commented out\n")
        #expect(optionals.missing == nil)

    }

    @Test func nilNodeDecodesAsAnEmptyMapping() throws {
        let optionals = try YAMLDecoder().decode(Optionals.self, from: nil, file: "test.yaml")
        #expect(optionals.tilde == nil)
    }

    // MARK: - Anchors, aliases and merge keys

    private struct Pair: Decodable {
        var primary: Server
        var backup: Server
    }

    @Test func aliasDecodesAsACopyOfItsAnchor() throws {
        let yaml = """
            primary: &server
              host: example.com
              port: 443
            backup: *server
            """
        let pair = try decode(Pair.self, yaml)
        #expect(pair.primary == Server(host: "example.com", port: 443))
        #expect(pair.backup == pair.primary)
    }

    @Test func scalarAliasDecodesAsItsValue() throws {
        let values = try decode([String: Int].self, "a: &v 5\nb: *v\n")
        #expect(values == ["a": 5, "b": 5])
    }

    private struct Merged: Decodable {
        var base: Server
        var derived: Server
        var overridden: Server
    }

    @Test func mergeKeyCopiesEntriesAndExplicitKeysWin() throws {
        let yaml = """
            base: &base
              host: example.com
              port: 80
            derived:
              <<: *base
            overridden:
              port: 8080
              <<: *base
            """
        let merged = try decode(Merged.self, yaml)
        #expect(merged.derived == Server(host: "example.com", port: 80))
        #expect(merged.overridden == Server(host: "example.com", port: 8080))
    }

    private struct Templated: Decodable {
        var templates: [String: YAMLNode]
        var first: Server
        var second: Server
    }

    @Test func earlierSourceWinsInAMergeList() throws {
        let yaml = """
            templates:
              a: &a {host: a.example.com, port: 1}
              b: &b {host: b.example.com, port: 2}
            first:
              <<: [*a, *b]
            second:
              <<: [*b, *a]
            """
        let templated = try decode(Templated.self, yaml)
        #expect(templated.first == Server(host: "a.example.com", port: 1))
        #expect(templated.second == Server(host: "b.example.com", port: 2))
    }

    @Test func billionLaughsFailsFastNamingTheAliasExpansion() throws {
        let start = ContinuousClock.now
        let error = try decodingError([String: [YAMLNode]].self, billionLaughs)
        let elapsed = ContinuousClock.now - start
        #expect(error.message.contains("aliases expand to more than 100000 nodes at *e"))
        #expect(error.mark == YAMLMark(line: 6, column: 8))
        #expect(elapsed < .seconds(5))
    }

    @Test func aliasBoundComesFromTheDecoderLimits() throws {
        let yaml = "a: &a [1, 2]\nb: [*a, *a]\n"
        let error = try decodingError(
            [String: YAMLNode].self,
            yaml,
            limits: YAMLLimits(maxAliasExpansion: 5)
        )
        #expect(error.mark == YAMLMark(line: 2, column: 9))
        #expect(error.message.contains("alias"))
        let values = try decode([String: YAMLNode].self, yaml, limits: YAMLLimits(maxAliasExpansion: 6))
        let items = try #require(values["b"]?.sequenceItems)
        #expect(items.map { $0.sequenceItems?.count } == [2, 2])
    }

    @Test func depthBoundComesFromTheDecoderLimits() throws {
        let error = try decodingError(
            YAMLNode.self,
            "a:\n  b:\n    c: 1\n",
            limits: YAMLLimits(maxDepth: 2)
        )
        #expect(error.mark == YAMLMark(line: 3, column: 5))
        #expect(error.message == "collections nest more than 2 deep")
    }

    // MARK: - Duplicate and unknown keys

    @Test func duplicateKeyErrorNamesBothPositions() throws {
        let yaml = """
            server:
              host: a
              port: 1
              host: b
            """
        let error = try decodingError([String: Server].self, yaml)
        #expect(error.mark == YAMLMark(line: 4, column: 3))
        #expect(error.message.contains("duplicate key 'host'"))
        #expect(error.message.contains("first defined at 2:3"))
        #expect(error.description.hasPrefix("test.yaml:4:3: "))
    }

    @Test func unknownKeyHasExactPositionKeyPathAndSuggestion() throws {
        let yaml = """
            name: site
            server:
              host: example.com
              prot: 8080
            """
        struct Document: Decodable {
            var name: String
            var server: Server
        }
        let error = try decodingError(Document.self, yaml)
        #expect(error.mark == YAMLMark(line: 4, column: 3))
        #expect(error.keyPath == "server.prot")
        #expect(error.message == "unknown key 'prot'")
        #expect(error.hint == "did you mean 'port'?")
        #expect(error.description == "test.yaml:4:3: server.prot: unknown key 'prot' (did you mean 'port'?)")
    }

    @Test func unknownKeyFarFromAnyKnownOneListsTheKnownKeys() throws {
        let error = try decodingError(Server.self, "host: example.com\nzzzzzzzz: 1\n")
        #expect(error.mark == YAMLMark(line: 2, column: 1))
        #expect(error.keyPath == "zzzzzzzz")
        #expect(error.hint == "known keys: host, port")
    }

    @Test func earliestUnknownKeyInTheDocumentIsReported() throws {
        let yaml = """
            servers:
              - host: one
              - host: two
                hots: x
            zebra: 1
            """
        struct Document: Decodable {
            var servers: [Server]
        }
        let error = try decodingError(Document.self, yaml)
        #expect(error.mark == YAMLMark(line: 4, column: 5))
        #expect(error.description == "test.yaml:4:5: servers[1].hots: unknown key 'hots' (did you mean 'host'?)")
    }

    @Test func unknownKeysAreAllowedWhenNotRejected() throws {
        let decoder = YAMLDecoder(rejectsUnknownKeys: false)
        let server = try decoder.decode(Server.self, from: "host: a\nextra: 1\n", file: "test.yaml")
        #expect(server == Server(host: "a", port: nil))
    }

    @Test func keyPathPrefixIsPrependedToErrors() throws {
        let node = try YAMLParser().parse("host: a\nhots: b\n", file: "content.yaml")
        let error = #expect(throws: YAMLError.self) {
            try YAMLDecoder().decode(Server.self, from: node, file: "content.yaml", keyPath: ["backends", "wknd"])
        }
        #expect(error?.keyPath == "backends.wknd.hots")
        #expect(error?.description == "content.yaml:2:1: backends.wknd.hots: unknown key 'hots' (did you mean 'host'?)")
    }

    // MARK: - Enumerations

    @Test func stringEnumDecodesItsCases() throws {
        #expect(try decode(Value<AuthMode>.self, "value: basic").value == .basic)
        #expect(try decode(Value<[AuthMode]>.self, "value: [none, token]").value == [AuthMode.none, .token])
    }

    @Test func unknownEnumValueListsTheCasesAndSuggestsOne() throws {
        let yaml = """
            auth:
              mode: tokn
            """
        struct Document: Decodable {
            struct Auth: Decodable {
                var mode: AuthMode
            }

            var auth: Auth
        }
        let error = try decodingError(Document.self, yaml)
        #expect(error.mark == YAMLMark(line: 2, column: 9))
        #expect(error.keyPath == "auth.mode")
        #expect(error.message == "expected one of none, basic, token, found 'tokn'")
        #expect(error.hint == "did you mean 'token'?")
        #expect(
            error.description
                == "test.yaml:2:9: auth.mode: expected one of none, basic, token, found 'tokn' (did you mean 'token'?)"
        )
    }

    @Test func unknownEnumValueFarFromAnyCaseHasNoSuggestion() throws {
        let error = try decodingError(Value<AuthMode>.self, "value: kerberos")
        #expect(error.message == "expected one of none, basic, token, found 'kerberos'")
        #expect(error.hint == nil)
    }

    // MARK: - Errors from a type's own init(from:)

    private struct Bounds: Decodable {
        var lower: Int
        var upper: Int

        private enum CodingKeys: String, CodingKey {
            case lower, upper
        }

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            lower = try container.decode(Int.self, forKey: .lower)
            upper = try container.decode(Int.self, forKey: .upper)
            guard lower <= upper else {
                throw DecodingError.dataCorruptedError(
                    forKey: .upper,
                    in: container,
                    debugDescription: "upper must be at least lower"
                )
            }
        }
    }

    @Test func decodingErrorFromACustomInitIsPlacedAtItsKey() throws {
        let yaml = """
            range:
              lower: 5
              upper: 2
            """
        let error = try decodingError([String: Bounds].self, yaml)
        #expect(error.mark == YAMLMark(line: 3, column: 10))
        #expect(error.keyPath == "range.upper")
        #expect(error.message == "upper must be at least lower")
    }

    // MARK: - Environment interpolation

    @Test func interpolatesSetVariables() throws {
        let environment = ["HOST": "example.com", "A": "1", "B": "2"]
        #expect(
            try decode(Value<String>.self, "value: https://${HOST}/path", environment: environment).value
                == "https://example.com/path")
        #expect(try decode(Value<String>.self, "value: ${A}-${B}", environment: environment).value == "1-2")
        #expect(try decode(Value<String>.self, "value: \"${HOST}\"", environment: environment).value == "example.com")
    }

    @Test func unsetVariableIsAnErrorNamingIt() throws {
        let error = try decodingError(Value<String>.self, "value: ${MISSING_VAR}", environment: ["OTHER": "x"])
        #expect(error.mark == YAMLMark(line: 1, column: 8))
        #expect(error.keyPath == "value")
        #expect(error.message == "environment variable MISSING_VAR is not set")
        #expect(error.hint?.contains("export MISSING_VAR=") == true)
        #expect(error.description.contains("MISSING_VAR"))
    }

    @Test func defaultIsUsedWhenTheVariableIsUnsetOrEmpty() throws {
        let environment = ["EMPTY": "", "SET": "value"]
        #expect(
            try decode(Value<String>.self, "value: ${MISSING:-fallback}", environment: environment).value
                == "fallback")
        #expect(
            try decode(Value<String>.self, "value: ${EMPTY:-fallback}", environment: environment).value
                == "fallback")
        #expect(try decode(Value<String>.self, "value: ${SET:-fallback}", environment: environment).value == "value")
        #expect(try decode(Value<String>.self, "value: ${MISSING:-}", environment: environment).value == "")
    }

    @Test func emptyVariableWithoutADefaultIsEmpty() throws {
        #expect(try decode(Value<String>.self, "value: <${EMPTY}>", environment: ["EMPTY": ""]).value == "<>")
    }

    @Test func doubleDollarIsALiteralDollar() throws {
        let value = try decode(Value<String>.self, "value: price $$5 and $${HOME}", environment: [:]).value
        #expect(value == "price $5 and ${HOME}")
    }

    @Test func bareDollarIsKept() throws {
        #expect(
            try decode(Value<String>.self, "value: costs $5, ends in $", environment: [:]).value
                == "costs $5, ends in $")
    }

    @Test func singleQuotedScalarIsLiteral() throws {
        let value = try decode(Value<String>.self, "value: '${HOME} and $$'", environment: ["HOME": "/root"]).value
        #expect(value == "${HOME} and $$")
    }

    @Test func unterminatedReferenceIsAnError() throws {
        let error = try decodingError(Value<String>.self, "value: ${HOST", environment: ["HOST": "x"])
        #expect(error.mark == YAMLMark(line: 1, column: 8))
        #expect(error.message.contains("unterminated `${`"))
    }

    @Test func referenceToAnInvalidNameIsAnError() throws {
        let error = try decodingError(Value<String>.self, "value: ${1ABC}", environment: ["1ABC": "x"])
        #expect(error.message.contains("is not a variable reference"))
    }

    @Test func numbersAndBooleansAreReadFromInterpolatedText() throws {
        let environment = ["PORT": "8080", "DEBUG": "true"]
        #expect(try decode(Value<Int>.self, "value: ${PORT}", environment: environment).value == 8080)
        #expect(try decode(Value<Int>.self, "value: \"${PORT}\"", environment: environment).value == 8080)
        #expect(try decode(Value<Bool>.self, "value: ${DEBUG}", environment: environment).value)
        #expect(try decode(Value<Bool>.self, "value: ${QUIET:-false}", environment: environment).value == false)
    }

    @Test func enumValueCanComeFromTheEnvironment() throws {
        #expect(try decode(Value<AuthMode>.self, "value: ${MODE}", environment: ["MODE": "token"]).value == .token)
    }

    // MARK: - Malformed documents

    @Test func malformedDocumentErrorCarriesThePosition() throws {
        let error = try decodingError(Server.self, "host: a: b\n")
        #expect(error.mark == YAMLMark(line: 1, column: 8))
        #expect(error.description == "test.yaml:1:8: mapping values are not allowed in this context")
    }

    @Test func multipleDocumentsAreRejected() throws {
        let error = try decodingError(Server.self, "host: a\n---\nhost: b\n")
        #expect(error.mark == YAMLMark(line: 2, column: 1))
        #expect(error.message.contains("expected one YAML document"))
    }

    // MARK: - Suggestions

    @Test func closestMatchSuggestsOnlyLikelyTypos() {
        #expect(closestMatch(to: "backend", in: ["defaults", "backends"]) == "backends")
        #expect(closestMatch(to: "TOKN", in: ["none", "basic", "token"]) == "token")
        #expect(closestMatch(to: "kerberos", in: ["none", "basic", "token"]) == nil)
        #expect(closestMatch(to: "x", in: [String]()) == nil)
    }
}

/// The inputs that were quadratic (40,000 keys took half a minute).
///
/// Each key is read once, in order, whatever the size. How long they take is measured by `Benchmarks/yaml-keys.sh`, not asserted here.
struct YAMLLargeMappingTests {
    @Test func aMappingOfFortyThousandKeysDecodesEveryKey() throws {
        let yaml = (0..<40_000).map { "k\($0): v\($0)" }.joined(separator: "\n")
        let decoded = try decode([String: String].self, yaml)
        #expect(decoded.count == 40_000)
        #expect(decoded["k39999"] == "v39999")
    }

    @Test func aLongSequenceOfMappingsDecodes() throws {
        struct Item: Decodable { var name: String }
        let yaml = (0..<40_000).map { "- name: n\($0)" }.joined(separator: "\n")
        let decoded = try decode([Item].self, yaml)
        #expect(decoded.count == 40_000)
        #expect(decoded.last?.name == "n39999")
    }
}
