/// A word single-quoted for a POSIX shell, for the curl commands `--dry-run` prints.
///
/// - Parameter word: Any text.
/// - Returns: The text in single quotes, each `'` inside written as `'\''`.
public func shellQuoted(_ word: String) -> String {
    "'" + word.replacing("'", with: "'\\''") + "'"
}
