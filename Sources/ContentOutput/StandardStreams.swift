#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The descriptors a command writes its data and its diagnostics to: the process's stdout and stderr, or, for a
/// command a test runs in process, the files the test gave it.
///
/// Task-local, so commands running side by side in one test process each write to their own files, and every
/// task a command starts writes where the command does.
public enum StandardStreams {
    /// Where data goes; stdout unless a test says otherwise.
    @TaskLocal public static var output: Int32 = 1
    /// Where diagnostics go; stderr unless a test says otherwise.
    @TaskLocal public static var error: Int32 = 2
}

/// Writes diagnostics to stderr; stdout is for data only.
public enum StandardError {
    /// Writes one line to stderr.
    ///
    /// A diagnostic that cannot be written (stderr closed, or a pipe nobody reads) is dropped: telling the user
    /// must never be what stops the command.
    ///
    /// - Parameter line: The text, without a trailing newline.
    public static func write(_ line: String) {
        var sink = FileDescriptorSink(descriptor: StandardStreams.error, capacity: 0)
        try? sink.write(line + "\n")
    }
}

/// Writes data to stdout.
public enum StandardOutput {
    /// Writes text to stdout; a reader that has gone is not an error here, as everywhere data is written.
    ///
    /// - Parameter text: The text, including any newline.
    public static func write(_ text: String) {
        try? write(bytes: Array(text.utf8))
    }

    /// Writes bytes to stdout as they are, such as a downloaded file.
    ///
    /// - Parameter bytes: The bytes.
    /// - Throws: ``OutputError/writeFailed(_:)``; a closed pipe (``OutputError/brokenPipe``) ends the output quietly
    ///   instead.
    public static func write(bytes: [UInt8]) throws {
        FileDescriptorSink.ignoreBrokenPipeSignal()
        var sink = FileDescriptorSink(descriptor: StandardStreams.output, capacity: 0)
        do {
            try sink.write(bytes)
            try sink.flush()
        } catch OutputError.brokenPipe {
            return
        }
    }
}
