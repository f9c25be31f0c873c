/// The version of `content`, as `content --version` prints it and `User-Agent` sends it.
public enum ContentVersion {
    /// The semantic version.
    public static let current = "0.1.0"
    /// `content/<version>`.
    public static var userAgent: String { "content/\(current)" }
}
