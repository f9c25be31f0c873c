import Foundation
import Testing

/// `content query … --watch` through the built binary, against `content serve`'s gRPC stream.
struct DataConnectWatchEndToEndTests {
    static let movie = "0b5c1b1e3a524c7e9d0b6f1e8a2c4d01"

    /// A `content.yaml` for the sample connector on `emulator`, with a user's ID token for mutations unless told not.
    static func config(_ scratch: Scratch, emulator: String, signedIn: Bool = true) throws {
        let token = Self.token(["sub": "watcher", "email": "w@example.com", "email_verified": true])
        try scratch.write(
            """
            backends:
              movies:
                type: dataconnect
                workspace: \(ContentProcess.repository.appendingPathComponent("examples/dataconnect").path)
                project: content-sample
                emulator: \(emulator)
            \(signedIn ? "    auth:\n      idToken: \(token)\n" : "")
            """, to: "content.yaml")
    }

    static func token(_ claims: [String: Any]) -> String {
        func encode(_ object: [String: Any]) -> String {
            let data = (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])) ?? Data()
            return data.base64EncodedString().replacingOccurrences(of: "+", with: "-")
                .replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
        }
        return encode(["alg": "none"]) + "." + encode(claims) + "."
    }

    /// Starts `content query movies getMovieByKey --watch`, with its stdout and stderr read as they come.
    static func startWatch(
        in scratch: Scratch,
        _ arguments: [String] = ["query", "movies", "getMovieByKey", "--key", #"{"id":"\#(movie)"}"#, "--watch"]
    ) throws -> (Process, ServeLog, ServeLog) {
        let process = Process()
        process.executableURL = ContentProcess.binary
        process.arguments = arguments
        process.currentDirectoryURL = scratch.url
        process.environment = [
            "PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin", "HOME": scratch.url.path,
        ]
        let stdout = Pipe()
        let stderr = Pipe()
        process.standardOutput = stdout
        process.standardError = stderr
        try process.run()
        return (process, ServeLog(reading: stdout.fileHandleForReading), ServeLog(reading: stderr.fileHandleForReading))
    }

    static func rating(_ line: String) -> Double? {
        let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
        return (object?["movie"] as? [String: Any])?["rating"] as? Double
    }

    @Test func everyNewResultIsALineAndCtrlCExits130() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        try ContentProcess.withServices { services in
            let base = try #require(services["dataconnect"])
            try Self.config(scratch, emulator: String(base.dropFirst("http://".count)))
            let (watch, output, errors) = try Self.startWatch(in: scratch)
            defer { if watch.isRunning { watch.terminate() } }
            #expect(output.wait(timeout: 30) { ServeLog.completeLines(of: $0).count == 1 }, "\(errors.text)")
            #expect(output.lines.first.flatMap(Self.rating) == 8.4)
            let update = try ContentProcess.run(
                ["mutate", "movies", "updateMovieRating", "--id", Self.movie, "--rating", "3.5"], in: scratch.url)
            #expect(update.status == 0, "\(update.stderr)")
            #expect(output.wait(timeout: 30) { ServeLog.completeLines(of: $0).count == 2 }, "\(errors.text)")
            #expect(output.lines.last.flatMap(Self.rating) == 3.5)
            // The same rating again changes nothing, and prints nothing.
            _ = try ContentProcess.run(
                ["mutate", "movies", "updateMovieRating", "--id", Self.movie, "--rating", "3.5"], in: scratch.url)
            let other = try ContentProcess.run(
                ["mutate", "movies", "updateMovieRating", "--id", Self.movie, "--rating", "4.5"], in: scratch.url)
            #expect(other.status == 0)
            #expect(output.wait(timeout: 30) { ServeLog.completeLines(of: $0).count == 3 })
            #expect(output.lines.map(Self.rating) == [8.4, 3.5, 4.5])
            #expect(Self.interrupt(watch) == 130)
        }
    }

    /// Ctrl-C for a running watch: its exit status.
    static func interrupt(_ watch: Process) -> Int32 {
        kill(watch.processIdentifier, SIGINT)
        watch.waitUntilExit()
        return watch.terminationStatus
    }

    @Test func aLostServerIsReconnectedToAndTheSubscriptionGoesOn() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        // The same port twice: the watch reconnects to where it was.
        let (first, _, services) = try ContentProcess.startServe(expecting: ["dataconnect", "aem"])
        let base = try #require(services["dataconnect"])
        let port = try #require(base.split(separator: ":").last.map(String.init))
        try Self.config(scratch, emulator: "127.0.0.1:\(port)")
        let (watch, output, errors) = try Self.startWatch(in: scratch)
        defer { if watch.isRunning { watch.terminate() } }
        #expect(output.wait(timeout: 30) { ServeLog.completeLines(of: $0).count == 1 }, "\(errors.text)")
        first.terminate()
        first.waitUntilExit()
        #expect(errors.wait(timeout: 30) { $0.contains("subscribing again in") }, "\(errors.text)")
        let (second, _, _) = try ContentProcess.startServe(
            ["--dataconnect-port", port], expecting: ["dataconnect", "aem"])
        defer {
            second.terminate()
            second.waitUntilExit()
        }
        // The new server holds the same seeded data (under a new etag: the seed's generated keys are new), which is
        // not printed again. The watch waits at most 1.3 s between tries while the server starts; after 4 s it has
        // subscribed again, so the unchanged result comes before the change.
        Thread.sleep(forTimeInterval: 4)
        #expect(output.lines.count == 1, "\(output.text)")
        let update = try ContentProcess.run(
            ["mutate", "movies", "updateMovieRating", "--id", Self.movie, "--rating", "1.5"], in: scratch.url)
        #expect(update.status == 0, "\(update.stderr)")
        #expect(output.wait(timeout: 60) { ServeLog.completeLines(of: $0).count >= 2 }, "\(errors.text)")
        #expect(output.lines.map(Self.rating) == [8.4, 1.5])
    }

    /// With no configuration, the built-in sample answers the stream as it answers REST.
    @Test func theBuiltInSampleCanBeWatched() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let (watch, output, errors) = try Self.startWatch(in: scratch, ["query", "movies", "listGenres", "--watch"])
        defer { if watch.isRunning { watch.terminate() } }
        #expect(output.wait(timeout: 60) { ServeLog.completeLines(of: $0).count == 1 }, "\(errors.text)")
        #expect(output.lines.first?.hasPrefix(#"{"genreSummaries":["#) == true, "\(output.text)")
        #expect(errors.text.contains("answering from the built-in movies sample"))
        #expect(Self.interrupt(watch) == 130)
    }

    @Test func refusedWatchesSayWhy() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        try ContentProcess.withServices { services in
            let base = try #require(services["dataconnect"])
            try Self.config(scratch, emulator: String(base.dropFirst("http://".count)))
            let mutation = try ContentProcess.run(
                ["mutate", "movies", "createMovie", "--title", "x", "--release-year", "1", "--genre", "x", "--watch"],
                in: scratch.url)
            #expect(mutation.status == 2)
            #expect(mutation.stderr.contains("--watch subscribes to queries; createMovie is a mutation"))
            let both = try ContentProcess.run(
                ["query", "movies", "listGenres", "--watch", "--dry-run"], in: scratch.url)
            #expect(both.status == 2)
            #expect(both.stderr.contains("--watch subscribes, and --dry-run sends nothing"))
            // Without the token listMyReviews needs, the server cancels the subscription: exit 6 with its reason.
            try Self.config(scratch, emulator: String(base.dropFirst("http://".count)), signedIn: false)
            let anonymous = try ContentProcess.run(["query", "movies", "listMyReviews", "--watch"], in: scratch.url)
            #expect(anonymous.status == 6, "\(anonymous.stderr)")
            #expect(
                anonymous.stderr.contains(
                    "the server ended the subscription to listMyReviews: unauthenticated: listMyReviews is @auth(level: USER)"
                ),
                "\(anonymous.stderr)")
        }
    }
}
