import ContentJSON
import Testing

@testable import ContentDataConnect

/// `@allow(fields:, maxCount:)` read from its text and held against a variable's value.
struct DataVariableAllowanceTests {
    private func allowance(_ fields: String, maxCount: Int = 100) throws -> DataVariableAllowance {
        guard case .success(let parsed) = DataVariableAllowance.parse(fields) else {
            throw AllowanceNotParsed(text: fields)
        }
        return DataVariableAllowance(variable: "data", fieldsText: fields, fields: parsed, maxCount: maxCount)
    }

    private struct AllowanceNotParsed: Error {
        let text: String
    }

    private func problem(_ fields: String) -> String? {
        guard case .failure(let problem) = DataVariableAllowance.parse(fields) else { return nil }
        return problem.description
    }

    @Test func namesAndNestedSelectionsAreRead() throws {
        let parsed = try allowance("title, genre reviews_on_movie { rating user { id } }").fields
        #expect(parsed.members["title"] == .some(nil))
        #expect(parsed.members["genre"] == .some(nil))
        let reviews = try #require(parsed.members["reviews_on_movie"] ?? nil)
        #expect(reviews.members["rating"] == .some(nil))
        #expect((reviews.members["user"] ?? nil)?.members["id"] == .some(nil))
    }

    @Test func textThatIsNoSelectionOfNamesIsRefusedSayingWhy() {
        #expect(problem("")?.contains("names no field") == true)
        #expect(problem("title {")?.contains("not closed") == true)
        #expect(problem("title }")?.contains("closes nothing") == true)
        #expect(problem("{ title }")?.contains("must follow a field name") == true)
        #expect(problem("title: String")?.contains("':'") == true)
        #expect(problem("1title")?.contains("is not a field name") == true)
        #expect(problem("title reviews_on_movie { }")?.contains("selects no field") == true)
        #expect(problem("title genre title")?.contains("title is named twice") == true)
        let deep = "a " + String(repeating: "{ a ", count: 40) + String(repeating: "} ", count: 40)
        #expect(problem(deep)?.contains("32 levels") == true)
    }

    @Test func aValueMaySetOnlyTheAllowedFieldsAtEachLevel() throws {
        let movies = try allowance("title reviews_on_movie { rating }")
        #expect(movies.violation(of: .object(["title": .string("Dune")])) == nil)
        #expect(movies.violation(of: .null) == nil)
        let extra = movies.violation(of: .object(["title": .string("Dune"), "rating": .number(JSONNumber(9))]))
        #expect(extra?.contains("$data.rating is not among the fields") == true, "\(extra ?? "")")
        let nested = movies.violation(
            of: .object([
                "reviews_on_movie": .array([
                    .object(["rating": .number(JSONNumber(4))]), .object(["text": .string("x")]),
                ])
            ]))
        #expect(nested?.contains("$data.reviews_on_movie[1].text") == true, "\(nested ?? "")")
        // A name without braces allows its whole value.
        let whole = try allowance("title reviews_on_movie")
        #expect(whole.violation(of: .object(["reviews_on_movie": .array([.object(["text": .string("x")])])])) == nil)
    }

    @Test func maxCountCountsEveryEntityNestedOnesIncluded() throws {
        let two = try allowance("title reviews_on_movie { rating }", maxCount: 2)
        let movie = JSONValue.object(["title": .string("T")])
        #expect(two.violation(of: .array([movie, movie])) == nil)
        #expect(two.violation(of: .array([movie, movie, movie]))?.contains("more than 2 entities") == true)
        let withReviews = JSONValue.object([
            "reviews_on_movie": .array([
                .object(["rating": .number(JSONNumber(1))]), .object(["rating": .number(JSONNumber(2))]),
            ])
        ])
        #expect(two.violation(of: withReviews)?.contains("more than 2 entities") == true)
        // Inside a field allowed whole, the objects are not checked but still counted.
        let whole = try allowance("title reviews_on_movie", maxCount: 2)
        #expect(whole.violation(of: withReviews)?.contains("raise maxCount in the operation") == true)
    }
}
