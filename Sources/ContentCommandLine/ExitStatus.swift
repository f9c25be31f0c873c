public import ArgumentParser
public import ContentCore

/// The exit codes of `content`: the only place their numbers are written.
///
/// | code | meaning |
/// |-----:|---------|
/// | 0 | success |
/// | 1 | unexpected failure (a bug) |
/// | 2 | usage: bad flags or arguments |
/// | 3 | configuration |
/// | 4 | transport: DNS, connect, TLS, timeout |
/// | 5 | an HTTP error status, or a body that is not the API's answer |
/// | 6 | the server answered but the operation failed |
/// | 7 | malformed input data |
/// | 8 | the output could not be written |
/// | 130 | interrupted |
public enum ExitStatus {
    /// The code for a failure category.
    ///
    /// - Parameter category: The category.
    /// - Returns: The exit code.
    public static func code(for category: FailureCategory) -> Int32 {
        switch category {
        case .unexpected: return 1
        case .usage: return 2
        case .configuration: return 3
        case .transport: return 4
        case .httpStatus: return 5
        case .operationFailed: return 6
        case .malformedInput: return 7
        case .output: return 8
        case .interrupted: return 130
        }
    }

    /// The code for any error a command or the argument parser throws.
    ///
    /// ArgumentParser's own codes are kept except `EX_USAGE` (64), which becomes 2 as for every
    /// other usage mistake; an `ExitCode` thrown by a command is kept as it is.
    ///
    /// - Parameters:
    ///   - error: The error.
    ///   - command: The root command, whose parser classifies its own errors.
    /// - Returns: The exit code.
    public static func code(for error: any Error, command: any ParsableCommand.Type) -> Int32 {
        if let exit = error as? ExitCode { return exit.rawValue }
        if error is CancellationError { return code(for: .interrupted) }
        if let failure = error as? any ContentFailure { return code(for: failure.category) }
        let parserCode = command.exitCode(for: error).rawValue
        return parserCode == ExitCode.validationFailure.rawValue ? code(for: .usage) : parserCode
    }

    /// A table of the codes, for `--help`.
    public static let helpTable = """
        Exit codes:
          0    success
          1    unexpected failure (please report it)
          2    usage: bad flags or arguments
          3    configuration: missing or invalid content.yaml, unknown backend
          4    transport: DNS, connect, TLS, timeout
          5    the server answered with an HTTP error status, or with a body
               that is not its API's answer (HTML, JSON cut short)
          6    the server answered but the operation failed (GraphQL errors,
               partial data, no items where the operation puts them);
               schemas that differ (content dataconnect schema --compare)
          7    malformed input data (a JSON or NDJSON file or stdin)
          8    the output could not be written (disk full, stdout closed)
          130  interrupted
        """
}
