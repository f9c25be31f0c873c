import ContentDataConnect
import GraphQL
import Testing

@testable import ContentDataConnectEmulator

/// A `Vector` pgvector cannot hold is refused before it is stored, in pgvector's words (`src/vector.c`), so that the
/// SQLite engine refuses what PostgreSQL would. (How a vector is kept, in single precision, is held to both engines by
/// `DataConnectSearchTests`.)
struct VectorStorageTests {
    @Test(arguments: [
        (Map.array([]), "vector must have at least 1 dimension"),
        (Map.array(Array(repeating: .number(0), count: 16_001)), "vector cannot have more than 16000 dimensions"),
        (Map.array([.number(1e39)]), "is out of range for type vector"),
    ])
    func aVectorPgvectorCannotHoldIsRefusedInItsWords(value: Map, message: String) {
        let error = #expect(throws: StoredValue.Invalid.self) { _ = try StoredValue.storage(value, as: .vector) }
        #expect(error?.description.contains(message) == true, "\(String(describing: error))")
    }

    @Test func aVectorOfTheMostDimensionsPgvectorHoldsIsStored() throws {
        _ = try StoredValue.storage(.array(Array(repeating: .number(0.5), count: 16_000)), as: .vector)
    }
}
