import ContentTesting
import Foundation
import Testing

/// Every `content …` command line the documentation shows runs as written.
///
/// README.md's code, the comments of `examples/`, and the examples in `--help`. Each runs in a scratch folder that sees the repository's `examples/`,
/// against the built-in samples or `content serve` on the ports `examples/content.yaml` names.
@Suite(.serialized)
struct DocumentedCommandsEndToEndTests {
    /// Why a documented line is not run, by what it contains.
    static let skipped: [(marker: String, reason: String)] = [
        ("content serve", "starts a server; ServeEndToEndTests runs it"),
        ("https://example.com", "needs a real service"),
        ("…", "a synopsis, not a command"),
    ]

    /// `content …` lines (after any `NAME=value` assignments) of fenced code blocks and `#` comments, with `\`
    /// continuations joined and trailing comments removed; inline code names commands in prose and is not a
    /// command line.
    static func commandLines(in text: String) -> [String] {
        var found: [String] = []
        var inBlock = false
        var pending: String?
        for raw in text.split(separator: "\n", omittingEmptySubsequences: false) {
            let line = raw.trimmingCharacters(in: .whitespaces)
            if line.hasPrefix("```") {
                inBlock.toggle()
                continue
            }
            guard inBlock || line.hasPrefix("#") else { continue }
            var command = String(line.drop { $0 == "#" || $0 == "$" || $0 == " " })
            if let start = pending {
                command = start + " " + command
            } else {
                let words = command.split(separator: " ")
                let assignments = words.prefix { $0.contains("=") && !$0.hasPrefix("-") }
                let next = words.dropFirst(assignments.count).first
                guard next == "content" || (next == "\\" && !assignments.isEmpty) else { continue }
            }
            if command.hasSuffix("\\") {
                pending = String(command.dropLast()).trimmingCharacters(in: .whitespaces)
                continue
            }
            pending = nil
            if let comment = command.range(of: "  #") { command = String(command[..<comment.lowerBound]) }
            found.append(command.trimmingCharacters(in: .whitespaces))
        }
        return found
    }

    /// The lines of a `--help` text that show a command (indented `content …`), with continuation lines joined.
    static func helpCommandLines(in text: String) -> [String] {
        var found: [String] = []
        var pending: String?
        for raw in text.split(separator: "\n") {
            let line = raw.trimmingCharacters(in: .whitespaces)
            if var command = pending {
                command += " " + line
                pending = command.hasSuffix("\\") ? String(command.dropLast()) : nil
                if pending == nil { found.append(command) }
            } else if line.hasPrefix("content ") && raw.hasPrefix(" ") {
                if line.hasSuffix("\\") { pending = String(line.dropLast()) } else { found.append(line) }
            }
        }
        return found
    }

    @Test func everyDocumentedCommandRunsAsWritten() throws {
        let repository = ContentProcess.repository
        var documented: [(source: String, command: String)] = []
        var files = [repository.appendingPathComponent("README.md")]
        let examples = FileManager.default.enumerator(
            at: repository.appendingPathComponent("examples"), includingPropertiesForKeys: nil)
        while let file = examples?.nextObject() as? URL {
            if ["yaml", "yml", "md", "gql"].contains(file.pathExtension), !file.path.contains("/.build") {
                files.append(file)
            }
        }
        for file in files {
            let text = try String(contentsOf: file, encoding: .utf8)
            documented += Self.commandLines(in: text).map { (file.lastPathComponent, $0) }
        }
        let scratch = try Scratch()
        defer { scratch.remove() }
        try FileManager.default.createSymbolicLink(
            at: scratch.url.appendingPathComponent("examples"),
            withDestinationURL: repository.appendingPathComponent("examples"))
        // Where the completion script example writes.
        try FileManager.default.createDirectory(
            at: scratch.url.appendingPathComponent(".zfunc"), withIntermediateDirectories: true)
        let help = try ContentProcess.run(["--help"], in: scratch.url).stdout
        let subcommands = ["aem", "query", "mutate", "request", "serve", "config", "format", "backends"]
        for name in subcommands {
            let text = try ContentProcess.run([name, "--help"], in: scratch.url).stdout
            documented += Self.helpCommandLines(in: text).map { ("content \(name) --help", $0) }
        }
        documented += Self.helpCommandLines(in: help).map { ("content --help", $0) }
        #expect(documented.count > 40, "\(documented)")
        // A command split over comment lines with an assignment in front is found whole.
        #expect(
            documented.contains {
                $0.command == "MFP_CLIENT_SECRET=sample-client-secret content --config examples/content.yaml request "
                    + "/adapters/SecureAdapter/balance"
            })

        // examples/content.yaml points at content serve's default ports.
        let (serve, _, services) = try ContentProcess.startServe(
            ["--aem-port", "4503", "--dataconnect-port", "9399", "--resource-port", "9080"])
        defer {
            serve.terminate()
            serve.waitUntilExit()
        }
        let serving = services.count >= 2
        if !serving { print("note: content serve could not take its default ports; commands naming them are skipped") }
        var ran = 0
        for (source, command) in documented {
            if let skip = Self.skipped.first(where: { command.contains($0.marker) }) {
                print("note: not running `\(command)` (\(source)): \(skip.reason)")
                continue
            }
            if !serving && command.contains("--config examples/content.yaml") { continue }
            // The shell runs the line as a reader would paste it, with `content` on the PATH.
            let script =
                "PATH='\(ContentProcess.binary.deletingLastPathComponent().path)':$PATH; "
                + command.replacingOccurrences(of: " > ~/", with: " > ./")
            let result = try ContentProcess.run(shell: script, in: scratch.url)
            #expect(result.status == 0, "`\(command)` from \(source) exited \(result.status): \(result.stderr)")
            ran += 1
        }
        #expect(ran > 25)
    }
}
