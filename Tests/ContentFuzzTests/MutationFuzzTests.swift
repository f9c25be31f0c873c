import ContentCommandLine
import ContentConfig
import ContentCore
import ContentGraphQL
import ContentHTTP
import ContentJSON
import ContentTesting
import ContentYAML
import Foundation
import GraphQL
import OrderedCollections
import Testing

/// Bounded mutation fuzzing of every front door that reads untrusted text: the YAML configuration decoder, the
/// JSON reader, the GraphQL request check, and the URL, redirect and redaction code.
///
/// Each target mutates real seeds (the samples, the corpus, the reproducers of past crashes) with a fixed-seed
/// generator, so a run is repeatable; a crash stops the test process and fails CI. `CONTENT_FUZZ_ITERATIONS`
/// (default 1500 per target) runs longer locally, and `CONTENT_FUZZ_SEED` varies the sequence.
struct MutationFuzzTests {
    static let iterations = ProcessInfo.processInfo.environment["CONTENT_FUZZ_ITERATIONS"].flatMap(Int.init) ?? 1500
    static let seed = ProcessInfo.processInfo.environment["CONTENT_FUZZ_SEED"].flatMap(UInt64.init) ?? 0x5EED_C0DE

    /// Fragments that mean something to one of the grammars: openers, escapes, anchors, line breaks, controls.
    static let dictionary: [[UInt8]] = [
        "{", "}", "[", "]", "(", ")", "\"", "\"\"\"", "\\", "\\u", "\\\"", "#", "\r", "\n", "\r\n", "\t", "\u{0}",
        "\u{1B}", ":", ": ", "- ", "&a ", "*a", "<<: ", "${X}", "${X:-y}", "!!str ", "'", "@include(if: true)", "...",
        "fragment F on Query { ", "...F ", "a: ", "%", "%2F", "//", "http://", "https://u:p@", ":99999", "?key=",
        "#frag", "\u{202E}", "é", "\u{FEFF}", "1e400", "-0", "null", "true", ",", "\u{7F}",
    ].map { Array($0.utf8) }

    /// A small, deterministic generator (xorshift64*).
    struct Generator {
        var state: UInt64

        mutating func next(_ bound: Int) -> Int {
            state ^= state >> 12
            state ^= state << 25
            state ^= state >> 27
            return Int((state &* 0x2545_F491_4F6C_DD1D) % UInt64(max(bound, 1)))
        }
    }

    /// One mutation of `input`: a byte flipped, a dictionary entry inserted, a slice repeated (to grow nesting),
    /// or a cut; sometimes several.
    static func mutate(_ input: [UInt8], _ generator: inout Generator) -> [UInt8] {
        var bytes = input
        for _ in 0..<(1 + generator.next(4)) {
            let position = generator.next(bytes.count + 1)
            switch generator.next(5) {
            case 0 where !bytes.isEmpty:
                bytes[min(position, bytes.count - 1)] ^= UInt8(1 << generator.next(8))
            case 1:
                bytes.insert(contentsOf: dictionary[generator.next(dictionary.count)], at: position)
            case 2 where !bytes.isEmpty:
                let start = min(position, bytes.count - 1)
                let length = 1 + generator.next(min(64, bytes.count - start))
                let slice = bytes[start..<(start + length)]
                let copies = 1 + generator.next(200)
                bytes.insert(contentsOf: Array(repeating: Array(slice), count: copies).joined(), at: start)
            case 3:
                bytes = Array(bytes.prefix(position))
            default:
                bytes.insert(UInt8(generator.next(256)), at: position)
            }
        }
        // Bounded, so that a run stays fast: the reproducers of size-driven faults are regression tests.
        return Array(bytes.prefix(256 << 10))
    }

    static func seeds(_ extensions: Set<String>, extra: [String]) -> [[UInt8]] {
        var texts = extra
        for folder in [TestLocations.examples, TestLocations.corpus] {
            let files = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil)
            while let file = files?.nextObject() as? URL {
                guard extensions.contains(file.pathExtension), !file.path.contains("/.build"),
                    let text = try? String(contentsOf: file, encoding: .utf8), text.utf8.count < 64 << 10
                else { continue }
                texts.append(text)
            }
        }
        return texts.map { Array($0.utf8) }
    }

    /// Runs `body` on `iterations` mutants of the seeds.
    static func fuzz(_ seeds: [[UInt8]], salt: UInt64, _ body: ([UInt8]) -> Void) {
        var generator = Generator(state: seed ^ salt)
        for seedInput in seeds { body(seedInput) }
        for _ in 0..<iterations {
            var input = seeds[generator.next(seeds.count)]
            input = mutate(input, &generator)
            body(input)
        }
    }

    @Test func theYAMLConfigurationDecoderOnlyEverAnswersOrRefuses() {
        let seeds = Self.seeds(
            ["yaml", "yml"],
            extra: [
                "backends:\n  a: &x {type: aem, url: 'http://h'}\n  b: *x\n", "a: [[[[[[[[[[1]]]]]]]]]]\n",
                "<<: [*a, *b]\n", "k: ${X:-${Y}}\n",
            ])
        #expect(seeds.count > 5)
        var answered = 0
        Self.fuzz(seeds, salt: 1) { input in
            let text = String(decoding: input, as: UTF8.self)
            do {
                _ = try ConfigLoader(environment: ["X": "x"]).load(text: text, file: "fuzz.yaml")
                answered += 1
            } catch {
                // Refusal is a fine outcome; every refusal must say something.
                #expect(!"\(error)".isEmpty)
            }
        }
        #expect(answered > 0)
    }

    @Test func theJSONReadersOnlyEverAnswerOrRefuse() throws {
        let seeds = Self.seeds(
            ["json"], extra: [#"{"a":[1,2,{"b":"\u00e9"}]}"#, "[" + String(repeating: "[", count: 300) + "]"])
        let path = try JSONPath(parsing: "data.adventureList.items")
        var parsed = 0
        Self.fuzz(seeds, salt: 2) { input in
            if (try? JSONParser().parse(input)) != nil { parsed += 1 }
            _ = try? JSONParser().parseSequence(input)
            var reader = JSONItemReader(input: JSONMemoryInput(input, chunkSize: 97), itemsPath: path, keeping: nil)
            var items = 0
            while items < 100_000, (try? reader.next()) != nil { items += 1 }
        }
        #expect(parsed > 0)
    }

    @Test func theGraphQLRequestCheckOnlyEverAnswersOrRefuses() throws {
        let schema = try GraphQLSchema(
            query: try GraphQLObjectType(
                name: "Query",
                fields: [
                    "adventureList": GraphQLField(type: GraphQLList(GraphQLString)),
                    "title": GraphQLField(type: GraphQLString, args: ["s": GraphQLArgument(type: GraphQLString)]),
                ]))
        let reproducers = [
            "#\r{" + String(repeating: "adventureList{", count: 300) + "x" + String(repeating: "}", count: 300) + "}",
            "{a(s:\"\\\\\"){" + String(repeating: "title{", count: 300) + "}",
            "{a(s: \"\"\" a \" b \"\"\")" + String(repeating: "{", count: 300), "{title(s: \"\\u", "{title(s: \"\\",
        ]
        let seeds = Self.seeds(["graphql", "gql"], extra: reproducers)
        Self.fuzz(seeds, salt: 3) { input in
            _ = GraphQLSource.request(String(decoding: input, as: UTF8.self), schema: schema, limits: GraphQLLimits())
        }
        // The examples' operations are seeds too, and the corpus's when it is beside the repository.
        #expect(seeds.count > reproducers.count + 10)
        if TestLocations.corpusFolder("dataconnect") != nil { #expect(seeds.count > 20) }
        // The check answers as well as refuses: a request valid against this small schema passes it.
        let valid = GraphQLSource.request(#"{ title(s: "x") adventureList }"#, schema: schema, limits: GraphQLLimits())
        guard case .success = valid else {
            Issue.record("a valid request was refused: \(valid)")
            return
        }
    }

    @Test func urlRedirectAndRedactionCodeOnlyEverAnswersOrRefuses() {
        let seeds = [
            "http://127.0.0.1:4503/graphql/execute.json/wknd-shared/adventures-all",
            "https://admin:secret@example.com:8443/a/b?key=k&x=1#access_token=t", "http://[::1]:9399/v1/x",
            "http://127.0.0.1:65536/x", "/relative?token=t", "//example.com/p", "http://h/%E2%82%AC?q=%ZZ",
        ].map { Array($0.utf8) }
        let policy = RedirectPolicy()
        let redactor = Redactor(secrets: ["secret"])
        Self.fuzz(seeds, salt: 4) { input in
            let text = String(decoding: input, as: UTF8.self)
            _ = BackendURL.problem(text)
            #expect(!redactor.redact(url: text).contains("secret"))
            #expect(!dryRunURL(text, redactor: redactor).contains("secret"))
            let request = HTTPTransportRequest(
                method: .post, url: "https://example.com/a", headers: ["Authorization": "x"])
            if let next = try? policy.nextRequest(after: request, originalURL: request.url, status: 302, location: text)
            {
                // Credentials never follow a redirect to another origin.
                if !RedirectPolicy.sameOrigin(request.url, next.url) { #expect(next.headers["Authorization"] == nil) }
                _ = BackendURL.problem(next.url)
            }
        }
    }
}
