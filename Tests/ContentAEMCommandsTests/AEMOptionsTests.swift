import ContentJSON
import Testing

@testable import ContentAEMCommands

struct AEMOptionsTests {
    @Test func paramValuesAreTypedUnlessForcedToText() {
        #expect(AEMOptions.infer("5") == .number(JSONNumber(5)))
        #expect(AEMOptions.infer("true") == .bool(true))
        #expect(AEMOptions.infer("bali-surf-camp") == .string("bali-surf-camp"))
        #expect(AEMOptions.infer("5 days") == .string("5 days"))
        #expect(AEMOptions.infer("{\"a\":1}") == .object(["a": .number(JSONNumber(1))]))
    }
}
