/// A problem in a YAML document, with the place it was found.
///
/// The description reads like a compiler's: `content.yaml:12:5: backends.wknd.auth.type: expected one of
/// none, basic, token (did you mean 'token'?)`.
public struct YAMLError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The file, as the user named it.
    public var file: String
    /// Where in the file, when known.
    public var mark: YAMLMark?
    /// The dotted key path to the value, such as `backends.wknd.auth.type`; empty at the top.
    public var keyPath: String
    /// What is wrong.
    public var message: String
    /// A likely fix, such as a did-you-mean suggestion.
    public var hint: String?

    /// Creates an error.
    ///
    /// - Parameters:
    ///   - file: The file.
    ///   - mark: Where in the file.
    ///   - keyPath: The dotted key path.
    ///   - message: What is wrong.
    ///   - hint: A likely fix.
    public init(file: String, mark: YAMLMark?, keyPath: String = "", message: String, hint: String? = nil) {
        self.file = file
        self.mark = mark
        self.keyPath = keyPath
        self.message = message
        self.hint = hint
    }

    /// `file:line:column: key.path: message (hint)`.
    public var description: String {
        var text = file
        if let mark { text += ":\(mark)" }
        text += ": "
        if !keyPath.isEmpty { text += "\(keyPath): " }
        text += message
        if let hint { text += " (\(hint))" }
        return text
    }
}
