import ContentJSON
import ContentOutput
import Synchronization
import Testing

@testable import ContentCommandLine

/// Counts items as it makes them, and fails after `failAfter` of them when asked to.
private struct CountingReader: ItemReader {
    struct Failure: Error, Equatable {}

    let total: Int
    var failAfter: Int?
    let produced: Counter
    private var made = 0

    init(total: Int, failAfter: Int? = nil, produced: Counter = Counter()) {
        self.total = total
        self.failAfter = failAfter
        self.produced = produced
    }

    mutating func next() throws -> JSONValue? {
        if let failAfter, made == failAfter { throw Failure() }
        guard made < total else { return nil }
        made += 1
        produced.increment()
        return .number(JSONNumber(text: String(made)))
    }
}

/// A count shared between the reading thread and the test.
final class Counter: Sendable {
    private let value = Mutex(0)

    func increment() { value.withLock { $0 += 1 } }
    var count: Int { value.withLock { $0 } }
}

/// Reading ahead on another thread must not change what comes out, or in which order, or when a failure does.
struct ReadAheadItemReaderTests {
    private static func texts(_ reader: ReadAheadItemReader, upTo limit: Int = .max) throws -> [String] {
        var out: [String] = []
        while out.count < limit, let item = try reader.next() {
            guard case .number(let number) = item else { break }
            out.append(number.text)
        }
        return out
    }

    @Test(arguments: [0, 1, 255, 256, 257, 5_000])
    func everyItemComesOutInOrderThenTheEnd(total: Int) throws {
        let reader = ReadAheadItemReader(CountingReader(total: total))
        #expect(try Self.texts(reader) == (0..<total).map { String($0 + 1) })
        #expect(try reader.next() == nil)
        #expect(try reader.next() == nil)
    }

    @Test func aFailureComesAfterEveryItemReadBeforeIt() throws {
        let reader = ReadAheadItemReader(CountingReader(total: 1_000, failAfter: 300))
        var items = 0
        #expect(throws: CountingReader.Failure.self) {
            while try reader.next() != nil { items += 1 }
        }
        #expect(items == 300)
        #expect(try reader.next() == nil)
    }

    @Test func readingStaysABoundedWayAheadOfTheConsumer() async throws {
        let produced = Counter()
        let reader = ReadAheadItemReader(CountingReader(total: 100_000, produced: produced))
        #expect(try Self.texts(reader, upTo: 1) == ["1"])
        try await Task.sleep(for: .milliseconds(200))
        // The batch in hand, a full queue, and the batch being filled: nothing like the whole input.
        let bound = ReadAheadItemReader.batchSize * (ReadAheadItemReader.queueLength + 2)
        #expect(produced.count <= bound)
        #expect(produced.count < 100_000)
    }
}
