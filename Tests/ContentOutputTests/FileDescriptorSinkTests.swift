import Foundation
import Testing

@testable import ContentOutput

struct FileDescriptorSinkTests {
    /// Writes through a sink into a fresh file and returns what the file holds.
    private func written(capacity: Int, _ body: (inout FileDescriptorSink) throws -> Void) throws -> [UInt8] {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("sink-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: url) }
        #expect(FileManager.default.createFile(atPath: url.path, contents: nil))
        let handle = try FileHandle(forWritingTo: url)
        var sink = FileDescriptorSink(descriptor: handle.fileDescriptor, capacity: capacity)
        try body(&sink)
        try sink.flush()
        try handle.close()
        return Array(try Data(contentsOf: url))
    }

    @Test func blocksLargerThanTheBufferKeepTheirPlaceAmongSmallWrites() throws {
        let small = Array("ab".utf8)
        let block = (0..<1000).map { UInt8(truncatingIfNeeded: $0) }
        let text = "tail"
        let bytes = try written(capacity: 64) { sink in
            try sink.write(small)
            try sink.write(block)  // goes out from where it is, after the buffered "ab"
            try sink.write(text)
            try sink.write(block[10..<20])  // smaller than the buffer: buffered
            try sink.write(block)
        }
        #expect(bytes == small + block + Array(text.utf8) + Array(block[10..<20]) + block)
    }

    @Test func aBlockOfExactlyTheBufferSizeAndManySmallWritesArriveWhole() throws {
        var expected: [UInt8] = []
        let bytes = try written(capacity: 16) { sink in
            for round in 0..<100 {
                let piece = Array(repeating: UInt8(round), count: round % 20)
                try sink.write(piece)
                expected += piece
            }
        }
        #expect(bytes == expected)
    }
}
