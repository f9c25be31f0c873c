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

    /// A real process holds an owner file's lock (util-linux's `flock`, which takes the same `flock(2)` lock): its
    /// database stays while it runs and goes once it is killed with SIGKILL.
    @Test func aDatabaseGoesOnlyOnceItsProcessIsKilled() async throws {
        let tool = ["/usr/bin/flock", "/bin/flock"].first { FileManager.default.isExecutableFile(atPath: $0) }
        guard let tool else {
            print("note: skipping the killed-process check: util-linux's flock is not installed")
            return
        }
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("tmpdb-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let database = directory.appendingPathComponent("content-dataconnect-K.sqlite")
        try Data("x".utf8).write(to: database)
        let owner = database.path + ".owner"
        try Data().write(to: URL(fileURLWithPath: owner))
        let holder = Process()
        holder.executableURL = URL(fileURLWithPath: tool)
        holder.arguments = ["--exclusive", owner, "/bin/sleep", "60"]
        try holder.run()
        defer { if holder.isRunning { kill(holder.processIdentifier, SIGKILL) } }
        // Until the tool holds the lock, a sweep could take it: wait for it to be held.
        var held = false
        for _ in 0..<200 where !held {
            let descriptor = open(owner, O_RDWR)
            held = descriptor >= 0 && flock(descriptor, LOCK_EX | LOCK_NB) != 0
            if descriptor >= 0 { close(descriptor) }
            if !held { try await Task.sleep(for: .milliseconds(20)) }
        }
        try #require(held, "flock did not take the lock")
        TemporaryDatabaseFile.removeAbandoned(in: directory)
        #expect(FileManager.default.fileExists(atPath: database.path))
        kill(holder.processIdentifier, SIGKILL)
        holder.waitUntilExit()
        TemporaryDatabaseFile.removeAbandoned(in: directory)
        #expect(!FileManager.default.fileExists(atPath: database.path))
        #expect(!FileManager.default.fileExists(atPath: owner))
    }
}
