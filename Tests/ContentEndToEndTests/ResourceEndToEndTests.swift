import Foundation
import Testing

/// `content request` through the built binary, against the sample adapters of `content serve`
/// (`examples/resource`), the built-in sample, and bare URLs.
struct ResourceEndToEndTests {
    /// Every service of the example workspace, so that the resource URL is known.
    static let services: Set<String> = ["aem", "dataconnect", "resource"]

    /// The sample OAuth client's secret in `examples/resource/resource.yaml`.
    static let secret = "sample-client-secret"

    /// The OAuth settings of the sample client, the secret read from `MFP_SECRET`.
    static let oauth =
        #"{ type: oauth-client-credentials, tokenURL: /az/v1/token, clientId: content-sample, "#
        + #"clientSecret: "${MFP_SECRET}", scope: RegisteredClient accounts }"#

    /// The three users of `examples/resource/resource.yaml`, as the sample server answers each.
    static let users = [
        #"{"id":1,"name":"Ada Lovelace","email":"ada@example.com"}"#,
        #"{"id":2,"name":"Grace Hopper","email":"grace@example.com"}"#,
        #"{"id":3,"name":"Katherine Johnson","email":"katherine@example.com"}"#,
    ]

    /// The user list as the server sends it.
    static var usersJSON: String { "[" + users.joined(separator: ",") + "]" }

    static let balance = #"{"client":"content-sample","balance":1024.5}"# + "\n"

    /// Writes `content.yaml` with one resource backend, `mfp`, at `BASE/mfp/api`.
    private static func configure(
        _ scratch: Scratch, base: String, auth: String? = nil, timeout: String? = nil
    ) throws {
        var lines = ["backends:", "  mfp:", "    type: resource", "    url: \(base)/mfp/api"]
        if let timeout { lines.append("    timeout: \(timeout)") }
        if let auth { lines.append("    auth: \(auth)") }
        try scratch.write(lines.joined(separator: "\n") + "\n", to: "content.yaml")
    }

    /// The client secret, and a token cache inside the scratch folder.
    private static func environment(_ scratch: Scratch, cache: String = "cache") -> [String: String] {
        ["MFP_SECRET": secret, "XDG_CACHE_HOME": scratch.url.appendingPathComponent(cache).path]
    }

    /// Runs `content request ARGUMENTS` in the scratch folder.
    private static func request(
        _ arguments: [String], in scratch: Scratch, environment: [String: String] = [:]
    ) throws -> ContentProcess.Result {
        try ContentProcess.run(["request"] + arguments, in: scratch.url, environment: environment)
    }

    /// The JSON object a command printed, such as the echo adapter's answer.
    private static func object(_ result: ContentProcess.Result) throws -> [String: Any] {
        let value = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8))
        return try #require(value as? [String: Any], "\(result.stdout)\(result.stderr)")
    }

    /// The string members of a JSON object, such as the echoed headers, query or form.
    private static func strings(_ value: Any?) -> [String: String] {
        (value as? [String: Any])?.compactMapValues { $0 as? String } ?? [:]
    }

    /// How many whole lines of a text are exactly `line`.
    private static func count(_ line: String, in text: String) -> Int {
        ServeLog.completeLines(of: text).filter { $0 == line }.count
    }

    /// The token files under a cache folder.
    private static func tokenFiles(in cache: URL) throws -> [URL] {
        let folder = cache.appendingPathComponent("content/oauth")
        return try FileManager.default.contentsOfDirectory(atPath: folder.path)
            .filter { $0.hasSuffix(".json") }
            .map { folder.appendingPathComponent($0) }
    }

    /// The access token a cache file holds.
    private static func cachedToken(_ file: URL) throws -> String {
        let value = try JSONSerialization.jsonObject(with: try Data(contentsOf: file))
        return try #require((value as? [String: Any])?["access_token"] as? String)
    }

    // MARK: - Methods

    @Test func everyMethodReachesTheUsersAdapterAndTheEcho() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        try ContentProcess.withServices(["-v"], expecting: Self.services) { services, log in
            let base = try #require(services["resource"])
            try Self.configure(scratch, base: base)
            func run(_ arguments: [String]) throws -> ContentProcess.Result {
                try Self.request(arguments, in: scratch)
            }

            let list = try run(["/adapters/JavaAdapter/users"])
            #expect(list.status == 0, "\(list.stderr)")
            #expect(list.stdout == Self.usersJSON + "\n")
            #expect(list.stderr.isEmpty)

            let created = try run([
                "POST", "/adapters/JavaAdapter/users", "--form", "name=Alan Turing", "--form", "email=alan@example.com",
            ])
            #expect(created.status == 0, "\(created.stderr)")
            #expect(created.stdout == #"{"id":4,"name":"Alan Turing","email":"alan@example.com"}"# + "\n")
            let names = try run(["/adapters/JavaAdapter/users", "-o", "csv", "--fields", "name"])
            #expect(names.stdout == "name\nAda Lovelace\nGrace Hopper\nKatherine Johnson\nAlan Turing\n")

            let updated = try run([
                "PUT", "/adapters/JavaAdapter/users/{id}", "--path", "id=2", "--json", #"{"email":"grace@navy.mil"}"#,
            ])
            let grace = #"{"id":2,"name":"Grace Hopper","email":"grace@navy.mil"}"# + "\n"
            #expect(updated.status == 0, "\(updated.stderr)")
            #expect(updated.stdout == grace)
            let one = try run(["/adapters/JavaAdapter/users/2"])
            #expect(one.stdout == grace)

            let patched = try run(["patch", "/adapters/JavaAdapter/echo/p", "--json", #"{"op":"replace","n":2}"#])
            #expect(patched.status == 0, "\(patched.stderr)")
            let echo = try Self.object(patched)
            #expect(echo["method"] as? String == "PATCH")
            #expect(echo["bodyBytes"] as? Int == 22)
            #expect(patched.stdout.contains(#""json":{"op":"replace","n":2}"#), "\(patched.stdout)")
            #expect(Self.strings(echo["headers"])["content-type"] == "application/json")

            let deleted = try run(["DELETE", "/adapters/JavaAdapter/users/3"])
            #expect(deleted.status == 0, "\(deleted.stderr)")
            #expect(deleted.stdout.isEmpty)
            #expect(deleted.stderr.isEmpty)
            let gone = try run(["/adapters/JavaAdapter/users/3"])
            #expect(gone.status == 5)
            #expect(gone.stdout.isEmpty)
            #expect(
                gone.stderr
                    == "content: error: HTTP 404 from \(base)/mfp/api/adapters/JavaAdapter/users/3: "
                    + #"{"error":"no user 3"}; check the adapter name and path"# + "\n")

            let logged = log.wait { $0.contains("GET /mfp/api/adapters/JavaAdapter/users/3 404\n") }
            #expect(logged, "\(log.text)")
            let lines = log.lines
            for line in [
                "POST /mfp/api/adapters/JavaAdapter/users 201", "PUT /mfp/api/adapters/JavaAdapter/users/2 200",
                "PATCH /mfp/api/adapters/JavaAdapter/echo/p 200", "DELETE /mfp/api/adapters/JavaAdapter/users/3 204",
                "GET /mfp/api/adapters/JavaAdapter/users/3 404",
            ] {
                #expect(lines.contains(line), "\(line) in \(log.text)")
            }
        }
    }

    @Test func headPrintsNothingAndExitsZero() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        try ContentProcess.withServices(expecting: Self.services) { services in
            let base = try #require(services["resource"])
            try Self.configure(scratch, base: base)
            let head = try Self.request(["HEAD", "/adapters/JavaAdapter/users"], in: scratch)
            #expect(head.stdout.isEmpty)
            #expect(head.status == 0, "\(head.stderr)")
            #expect(head.stderr.isEmpty, "\(head.stderr)")
        }
    }

    // MARK: - Parameters

    @Test func everyParameterKindIsEchoedBackExactly() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        try ContentProcess.withServices(expecting: Self.services) { services in
            let base = try #require(services["resource"])
            try Self.configure(scratch, base: base)
            let unicode = "Zo\u{EB} \u{6771}\u{4EAC}"

            let get = try Self.request(
                [
                    "/adapters/JavaAdapter/echo/{value}", "--path", "value=a/b c", "--query", "q=a b&c=d",
                    "--query", "name=\(unicode)", "--query", "plus=1+1", "-H", "X-Trace: t-1", "-H", "X-Time: 12:30",
                ],
                in: scratch)
            #expect(get.status == 0, "\(get.stderr)")
            let echo = try Self.object(get)
            #expect(echo["method"] as? String == "GET")
            #expect(echo["value"] as? String == "a/b c")
            #expect(echo["path"] as? String == "/mfp/api/adapters/JavaAdapter/echo/a%2Fb%20c")
            #expect(Self.strings(echo["query"]) == ["q": "a b&c=d", "name": unicode, "plus": "1+1"])
            let headers = Self.strings(echo["headers"])
            #expect(headers["x-trace"] == "t-1")
            #expect(headers["x-time"] == "12:30")
            #expect(echo["bodyBytes"] as? Int == 0)

            let form = try Self.request(
                [
                    "POST", "/adapters/JavaAdapter/echo/f", "--form", "name=Ada Lovelace", "--form",
                    "note=1+1=2 & more", "--form", "city=\u{6771}\u{4EAC}", "--form", "empty=",
                ],
                in: scratch)
            #expect(form.status == 0, "\(form.stderr)")
            let formEcho = try Self.object(form)
            #expect(
                Self.strings(formEcho["form"])
                    == ["name": "Ada Lovelace", "note": "1+1=2 & more", "city": "\u{6771}\u{4EAC}", "empty": ""])
            #expect(Self.strings(formEcho["headers"])["content-type"] == "application/x-www-form-urlencoded")
            let encoded = "name=Ada%20Lovelace&note=1%2B1%3D2%20%26%20more&city=%E6%9D%B1%E4%BA%AC&empty="
            #expect(formEcho["bodyBytes"] as? Int == encoded.utf8.count)

            let document = #"{"name":"Grace","tags":["a","b"],"n":1.50,"nested":{"ok":true,"none":null}}"#
            let json = try Self.request(["PUT", "/adapters/JavaAdapter/echo/j", "--json", document], in: scratch)
            #expect(json.status == 0, "\(json.stderr)")
            #expect(json.stdout.contains(#""json":\#(document)"#), "\(json.stdout)")
            let jsonEcho = try Self.object(json)
            #expect(jsonEcho["method"] as? String == "PUT")
            #expect(jsonEcho["bodyBytes"] as? Int == document.utf8.count)
            #expect(Self.strings(jsonEcho["headers"])["content-type"] == "application/json")

            let raw = try Self.request(
                [
                    "POST", "/adapters/JavaAdapter/echo/r", "--data", "plain text body", "--content-type",
                    "text/plain; charset=utf-8",
                ],
                in: scratch)
            #expect(raw.status == 0, "\(raw.stderr)")
            let rawEcho = try Self.object(raw)
            #expect(Self.strings(rawEcho["headers"])["content-type"] == "text/plain; charset=utf-8")
            #expect(rawEcho["bodyBytes"] as? Int == 15)
            #expect(rawEcho["json"] is NSNull)
        }
    }

    @Test func paramsReachJavaScriptProceduresInTheQueryOnGetAndInTheFormOnPost() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        try ContentProcess.withServices(["-v"], expecting: Self.services) { services, log in
            let base = try #require(services["resource"])
            try Self.configure(scratch, base: base)
            func run(_ arguments: [String]) throws -> ContentProcess.Result {
                try Self.request(arguments, in: scratch)
            }

            let added = try run(["/adapters/JSAdapter/add", "--params", "[2, 3.5]"])
            #expect(added.status == 0, "\(added.stderr)")
            #expect(added.stdout == #"{"isSuccessful":true,"sum":5.5}"# + "\n")
            let postedSum = try run(["POST", "/adapters/JSAdapter/add", "--params", "[2, 3]"])
            #expect(postedSum.stdout == #"{"isSuccessful":true,"sum":5}"# + "\n", "\(postedSum.stderr)")
            let greeted = try run(["POST", "/adapters/JSAdapter/greet", "--params", #"["Ada"]"#])
            #expect(greeted.stdout == #"{"isSuccessful":true,"greeting":"Hello, Ada!"}"# + "\n", "\(greeted.stderr)")
            let queried = try run(["/adapters/JSAdapter/greet", "--params", #"["Grace Hopper"]"#])
            #expect(queried.stdout == #"{"isSuccessful":true,"greeting":"Hello, Grace Hopper!"}"# + "\n")
            // With --form, params is one more field.
            let withForm = try run(["POST", "/adapters/JSAdapter/greet", "--form", "x=y", "--params", #"["Kay"]"#])
            #expect(withForm.stdout == #"{"isSuccessful":true,"greeting":"Hello, Kay!"}"# + "\n")
            // The items of an object are its first array-valued field.
            let users = try run(["/adapters/JSAdapter/getUsers", "-o", "csv", "--fields", "name"])
            #expect(users.stdout == "name\nAda Lovelace\nGrace Hopper\nKatherine Johnson\n", "\(users.stderr)")

            let logged = log.wait { $0.contains("GET /mfp/api/adapters/JSAdapter/getUsers 200\n") }
            #expect(logged, "\(log.text)")
            let lines = log.lines
            #expect(lines.contains("GET /mfp/api/adapters/JSAdapter/add?params=%5B2%2C3.5%5D 200"), "\(log.text)")
            #expect(lines.contains("POST /mfp/api/adapters/JSAdapter/add 200"), "\(log.text)")
            #expect(lines.contains("POST /mfp/api/adapters/JSAdapter/greet 200"), "\(log.text)")

            let wrong = try run(["/adapters/JSAdapter/add", "--params", #"["x"]"#])
            #expect(wrong.status == 5)
            #expect(wrong.stdout.isEmpty)
            #expect(
                wrong.stderr
                    == "content: error: HTTP 400 from \(base)/mfp/api/adapters/JSAdapter/add?params=%5B%22x%22%5D: "
                    + #"{"isSuccessful":false,"errors":["add takes numbers"]}"# + "\n")

            let mixed = try run(["POST", "/adapters/JSAdapter/add", "--params", "[1]", "--json", "{}"])
            #expect(mixed.status == 2)
            #expect(
                mixed.stderr.contains("--params goes in a form body on POST; drop --json/--data"), "\(mixed.stderr)")
            let notArray = try run(["/adapters/JSAdapter/add", "--params", #"{"a":1}"#])
            #expect(notArray.status == 2)
            #expect(notArray.stderr.contains("--params takes an array"), "\(notArray.stderr)")
            // MobileFirst's tutorials write params as a JavaScript literal with single quotes.
            let quoted = try run(["/adapters/JSAdapter/greet", "--params", "['Ada']"])
            #expect(quoted.stdout == #"{"isSuccessful":true,"greeting":"Hello, Ada!"}"# + "\n", "\(quoted.stderr)")
        }
    }

    /// MobileFirst's side of a resource request, as IBM documents it (Developer Center, "Confidential clients" and
    /// "Resource request"): the challenges of a protected resource, the token response, the development server's
    /// `test` client, allowed scopes with `*`, and `params` in the single-quoted form or in a POST's query.
    @Test func theServerChallengesAndGrantsAsMobileFirstDoes() throws {
        let workspace = try Scratch()
        defer { workspace.remove() }
        let folder = workspace.url.appendingPathComponent("resource")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try Data(
            """
            oauth:
              clients:
                - { clientId: patterned, clientSecret: s3cret, scopes: ["acc*"] }
            """.utf8
        ).write(to: folder.appendingPathComponent("resource.yaml"))
        try ContentProcess.withServices(workspace: workspace.url, expecting: ["resource"]) { services in
            let api = try #require(services["resource"]) + "/mfp/api"
            func curl(_ arguments: String) throws -> String {
                try ContentProcess.run(shell: "curl -sS -D - \(arguments)", in: ContentProcess.repository).stdout
            }
            func token(_ client: String, scope: String) throws -> String? {
                let answer = try curl(
                    "-u \(client) -d grant_type=client_credentials -d 'scope=\(scope)' '\(api)/az/v1/token'")
                let body = answer.components(separatedBy: "\r\n\r\n").last ?? ""
                let object = try? JSONSerialization.jsonObject(with: Data(body.utf8)) as? [String: Any]
                return object?["access_token"] as? String
            }
            let issued = try curl(
                "-u test:test -d grant_type=client_credentials -d scope=accounts '\(api)/az/v1/token'")
            #expect(issued.hasPrefix("HTTP/1.1 200"), "\(issued)")
            #expect(issued.lowercased().contains("cache-control: no-store\r\n"), "\(issued)")
            #expect(issued.lowercased().contains("pragma: no-cache\r\n"), "\(issued)")

            let none = try curl("'\(api)/adapters/SecureAdapter/balance'")
            #expect(none.hasPrefix("HTTP/1.1 401"), "\(none)")
            #expect(none.contains("WWW-Authenticate: Bearer\r\n") || none.contains("www-authenticate: Bearer\r\n"))
            let unknown = try curl("-H 'Authorization: Bearer nope' '\(api)/adapters/SecureAdapter/balance'")
            #expect(unknown.hasPrefix("HTTP/1.1 401") && unknown.contains(#"Bearer error="invalid_token""#))
            // A protected resource needs RegisteredClient besides its own scope, and its 403 names both.
            let granted = try #require(try token("test:test", scope: "RegisteredClient%20accounts"))
            let balance = try curl("-H 'Authorization: Bearer \(granted)' '\(api)/adapters/SecureAdapter/balance'")
            #expect(balance.hasPrefix("HTTP/1.1 200"), "\(balance)")
            for scope in ["", "accounts"] {
                let lacking = try #require(try token("test:test", scope: scope))
                let refused = try curl(
                    "-H 'Authorization: Bearer \(lacking)' '\(api)/adapters/SecureAdapter/balance'")
                #expect(refused.hasPrefix("HTTP/1.1 403"), "\(refused)")
                #expect(
                    refused.contains(#"Bearer error="insufficient_scope", scope="RegisteredClient accounts""#),
                    "\(refused)")
            }
            // Without a scope the token has the default one; expires_in is the whole seconds left of the hour.
            let unscoped = try curl("-u test:test -d grant_type=client_credentials '\(api)/az/v1/token'")
            let body = unscoped.components(separatedBy: "\r\n\r\n").last ?? ""
            let object = try #require(try JSONSerialization.jsonObject(with: Data(body.utf8)) as? [String: Any])
            #expect(object["scope"] as? String == "RegisteredClient", "\(body)")
            #expect(object["expires_in"] as? Int == 3599, "\(body)")

            // "acc*" admits accounts and accrued, not payments; RegisteredClient is any client's.
            #expect(try token("patterned:s3cret", scope: "accounts accrued") != nil)
            #expect(try token("patterned:s3cret", scope: "RegisteredClient accounts") != nil)
            #expect(try token("patterned:s3cret", scope: "payments") == nil)

            let posted = try curl("-X POST '\(api)/adapters/JSAdapter/add?params=%5B1%2C2%5D'")
            #expect(posted.hasSuffix(#"{"isSuccessful":true,"sum":3}"#), "\(posted)")
            let quoted = try curl("-G --data-urlencode \"params=['Ada']\" '\(api)/adapters/JSAdapter/greet'")
            #expect(quoted.hasSuffix(#"{"isSuccessful":true,"greeting":"Hello, Ada!"}"#), "\(quoted)")
        }
    }

    @Test func pathAndBodyMistakesAreUsageErrorsThatSendNothing() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        // Nothing listens on port 1: a request that got as far as sending would exit 4.
        try Self.configure(scratch, base: "http://127.0.0.1:1")
        let cases: [([String], String)] = [
            (
                ["/adapters/JavaAdapter/users/{id}"],
                "content: error: /adapters/JavaAdapter/users/{id} has {id}: give it with --path id=VALUE\n"
            ),
            (
                ["/adapters/JavaAdapter/users/{id}", "--path", "id=1", "--path", "name=x"],
                "content: error: --path name: /adapters/JavaAdapter/users/{id} has no {name}\n"
            ),
            (["POST", "/adapters/JavaAdapter/users", "--form", "a=1", "--json", "{}"], "give one body"),
            (["/adapters/JavaAdapter/users", "--timeout", "soon"], "--timeout takes a duration"),
            (["GRAB", "/adapters/JavaAdapter/users"], "GRAB is not one of GET, POST, PUT, DELETE, PATCH, HEAD"),
            (["/adapters/JavaAdapter/users", "--query", "novalue"], "--query takes name=value, got 'novalue'"),
            (["/adapters/JavaAdapter/users", "-H", "no colon"], "--header takes 'Name: value'"),
        ]
        for (arguments, message) in cases {
            let result = try Self.request(arguments, in: scratch)
            let shown = arguments.joined(separator: " ")
            #expect(result.status == 2, "\(shown): \(result.stderr)")
            #expect(result.stdout.isEmpty, "\(shown)")
            #expect(result.stderr.contains(message), "\(shown): \(result.stderr)")
        }
    }

    // MARK: - Bodies byte for byte

    @Test func binaryBodiesRoundTripByteForByteThroughFilesStdinAndStdout() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        try ContentProcess.withServices(expecting: Self.services) { services in
            let base = try #require(services["resource"])
            try Self.configure(scratch, base: base)
            let bytes = Data((0..<300_000).map { _ in UInt8.random(in: .min ... .max) })
            let input = scratch.url.appendingPathComponent("in.bin")
            try bytes.write(to: input)

            let upload = try Self.request(
                ["POST", "/adapters/Binary/echo", "--data", "@in.bin", "-O", "out.bin"], in: scratch)
            #expect(upload.status == 0, "\(upload.stderr)")
            #expect(upload.stdout.isEmpty)
            #expect(upload.stderr == "content: wrote 300000 bytes to out.bin\n")
            let echoed = try Data(contentsOf: scratch.url.appendingPathComponent("out.bin"))
            #expect(echoed == bytes)

            let piped = try ContentProcess.run(
                [
                    "request", "POST", "/adapters/Binary/echo", "--data", "@-", "--content-type",
                    "application/x-custom", "-O", "piped.bin",
                ],
                in: scratch.url, stdin: input)
            #expect(piped.status == 0, "\(piped.stderr)")
            let pipedBack = try Data(contentsOf: scratch.url.appendingPathComponent("piped.bin"))
            #expect(pipedBack == bytes)

            // Through a shell, so that stdout is compared as bytes rather than decoded as text.
            let script =
                "'\(ContentProcess.binary.path)' request /adapters/Binary/bytes --query size=1000 > bytes.bin"
            let shell = try ContentProcess.run(shell: script, in: scratch.url)
            #expect(shell.status == 0, "\(shell.stderr)")
            let downloaded = try Data(contentsOf: scratch.url.appendingPathComponent("bytes.bin"))
            #expect(downloaded == Data((0..<1000).map { UInt8(truncatingIfNeeded: $0) }))
        }
    }

    /// MobileFirst gzips an answer over 20 KB for a client that accepts gzip.
    ///
    /// The corpus's facts, from IBM's documentation. curl sends the requests and Python's gzip module decodes what came back, so neither side of
    /// the check is this project's; then `content request` gets the same answers decoded.
    @Test func answersOver20KBAreGzippedForAClientThatAcceptsGzip() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        try ContentProcess.withServices(expecting: Self.services) { services in
            let base = try #require(services["resource"])
            let bytes = "\(base)/mfp/api/adapters/Binary/bytes"
            /// The response headers, lower-cased, and the body as Python's gzip decodes it (or as it came).
            func fetch(size: Int, acceptEncoding: String?, method: String = "GET") throws -> (String, String) {
                let header = acceptEncoding.map { "-H 'Accept-Encoding: \($0)'" } ?? ""
                let script = """
                    curl -sS \(method == "HEAD" ? "-I" : "") -D headers.txt -o body.bin \(header) '\(bytes)?size=\(size)' && \
                    python3 -c 'import gzip, hashlib, sys
                    data = open("body.bin", "rb").read()
                    if data[:2] == b"\\x1f\\x8b": data = gzip.decompress(data); print("gzip", end=" ")
                    expected = bytes(i % 256 for i in range(int(sys.argv[1])))
                    print(len(data), data == expected)' \(size)
                    """
                let run = try ContentProcess.run(shell: script, in: scratch.url)
                #expect(run.status == 0, "\(run.stderr)")
                let headers = try String(contentsOf: scratch.url.appendingPathComponent("headers.txt"), encoding: .utf8)
                return (headers.lowercased(), run.stdout.trimmingCharacters(in: .whitespacesAndNewlines))
            }
            for accept in ["gzip", "gzip, deflate", "br;q=1.0, gzip;q=0.5", "*", "x-gzip"] {
                let (headers, body) = try fetch(size: 20_481, acceptEncoding: accept)
                #expect(headers.contains("content-encoding: gzip\r\n"), "\(accept): \(headers)")
                #expect(headers.contains("vary: accept-encoding\r\n"), "\(accept): \(headers)")
                #expect(body == "gzip 20481 True", "\(accept)")
            }
            // Not over 20 KB, not accepted, or refused by weight: as it is.
            for (size, accept) in [
                (20_480, "gzip"), (30_000, nil), (30_000, "identity"), (30_000, "gzip;q=0"), (30_000, "*;q=0"),
                (30_000, "gzip;q=0, *"), (30_000, "deflate"),
            ] as [(Int, String?)] {
                let (headers, body) = try fetch(size: size, acceptEncoding: accept)
                #expect(!headers.contains("content-encoding"), "\(size) \(accept ?? "none"): \(headers)")
                #expect(body == "\(size) True", "\(size) \(accept ?? "none")")
            }
            let (head, _) = try fetch(size: 30_000, acceptEncoding: "gzip", method: "HEAD")
            #expect(!head.contains("content-encoding"), "\(head)")

            // content request asks for gzip and writes the decoded bytes; -v shows both sides.
            try Self.configure(scratch, base: base)
            let download = try Self.request(
                ["/adapters/Binary/bytes", "--query", "size=100000", "-O", "big.bin", "-v"], in: scratch)
            #expect(download.status == 0, "\(download.stderr)")
            #expect(download.stderr.contains("> Accept-Encoding: gzip, deflate"), "\(download.stderr)")
            #expect(download.stderr.lowercased().contains("< content-encoding: gzip"), "\(download.stderr)")
            let written = try Data(contentsOf: scratch.url.appendingPathComponent("big.bin"))
            #expect(written == Data((0..<100_000).map { UInt8(truncatingIfNeeded: $0) }))
            // A JSON answer over 20 KB: decoded before the output layer reads it.
            let long = String(repeating: "a", count: 30_000)
            let echo = try Self.request(
                ["POST", "/adapters/JavaAdapter/echo/x", "--form", "text=\(long)", "-o", "json"], in: scratch)
            #expect(echo.status == 0, "\(echo.stderr)")
            #expect(Self.strings(try Self.object(echo)["form"])["text"] == long)
            // The cap holds for the decoded bytes: 100 KB that gzip to a few hundred bytes.
            let configuration = try String(
                contentsOf: scratch.url.appendingPathComponent("content.yaml"), encoding: .utf8)
            try scratch.write("defaults:\n  maxResponseSize: 64KiB\n" + configuration, to: "content.yaml")
            let capped = try Self.request(
                ["/adapters/Binary/bytes", "--query", "size=100000", "-O", "x.bin"], in: scratch)
            #expect(capped.status == 4, "\(capped.stderr)")
            #expect(capped.stderr.contains("larger than the cap (over the cap once decoded)"), "\(capped.stderr)")
        }
    }

    @Test func dataFromStdinIsSentAsIsAndATextAnswerIsPrintedAsIs() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        try ContentProcess.withServices(expecting: Self.services) { services in
            let base = try #require(services["resource"])
            try Self.configure(scratch, base: base)
            let text = "line one\nline two\n\ttabbed \u{E9}\n"
            let file = try scratch.write(text, to: "body.txt")
            let result = try ContentProcess.run(
                ["request", "POST", "/adapters/Binary/echo", "--data", "@-", "--content-type", "text/plain"],
                in: scratch.url, stdin: file)
            #expect(result.status == 0, "\(result.stderr)")
            #expect(result.stdout == text)
            #expect(result.stderr.isEmpty)

            // A JSON answer goes through the output layer, whatever sent it.
            let json = try scratch.write(#"[{"a":1},{"a":2}]"#, to: "body.json")
            let rows = try ContentProcess.run(
                [
                    "request", "POST", "/adapters/Binary/echo", "--data", "@-", "--content-type", "application/json",
                    "-o", "csv",
                ],
                in: scratch.url, stdin: json)
            #expect(rows.stdout == "a\n1\n2\n", "\(rows.stderr)")
        }
    }

    @Test func outputFileHoldsTheBodyAsSentAndStdoutStaysEmpty() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        try ContentProcess.withServices(expecting: Self.services) { services in
            let base = try #require(services["resource"])
            try Self.configure(scratch, base: base)
            let saved = try Self.request(["/adapters/JavaAdapter/users", "-O", "users.json"], in: scratch)
            #expect(saved.status == 0, "\(saved.stderr)")
            #expect(saved.stdout.isEmpty)
            #expect(saved.stderr == "content: wrote \(Self.usersJSON.utf8.count) bytes to users.json\n")
            let file = try String(contentsOf: scratch.url.appendingPathComponent("users.json"), encoding: .utf8)
            #expect(file == Self.usersJSON)

            // `-O -` is stdout, still byte for byte: no output formatting and no added newline.
            let dash = try Self.request(["/adapters/JavaAdapter/users/1", "-O", "-"], in: scratch)
            #expect(dash.status == 0, "\(dash.stderr)")
            #expect(dash.stdout == Self.users[0])

            // An error status writes no file.
            let missing = try Self.request(["/adapters/JavaAdapter/users/99", "-O", "missing.json"], in: scratch)
            #expect(missing.status == 5)
            let missingFile = scratch.url.appendingPathComponent("missing.json").path
            let written = FileManager.default.fileExists(atPath: missingFile)
            #expect(!written)
        }
    }

    // MARK: - Timeouts

    @Test func aRequestSlowerThanItsTimeoutExitsFourWhenTheTimeoutPasses() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        try ContentProcess.withServices(expecting: Self.services) { services in
            let base = try #require(services["resource"])
            try Self.configure(scratch, base: base)
            let started = Date()
            let slow = try Self.request(
                ["/adapters/Slow/wait", "--query", "ms=3000", "--timeout", "300ms"], in: scratch)
            let elapsed = Date().timeIntervalSince(started)
            #expect(slow.status == 4, "\(slow.stderr)")
            #expect(slow.stdout.isEmpty)
            #expect(
                slow.stderr.hasPrefix("content: error: \(base)/mfp/api/adapters/Slow/wait?ms=3000: "), "\(slow.stderr)")
            #expect(elapsed < 2.5, "\(elapsed) s")

            let quick = try Self.request(["/adapters/Slow/wait", "--query", "ms=100", "--timeout", "5s"], in: scratch)
            #expect(quick.status == 0, "\(quick.stderr)")
            #expect(quick.stdout == #"{"waited":100}"# + "\n")

            // The backend's timeout applies when the command gives none; --timeout replaces it.
            try Self.configure(scratch, base: base, timeout: "300ms")
            let configured = try Self.request(["/adapters/Slow/wait", "--query", "ms=3000"], in: scratch)
            #expect(configured.status == 4, "\(configured.stderr)")
            let overridden = try Self.request(
                ["/adapters/Slow/wait", "--query", "ms=600", "--timeout", "5s"], in: scratch)
            #expect(overridden.status == 0, "\(overridden.stderr)")
            #expect(overridden.stdout == #"{"waited":600}"# + "\n")
        }
    }

    // MARK: - OAuth

    @Test func oauthFetchesOneTokenKeepsItAcrossCommandsAndRenewsItOnceAfterRevocation() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        try ContentProcess.withServices(["-v"], expecting: Self.services) { services, log in
            let base = try #require(services["resource"])
            try Self.configure(scratch, base: base, auth: Self.oauth)
            let environment = Self.environment(scratch)
            let token = "POST /mfp/api/az/v1/token 200"
            let granted = "GET /mfp/api/adapters/SecureAdapter/balance 200"
            let refused = "GET /mfp/api/adapters/SecureAdapter/balance 401"
            func exchanges() -> [String] {
                log.lines.filter { $0 == token || $0.hasPrefix("GET /mfp/api/adapters/SecureAdapter/balance ") }
            }
            var results: [(String, ContentProcess.Result)] = []

            let first = try Self.request(
                ["/adapters/SecureAdapter/balance", "-v"], in: scratch, environment: environment)
            results.append(("first", first))
            #expect(first.status == 0, "\(first.stderr)")
            #expect(first.stdout == Self.balance)
            #expect(first.stderr.contains("> POST \(base)/mfp/api/az/v1/token\n"), "\(first.stderr)")
            #expect(first.stderr.contains("> Authorization: Basic <redacted>\n"), "\(first.stderr)")
            #expect(first.stderr.contains("> Authorization: Bearer <redacted>\n"), "\(first.stderr)")
            let firstLogged = log.wait { Self.count(granted, in: $0) >= 1 }
            #expect(firstLogged, "\(log.text)")
            #expect(exchanges() == [token, granted])

            let cache = scratch.url.appendingPathComponent("cache")
            let files = try Self.tokenFiles(in: cache)
            #expect(files.count == 1, "\(files)")
            let file = try #require(files.first)
            let attributes = try FileManager.default.attributesOfItem(atPath: file.path)
            #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o600)
            let firstToken = try Self.cachedToken(file)
            #expect(!firstToken.isEmpty)

            // Another command reads the cached token: no token request.
            let second = try Self.request(["/adapters/SecureAdapter/balance"], in: scratch, environment: environment)
            results.append(("second", second))
            #expect(second.status == 0, "\(second.stderr)")
            #expect(second.stdout == Self.balance)
            let secondLogged = log.wait { Self.count(granted, in: $0) >= 2 }
            #expect(secondLogged, "\(log.text)")
            #expect(exchanges() == [token, granted, granted])

            // The server forgets every token; the next command is refused once, fetches one token, and succeeds.
            let revoke = try ContentProcess.run(
                shell: "curl -sS -o revoke.out -w '%{http_code}' -X DELETE '\(base)/mfp/api/az/v1/token'",
                in: scratch.url)
            #expect(revoke.stdout == "204", "\(revoke.stderr)")
            let third = try Self.request(
                ["/adapters/SecureAdapter/balance", "-v"], in: scratch, environment: environment)
            results.append(("third", third))
            #expect(third.status == 0, "\(third.stderr)")
            #expect(third.stdout == Self.balance)
            #expect(
                third.stderr.contains(
                    "401 with a cached token: fetching a new one from the token endpoint and retrying once\n"),
                "\(third.stderr)")
            let thirdLogged = log.wait { Self.count(granted, in: $0) >= 3 }
            #expect(thirdLogged, "\(log.text)")
            #expect(exchanges() == [token, granted, granted, refused, token, granted])
            let renewed = try Self.cachedToken(file)
            #expect(renewed != firstToken)
            let filesAfter = try Self.tokenFiles(in: cache)
            #expect(filesAfter == files)

            let dry = try Self.request(
                ["/adapters/SecureAdapter/balance", "--dry-run", "-v"], in: scratch, environment: environment)
            results.append(("--dry-run", dry))
            #expect(dry.status == 0, "\(dry.stderr)")
            #expect(
                dry.stdout
                    == "curl -sS --compressed '\(base)/mfp/api/adapters/SecureAdapter/balance' "
                    + #"-H "Authorization: Bearer $ACCESS_TOKEN""# + "\n")

            for (name, result) in results {
                #expect(!result.stdout.contains(Self.secret), "\(name)")
                #expect(!result.stderr.contains(Self.secret), "\(name)")
                #expect(!result.stderr.contains(firstToken), "\(name)")
                #expect(!result.stderr.contains(renewed), "\(name)")
            }
        }
    }

    @Test func aRefusedClientExitsFiveNamingTheTokenEndpointAndNeverShowsTheSecret() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        try ContentProcess.withServices(expecting: Self.services) { services in
            let base = try #require(services["resource"])
            try Self.configure(scratch, base: base, auth: Self.oauth)
            let wrong = "wrong-client-secret"
            var environment = Self.environment(scratch, cache: "wrong-cache")
            environment["MFP_SECRET"] = wrong
            for verbose in [false, true] {
                let result = try Self.request(
                    ["/adapters/SecureAdapter/balance"] + (verbose ? ["-v"] : []), in: scratch,
                    environment: environment)
                #expect(result.status == 5, "\(result.stderr)")
                #expect(result.stdout.isEmpty)
                let message =
                    "content: error: the token endpoint \(base)/mfp/api/az/v1/token answered HTTP 401: "
                    + #"{"error":"invalid_client"}; check auth.clientId, auth.clientSecret and auth.scope"# + "\n"
                #expect(verbose ? result.stderr.hasSuffix(message) : result.stderr == message, "\(result.stderr)")
                #expect(!result.stderr.contains(wrong))
            }
            // No token, nothing cached.
            let cache = scratch.url.appendingPathComponent("wrong-cache/content/oauth").path
            let cached = (try? FileManager.default.contentsOfDirectory(atPath: cache)) ?? []
            #expect(cached.isEmpty, "\(cached)")

            // A scope the client lacks is refused the same way.
            try Self.configure(
                scratch, base: base, auth: Self.oauth.replacingOccurrences(of: "accounts", with: "payments"))
            let scoped = try Self.request(
                ["/adapters/SecureAdapter/balance"], in: scratch, environment: Self.environment(scratch))
            #expect(scoped.status == 5)
            #expect(
                scoped.stderr.contains(#"answered HTTP 400: {"error":"invalid_scope","scope":"payments"}"#),
                "\(scoped.stderr)")

            // A token without the resource's scope: the server's 403 names the scope, and a token for it is fetched
            // and the request sent once more, as WLResourceRequest does.
            for configured in ["", ", scope: accounts"] {
                let auth = Self.oauth.replacingOccurrences(of: ", scope: RegisteredClient accounts", with: configured)
                try Self.configure(scratch, base: base, auth: auth)
                let unscoped = try Self.request(
                    ["/adapters/SecureAdapter/balance", "-v"], in: scratch,
                    environment: Self.environment(scratch, cache: "unscoped-cache"))
                #expect(unscoped.status == 0, "\(unscoped.stderr)")
                #expect(unscoped.stdout == Self.balance, "\(unscoped.stdout)")
                #expect(
                    unscoped.stderr.contains(
                        #"403 insufficient_scope: fetching a token for scope "RegisteredClient accounts""#),
                    "\(unscoped.stderr)")
            }
        }
    }

    // MARK: - Redirects

    @Test func redirectsKeepCredentialsOnTheSameOriginAndDropThemForAnotherHost() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        try ContentProcess.withServices(expecting: Self.services) { services in
            let base = try #require(services["resource"])
            let other = base.replacingOccurrences(of: "127.0.0.1", with: "localhost")
            #expect(other != base)
            try Self.configure(scratch, base: base, auth: #"{ type: bearer, token: "${MFP_TOKEN}" }"#)
            let environment = ["MFP_TOKEN": "e2e-bearer-token-value"]
            let echo = "/mfp/api/adapters/JavaAdapter/echo/x"
            func follow(to origin: String) throws -> ContentProcess.Result {
                try Self.request(
                    [
                        "/adapters/Redirect/to", "--query", "url=\(origin)\(echo)", "-H", "X-Api-Key: e2e-api-key",
                        "-H", "X-Trace: t-1", "-i",
                    ],
                    in: scratch, environment: environment)
            }

            let same = try follow(to: base)
            #expect(same.status == 0, "\(same.stderr)")
            #expect(same.stderr.hasPrefix("HTTP 200 \(base)\(echo)\n"), "\(same.stderr)")
            let sameEcho = try Self.object(same)
            #expect(sameEcho["path"] as? String == echo)
            let sameHeaders = Self.strings(sameEcho["headers"])
            #expect(sameHeaders["authorization"] == "Bearer e2e-bearer-token-value")
            #expect(sameHeaders["x-api-key"] == "e2e-api-key")
            #expect(sameHeaders["x-trace"] == "t-1")

            let cross = try follow(to: other)
            #expect(cross.status == 0, "\(cross.stderr)")
            #expect(cross.stderr.hasPrefix("HTTP 200 \(other)\(echo)\n"), "\(cross.stderr)")
            let crossEcho = try Self.object(cross)
            #expect(crossEcho["path"] as? String == echo)
            let crossHeaders = Self.strings(crossEcho["headers"])
            #expect(crossHeaders["authorization"] == nil, "\(crossHeaders)")
            #expect(crossHeaders["x-api-key"] == nil, "\(crossHeaders)")
            #expect(crossHeaders["x-trace"] == "t-1")
        }
    }

    // MARK: - What is shown

    @Test func includePrintsTheStatusLineAndHeadersOnStderr() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        try ContentProcess.withServices(expecting: Self.services) { services in
            let base = try #require(services["resource"])
            try Self.configure(scratch, base: base)
            let included = try Self.request(["-i", "/adapters/JavaAdapter/users/1"], in: scratch)
            #expect(included.status == 0, "\(included.stderr)")
            #expect(included.stdout == Self.users[0] + "\n")
            let lines = included.stderr.split(separator: "\n").map(String.init)
            #expect(lines.first == "HTTP 200 \(base)/mfp/api/adapters/JavaAdapter/users/1")
            let lowered = lines.map { $0.lowercased() }
            #expect(lowered.contains("content-type: application/json"), "\(included.stderr)")
            #expect(lowered.contains("content-length: \(Self.users[0].utf8.count)"), "\(included.stderr)")

            let missing = try Self.request(["--include", "/adapters/JavaAdapter/users/42"], in: scratch)
            #expect(missing.status == 5)
            #expect(missing.stdout.isEmpty)
            #expect(
                missing.stderr.hasPrefix("HTTP 404 \(base)/mfp/api/adapters/JavaAdapter/users/42\n"),
                "\(missing.stderr)")
            #expect(
                missing.stderr.hasSuffix(
                    "\ncontent: error: HTTP 404 from \(base)/mfp/api/adapters/JavaAdapter/users/42: "
                        + #"{"error":"no user 42"}; check the adapter name and path"# + "\n"),
                "\(missing.stderr)")
        }
    }

    @Test func errorStatusesExitFiveWithTheStatusTheFirstBodyLineAndAHint() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        try ContentProcess.withServices(expecting: Self.services) { services in
            let base = try #require(services["resource"])
            try Self.configure(scratch, base: base)
            let api = "\(base)/mfp/api"
            let cases: [([String], String)] = [
                (
                    ["/adapters/SecureAdapter/balance"],
                    "HTTP 401 from \(api)/adapters/SecureAdapter/balance: "
                        + #"{"error":"no access token: send Authorization: Bearer"}; check the backend's auth settings"#
                ),
                (
                    ["/adapters/JSAdapter/nope"],
                    "HTTP 404 from \(api)/adapters/JSAdapter/nope: "
                        + #"{"isSuccessful":false,"errors":["JSAdapter has no procedure nope"]}; "#
                        + "check the adapter name and path"
                ),
                (
                    ["POST", "/adapters/JavaAdapter/users", "--form", "email=x@example.com"],
                    "HTTP 400 from \(api)/adapters/JavaAdapter/users: "
                        + #"{"error":"name is required (form field or JSON member)"}"#
                ),
                (
                    ["/adapters/Redirect/to"],
                    "HTTP 400 from \(api)/adapters/Redirect/to: " + #"{"error":"give ?url="}"#
                ),
            ]
            for (arguments, message) in cases {
                let result = try Self.request(arguments, in: scratch)
                let shown = arguments.joined(separator: " ")
                #expect(result.status == 5, "\(shown): \(result.stderr)")
                #expect(result.stdout.isEmpty, "\(shown)")
                #expect(result.stderr == "content: error: \(message)\n", "\(shown)")
            }
        }
    }

    @Test func dryRunPrintsOneCurlCommandWithCredentialsAsVariablesAndSendsNothing() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        // Nothing listens on port 1: a dry run that sent anything would fail.
        let base = "http://127.0.0.1:1/mfp/api"
        let yaml = """
            backends:
              open:
                type: resource
                url: \(base)
              basic:
                type: resource
                url: \(base)
                auth: { type: basic, username: ada, password: "${MFP_PASSWORD}" }
              bearer:
                type: resource
                url: \(base)
                auth: { type: bearer, token: "${MFP_TOKEN}" }
              oauth:
                type: resource
                url: \(base)
                auth: \(Self.oauth)

            """
        try scratch.write(yaml, to: "content.yaml")
        var environment = Self.environment(scratch)
        environment["MFP_PASSWORD"] = "e2e-basic-password"
        environment["MFP_TOKEN"] = "e2e-bearer-token"
        let cases: [([String], String)] = [
            (
                ["--backend", "basic", "/adapters/JavaAdapter/users"],
                #"curl -sS --compressed '\#(base)/adapters/JavaAdapter/users' -u "ada:$MFP_PASSWORD""#
            ),
            (
                ["--backend", "bearer", "/adapters/JavaAdapter/users"],
                #"curl -sS --compressed '\#(base)/adapters/JavaAdapter/users' -H "Authorization: Bearer $MFP_TOKEN""#
            ),
            (
                ["--backend", "oauth", "/adapters/SecureAdapter/balance"],
                #"curl -sS --compressed '\#(base)/adapters/SecureAdapter/balance' -H "Authorization: Bearer $ACCESS_TOKEN""#
            ),
            (
                [
                    "--backend", "open", "POST", "/adapters/JavaAdapter/users", "--form", "name=Ada Lovelace",
                    "--form", "email=ada@example.com",
                ],
                "curl -sS --compressed '\(base)/adapters/JavaAdapter/users' -X POST "
                    + "-H 'Content-Type: application/x-www-form-urlencoded' "
                    + "--data-binary 'name=Ada%20Lovelace&email=ada%40example.com'"
            ),
            (
                [
                    "--backend", "open", "PUT", "/adapters/JavaAdapter/users/{id}", "--path", "id=2", "--json",
                    #"{"name": "O'Hara"}"#,
                ],
                #"curl -sS --compressed '\#(base)/adapters/JavaAdapter/users/2' -X PUT -H 'Content-Type: application/json' "#
                    + #"--data-binary '{"name":"O'\''Hara"}'"#
            ),
            (
                [
                    "--backend", "open", "/adapters/JavaAdapter/echo/x", "--query", "q=a b", "-H",
                    "X-Api-Key: e2e-api-key",
                ],
                #"curl -sS --compressed '\#(base)/adapters/JavaAdapter/echo/x?q=a%20b' -H "X-Api-Key: $X_API_KEY""#
            ),
        ]
        for (arguments, expected) in cases {
            let result = try Self.request(arguments + ["--dry-run"], in: scratch, environment: environment)
            let shown = arguments.joined(separator: " ")
            #expect(result.status == 0, "\(shown): \(result.stderr)")
            #expect(result.stdout == expected + "\n", "\(shown)")
            #expect(result.stderr.isEmpty, "\(shown): \(result.stderr)")
            for secret in ["e2e-basic-password", "e2e-bearer-token", Self.secret, "e2e-api-key"] {
                #expect(!result.stdout.contains(secret), "\(shown)")
            }
        }
    }

    @Test func theDryRunCurlCommandRunsAsPrinted() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        try ContentProcess.withServices(expecting: Self.services) { services in
            let base = try #require(services["resource"])
            try Self.configure(scratch, base: base)
            let dry = try Self.request(
                [
                    "POST", "/adapters/JavaAdapter/users", "--form", "name=Mary Jackson", "--form",
                    "email=mary@example.com", "--dry-run",
                ],
                in: scratch)
            #expect(dry.status == 0, "\(dry.stderr)")
            let curl = try ContentProcess.run(shell: dry.stdout, in: scratch.url)
            #expect(curl.stdout == #"{"id":4,"name":"Mary Jackson","email":"mary@example.com"}"#, "\(curl.stderr)")
            let names = try Self.request(["/adapters/JavaAdapter/users", "-o", "csv", "--fields", "name"], in: scratch)
            #expect(names.stdout == "name\nAda Lovelace\nGrace Hopper\nKatherine Johnson\nMary Jackson\n")
        }
    }

    // MARK: - Without configuration

    @Test func withoutConfigurationAPathAnswersFromTheBuiltInSampleAdapters() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let result = try Self.request(["/adapters/JavaAdapter/users"], in: scratch)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout == Self.usersJSON + "\n")
        #expect(
            result.stderr
                == "content: no configuration found; answering from the built-in sample adapters "
                + "(`content config --help` shows how to configure a backend)\n")
        #expect(result.stderr.components(separatedBy: "no configuration found").count == 2)

        let greeted = try Self.request(["/adapters/JSAdapter/greet", "--params", #"["Ada"]"#], in: scratch)
        #expect(greeted.stdout == #"{"isSuccessful":true,"greeting":"Hello, Ada!"}"# + "\n", "\(greeted.stderr)")
    }

    @Test func anAbsoluteURLNeedsNoConfiguration() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        try ContentProcess.withServices(expecting: Self.services) { services in
            let base = try #require(services["resource"])
            let one = try Self.request(["\(base)/mfp/api/adapters/JavaAdapter/users/2"], in: scratch)
            #expect(one.status == 0, "\(one.stderr)")
            #expect(one.stdout == Self.users[1] + "\n")
            #expect(one.stderr.isEmpty, "\(one.stderr)")

            let greeted = try Self.request(
                ["POST", "\(base)/mfp/api/adapters/JSAdapter/greet", "--params", #"["Ada"]"#], in: scratch)
            #expect(greeted.stdout == #"{"isSuccessful":true,"greeting":"Hello, Ada!"}"# + "\n", "\(greeted.stderr)")

            let missing = try Self.request(["\(base)/mfp/api/adapters/JavaAdapter/users/9"], in: scratch)
            #expect(missing.status == 5)
            #expect(
                missing.stderr
                    == "content: error: HTTP 404 from \(base)/mfp/api/adapters/JavaAdapter/users/9: "
                    + #"{"error":"no user 9"}; check the adapter name and path"# + "\n")
            let configured = FileManager.default.fileExists(
                atPath: scratch.url.appendingPathComponent("content.yaml").path)
            #expect(!configured)
        }
    }
}
