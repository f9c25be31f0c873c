import Testing

@testable import ContentBackendAEM

struct AEMBackendVariableTypesTests {
    @Test func declaredTypesAreReadFromTheQueryText() {
        let query = "query Q($slug: String!, $limit: Int = 5, $price:Float!, $tags: [String], $on: Boolean) { a }"
        #expect(
            AEMBackend.declaredTypes(in: query)
                == ["slug": "String", "limit": "Int", "price": "Float", "tags": "String", "on": "Boolean"]
        )
    }
}
