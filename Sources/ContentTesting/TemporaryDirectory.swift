internal import Foundation

/// A fresh directory under the system's temporary directory, for tests that need real files.
///
/// Call ``remove()`` when done, typically with `defer`.
public struct TemporaryDirectory: Sendable {
    /// The directory's absolute path.
    public let root: String

    /// Makes the directory.
    ///
    /// - Throws: When it cannot be made.
    public init() throws {
        root = (NSTemporaryDirectory() as NSString).appendingPathComponent("content-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
    }

    /// The absolute path of `relative` inside the directory.
    public func path(_ relative: String) -> String {
        (root as NSString).appendingPathComponent(relative)
    }

    /// Writes `text` to `relative`, making the directories it needs, and sets its permissions.
    ///
    /// - Returns: The file's absolute path.
    @discardableResult
    public func write(_ text: String, to relative: String, permissions: Int = 0o600) throws -> String {
        try write(Array(text.utf8), to: relative, permissions: permissions)
    }

    /// Writes `bytes` to `relative`, making the directories it needs, and sets its permissions.
    ///
    /// - Returns: The file's absolute path.
    @discardableResult
    public func write(_ bytes: [UInt8], to relative: String, permissions: Int = 0o600) throws -> String {
        let file = path(relative)
        try FileManager.default.createDirectory(
            atPath: (file as NSString).deletingLastPathComponent,
            withIntermediateDirectories: true
        )
        try Data(bytes).write(to: URL(fileURLWithPath: file))
        try FileManager.default.setAttributes([.posixPermissions: permissions], ofItemAtPath: file)
        return file
    }

    /// Makes the directory `relative`, and any it needs.
    ///
    /// - Returns: Its absolute path.
    @discardableResult
    public func makeDirectory(_ relative: String) throws -> String {
        let directory = path(relative)
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        return directory
    }

    /// Deletes the directory and everything in it.
    public func remove() {
        try? FileManager.default.removeItem(atPath: root)
    }
}
