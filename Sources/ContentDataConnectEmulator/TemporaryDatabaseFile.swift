internal import Foundation
internal import Synchronization

#if canImport(Glibc)
    internal import Glibc
#elseif canImport(Darwin)
    internal import Darwin
#endif

/// A database file in the temporary directory, with its WAL and shared-memory files removed once nothing holds it
/// (an open connection keeps reading an unlinked file).
///
/// A process stopped with SIGKILL cannot remove its files, so each database has an owner file beside it
/// (`….sqlite.owner`) that its process holds an exclusive `flock` on for as long as it runs. The kernel lets go of
/// the lock when the process ends, however it ends, and a lock is seen across processes and containers that share
/// the directory (process ids are not), so each new database first removes every database whose owner file it can
/// lock: no process holds it any more. A database without an owner file is left alone.
final class TemporaryDatabaseFile: Sendable {
    let path: String
    /// The owner file's descriptor, holding the lock until the files are removed; -1 when it could not be made (the
    /// files are then only removed when the store closes) or once it is closed.
    private let owner: Mutex<Int32>

    static let prefix = "content-dataconnect-"
    static let ownerSuffix = ".owner"

    init(directory: URL = FileManager.default.temporaryDirectory) {
        Self.removeAbandoned(in: directory)
        path = directory.appendingPathComponent("\(Self.prefix)\(UUID().uuidString).sqlite").path
        let descriptor = open(path + Self.ownerSuffix, O_CREAT | O_EXCL | O_RDWR | O_CLOEXEC, 0o600)
        if descriptor >= 0, flock(descriptor, LOCK_EX | LOCK_NB) != 0 {
            close(descriptor)
            owner = Mutex(-1)
        } else {
            owner = Mutex(descriptor)
        }
    }

    /// Removes the files, then lets go of the lock; open connections go on reading the files until they close.
    func remove() {
        Self.remove(path)
        owner.withLock { descriptor in
            if descriptor >= 0 { close(descriptor) }
            descriptor = -1
        }
    }

    deinit { remove() }

    private static func remove(_ path: String) {
        for suffix in ["", "-wal", "-shm", ownerSuffix] { try? FileManager.default.removeItem(atPath: path + suffix) }
    }

    /// Removes the databases in `directory` whose owner no longer runs.
    static func removeAbandoned(in directory: URL) {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: directory.path) else { return }
        for name in names where name.hasPrefix(prefix) && name.hasSuffix(".sqlite" + ownerSuffix) {
            let ownerPath = directory.appendingPathComponent(name).path
            let descriptor = open(ownerPath, O_RDWR | O_CLOEXEC)
            guard descriptor >= 0 else { continue }
            defer { close(descriptor) }
            // Held: its process still runs.
            guard flock(descriptor, LOCK_EX | LOCK_NB) == 0 else { continue }
            remove(String(ownerPath.dropLast(ownerSuffix.count)))
        }
    }
}
