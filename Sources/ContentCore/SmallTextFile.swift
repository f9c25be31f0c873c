internal import Foundation

/// Reads a file that holds one small value, such as a token: only a regular file, and never more than `limit`
/// bytes, so that a path to `/dev/zero`, a FIFO or a huge file cannot hang or exhaust the reader.
public enum SmallTextFile {
    /// The trimmed UTF-8 text of a small regular file.
    ///
    /// - Parameters:
    ///   - path: The file.
    ///   - limit: The most bytes accepted.
    /// - Returns: The text without surrounding whitespace.
    /// - Throws: A sentence saying why the file cannot be used.
    public static func read(_ path: String, limit: Int = 64 << 10) throws(SmallTextFileError) -> String {
        var status = stat()
        guard stat(path, &status) == 0 else { throw SmallTextFileError(String(cString: strerror(errno))) }
        guard (status.st_mode & S_IFMT) == S_IFREG else {
            throw SmallTextFileError("it is not a regular file")
        }
        guard let handle = FileHandle(forReadingAtPath: path) else {
            throw SmallTextFileError(String(cString: strerror(errno)))
        }
        defer { try? handle.close() }
        guard let data = try? handle.read(upToCount: limit + 1) ?? Data() else {
            throw SmallTextFileError("it cannot be read")
        }
        guard data.count <= limit else { throw SmallTextFileError("it is larger than \(limit / 1024) KiB") }
        guard let text = String(data: data, encoding: .utf8) else { throw SmallTextFileError("it is not UTF-8 text") }
        return text.trimmingCharacters(in: .whitespacesAndNewlines)
    }
}

/// Why a small text file cannot be used.
public struct SmallTextFileError: Error, CustomStringConvertible {
    /// The reason, as a phrase: `it is not a regular file`.
    public var description: String

    init(_ description: String) { self.description = description }
}
