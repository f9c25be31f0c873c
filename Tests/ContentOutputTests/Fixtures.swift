import ContentCore
import ContentJSON
import Foundation
import Testing

@testable import ContentOutput

/// Rows chosen to break naive renderers.
enum Fixtures {
    static let hostileJSON = #"""
        [
          {"id": 1, "title": "Bali Surf Camp", "price": 5000.00, "note": "plain", "image": {"_path": "/content/dam/bali.jpg", "width": 1200}},
          {"id": 2, "title": "Café \"Crème\", Paris", "price": 152.59, "note": "line one\nline two\r\nline three", "image": null},
          {"id": 3, "title": "東京 ツアー 🏄‍♀️", "price": 9223372036854775807, "note": "tab\there|pipe", "tags": ["surf", "beach"]},
          {"id": 4, "title": "\u001b[31mred\u001b[0m", "price": 1e400, "note": "", "image": {"_path": null, "deep": {"er": {"est": true}}}},
          {"id": 5, "title": "e\u0301galite\u0301", "price": -0.5, "note": null, "extra": "ragged"}
        ]
        """#

    static var hostileItems: JSONValue {
        get throws { try JSONParser().parse(hostileJSON) }
    }

    static func result(_ value: JSONValue, itemsPath: String? = nil) throws -> ContentResult {
        ContentResult(
            body: .document(value),
            metadata: .init(itemsPath: try itemsPath.map { try JSONPath(parsing: $0) })
        )
    }

    static func render(_ result: ContentResult, _ settings: OutputSettings) async throws -> String {
        var sink = MemorySink()
        _ = try await OutputPipeline(settings: settings).render(result, to: &sink)
        return sink.text
    }

    /// Compares output with `Snapshots/<name>`; with `CONTENT_UPDATE_SNAPSHOTS=1` writes it instead.
    static func expectSnapshot(_ text: String, named name: String, sourceLocation: SourceLocation = #_sourceLocation)
        throws
    {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("Snapshots").appendingPathComponent(name)
        if ProcessInfo.processInfo.environment["CONTENT_UPDATE_SNAPSHOTS"] == "1" {
            try Data(text.utf8).write(to: url)
            return
        }
        let expected = try String(contentsOf: url, encoding: .utf8)
        #expect(text == expected, "output differs from Snapshots/\(name)", sourceLocation: sourceLocation)
    }

    /// Runs a tool with stdin and returns its stdout; nil when the tool is not installed.
    static func run(_ tool: String, _ arguments: [String], input: String) throws -> String? {
        let paths = (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":")
        guard let directory = paths.first(where: { FileManager.default.isExecutableFile(atPath: "\($0)/\(tool)") })
        else { return nil }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "\(directory)/\(tool)")
        process.arguments = arguments
        let stdin = Pipe()
        let stdout = Pipe()
        process.standardInput = stdin
        process.standardOutput = stdout
        try process.run()
        stdin.fileHandleForWriting.write(Data(input.utf8))
        try stdin.fileHandleForWriting.close()
        let output = stdout.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { return "exit \(process.terminationStatus)" }
        return String(decoding: output, as: UTF8.self)
    }
}
