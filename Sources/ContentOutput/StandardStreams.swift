internal import Foundation

/// Writes diagnostics to stderr; stdout is for data only.
public enum StandardError {
    /// Writes one line to stderr.
    ///
    /// - Parameter line: The text, without a trailing newline.
    public static func write(_ line: String) {
        FileHandle.standardError.write(Data((line + "\n").utf8))
    }
}

/// Writes data to stdout in one call per chunk.
public enum StandardOutput {
    /// Writes text to stdout.
    ///
    /// - Parameter text: The text, including any newline.
    public static func write(_ text: String) {
        FileHandle.standardOutput.write(Data(text.utf8))
    }
}
