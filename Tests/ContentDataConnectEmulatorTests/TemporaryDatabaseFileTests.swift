import Foundation
import Testing

@testable import ContentDataConnectEmulator

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The temporary database of a process that was killed is removed by the next one; a live one, and anything not
/// made this way, is not.
struct TemporaryDatabaseFileTests {
    @Test func anAbandonedDatabaseIsRemovedAndALiveOneIsNot() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("tmpdb-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        // A database whose owner file no process holds: what a killed process leaves.
        let abandoned = "content-dataconnect-A.sqlite"
        let others = ["content-dataconnect-B.sqlite", "content-dataconnect-B.sqlite-wal", "other-C.sqlite.owner"]
        for name in [abandoned, abandoned + "-wal", abandoned + "-shm", abandoned + ".owner"] + others {
            try Data("x".utf8).write(to: directory.appendingPathComponent(name))
        }
        let live = TemporaryDatabaseFile(directory: directory)
        try Data("x".utf8).write(to: URL(fileURLWithPath: live.path))
        var left = Set(try FileManager.default.contentsOfDirectory(atPath: directory.path))
        let liveName = URL(fileURLWithPath: live.path).lastPathComponent
        #expect(left == Set(others + [liveName, liveName + ".owner"]), "\(left.sorted())")
        // Another database made beside it leaves the live one alone: its owner file is locked.
        let second = TemporaryDatabaseFile(directory: directory)
        left = Set(try FileManager.default.contentsOfDirectory(atPath: directory.path))
        #expect(left.contains(liveName) && left.contains(liveName + ".owner"), "\(left.sorted())")
        // Removed with its owner file, and the lock let go of.
        live.remove()
        second.remove()
        left = Set(try FileManager.default.contentsOfDirectory(atPath: directory.path))
        #expect(left == Set(others), "\(left.sorted())")
    }
}
