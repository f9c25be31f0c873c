import ContentJSON
import Foundation
import Testing

@testable import ContentOutput

/// Reading a file ahead on another thread must hand over exactly the file's bytes, in order, whatever the read
/// sizes, and must read the same items, and place errors at the same line, as reading it directly.
struct ReadAheadFileInputTests {
    /// A file in a fresh temporary directory holding `bytes`; removed by the caller through `directory`.
    private static func file(_ bytes: [UInt8]) throws -> (path: String, directory: URL) {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "content-read-ahead-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let url = directory.appendingPathComponent("input.json")
        try Data(bytes).write(to: url)
        return (url.path, directory)
    }

    /// Every byte of `input`, read `sizes` at a time in turn, and the reads after the end.
    private static func drain(_ input: ReadAheadFileInput, sizes: [Int]) throws -> (bytes: [UInt8], endReads: [Int]) {
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: sizes.max() ?? 1)
        var turn = 0
        while true {
            let size = sizes[turn % sizes.count]
            turn += 1
            let count = try buffer.withUnsafeMutableBytes { raw in
                try input.read(into: UnsafeMutableRawBufferPointer(rebasing: raw[0..<size]))
            }
            if count == 0 { break }
            bytes += buffer[0..<count]
        }
        var endReads: [Int] = []
        for _ in 0..<2 {
            endReads.append(
                try buffer.withUnsafeMutableBytes { raw in
                    try input.read(into: UnsafeMutableRawBufferPointer(rebasing: raw[0..<1]))
                })
        }
        return (bytes, endReads)
    }

    @Test(arguments: [
        0, 1, ReadAheadFileInput.chunkSize - 1, ReadAheadFileInput.chunkSize, 3 * ReadAheadFileInput.chunkSize + 7,
    ])
    func everyByteArrivesInOrderThenTheEnd(size: Int) throws {
        // Bytes that differ from their neighbours, so a repeated or skipped chunk shows.
        let bytes = (0..<size).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ $0 >> 12) }
        let (path, directory) = try Self.file(bytes)
        defer { try? FileManager.default.removeItem(at: directory) }
        for sizes in [[1 << 20], [1, 4096, 65_537, 3], [ReadAheadFileInput.chunkSize * 2]] {
            let input = ReadAheadFileInput(try FileDescriptorInput(opening: path))
            let read = try Self.drain(input, sizes: sizes)
            #expect(read.bytes == bytes, "read sizes \(sizes)")
            #expect(read.endReads == [0, 0])
        }
    }

    @Test func itemsAndErrorPlacesAreThoseOfReadingTheFileDirectly() throws {
        // Long enough to span chunks, with the error on a line far into the third one.
        let item = ##"{"title":"Caf\u00e9 \"#"## + String(repeating: "x", count: 900) + #"","price":12.5}"#
        var lines = Array(repeating: item, count: 3_000)
        lines[2_600] = #"{"title":"broken","price":12.5.0}"#
        let text = "{\"data\":{\"items\":[\n" + lines.joined(separator: ",\n") + "\n]}}\n"
        let (path, directory) = try Self.file(Array(text.utf8))
        defer { try? FileManager.default.removeItem(at: directory) }
        let itemsPath = try JSONPath(parsing: "data.items")
        let keeping = [try JSONPath(parsing: "title")]

        func read(_ input: some JSONByteInput) -> (items: Int, failure: JSONItemReaderError?) {
            var reader = JSONItemReader(input: input, itemsPath: itemsPath, keeping: keeping)
            var count = 0
            do throws(JSONItemReaderError) {
                guard try reader.start() == .items else { return (0, nil) }
                while try reader.next() != nil { count += 1 }
                return (count, nil)
            } catch {
                return (count, error)
            }
        }
        let direct = read(try FileDescriptorInput(opening: path))
        let ahead = read(ReadAheadFileInput(try FileDescriptorInput(opening: path)))
        #expect(direct.items == 2_600)
        #expect(ahead.items == direct.items)
        guard case .malformed(let expected) = direct.failure, case .malformed(let found) = ahead.failure else {
            Issue.record(
                "expected both to fail as malformed: \(String(describing: direct.failure)), \(String(describing: ahead.failure))"
            )
            return
        }
        #expect(found == expected)
        #expect(found.line == 2_602)
    }

    @Test func anInputDroppedHalfWayNeitherHangsNorDisturbsTheNext() throws {
        let bytes = [UInt8](repeating: UInt8(ascii: " "), count: 8 * ReadAheadFileInput.chunkSize)
        let (path, directory) = try Self.file(bytes)
        defer { try? FileManager.default.removeItem(at: directory) }
        // Each input is dropped after one small read, while its thread waits on a full queue: dropping must wake
        // and end that thread, not wait for it or leave it writing into a queue nobody reads.
        for _ in 0..<50 {
            let input = ReadAheadFileInput(try FileDescriptorInput(opening: path))
            var byte: UInt8 = 0
            let count = try withUnsafeMutableBytes(of: &byte) { try input.read(into: $0) }
            #expect(count == 1)
        }
        // A new input over the same file after all that still reads all of it.
        let input = ReadAheadFileInput(try FileDescriptorInput(opening: path))
        #expect(try Self.drain(input, sizes: [1 << 16]).bytes.count == bytes.count)
    }
}
