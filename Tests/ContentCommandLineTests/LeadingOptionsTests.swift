import ContentCommandLine
import Testing

/// Global options in front of the command move behind it, where the command reads them; nothing else moves.
struct LeadingOptionsTests {
    @Test(arguments: [
        (["--config", "c.yaml", "aem", "adventures"], ["aem", "adventures", "--config", "c.yaml"]),
        (["-o", "csv", "-v", "query", "movies"], ["query", "movies", "-o", "csv", "-v"]),
        (["--output=json", "--pretty", "format", "f.json"], ["format", "f.json", "--output=json", "--pretty"]),
        (["-ojson", "aem", "adventures"], ["aem", "adventures", "-ojson"]),
        (["--config", "c.yaml", "request", "/x", "--", "-y"], ["request", "/x", "--config", "c.yaml", "--", "-y"]),
    ])
    func leadingGlobalOptionsMoveBehindTheCommand(line: [String], expected: [String]) {
        #expect(LeadingOptions.moved(line) == expected)
    }

    @Test(arguments: [
        ["aem", "adventures", "-o", "csv"],  // already behind
        ["--version"],  // not a global option of a command
        ["--config", "c.yaml"],  // no command follows
        ["--help", "aem"],
        ["--config"],
    ])
    func anythingElseIsLeftAsItIs(line: [String]) {
        #expect(LeadingOptions.moved(line) == line)
    }
}
