import Foundation
import Testing

/// `content config validate` runs every check a backend runs when a command makes it, and sends nothing: what it
/// calls valid, a command does not then reject as misconfigured.
struct ConfigValidateEndToEndTests {
    @Test(arguments: [
        ("  w:\n    type: aem\n    url: http://127.0.0.1:99999/\n", "has port 99999, outside 1-65535"),
        ("  w:\n    type: aem\n    url: \"ht!tp://bad url\"\n", "needs a scheme (http or https) and a host"),
        ("  r:\n    type: resource\n    url: http://127.0.0.1:70000/mfp/api\n", "has port 70000, outside 1-65535"),
        (
            "  w:\n    type: aem\n    url: http://127.0.0.1:4503\n    auth: { type: token, tokenFile: /dev/zero }\n",
            "cannot use tokenFile /dev/zero: it is not a regular file"
        ),
        ("  d:\n    type: dataconnect\n    project: p\n    workspace: ./no-such-workspace\n", "no-such-workspace"),
    ])
    func whatACommandWouldRejectValidateRejects(backend: String, message: String) throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        try scratch.write("backends:\n" + backend, to: "content.yaml")
        let validate = try ContentProcess.run(["config", "validate"], in: scratch.url)
        #expect(validate.status == 3, "\(validate.stderr)")
        #expect(validate.stderr.contains(message), "\(validate.stderr)")
        // The command fails the same way, before sending anything.
        let type =
            backend.contains("aem")
            ? ["aem", "adventures"]
            : backend.contains("resource")
                ? ["request", "/x"]
                : ["query", "movies", "listMovies"]
        let command = try ContentProcess.run(type, in: scratch.url)
        #expect(command.status == 3, "\(command.stderr)")
        #expect(command.stderr.contains(message), "\(command.stderr)")
    }

    @Test func validateRunsNoTokenCommand() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let marker = scratch.url.appendingPathComponent("ran").path
        try scratch.copyDataConnectExample(
            emulator: "127.0.0.1:1", auth: "    auth:\n      idTokenCommand: touch \(marker)\n")
        let validate = try ContentProcess.run(["config", "validate"], in: scratch.url)
        #expect(validate.status == 0, "\(validate.stderr)")
        #expect(!FileManager.default.fileExists(atPath: marker))
    }

    @Test func anUnwritableStdoutExitsWithTheOutputCode() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        try scratch.write(#"{"a": 1}"#, to: "one.json")
        let binary = ContentProcess.binary.path
        for redirect in [">/dev/full", ">&-"] {
            let result = try ContentProcess.run(shell: "'\(binary)' format one.json \(redirect)", in: scratch.url)
            #expect(result.status == 8, "\(redirect): \(result.stderr)")
            #expect(result.stderr.contains("cannot write the output"), "\(redirect): \(result.stderr)")
        }
    }

    @Test func aRefusedConnectionReadsAsASentence() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let result = try ContentProcess.run(["request", "http://127.0.0.1:1/x"], in: scratch.url)
        #expect(result.status == 4)
        #expect(
            result.stderr.contains(
                "http://127.0.0.1:1/x: could not connect (connection refused); is the server running"),
            "\(result.stderr)")
    }
}
