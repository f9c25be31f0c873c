public import ContentCore
internal import ContentJSON
internal import Foundation

/// A JSON document or NDJSON stream read from a file or stdin, for `content format`.
public enum JSONInput {
    /// Reads and parses the input: one value is a document, several (NDJSON) are the items.
    ///
    /// - Parameter path: A file path, or `-` (or `nil`) for stdin.
    /// - Returns: The result to render.
    /// - Throws: ``JSONInputError``.
    public static func read(_ path: String?) throws(JSONInputError) -> ContentResult {
        let name = path == nil || path == "-" ? "<stdin>" : path ?? "<stdin>"
        let data: Data
        if name == "<stdin>" {
            data = FileHandle.standardInput.readDataToEndOfFile()
        } else {
            guard let contents = FileManager.default.contents(atPath: name) else {
                let reason = FileManager.default.fileExists(atPath: name) ? "cannot be read" : "does not exist"
                throw JSONInputError(source: name, message: "the file \(reason)", category: .usage)
            }
            data = contents
        }
        let values: [JSONValue]
        do {
            values = try JSONParser().parseSequence(Array(data))
        } catch {
            throw JSONInputError(
                source: name,
                message: "malformed JSON at line \(error.line), column \(error.column) (byte \(error.offset)): "
                    + error.message,
                category: .malformedInput,
                line: error.line,
                column: error.column
            )
        }
        switch values.count {
        case 0:
            throw JSONInputError(source: name, message: "no JSON value in the input", category: .malformedInput)
        case 1:
            return ContentResult(body: .document(values[0]))
        default:
            return ContentResult(body: .document(.array(values)))
        }
    }
}

/// Input that cannot be read or parsed: where, what is wrong, and the exit category.
public struct JSONInputError: ContentFailure, Equatable {
    /// The file name, or `<stdin>`.
    public var source: String
    /// What is wrong.
    public var message: String
    /// Usage for a missing file, malformed input for bad JSON.
    public var category: FailureCategory
    /// The line of the problem, when it is in the JSON.
    public var line: Int?
    /// The column of the problem, when it is in the JSON.
    public var column: Int?

    /// `file:line:column: message`.
    public var description: String {
        var place = source
        if let line, let column { place += ":\(line):\(column)" }
        return "\(place): \(message)"
    }
}
