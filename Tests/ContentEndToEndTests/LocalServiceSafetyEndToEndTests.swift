import Foundation
import Testing

/// `content serve` as a web page or a flood of idle sockets would meet it: requests for other host names (DNS
/// rebinding), writes from foreign origins and bodies a page can send without a preflight (cross-site request
/// forgery), the admin API without its token, HTTP/1.0 without keep-alive, and more idle connections than
/// descriptors.
struct LocalServiceSafetyEndToEndTests {
    static let adHoc = "/content/cq:graphql/wknd-shared/endpoint.json"
    static let query = #"{"query":"{adventureList{items{title}}}"}"#

    /// `status body` of a curl call with extra arguments.
    static func curl(_ arguments: String) throws -> String {
        try ContentProcess.run(
            shell: "curl -sS -o /dev/stdout -w ' %{http_code}' \(arguments)", in: ContentProcess.repository
        )
        .stdout
    }

    @Test func onlyLocalHostNamesAndSameOriginWritesAreServed() throws {
        try ContentProcess.withServices(["--allow-host", "content.test"]) { services in
            let aem = try #require(services["aem"])
            let json = "-H 'Content-Type: application/json' -d '\(Self.query)'"
            let rebound = try Self.curl("-H 'Host: attacker.example' \(json) '\(aem)\(Self.adHoc)'")
            #expect(rebound.hasSuffix(" 421"), "\(rebound)")
            #expect(rebound.contains("not 'attacker.example'"))
            #expect(try Self.curl("-H 'Host: content.test:80' \(json) '\(aem)\(Self.adHoc)'").hasSuffix(" 200"))
            #expect(try Self.curl("-H 'Host: localhost' \(json) '\(aem)\(Self.adHoc)'").hasSuffix(" 200"))
            // An app in the Android Emulator addresses this machine as 10.0.2.2, the Android SDKs' default.
            #expect(try Self.curl("-H 'Host: 10.0.2.2:9399' \(json) '\(aem)\(Self.adHoc)'").hasSuffix(" 200"))
            #expect(try Self.curl("-H 'Host: 10.0.2.3' \(json) '\(aem)\(Self.adHoc)'").hasSuffix(" 421"))

            let forged = try Self.curl("-H 'Origin: https://attacker.example' \(json) '\(aem)\(Self.adHoc)'")
            #expect(forged.hasSuffix(" 403"), "\(forged)")
            #expect(forged.contains("--cors https://attacker.example"))
            // Reads stay open to any page, as AEM's publish tier is.
            #expect(
                try Self.curl("-H 'Origin: https://attacker.example' '\(aem)/graphql/list.json'").hasSuffix(" 200"))

            // The bodies a page posts cross-site without a preflight.
            for type in ["text/plain", "application/x-www-form-urlencoded", "multipart/form-data; boundary=x"] {
                let answer = try Self.curl("-H 'Content-Type: \(type)' -d '\(Self.query)' '\(aem)\(Self.adHoc)'")
                #expect(answer.hasSuffix(" 415"), "\(type): \(answer)")
            }
        }
        try ContentProcess.withServices(["--cors", "https://app.example"]) { services in
            let aem = try #require(services["aem"])
            let allowed = try Self.curl(
                "-H 'Origin: https://app.example' -H 'Content-Type: application/json' -d '\(Self.query)' "
                    + "'\(aem)\(Self.adHoc)'")
            #expect(allowed.hasSuffix(" 200"), "\(allowed)")
            // The web SDK's preflight names x-firebase-gmpid whenever the app has an ID and x-client-version always
            // (since data-connect 0.7.3); FlutterFire's web client also sends x-firebase-client. A browser sends the
            // request only if the answer allows every one.
            let dataConnect = try #require(services["dataconnect"])
            let preflight = try Self.curl(
                "-D - -X OPTIONS -H 'Origin: https://app.example' -H 'Access-Control-Request-Method: POST' "
                    + "-H 'Access-Control-Request-Headers: content-type,x-goog-api-client,x-firebase-gmpid,"
                    + "x-firebase-auth-token,x-firebase-appcheck,x-firebase-client,x-client-version' "
                    + "'\(dataConnect)/v1/projects/demo/locations/us-central1/services/content-sample/connectors/"
                    + "movies:executeQuery'")
            let allowHeaders =
                preflight.split(separator: "\r\n").first { $0.lowercased().hasPrefix("access-control-allow-headers:") }?
                .lowercased() ?? ""
            for header in [
                "content-type", "x-goog-api-client", "x-firebase-gmpid", "x-firebase-auth-token", "x-firebase-appcheck",
                "x-firebase-client", "x-client-version",
            ] {
                #expect(allowHeaders.contains(header), "\(header): \(preflight)")
            }
        }
    }

    /// A chunked body whose chunk size is not hexadecimal is a malformed request: 400, never 413 or an empty body.
    @Test func aBadChunkSizeIsABadRequest() throws {
        try ContentProcess.withServices(expecting: ["dataconnect", "resource"]) { services in
            let dataConnect = try #require(services["dataconnect"])
            let resource = try #require(services["resource"])
            let targets = [
                (
                    dataConnect,
                    "/v1/projects/demo/locations/us-central1/services/content-sample/connectors/movies:executeQuery"
                ),
                (resource, "/mfp/api/adapters/JavaAdapter/users"),
            ]
            for (base, path) in targets {
                let port = try #require(base.split(separator: ":").last)
                let script = """
                    import socket
                    s = socket.create_connection(("127.0.0.1", \(port)), timeout=10)
                    s.sendall(b"POST \(path) HTTP/1.1\\r\\nHost: 127.0.0.1\\r\\nContent-Type: application/json\\r\\n"
                              b"Transfer-Encoding: chunked\\r\\n\\r\\nZZ\\r\\n{}\\r\\n0\\r\\n\\r\\n")
                    print(s.recv(200).split(b"\\r\\n")[0].decode())
                    """
                let result = try ContentProcess.run(
                    shell: "python3 - <<'PY'\n\(script)\nPY", in: ContentProcess.repository)
                #expect(result.stdout.hasPrefix("HTTP/1.1 400"), "\(path): \(result.stdout)\(result.stderr)")
            }
        }
    }

    @Test func theDataConnectAdminAPINeedsTheTokenServePrints() throws {
        try ContentProcess.withServices { services, log in
            let base = try #require(services["dataconnect"])
            let url = "\(base)/v1/projects/demo/locations/us-central1/services/content-sample:executeGraphql"
            // The note follows the service's URL line, which is all that starting waits for.
            log.wait { text in
                ServeLog.completeLines(of: text).contains { $0.contains(":impersonateQuery, …) needs Authorization") }
            }
            let line = try #require(
                ServeLog.completeLines(of: log.text).first {
                    $0.contains(":impersonateQuery, …) needs Authorization: Bearer")
                })
            let token = try #require(line.split(separator: " ").last.map(String.init))
            #expect(token.count == 32)
            let body = "-H 'Content-Type: application/json' -d '{\"query\":\"{movies{id}}\"}' '\(url)'"
            let anonymous = try Self.curl(body)
            #expect(anonymous.hasSuffix(" 401"), "\(anonymous)")
            #expect(anonymous.contains(#""status":"UNAUTHENTICATED""#))
            #expect(try Self.curl("-H 'Authorization: Bearer wrong' \(body)").hasSuffix(" 401"))
            #expect(try Self.curl("-H 'Authorization: Bearer \(token)' \(body)").hasSuffix(" 200"))
        }
    }

    @Test func aDataFileIsReadableByItsOwnerOnly() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let data = scratch.url.appendingPathComponent("content.sqlite").path
        try ContentProcess.withServices(["--data", data]) { _ in
            for file in [data, data + "-wal"] where FileManager.default.fileExists(atPath: file) {
                let mode = try FileManager.default.attributesOfItem(atPath: file)[.posixPermissions] as? NSNumber
                #expect(mode?.intValue == 0o600, "\(file)")
            }
        }
    }

    /// HTTP/1.0 without keep-alive is answered and closed (RFC 9112 §9.3); a client that never finishes its
    /// headers is closed after the idle timeout; 300 idle sockets under a 256-descriptor limit neither make the
    /// server unreachable nor spin its accept loop.
    @Test func connectionsCloseWhenTheyShouldAndIdleOnesCannotLockTheServerOut() throws {
        let script = #"""
            import resource, socket, subprocess, sys, time
            binary, examples = sys.argv[1], sys.argv[2]
            server = subprocess.Popen(
                [binary, "serve", "--workspace", examples, "--aem-port", "0", "--dataconnect-port", "0",
                 "--resource-port", "0", "--idle-timeout", "1s"],
                stderr=subprocess.PIPE, text=True,
                preexec_fn=lambda: resource.setrlimit(resource.RLIMIT_NOFILE, (256, 256)))
            port = dataconnect = None
            while port is None or dataconnect is None:
                line = server.stderr.readline()
                if "aem emulator on" in line:
                    port = int(line.rsplit(":", 1)[1])
                if "dataconnect emulator on" in line:
                    dataconnect = int(line.rsplit(":", 1)[1])
            def request(version, to=None):
                s = socket.create_connection(("127.0.0.1", to or port), timeout=20)
                s.sendall(("GET /graphql/list.json HTTP/%s\r\nHost: 127.0.0.1\r\n\r\n" % version).encode())
                data = b""
                while True:
                    chunk = s.recv(65536)
                    if not chunk:
                        return data
                    data += chunk
            def slow_closed(to):
                slow = socket.create_connection(("127.0.0.1", to), timeout=20)
                slow.sendall(b"GET /graphql/list.json HTTP/1.1\r\nHost: 127.0.0.1\r\n")
                started = time.time()
                return slow.recv(10) == b"", round(time.time() - started) <= 5
            answer = request("1.0")
            print("http10", answer.split(b"\r\n")[0].decode(), b"connection: close" in answer.lower())
            print("slow-closed", *slow_closed(port))
            # The Data Connect port, where a connection may also become HTTP/2 or a WebSocket: the same rules.
            answer = request("1.0", dataconnect)
            print("dataconnect-http10", answer.split(b"\r\n")[0].decode(), b"connection: close" in answer.lower())
            print("dataconnect-slow-closed", *slow_closed(dataconnect))
            idle = []
            for _ in range(300):
                try:
                    idle.append(socket.create_connection(("127.0.0.1", port), timeout=5))
                except OSError:
                    break
            before = open("/proc/%d/stat" % server.pid).read().split()
            time.sleep(3)
            after = open("/proc/%d/stat" % server.pid).read().split()
            busy = (int(after[13]) + int(after[14]) - int(before[13]) - int(before[14])) / 100.0
            s = socket.create_connection(("127.0.0.1", port), timeout=30)
            s.sendall(b"GET /graphql/list.json HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
            reply = s.recv(100)
            print("after-flood", reply.split(b"\r\n")[0].decode(), "cpu-under-1s", busy < 1.0)
            server.terminate()
            server.wait()
            """#
        let scratch = try Scratch()
        defer { scratch.remove() }
        let file = try scratch.write(script, to: "connections.py")
        let examples = ContentProcess.repository.appendingPathComponent("examples").path
        let result = try ContentProcess.run(
            shell: "python3 '\(file.path)' '\(ContentProcess.binary.path)' '\(examples)'", in: scratch.url)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("http10 HTTP/1.1 200 OK True"), "\(result.stdout)")
        #expect(result.stdout.contains("\nslow-closed True True"), "\(result.stdout)")
        #expect(result.stdout.contains("dataconnect-http10 HTTP/1.1 404 Not Found True"), "\(result.stdout)")
        #expect(result.stdout.contains("dataconnect-slow-closed True True"), "\(result.stdout)")
        #expect(result.stdout.contains("after-flood HTTP/1.1 200 OK cpu-under-1s True"), "\(result.stdout)")
    }
}
