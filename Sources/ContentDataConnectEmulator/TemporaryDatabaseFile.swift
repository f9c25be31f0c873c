internal import Foundation

#if canImport(Glibc)
    internal import Glibc
#elseif canImport(Darwin)
    internal import Darwin
#endif

/// A database file in the temporary directory, with its WAL and shared-memory files removed once nothing holds it
/// (an open connection keeps reading an unlinked file).
///
/// The name carries the process's id: a process stopped with SIGKILL cannot remove its files, so each new one
/// removes those whose process no longer exists (`content-dataconnect-<pid>-<uuid>.sqlite`), as a lock file's owner
/// is checked. A file of a process that is still running, or of a name this does not make, is left alone.
final class TemporaryDatabaseFile: Sendable {
    let path: String

    static let prefix = "content-dataconnect-"

    init(directory: URL = FileManager.default.temporaryDirectory) {
        Self.removeAbandoned(in: directory)
        path =
            directory.appendingPathComponent("\(Self.prefix)\(getpid())-\(UUID().uuidString).sqlite").path
    }

    /// Removes the files; their open connections go on reading them until they close.
    func remove() {
        Self.remove(path)
    }

    deinit { remove() }

    private static func remove(_ path: String) {
        for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
    }

    /// Removes the databases in `directory` whose process has gone.
    static func removeAbandoned(in directory: URL) {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: directory.path) else { return }
        for name in names where name.hasPrefix(prefix) && name.hasSuffix(".sqlite") {
            let rest = name.dropFirst(prefix.count)
            guard let dash = rest.firstIndex(of: "-"), let pid = pid_t(rest[..<dash]), pid > 0, !isRunning(pid)
            else { continue }
            remove(directory.appendingPathComponent(name).path)
        }
    }

    /// Whether a process exists: `kill` with no signal checks without sending one (EPERM: it exists, another
    /// user's).
    static func isRunning(_ pid: pid_t) -> Bool {
        kill(pid, 0) == 0 || errno != ESRCH
    }
}
