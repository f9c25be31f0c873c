import ContentTesting
import Foundation
import Testing

/// Inputs that used to stop `content` with a trap: each now ends with a clear error and its documented exit code.
struct HostileInputEndToEndTests {
    @Test func aURLPortOutside16BitsIsAConfigurationError() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let result = try ContentProcess.run(["request", "http://127.0.0.1:65536/x"], in: scratch.url)
        #expect(result.status == 3, "\(result.stderr)")
        #expect(result.stdout.isEmpty)
        #expect(result.stderr.contains("url 'http://127.0.0.1:65536' has port 65536, outside 1-65535"))
    }

    @Test func aClosedStderrDoesNotStopTheCommandFromExitingWithItsCode() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        try scratch.write("{\"a\": [1, 2,", to: "bad.json")
        let binary = ContentProcess.binary.path
        let closed = try ContentProcess.run(shell: "'\(binary)' format bad.json 2>&-", in: scratch.url)
        #expect(closed.status == 7, "\(closed.stderr)")
        let pipe = try ContentProcess.run(
            shell: "'\(binary)' request http://127.0.0.1:1/x 2>&1 | head -c 0; exit ${PIPESTATUS[0]}", in: scratch.url)
        #expect(pipe.status == 4, "\(pipe.stderr)")
    }
}
