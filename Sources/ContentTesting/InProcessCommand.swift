internal import ContentOutput
internal import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Runs a command line in this process and collects what it wrote: the in-process counterpart of launching the
/// binary, for tests that want the exit code, stdout and stderr of many command lines quickly.
///
/// The command writes through `StandardStreams`, which this points at files of its own for the duration of the
/// run, so runs side by side in one test process never mix their output.
///
/// ```swift
/// let result = try await InProcessCommand.run { await ContentCommand.run(["aem", "adventures"], interruptible: false) }
/// #expect(result.status == 0)
/// ```
public enum InProcessCommand {
    /// What a run wrote and how it ended.
    public struct Result: Sendable {
        /// The exit code.
        public var status: Int32
        /// Everything written to stdout.
        public var stdout: String
        /// Everything written to stderr.
        public var stderr: String
    }

    /// Runs `body`, which runs one command line and returns its exit code, with stdout and stderr captured.
    ///
    /// - Parameter body: The run.
    /// - Returns: The exit code and what was written.
    /// - Throws: A failure to make or read the capture files.
    public static func run(_ body: () async -> Int32) async throws -> Result {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let outputPath = directory.path("stdout")
        let errorPath = directory.path("stderr")
        let output = open(outputPath, O_CREAT | O_WRONLY | O_TRUNC, 0o600)
        let error = open(errorPath, O_CREAT | O_WRONLY | O_TRUNC, 0o600)
        defer {
            if output >= 0 { close(output) }
            if error >= 0 { close(error) }
        }
        guard output >= 0, error >= 0 else { throw CaptureFailed(path: directory.root) }
        let status = await StandardStreams.$output.withValue(output) {
            await StandardStreams.$error.withValue(error) { await body() }
        }
        return Result(
            status: status,
            stdout: try String(contentsOfFile: outputPath, encoding: .utf8),
            stderr: try String(contentsOfFile: errorPath, encoding: .utf8))
    }

    /// The capture files could not be made.
    public struct CaptureFailed: Error, CustomStringConvertible {
        /// Where they were to be.
        public var path: String

        /// What failed.
        public var description: String { "cannot make the files to capture a command's output in \(path)" }
    }
}
