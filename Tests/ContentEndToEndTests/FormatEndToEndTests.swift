import Foundation
import Testing

/// `content format` through the built binary: files, stdin, pipes and bad input.
struct FormatEndToEndTests {
    private static let adventures = """
        {"data":{"adventureList":{"items":[
          {"title":"Bali Surf Camp","price":5000.00,"tripLength":"6 days","primaryImage":{"_path":"/bali.jpg"}},
          {"title":"Climbing New Zealand","price":900,"tripLength":"2 days","primaryImage":{"_path":"/nz.jpg"}}
        ]}}}
        """

    @Test func csvWithItemsAndFieldsFromAFile() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let file = try scratch.write(Self.adventures, to: "response.json")
        let result = try ContentProcess.run(
            [
                "format", file.path, "-o", "csv", "--items", "data.adventureList.items", "--fields",
                "title,price,image=primaryImage._path",
            ],
            in: scratch.url
        )
        #expect(result.status == 0)
        #expect(
            result.stdout == "title,price,image\nBali Surf Camp,5000.00,/bali.jpg\nClimbing New Zealand,900,/nz.jpg\n")
        #expect(result.stderr.isEmpty)
    }

    @Test func jsonIsTheDefaultOffATerminal() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let file = try scratch.write(Self.adventures, to: "response.json")
        let result = try ContentProcess.run(
            ["format", file.path, "--items", "data.adventureList.items"], in: scratch.url)
        #expect(result.status == 0)
        #expect(result.stdout.hasPrefix(#"[{"title":"Bali Surf Camp","price":5000.00,"#))
        #expect(result.stdout.hasSuffix("}]\n"))
    }

    @Test func configuredDefaultFormatApplies() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        try scratch.write("defaults:\n  output: ndjson\n", to: "content.yaml")
        let file = try scratch.write(#"[{"a":1},{"a":2}]"#, to: "in.json")
        let result = try ContentProcess.run(["format", file.path], in: scratch.url)
        #expect(result.stdout == "{\"a\":1}\n{\"a\":2}\n")
    }

    @Test func ndjsonOnStdinBecomesRows() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let input = try scratch.write("{\"a\":1,\"b\":\"x\"}\n{\"a\":2,\"b\":\"y\"}\n", to: "in.ndjson")
        let result = try ContentProcess.run(["format", "-", "-o", "tsv"], in: scratch.url, stdin: input)
        #expect(result.status == 0)
        #expect(result.stdout == "a\tb\n1\tx\n2\ty\n")
    }

    @Test func malformedInputExitsSevenWithItsPosition() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let file = try scratch.write("[\n  {\"a\": 1},\n  {\"a\" 2}\n]\n", to: "bad.json")
        let result = try ContentProcess.run(["format", file.path], in: scratch.url)
        #expect(result.status == 7)
        #expect(result.stdout.isEmpty)
        #expect(result.stderr.contains("\(file.path):3:8: malformed JSON at line 3, column 8 (byte 21)"))
        #expect(result.stderr.contains("expected ':'"))
    }

    @Test func missingFileIsAUsageError() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let result = try ContentProcess.run(["format", "nope.json"], in: scratch.url)
        #expect(result.status == 2)
        #expect(result.stderr.contains("nope.json: the file does not exist"))
    }

    @Test func wrongItemsPathIsAUsageErrorNamingTheKeys() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let file = try scratch.write(Self.adventures, to: "response.json")
        let result = try ContentProcess.run(["format", file.path, "--items", "data.adventures"], in: scratch.url)
        #expect(result.status == 2)
        #expect(result.stderr.contains("top-level keys there: adventureList"))
    }

    @Test func emptyResultSaysNoItemsOnStderr() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let file = try scratch.write(#"{"data":{"list":{"items":[]}}}"#, to: "empty.json")
        let result = try ContentProcess.run(
            ["format", file.path, "--items", "data.list.items", "-o", "table"], in: scratch.url)
        #expect(result.status == 0)
        #expect(result.stdout.isEmpty)
        #expect(result.stderr.contains("no items"))
    }

    @Test func closedPipeEndsQuietlyWithExitZero() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        var lines: [String] = []
        for index in 0..<200_000 { lines.append(#"{"n":\#(index),"text":"some padding to make the output large"}"#) }
        let file = try scratch.write(lines.joined(separator: "\n"), to: "big.ndjson")
        for format in ["ndjson", "csv", "table", "json"] {
            let script =
                "'\(ContentProcess.binary.path)' format '\(file.path)' -o \(format) | head -1; echo \"status=${PIPESTATUS[0]}\" >&2"
            let result = try ContentProcess.run(shell: script, in: scratch.url)
            #expect(result.stderr == "status=0\n", "\(format)")
            #expect(result.stdout.split(separator: "\n").count == 1, "\(format)")
        }
    }
}
