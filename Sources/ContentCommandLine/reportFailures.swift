internal import ArgumentParser
internal import ContentCore
internal import ContentOutput

/// Runs a command's body, turning any failure into one message on stderr and its documented exit code.
///
/// Every command's `run()` goes through here, so that messages look alike and numbers live in
/// ``ExitStatus`` alone.
///
/// - Parameter body: The command's work.
/// - Throws: `ExitCode`, which ArgumentParser exits with silently.
public func reportFailures(_ body: () async throws -> Void) async throws {
    do {
        try await body()
    } catch let exit as ExitCode {
        throw exit
    } catch let reported as ReportedFailure {
        throw ExitCode(ExitStatus.code(for: reported.category))
    } catch let validation as ValidationError {
        throw validation
    } catch is CancellationError {
        throw ExitCode(ExitStatus.code(for: .interrupted))
    } catch {
        StandardError.write("content: error: \(error)")
        throw ExitCode(ExitStatus.code(for: error.failureCategory))
    }
}
