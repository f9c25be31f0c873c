import ArgumentParser
import ContentCore
import Testing

@testable import ContentCommandLine

/// A command with one required option, so the parser has something to reject.
private struct SampleCommand: ParsableCommand {
    @Option var count: Int
    @Flag var loud = false

    func validate() throws {
        if count < 0 { throw ValidationError("count must not be negative") }
    }
}

private struct SampleFailure: ContentFailure {
    var category: FailureCategory
    var description: String { "sample" }
}

struct ExitStatusTests {
    @Test func everyCategoryHasItsDocumentedCode() {
        let expected: [FailureCategory: Int32] = [
            .unexpected: 1, .usage: 2, .configuration: 3, .transport: 4, .httpStatus: 5, .operationFailed: 6,
            .malformedInput: 7, .output: 8, .interrupted: 130,
        ]
        #expect(Set(expected.keys) == Set(FailureCategory.allCases))
        for category in FailureCategory.allCases {
            #expect(ExitStatus.code(for: category) == expected[category], "\(category)")
        }
    }

    @Test func parserErrorsAreUsageErrorsWithCodeTwo() {
        for arguments in [["--count"], ["--count", "many"], ["--bogus"], [], ["--count", "-3"]] {
            do {
                _ = try SampleCommand.parseAsRoot(arguments)
                Issue.record("\(arguments) parsed")
            } catch {
                #expect(ExitStatus.code(for: error, command: SampleCommand.self) == 2, "\(arguments)")
            }
        }
    }

    @Test func helpAndVersionRequestsExitZero() {
        do {
            // The parser answers `--help` with a help command whose run() throws a clean exit.
            var command = try SampleCommand.parseAsRoot(["--help"])
            try command.run()
            Issue.record("--help ran as a command")
        } catch {
            #expect(ExitStatus.code(for: error, command: SampleCommand.self) == 0)
        }
    }

    @Test func thrownExitCodesAndContentFailuresKeepTheirCodes() {
        #expect(ExitStatus.code(for: ExitCode(5), command: SampleCommand.self) == 5)
        #expect(ExitStatus.code(for: SampleFailure(category: .transport), command: SampleCommand.self) == 4)
        #expect(ExitStatus.code(for: SampleFailure(category: .malformedInput), command: SampleCommand.self) == 7)
    }

    @Test func unknownErrorsAreUnexpected() {
        struct Mystery: Error {}
        #expect(Mystery().failureCategory == .unexpected)
        #expect(ExitStatus.code(for: Mystery().failureCategory) == 1)
    }

    @Test func reportFailuresTurnsAFailureIntoItsExitCode() async {
        do {
            try await reportFailures { throw SampleFailure(category: .configuration) }
            Issue.record("no error")
        } catch let exit as ExitCode {
            #expect(exit.rawValue == 3)
        } catch {
            Issue.record("unexpected \(error)")
        }
    }

    @Test func helpTableListsEveryCode() {
        for category in FailureCategory.allCases {
            let code = ExitStatus.code(for: category)
            #expect(ExitStatus.helpTable.contains("\n  \(code) "), "\(code)")
        }
    }
}
