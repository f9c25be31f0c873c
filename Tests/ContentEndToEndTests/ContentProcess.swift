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
    static let repository = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

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
        let process = Process()
        process.executableURL = binary
        let folder = workspace ?? repository.appendingPathComponent("examples")
        process.arguments =
            ["serve", "--aem-port", "0", "--dataconnect-port", "0", "--workspace", folder.path] + arguments
        let stderr = Pipe()
        process.standardError = stderr
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        defer {
            process.terminate()
            process.waitUntilExit()
        }
        var collected = ""
        var services: [String: String] = [:]
        while !expected.isSubset(of: Set(services.keys)) {
            let chunk = stderr.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            collected += String(decoding: chunk, as: UTF8.self)
            for line in collected.split(separator: "\n") {
                guard let range = line.range(of: #"(\w+) emulator on (http://\S+)"#, options: .regularExpression)
                else { continue }
                let parts = line[range].split(separator: " ")
                if parts.count == 4 { services[String(parts[0])] = String(parts[3]) }
            }
        }
        #expect(expected.isSubset(of: Set(services.keys)), "content serve said: \(collected)")
        try body(services)
    }

    /// Runs a bash script, for pipelines such as `content … | head -1`.
    static func run(shell script: String, in directory: URL) throws -> Result {
        try launch(URL(fileURLWithPath: "/bin/bash"), ["-c", script], in: directory, environment: [:], stdin: nil)
    }

    private static func launch(
        _ executable: URL,
        _ arguments: [String],
        in directory: URL,
        environment extra: [String: String],
        stdin: URL?
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
        // Read both pipes fully before waiting, so a chatty process cannot block on a full pipe.
        let output = stdout.fileHandleForReading.readDataToEndOfFile()
        let errors = stderr.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Result(
            status: process.terminationStatus,
            stdout: String(decoding: output, as: UTF8.self),
            stderr: String(decoding: errors, as: UTF8.self)
        )
    }
}

/// A scratch directory, removed by the test that made it.
struct Scratch {
    let url: URL

    init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("content-e2e-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    @discardableResult
    func write(_ text: String, to name: String, permissions: Int = 0o600) throws -> URL {
        let file = url.appendingPathComponent(name)
        try FileManager.default.createDirectory(
            at: file.deletingLastPathComponent(),
            withIntermediateDirectories: true
        )
        try Data(text.utf8).write(to: file)
        try FileManager.default.setAttributes([.posixPermissions: permissions], ofItemAtPath: file.path)
        return file
    }

    func remove() {
        try? FileManager.default.removeItem(at: url)
    }
}
