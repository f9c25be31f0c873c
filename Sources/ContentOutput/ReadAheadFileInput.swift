internal import ContentJSON
internal import Foundation

/// A regular file read on a thread of its own, a few chunks ahead of whoever parses it.
///
/// Copying a large file out of the page cache costs about a third of what skipping through it does. Done here,
/// that copy runs on the core that otherwise only writes rows, and the parsing thread copies each chunk from
/// memory another core has just written, several times faster. Chunks are recycled, so memory stays a few
/// megabytes however large the file.
final class ReadAheadFileInput: JSONByteInput {
    /// Hands the file to the reading thread, the only place it is read from once this input exists.
    private final class FileHandover: @unchecked Sendable {
        let file: FileDescriptorInput

        init(_ file: FileDescriptorInput) {
            self.file = file
        }
    }

    static let chunkSize = 1 << 20
    /// Chunks read ahead at most.
    static let depth = 3

    /// Full chunks one way, used ones back; each chunk holds exactly the bytes read.
    private let queue = ThreadHandoff<[UInt8], JSONInputReadError>(capacity: depth)
    private let file: FileDescriptorInput
    private var current: [UInt8] = []
    private var offset = 0

    /// Starts reading `file`, a regular file, on a new thread.
    init(_ file: FileDescriptorInput) {
        self.file = file
        let queue = queue
        let handover = FileHandover(file)
        Thread.detachNewThread {
            Thread.current.name = "content-file"
            Self.fill(queue, from: handover.file)
        }
    }

    deinit {
        queue.abandon()
    }

    var isRestartable: Bool { true }

    func hasBytesReady() -> Bool { true }

    /// The file read again from its start, ahead on a thread of its own as well.
    func restarted() -> ReadAheadFileInput? {
        file.restarted().map(ReadAheadFileInput.init)
    }

    func read(into buffer: UnsafeMutableRawBufferPointer) throws(JSONInputReadError) -> Int {
        if offset == current.count {
            guard let chunk = try queue.take(handingBack: current.isEmpty ? nil : current) else {
                current = []
                offset = 0
                return 0
            }
            current = chunk
            offset = 0
        }
        let count = min(buffer.count, current.count - offset)
        guard count > 0, let destination = buffer.baseAddress else { return 0 }
        current.withUnsafeBytes { source in
            if let start = source.baseAddress { destination.copyMemory(from: start + offset, byteCount: count) }
        }
        offset += count
        return count
    }

    private static func fill(_ queue: ThreadHandoff<[UInt8], JSONInputReadError>, from file: FileDescriptorInput) {
        while true {
            // Fill the chunk to the brim, so every read the parser makes is served in full.
            var chunk = queue.takeSpare() ?? []
            if chunk.count != chunkSize { chunk = [UInt8](repeating: 0, count: chunkSize) }
            var used = 0
            var failure: JSONInputReadError?
            while used < chunkSize {
                let read: Result<Int, JSONInputReadError> = chunk.withUnsafeMutableBytes { raw in
                    do throws(JSONInputReadError) {
                        return .success(try file.read(into: UnsafeMutableRawBufferPointer(rebasing: raw[used...])))
                    } catch {
                        return .failure(error)
                    }
                }
                guard case .success(let count) = read, count > 0 else {
                    if case .failure(let error) = read { failure = error }
                    break
                }
                used += count
            }
            let atEnd = used < chunkSize
            if used < chunkSize { chunk.removeSubrange(used...) }
            guard queue.put(used > 0 ? chunk : nil, finishing: atEnd, failure: failure), !atEnd else { return }
        }
    }
}
