import ContentTesting
import Foundation
import Testing

/// Runs the built `content` binary, as a user would, and captures what it prints.
struct ContentProcess {
    struct Result {
        var status: Int32
        var stdout: String
        var stderr: String
    }

    /// Where SwiftPM put the products: beside the test bundle.
    static var productsDirectory: URL {
        #if os(macOS)
            for bundle in Bundle.allBundles where bundle.bundlePath.hasSuffix(".xctest") {
                return bundle.bundleURL.deletingLastPathComponent()
            }
        #endif
        return Bundle.main.bundleURL
    }

    static var binary: URL { productsDirectory.appendingPathComponent("content") }

    /// The repository root, for its `examples/`.
    static let repository = TestLocations.repository

    /// Runs `content` with arguments in a directory, with a controlled environment (no inherited config).
    static func run(
        _ arguments: [String],
        in directory: URL,
        environment extra: [String: String] = [:],
        stdin: URL? = nil
    ) throws -> Result {
        try launch(binary, arguments, in: directory, environment: extra, stdin: stdin)
    }

    /// Runs `content serve` for the duration of `body`, with the AEM emulator's base URL.
    static func withServe(_ arguments: [String] = [], _ body: (String) throws -> Void) throws {
        try withServices(arguments) { services in
            try body(try #require(services["aem"]))
        }
    }

    /// Runs `content serve` on free ports for the duration of `body`, with each service's base URL by name.
    static func withServices(
        _ arguments: [String] = [],
        workspace: URL? = nil,
        expecting expected: Set<String> = ["aem", "dataconnect"],
        _ body: ([String: String]) throws -> Void
    ) throws {
        try withServices(arguments, workspace: workspace, expecting: expected) { services, _ in
            try body(services)
        }
    }

    /// Runs `content serve` on free ports for the duration of `body`, with each service's base URL by name and
    /// its stderr as read so far (one line per request with `-v`).
    static func withServices(
        _ arguments: [String] = [],
        workspace: URL? = nil,
        expecting expected: Set<String> = ["aem", "dataconnect"],
        _ body: ([String: String], ServeLog) throws -> Void
    ) throws {
        let (process, log, found) = try startServe(arguments, workspace: workspace, expecting: expected)
        defer {
            process.terminate()
            process.waitUntilExit()
        }
        try body(found, log)
    }

    /// Starts `content serve` on free ports and waits until the `expected` services listen; the caller stops it.
    static func startServe(
        _ arguments: [String] = [],
        workspace: URL? = nil,
        expecting expected: Set<String> = ["aem", "dataconnect"],
        environment: [String: String] = [:]
    ) throws -> (process: Process, log: ServeLog, services: [String: String]) {
        let process = Process()
        process.executableURL = binary
        if !environment.isEmpty {
            process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        }
        let folder = workspace ?? repository.appendingPathComponent("examples")
        process.arguments =
            ["serve", "--aem-port", "0", "--dataconnect-port", "0", "--resource-port", "0", "--workspace", folder.path]
            + arguments
        let stderr = Pipe()
        process.standardError = stderr
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        let log = ServeLog(reading: stderr.fileHandleForReading)
        log.wait(timeout: 60) { text in expected.isSubset(of: Set(Self.services(in: text).keys)) }
        let found = Self.services(in: log.text)
        #expect(expected.isSubset(of: Set(found.keys)), "content serve said: \(log.text)")
        return (process, log, found)
    }

    /// The base URL of each `content: NAME emulator on URL` line, by service name; only whole lines count.
    static func services(in text: String) -> [String: String] {
        var services: [String: String] = [:]
        for line in ServeLog.completeLines(of: text) {
            guard let range = line.range(of: #"(\w+) emulator on (http://\S+)"#, options: .regularExpression)
            else { continue }
            let parts = line[range].split(separator: " ")
            if parts.count == 4 { services[String(parts[0])] = String(parts[3]) }
        }
        return services
    }

    /// Runs a bash script, for pipelines such as `content … | head -1`.
    static func run(shell script: String, in directory: URL) throws -> Result {
        try launch(URL(fileURLWithPath: "/bin/bash"), ["-c", script], in: directory, environment: [:], stdin: nil)
    }

    /// Runs any executable as ``run(_:in:environment:stdin:)`` runs `content`.
    static func launch(
        _ executable: URL,
        _ arguments: [String],
        in directory: URL,
        environment extra: [String: String] = [:],
        stdin: URL? = nil
    ) throws -> Result {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        process.currentDirectoryURL = directory
        var environment = [
            "PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin",
            "HOME": directory.path,
            "XDG_CONFIG_HOME": directory.appendingPathComponent("xdg").path,
        ]
        environment.merge(extra) { $1 }
        process.environment = environment
        let stdout = Pipe()
        let stderr = Pipe()
        process.standardOutput = stdout
        process.standardError = stderr
        process.standardInput = try stdin.map { try FileHandle(forReadingFrom: $0) } ?? FileHandle.nullDevice
        try process.run()
        // Read both pipes fully, stderr on another thread, so a chatty process cannot block on a full pipe.
        let errorsBox = LockedData()
        let reader = Thread { errorsBox.set(stderr.fileHandleForReading.readDataToEndOfFile()) }
        reader.start()
        let output = stdout.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let errors = errorsBox.waitForValue()
        return Result(
            status: process.terminationStatus,
            stdout: String(decoding: output, as: UTF8.self),
            stderr: String(decoding: errors, as: UTF8.self)
        )
    }
}

/// A scratch directory, removed by the test that made it: the shared `TemporaryDirectory`, spoken in URLs.
struct Scratch {
    private let directory: TemporaryDirectory

    /// The directory.
    var url: URL { URL(fileURLWithPath: directory.root) }

    init() throws {
        directory = try TemporaryDirectory()
    }

    @discardableResult
    func write(_ text: String, to name: String, permissions: Int = 0o600) throws -> URL {
        URL(fileURLWithPath: try directory.write(text, to: name, permissions: permissions))
    }

    /// Copies the sample Data Connect workspace to `dataconnect/` here, and, when `emulator` is given, writes a
    /// `content.yaml` with one `dataconnect` backend `d` reading it and pointed there.
    func copyDataConnectExample(emulator: String? = nil, auth: String = "") throws {
        try FileManager.default.copyItem(
            at: ContentProcess.repository.appendingPathComponent("examples/dataconnect"),
            to: url.appendingPathComponent("dataconnect"))
        guard let emulator else { return }
        try write(
            "backends:\n  d:\n    type: dataconnect\n    project: p\n    workspace: ./dataconnect\n"
                + "    emulator: \(emulator)\n" + auth,
            to: "content.yaml")
    }

    func remove() {
        directory.remove()
    }
}

/// What `content serve` writes on stderr, read on a background thread for as long as the server runs, so that
/// a test can look at the request lines `-v` logs while the server is still up.
final class ServeLog: @unchecked Sendable {
    private let condition = NSCondition()
    private let handle: FileHandle
    private var bytes = Data()
    private var ended = false

    /// Starts reading a pipe until its end.
    ///
    /// - Parameter handle: The read end of the server's stderr.
    init(reading handle: FileHandle) {
        self.handle = handle
        Thread { [self] in readToEnd() }.start()
    }

    private func readToEnd() {
        while true {
            let chunk = handle.availableData
            condition.lock()
            if chunk.isEmpty { ended = true } else { bytes.append(chunk) }
            condition.broadcast()
            condition.unlock()
            if chunk.isEmpty { return }
        }
    }

    /// Everything read so far.
    var text: String {
        condition.lock()
        defer { condition.unlock() }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The whole lines read so far.
    var lines: [String] { Self.completeLines(of: text) }

    /// The request lines of connector operations read so far: `POST /v1/…:executeQuery 200`.
    var operationRequests: [String] { Self.operationRequests(in: text) }

    /// Waits until `predicate` holds for the text read so far, the server's stderr ends, or `timeout` passes.
    ///
    /// - Parameters:
    ///   - timeout: The longest wait, in seconds.
    ///   - predicate: A condition on the text read so far.
    /// - Returns: Whether the condition holds.
    @discardableResult
    func wait(timeout: TimeInterval = 30, until predicate: (String) -> Bool) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        condition.lock()
        defer { condition.unlock() }
        while !predicate(String(decoding: bytes, as: UTF8.self)) {
            if ended || !condition.wait(until: deadline) {
                return predicate(String(decoding: bytes, as: UTF8.self))
            }
        }
        return true
    }

    /// The lines of a text that end with a newline; a line still being written is left out.
    static func completeLines(of text: String) -> [String] {
        guard let end = text.lastIndex(of: "\n") else { return [] }
        return text[..<end].split(separator: "\n").map(String.init)
    }

    /// The lines of a text that log a connector operation request, with or without a query string.
    static func operationRequests(in text: String) -> [String] {
        completeLines(of: text).filter { line in
            line.hasPrefix("POST ") && (line.contains(":executeQuery") || line.contains(":executeMutation"))
        }
    }
}

/// Bytes handed from a reader thread to the test, once.
private final class LockedData: @unchecked Sendable {
    private let condition = NSCondition()
    private var data: Data?

    func set(_ value: Data) {
        condition.lock()
        data = value
        condition.broadcast()
        condition.unlock()
    }

    func waitForValue() -> Data {
        condition.lock()
        defer { condition.unlock() }
        while data == nil { condition.wait() }
        return data ?? Data()
    }
}
