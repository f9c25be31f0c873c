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

/// GraphQL nested past what the parser's stack can take, given to the client: as a query file and in a workspace.
struct DeepGraphQLEndToEndTests {
    static let deep =
        "#\r{" + String(repeating: "adventureList{", count: 3000) + "x" + String(repeating: "}", count: 3000)
        + "}"

    @Test func aDeepQueryFileIsRefusedWithItsPosition() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let file = try scratch.write(Self.deep, to: "deep.graphql")
        // No configuration: the built-in sample answers in process, so a crash there would be the client's.
        let result = try ContentProcess.run(["aem", "graphql", "--file", file.path], in: scratch.url)
        #expect([3, 6].contains(result.status), "\(result.status): \(result.stderr)")
        #expect(result.stderr.contains("nests more than 64 levels deep"), "\(result.stderr)")
    }

    @Test func aDeepOperationInAWorkspaceIsRefusedWithItsPosition() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        try scratch.copyDataConnectExample(emulator: "127.0.0.1:1")
        let operation =
            "query deep @auth(level: PUBLIC) " + String(repeating: "{ movies ", count: 3000)
            + String(repeating: "}", count: 3000)
        let file = try scratch.write(operation, to: "dataconnect/movies/deep.gql")
        let result = try ContentProcess.run(["query", "movies"], in: scratch.url)
        #expect(result.status == 3, "\(result.stderr)")
        #expect(result.stderr.contains("\(file.path):1:"), "\(result.stderr)")
        #expect(result.stderr.contains("nests more than 64 levels deep"), "\(result.stderr)")
    }
}
