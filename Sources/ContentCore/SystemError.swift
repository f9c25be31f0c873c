internal import Foundation

/// The words of system errors, for messages: "connection refused", not NIO's or Foundation's debugging text.
public enum SystemError {
    /// `strerror` of an `errno` value, lower-cased to sit inside a sentence.
    ///
    /// - Parameter code: The error number.
    /// - Returns: Such as `no such file or directory`.
    public static func reason(_ code: Int32) -> String {
        String(cString: strerror(code)).lowercased()
    }

    /// Why a file named on the command line cannot be read, as a phrase for "cannot read PATH: …".
    ///
    /// - Parameter path: The path.
    /// - Returns: `it is a directory`, or the system's reason (`no such file or directory`, `permission denied`).
    public static func unreadable(_ path: String) -> String {
        var status = stat()
        if stat(path, &status) != 0 { return reason(errno) }
        if (status.st_mode & S_IFMT) == S_IFDIR { return "it is a directory" }
        if access(path, R_OK) != 0 { return reason(errno) }
        return "it could not be read"
    }
}
