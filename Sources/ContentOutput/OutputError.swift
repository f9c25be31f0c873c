public import ContentCore

/// A problem rendering output: a bad `--items` or `--fields`, or a destination that went away.
public enum OutputError: ContentFailure, Equatable {
    /// The reader closed the pipe; the CLI exits 0 without a message, as `head` expects.
    case brokenPipe
    /// Writing failed for another reason.
    case writeFailed(String)
    /// The items path leads nowhere in the response: a `--items` the user gave (usage), or the path the backend
    /// expects its answer to have (the operation failed: the server answered without it).
    case itemsNotFound(path: String, available: [String], given: Bool = true)
    /// A `--fields` value cannot be parsed.
    case invalidFields(String)

    /// Usage for bad flags, unexpected for write failures, interrupted-like quiet exit for a closed pipe.
    public var category: FailureCategory {
        switch self {
        case .brokenPipe, .writeFailed: return .output
        case .itemsNotFound(_, _, let given): return given ? .usage : .operationFailed
        case .invalidFields: return .usage
        }
    }

    /// What failed and what to do.
    public var description: String {
        switch self {
        case .brokenPipe:
            return "the output pipe was closed"
        case .writeFailed(let reason):
            return "cannot write the output: \(reason); check the disk, or where stdout goes"
        case .itemsNotFound(let path, let available, let given):
            let keys = available.isEmpty ? "" : "; top-level keys there: \(available.joined(separator: ", "))"
            if !given {
                return "the answer has no '\(path)', where the operation's items should be\(keys); --raw shows it all"
            }
            return "the items path '\(path)' is not in the response\(keys); pass --items PATH, or --raw to see it all"
        case .invalidFields(let message):
            return "invalid --fields: \(message); write them as title,price,image=primaryImage._dynamicUrl"
        }
    }
}
