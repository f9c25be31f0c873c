import ContentCore
import ContentJSON
import Synchronization
import Testing

@testable import ContentOutput

/// Bytes in memory that count how many have been read, from any thread.
private struct CountingInput: JSONByteInput {
    let bytes: [UInt8]
    let delivered: Counter
    var position = 0

    mutating func read(into buffer: UnsafeMutableRawBufferPointer) -> Int {
        let count = min(buffer.count, 4096, bytes.count - position)
        guard count > 0, let destination = buffer.baseAddress else { return 0 }
        bytes.withUnsafeBytes { source in
            if let base = source.baseAddress { destination.copyMemory(from: base + position, byteCount: count) }
        }
        position += count
        delivered.add(count)
        return count
    }

    var isRestartable: Bool { true }
    func hasBytesReady() -> Bool { true }
    func restarted() -> CountingInput? { CountingInput(bytes: bytes, delivered: Counter()) }
}

/// A count shared between the reading thread and the test.
final class Counter: Sendable {
    private let value = Mutex(0)

    func add(_ amount: Int) { value.withLock { $0 += amount } }
    var count: Int { value.withLock { $0 } }
}

private struct Failure: Error {
    let error: JSONItemReaderError
}

/// Reading ahead on another thread must not change what comes out, or in which order, or when a failure does.
struct ReadAheadItemReaderTests {
    /// A reader of `text` (a JSON array) already started.
    private static func reader(_ text: String, delivered: Counter = Counter()) throws -> JSONItemReader {
        var reader = JSONItemReader(
            input: CountingInput(bytes: Array(text.utf8), delivered: delivered), itemsPath: nil, keeping: nil,
            bufferSize: 4096)
        #expect(try reader.start() == .items)
        return reader
    }

    private static func drain(_ items: ReadAheadItemReader, upTo limit: Int = .max) throws -> [JSONValue] {
        var out: [JSONValue] = []
        while out.count < limit, let item = try items.next() { out.append(item) }
        return out
    }

    @Test(arguments: [0, 1, 255, 256, 257, 5_000])
    func everyItemComesOutInOrderThenTheEnd(total: Int) throws {
        let values = (0..<total).map { #"{"n":\#($0),"s":"é\"\#($0)"}"# }
        let items = ReadAheadItemReader(try Self.reader("[" + values.joined(separator: ",") + "]")) {
            Failure(error: $0)
        }
        let expected = try values.map { try JSONParser().parse($0) }
        #expect(try Self.drain(items) == expected)
        #expect(try items.next() == nil)
        #expect(try items.next() == nil)
    }

    @Test func aFailureComesAfterEveryItemReadBeforeIt() throws {
        let text = "[" + (1...300).map(String.init).joined(separator: ",") + ",tru]"
        let items = ReadAheadItemReader(try Self.reader(text)) { Failure(error: $0) }
        var read: [JSONValue] = []
        #expect {
            while let item = try items.next() { read.append(item) }
        } throws: { error in
            guard let failure = error as? Failure, case .malformed(let parse) = failure.error else { return false }
            return parse.message.contains("true")
        }
        #expect(read == (1...300).map { .number(JSONNumber($0)) })
        #expect(try items.next() == nil)
    }

    @Test func mixingValuesAndTextsGivesEveryItemInOrderThenTheEnd() throws {
        // Every third item as a value, the rest as text: each way crosses a batch boundary (256 and 512 as text,
        // 768 as a value), so neither may skip or repeat an item when the other moved to a new batch.
        let total = 800
        #expect(total > 3 * ReadAheadItemReader.batchSize)
        let values = (0..<total).map { #"{ "n" : \#($0) , "s" : "é\"\#($0)\/" , "a" : [ -0.0 , null , true , {} ] }"# }
        let items = ReadAheadItemReader(try Self.reader("[ " + values.joined(separator: " ,\n ") + " ]")) {
            Failure(error: $0)
        }
        let expected = try values.map { try JSONParser().parse($0) }
        var read: [JSONValue] = []
        for index in 0..<total {
            if index % 3 == 0 {
                let value = try items.next()
                read.append(try #require(value, "item \(index) as a value"))
            } else {
                var bytes: [UInt8] = []
                #expect(try items.nextText { bytes = Array($0) }, "item \(index) as text")
                read.append(try JSONParser().parse(bytes))
            }
        }
        #expect(read == expected)
        // The end, however it is asked for, and `body` is not called there.
        var calledAfterTheEnd = false
        #expect(try !items.nextText { _ in calledAfterTheEnd = true })
        #expect(try items.next() == nil)
        #expect(try !items.nextText { _ in calledAfterTheEnd = true })
        #expect(!calledAfterTheEnd)
    }

    @Test func aFailureComesThroughNextTextAfterEveryItemReadBeforeIt() throws {
        let values = (1...300).map { #"{"n":\#($0),"s":"\u00e9 \#($0)"}"# }
        let text = "[" + values.joined(separator: ",") + ",tru]"
        let items = ReadAheadItemReader(try Self.reader(text)) { Failure(error: $0) }
        let expected = try values.map { try JSONParser().parse($0) }
        var read: [JSONValue] = []
        let failure = #expect(throws: Failure.self) {
            while try items.nextText({ read.append(try JSONParser().parse(Array($0))) }) {}
        }
        guard case .malformed(let parse) = failure?.error else {
            Issue.record("expected a malformed-input failure, got \(String(describing: failure))")
            return
        }
        #expect(parse.message.contains("true"))
        #expect(read == expected)
        var calledAfterTheFailure = false
        #expect(try !items.nextText { _ in calledAfterTheFailure = true })
        #expect(!calledAfterTheFailure)
    }

    @Test func readingStaysABoundedWayAheadOfTheConsumer() async throws {
        let delivered = Counter()
        let item = #"{"text":"\#(String(repeating: "x", count: 100))"}"#
        let text = "[" + Array(repeating: item, count: 20_000).joined(separator: ",") + "]"
        let items = ReadAheadItemReader(try Self.reader(text, delivered: delivered)) { Failure(error: $0) }
        #expect(try Self.drain(items, upTo: 1).count == 1)
        try await Task.sleep(for: .milliseconds(200))
        // The batch in hand, a full queue, the batch being filled and one read buffer: nothing like the input.
        let bound = ReadAheadItemReader.batchSize * (ReadAheadItemReader.queueLength + 2) * item.utf8.count + 8192
        #expect(delivered.count <= bound)
        #expect(delivered.count < text.utf8.count / 2)
    }
}

/// From a pipe, items are read one at a time; asked for as text, they must be what asking for values gives.
struct ReportingReaderTests {
    @Test func textsAndValuesAreTheSameItemsAndFailuresNameTheSource() throws {
        let values = (0..<40).map { #"{ "n" : \#($0) , "s" : "\u00e9\"\#($0)" , "skip" : [ 1 , { "x" : null } ] }"# }
        let text = "[" + values.joined(separator: ",") + ",{\"n\": tru}]"
        var reader = JSONItemReader(
            input: JSONMemoryInput(Array(text.utf8), chunkSize: 7), itemsPath: nil,
            keeping: [try JSONPath(parsing: "n"), try JSONPath(parsing: "s")], bufferSize: 16)
        #expect(try reader.start() == .items)
        var items = JSONInput.ReportingReader(reader: reader, source: "in.json", itemsPath: nil)
        var read: [JSONValue] = []
        #expect {
            while true {
                if read.count % 2 == 0 {
                    guard try items.nextText({ read.append(try JSONParser().parse(Array($0))) }) else { break }
                } else {
                    guard let value = try items.next() else { break }
                    read.append(value)
                }
            }
        } throws: { error in
            guard let failure = error as? JSONInputError else { return false }
            return failure.source == "in.json" && failure.category == .malformedInput && failure.line == 1
        }
        let expected = try values.map { text -> JSONValue in
            var value = try JSONParser().parse(text)
            if case .object(var object) = value {
                object["skip"] = nil
                value = .object(object)
            }
            return value
        }
        #expect(read == expected)
    }
}
