import Foundation
import Testing

@testable import ContentDataConnectEmulator

/// The temporary database of a process that was killed is removed by the next one; nothing else is.
struct TemporaryDatabaseFileTests {
    @Test func aKilledProcessesDatabaseIsRemovedAndNothingElse() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("tmpdb-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        // A process that has exited: its id names no process any more.
        let finished = Process()
        finished.executableURL = URL(fileURLWithPath: "/bin/sh")
        finished.arguments = ["-c", "exit 0"]
        try finished.run()
        finished.waitUntilExit()
        let gone = finished.processIdentifier
        let mine = ProcessInfo.processInfo.processIdentifier
        let abandoned = "content-dataconnect-\(gone)-A.sqlite"
        let kept = [
            "content-dataconnect-\(mine)-B.sqlite", "content-dataconnect-\(mine)-B.sqlite-wal",
            "content-dataconnect-notapid-C.sqlite", "content-dataconnect-D.sqlite", "other-\(gone)-E.sqlite",
        ]
        for name in [abandoned, abandoned + "-wal", abandoned + "-shm"] + kept {
            try Data("x".utf8).write(to: directory.appendingPathComponent(name))
        }
        let file = TemporaryDatabaseFile(directory: directory)
        let left = Set(try FileManager.default.contentsOfDirectory(atPath: directory.path))
        #expect(left == Set(kept), "\(left.sorted())")
        #expect(file.path.hasPrefix(directory.appendingPathComponent("content-dataconnect-\(mine)-").path))
        #expect(!TemporaryDatabaseFile.isRunning(gone))
        #expect(TemporaryDatabaseFile.isRunning(mine))
    }
}
