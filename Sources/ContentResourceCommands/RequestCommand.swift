internal import ArgumentParser
internal import ContentBackendResource
internal import ContentCommandLine
internal import ContentCore
internal import ContentJSON
internal import Foundation

/// `content request`: one REST resource request.
struct RequestCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "request",
        abstract: "Send a REST resource request to an adapter or a URL, as MobileFirst's WLResourceRequest does.",
        discussion: """
            Examples:
              content request /adapters/JavaAdapter/users
              content request /adapters/JavaAdapter/users/{id} --path id=2
              content request /adapters/JavaAdapter/users \\
                --form name=Ada --form email=ada@example.com       # POST
              content request PUT /adapters/JavaAdapter/users/2 --json '{"name":"Grace"}'
              content request /adapters/JSAdapter/greet --params '["Ada"]'
              content request /adapters/Binary/bytes --query size=1024 -O bytes.bin
              content request https://example.com/status.json

            A path resolves against the backend's url; an absolute URL is sent as \
            is. JSON answers go through the output options (-o, --items, \
            --fields); anything else is written byte for byte to stdout or to \
            -O FILE. Answers sent gzip- or deflate-encoded (a MobileFirst server \
            gzips those over 20 KB) are decoded first, unless -H \
            'Accept-Encoding: ...' asks otherwise. A status outside 2xx exits 5 \
            with the status and the body's first line. With no configuration, paths answer from the \
            built-in sample adapters through an embedded server.
            """
    )

    @OptionGroup var options: GlobalOptions
    @OptionGroup var output: OutputOptions

    @Argument(
        help: ArgumentHelp(
            "GET (default; POST with --form, --json or --data), POST, PUT, DELETE, PATCH or HEAD; then the path or URL."
        ))
    var words: [String] = []

    @Option(help: ArgumentHelp("The resource backend to use, when several are configured.", valueName: "name"))
    var backend: String?

    @Option(name: .customLong("query"), help: ArgumentHelp("A query parameter (repeatable).", valueName: "name=value"))
    var queryParameters: [String] = []

    @Option(
        name: [.customShort("H"), .customLong("header")],
        help: ArgumentHelp("A header (repeatable).", valueName: "'Name: value'"))
    var headers: [String] = []

    @Option(
        name: .customLong("form"),
        help: ArgumentHelp(
            "A form field, sent as application/x-www-form-urlencoded (repeatable).", valueName: "name=value"))
    var formFields: [String] = []

    @Option(help: ArgumentHelp("A JSON body, or @FILE holding one.", valueName: "json|@file"))
    var json: String?

    @Option(help: ArgumentHelp("A raw body: text, @FILE or @- for stdin, byte for byte.", valueName: "text|@file|@-"))
    var data: String?

    @Option(help: ArgumentHelp("The Content-Type of --data; default application/octet-stream.", valueName: "type"))
    var contentType: String?

    @Option(
        help: ArgumentHelp(
            "A JavaScript adapter's ordered parameters, as a JSON array (or ['a', 2], as MobileFirst's tutorials "
                + "write them): the params query parameter on GET, a form field otherwise.",
            valueName: "array"))
    var params: String?

    @Option(
        name: .customLong("path"),
        help: ArgumentHelp(
            "Fill a {name} placeholder of the path, percent-encoded (repeatable).", valueName: "name=value"))
    var pathParameters: [String] = []

    @Option(
        help: ArgumentHelp(
            "The longest each exchange may take, body included: 5s, 500ms (a resend after a 401 or 403 has its own).",
            valueName: "duration"))
    var timeout: String?

    @Flag(name: [.customShort("i"), .customLong("include")], help: "Print the status line and headers on stderr.")
    var include = false

    @Option(
        name: [.customShort("O"), .customLong("output-file")],
        help: ArgumentHelp("Write the body to this file instead of stdout.", valueName: "file"))
    var outputFile: String?

    @Flag(help: "Print the request as a curl command (secrets as $VARIABLES) and send nothing.")
    var dryRun = false

    static let methods: Set<String> = ["GET", "POST", "PUT", "DELETE", "PATCH", "HEAD"]

    func validate() throws {
        guard !words.isEmpty else { throw ValidationError("give a path or URL, such as /adapters/JavaAdapter/users") }
        if words.count > 2 { throw ValidationError("expected [METHOD] PATH-OR-URL, got \(words.count) words") }
        if words.count == 2, !Self.methods.contains(words[0].uppercased()) {
            throw ValidationError("\(words[0]) is not one of GET, POST, PUT, DELETE, PATCH, HEAD")
        }
        let bodies = [json != nil, data != nil, !formFields.isEmpty].filter { $0 }.count
        if bodies > 1 { throw ValidationError("give one body: --form, --json or --data") }
        // WLResourceRequest sends no body on GET (`xhr.send(method === 'GET' ? null : …)`), so a body there would
        // reach this server and not the SDK's: refused rather than sent.
        if bodies == 1, words.count == 2, ["GET", "HEAD"].contains(words[0].uppercased()) {
            throw ValidationError(
                "\(words[0].uppercased()) sends no body: use POST or PUT for --form, --json or --data, or --query for "
                    + "parameters")
        }
        for header in headers { _ = try Self.header(header) }
        if let timeout, ConfigDuration(parsing: timeout) == nil {
            throw ValidationError("--timeout takes a duration such as 5s or 500ms, got '\(timeout)'")
        }
    }

    func run() async throws {
        try await reportFailures {
            try await ResourceInvocation(command: self, request: try request()).run()
        }
    }

    /// The request the flags describe.
    func request() throws -> ResourceRequest {
        let hasBody = json != nil || data != nil || !formFields.isEmpty
        // Without a method, a body makes the request a POST, as curl -d and gh api -f do.
        let method = words.count == 2 ? HTTPTransportRequest.Method(rawValue: words[0]) : hasBody ? .post : .get
        let target = words.last ?? "/"
        var body: ResourceRequest.Body?
        if !formFields.isEmpty { body = .form(try formFields.map { try Self.pair($0, flag: "--form") }) }
        if let json {
            let text = try json.hasPrefix("@") ? Self.text(of: String(json.dropFirst())) : json
            guard let value = try? JSONParser().parse(text) else {
                throw ValidationError("--json is not valid JSON")
            }
            body = .json(value)
        }
        if let data {
            let bytes = try data.hasPrefix("@") ? Self.bytes(of: String(data.dropFirst())) : Array(data.utf8)
            body = .raw(bytes, contentType: contentType)
        }
        var parameters: JSONValue?
        if let params {
            guard let array = JavaScriptArrayLiteral.parse(params) else {
                throw ValidationError("--params takes an array, such as '[\"v1\", 2]' or \"['v1', 2]\"")
            }
            parameters = .array(array)
        }
        return ResourceRequest(
            method: method, target: target,
            pathParameters: try pathParameters.map { try Self.pair($0, flag: "--path") },
            query: try queryParameters.map { try Self.pair($0, flag: "--query") },
            headers: try headers.map(Self.header), body: body, params: parameters,
            timeout: timeout.flatMap { ConfigDuration(parsing: $0)?.duration })
    }

    static func pair(_ text: String, flag: String) throws -> (name: String, value: String) {
        guard let equals = text.firstIndex(of: "="), equals != text.startIndex else {
            throw ValidationError("\(flag) takes name=value, got '\(text)'")
        }
        return (String(text[..<equals]), String(text[text.index(after: equals)...]))
    }

    static func header(_ text: String) throws -> (name: String, value: String) {
        // The text is never echoed: a header is where tokens go.
        guard let colon = text.firstIndex(of: ":"), colon != text.startIndex else {
            throw ValidationError("--header takes 'Name: value'; one has no ':' after its name")
        }
        let name = text[..<colon].trimmingCharacters(in: .whitespaces)
        let field = HeaderFields.Field(
            name: name, value: text[text.index(after: colon)...].trimmingCharacters(in: .whitespaces))
        if let problem = field.problem { throw ValidationError("--header: \(problem)") }
        return (field.name, field.value)
    }

    static func bytes(of path: String) throws -> [UInt8] {
        if path == "-" { return Array(FileHandle.standardInput.readDataToEndOfFile()) }
        guard let data = FileManager.default.contents(atPath: path) else {
            throw ValidationError("cannot read \(path): \(SystemError.unreadable(path))")
        }
        return Array(data)
    }

    static func text(of path: String) throws -> String {
        String(decoding: try bytes(of: path), as: UTF8.self)
    }
}
