import ContentJSON
import ContentTesting
import Foundation
import Testing

@testable import ContentKit

struct PersistedQueryURLTests {
    @Test func matchesTheJSClientOnTheCorpusVectors() throws {
        let file = TestLocations.corpus.appendingPathComponent("aem/persisted-query-encoding-vectors.json")
        guard let data = FileManager.default.contents(atPath: file.path) else {
            print("note: skipping the encoding vectors: the shared corpus is not beside the repository")
            return
        }
        let vectors = try JSONParser().parse(Array(data))["vectors"]?.arrayValue ?? []
        #expect(vectors.count > 5)
        for vector in vectors {
            var variables = JSONObject()
            for variable in vector["variables"]?.arrayValue ?? [] {
                guard let name = variable["name"]?.stringValue, let value = variable["value"] else { continue }
                variables[name] = value
            }
            let expected = vector["suffix"]?.stringValue ?? ""
            let prefix = "http://h/graphql/execute.json/c/q"
            if expected.contains("%3B") || expected.isEmpty {
                do {
                    let url = try PersistedQueryURL.make(
                        base: "http://h", configuration: "c", name: "q", variables: variables)
                    #expect(url == prefix + expected, "\(variables.members.map(\.key))")
                } catch {
                    // Values with ';' or '=' are refused rather than sent ambiguously.
                    #expect(
                        variables.members.contains {
                            ($0.value.stringValue ?? $0.value.jsonText).contains(where: { $0 == ";" || $0 == "=" })
                        })
                }
            }
        }
    }

    @Test func encodesHostileValuesAsEncodeURIComponentDoes() throws {
        let url = try PersistedQueryURL.make(
            base: "https://publish.example.com",
            configuration: "wknd-shared",
            name: "adventure-by-slug",
            variables: [
                "q": .string("a b/c?d&e+f%g\"h'é東"),
                "limit": .number(JSONNumber(5)),
                "flag": .bool(true),
                "filter": .object(["x": .array([.number(JSONNumber(1))])]),
            ]
        )
        #expect(
            url == "https://publish.example.com/graphql/execute.json/wknd-shared/adventure-by-slug"
                + "%3Bq%3Da%20b%2Fc%3Fd%26e%2Bf%25g%22h'%C3%A9%E6%9D%B1%3Blimit%3D5%3Bflag%3Dtrue"
                + "%3Bfilter%3D%7B%22x%22%3A%5B1%5D%7D;"
        )
    }

    @Test func refusesSeparatorsInsideValues() {
        for value in ["a;b", "a=b"] {
            #expect(throws: PersistedQueryURL.UnencodableVariable.self) {
                try PersistedQueryURL.make(
                    base: "http://h", configuration: "c", name: "q", variables: ["v": .string(value)])
            }
        }
    }

    @Test func noVariablesMeansNoSuffix() throws {
        let url = try PersistedQueryURL.make(base: "http://h", configuration: "c", name: "q", variables: [:])
        #expect(url == "http://h/graphql/execute.json/c/q")
    }

}
