internal import ArgumentParser
internal import ContentBackendAEM
internal import ContentCommandLine
internal import ContentConfig
internal import ContentCore
internal import ContentJSON
internal import ContentOutput
internal import ContentRuntime
internal import Foundation

/// `content aem`: AEM persisted queries from the terminal.
struct AEMCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "aem",
        abstract: "Run AEM persisted GraphQL queries.",
        discussion: """
            Examples:
              content aem adventures
              content aem adventure bali-surf-camp
              content aem run wknd-shared/adventures-by-activity --param activity=Cycling
              content aem list
              content aem fragments --path /content/dam/wknd-shared --all

            With no configuration at all, these answer from the built-in WKND sample \
            through an embedded emulator, and say so on stderr.

            A backend signs in to AEM as a Cloud Service with auth type service-credentials \
            (credentialsFile: the Developer Console's JSON) or oauth-server-to-server (clientId, \
            clientSecret, scopes): the access token comes from Adobe IMS, is kept under \
            $XDG_CACHE_HOME/content/oauth/ until it expires, and is renewed once when AEM answers 401. \
            examples/aem-cloud.yaml shows both against `content serve --mode author`.
            """,
        subcommands: [
            AEMShortcutCommand.self, AEMRunCommand.self, AEMListCommand.self, AEMPersistCommand.self,
            AEMGraphQLCommand.self, AEMImageCommand.self, AEMFragmentsCommand.self, AEMFragmentCommand.self,
        ],
        defaultSubcommand: AEMShortcutCommand.self
    )
}

/// Flags every `content aem` query command takes.
struct AEMOptions: ParsableArguments, Sendable {
    @Option(help: ArgumentHelp("The aem backend to use, when several are configured.", valueName: "name"))
    var backend: String?

    @Option(
        name: .customLong("param"),
        help: ArgumentHelp("A variable; numbers, booleans and JSON are typed.", valueName: "name=value"))
    var params: [String] = []

    @Option(
        name: .customLong("param-string"),
        help: ArgumentHelp("A variable always sent as text.", valueName: "name=value"))
    var stringParams: [String] = []

    @Flag(help: "Print the request as a curl command (secrets as $VARIABLES) and send nothing.")
    var dryRun = false

    @Option(
        help: ArgumentHelp("Fill the query's $imageWidth (the WKND queries' _assetTransform).", valueName: "pixels"))
    var imageWidth: Int?

    @Option(help: ArgumentHelp("Fill the query's $imageQuality (1–100).", valueName: "n"))
    var imageQuality: Int?

    @Option(help: ArgumentHelp("Fill the query's $imageFormat: JPG, PNG, GIF, WEBP, …", valueName: "format"))
    var imageFormat: String?

    @Flag(help: "Neither read nor write the response cache ($XDG_CACHE_HOME/content/aem).")
    var noCache = false

    @Flag(help: "Send the variables by POST as {\"variables\": …}, for values holding ';' or '='.")
    var post = false

    @Flag(help: "Fetch every page (…Paginated by cursor, …List by offset), streaming items as they arrive.")
    var all = false

    @Option(help: ArgumentHelp("Items per page with --all (1–100).", valueName: "n"))
    var pageSize: Int?

    func validate() throws {
        if let pageSize, !(1...100).contains(pageSize) { throw ValidationError("--page-size takes 1 to 100") }
        if pageSize != nil && !all { throw ValidationError("--page-size needs --all") }
    }

    /// The pagination these flags ask for.
    var pagination: ContentRequest.Pagination { all ? .all(pageSize: pageSize) : .firstPage }

    /// The `--param` and `--param-string` variables, in the order given, then the image flags.
    func variables() throws -> JSONObject {
        var variables = JSONObject()
        for (text, typed) in params.map({ ($0, true) }) + stringParams.map({ ($0, false) }) {
            guard let equals = text.firstIndex(of: "="), equals != text.startIndex else {
                throw ValidationError("--param takes name=value, got '\(text)'")
            }
            let name = String(text[..<equals])
            let value = String(text[text.index(after: equals)...])
            variables[name] = typed ? Self.infer(value) : .string(value)
        }
        if let imageWidth { variables["imageWidth"] = .number(JSONNumber(imageWidth)) }
        if let imageQuality { variables["imageQuality"] = .number(JSONNumber(imageQuality)) }
        if let imageFormat { variables["imageFormat"] = .string(imageFormat.uppercased()) }
        return variables
    }

    /// The `--param` values typed by the query's declarations: `String` stays text, `Int`, `Float`
    /// and `Boolean` must parse as such, anything else is inferred.
    ///
    /// - Parameter declared: Variable name → declared type name, from the query text.
    /// - Returns: The typed values of `--param` (not `--param-string`).
    /// - Throws: `ValidationError` naming the variable, its type and the value.
    func typedParams(declared: [String: String]) throws -> JSONObject {
        var typed = JSONObject()
        for text in params {
            guard let equals = text.firstIndex(of: "="), equals != text.startIndex else { continue }
            let name = String(text[..<equals])
            let value = String(text[text.index(after: equals)...])
            switch declared[name] {
            case "String", "ID":
                typed[name] = .string(value)
            case "Int":
                guard Int(value) != nil else {
                    throw ValidationError("--param \(name): the query declares Int, got '\(value)'")
                }
                typed[name] = .number(JSONNumber(text: value))
            case "Float":
                guard let number = Double(value), number.isFinite else {
                    throw ValidationError("--param \(name): the query declares Float, got '\(value)'")
                }
                typed[name] = .number(JSONNumber(text: value))
            case "Boolean":
                guard value == "true" || value == "false" else {
                    throw ValidationError("--param \(name): the query declares Boolean, got '\(value)'")
                }
                typed[name] = .bool(value == "true")
            default:
                typed[name] = Self.infer(value)
            }
        }
        return typed
    }

    /// Numbers, booleans, null and JSON objects or arrays are typed; anything else is a string.
    static func infer(_ text: String) -> JSONValue {
        guard let first = text.first, "-0123456789tfn[{".contains(first),
            let value = try? JSONParser().parse(text)
        else { return .string(text) }
        if case .string = value { return .string(text) }
        return value
    }
}

/// `content aem <shortcut> [ARG…]`.
struct AEMShortcutCommand: AsyncParsableCommand, Sendable {
    static let configuration = CommandConfiguration(
        commandName: "shortcut",
        abstract: "Run a configured shortcut (the default): content aem adventures."
    )

    @Argument(help: "The shortcut, such as adventures or adventure.")
    var shortcut: String

    @Argument(help: "Values for the shortcut's arguments, in order.")
    var arguments: [String] = []

    @OptionGroup var aem: AEMOptions
    @OptionGroup var options: GlobalOptions
    @OptionGroup var output: OutputOptions

    func run() async throws {
        try await reportFailures {
            try await AEMInvocation(aem: aem, options: options, output: output).run { configuration in
                let shortcuts = configuration.queries ?? AEMConfiguration.defaultShortcuts
                guard let found = shortcuts[shortcut] else {
                    let names = shortcuts.keys.sorted()
                    throw AEMError(
                        kind: .usage,
                        description: "no shortcut '\(shortcut)' (shortcuts: \(names.joined(separator: ", ")))"
                            + (closestShortcut(shortcut, names).map { "; did you mean '\($0)'?" } ?? "")
                            + "; `content aem run CONFIG/NAME` runs any persisted query"
                    )
                }
                let names = found.arguments ?? []
                guard arguments.count <= names.count else {
                    throw AEMError(
                        kind: .usage,
                        description: "'\(shortcut)' takes \(names.count) argument\(names.count == 1 ? "" : "s")"
                            + (names.isEmpty ? "" : " (\(names.joined(separator: ", ")))") + ", got \(arguments.count)"
                    )
                }
                let pagination = aem.pagination
                var variables = JSONObject()
                for (name, value) in zip(names, arguments) { variables[name] = .string(value) }
                for member in try aem.variables().members { variables[member.key] = member.value }
                let missing = names.dropFirst(arguments.count).filter { variables[$0] == nil }
                if !missing.isEmpty {
                    throw AEMError(
                        kind: .usage,
                        description:
                            "'\(shortcut)' needs \(missing.joined(separator: ", ")): content aem \(shortcut) <\(names.joined(separator: "> <"))>"
                    )
                }
                return AEMInvocation.Plan(
                    request: ContentRequest(operation: found.persisted, variables: variables, pagination: pagination),
                    items: found.items,
                    columns: found.columns ?? []
                )
            }
        }
    }

    private func closestShortcut(_ name: String, _ names: [String]) -> String? {
        names.first { $0.hasPrefix(name) || name.hasPrefix($0) }
    }
}

/// `content aem run CONFIG/NAME`.
struct AEMRunCommand: AsyncParsableCommand, Sendable {
    static let configuration = CommandConfiguration(
        commandName: "run",
        abstract: "Run any persisted query: content aem run wknd-shared/adventures-all."
    )

    @Argument(
        help: ArgumentHelp(
            "The persisted query, as CONFIG/NAME or NAME in the backend's configuration.", valueName: "query"))
    var query: String

    @Option(help: ArgumentHelp("All variables as a JSON object, or @file.", valueName: "json"))
    var variables: String?

    @OptionGroup var aem: AEMOptions
    @OptionGroup var options: GlobalOptions
    @OptionGroup var output: OutputOptions

    func run() async throws {
        try await reportFailures {
            try await AEMInvocation(aem: aem, options: options, output: output).run { _ in
                var values = try AEMInvocation.variablesObject(variables)
                for member in try aem.variables().members { values[member.key] = member.value }
                return AEMInvocation.Plan(
                    request: ContentRequest(operation: query, variables: values, pagination: aem.pagination),
                    items: nil,
                    columns: []
                )
            }
        }
    }
}

/// `content aem list [CONFIG]`.
struct AEMListCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "list",
        abstract: "List the persisted queries on the server: name, path, cache-control."
    )

    @Argument(help: ArgumentHelp("Only this configuration.", valueName: "config"))
    var configurationName: String?

    @OptionGroup var aem: AEMOptions
    @OptionGroup var options: GlobalOptions
    @OptionGroup var output: OutputOptions

    func run() async throws {
        try await reportFailures {
            try await AEMInvocation(aem: aem, options: options, output: output).list(configurationName)
        }
    }
}

/// `content aem persist CONFIG/NAME FILE.graphql`.
struct AEMPersistCommand: AsyncParsableCommand, Sendable {
    static let configuration = CommandConfiguration(
        commandName: "persist",
        abstract: "Persist a query on an author tier: content aem persist wknd-shared/my-query query.graphql."
    )

    @Argument(help: ArgumentHelp("Where to persist it, as CONFIG/NAME.", valueName: "query"))
    var query: String

    @Argument(help: ArgumentHelp("The GraphQL file.", valueName: "file"))
    var file: String

    @Option(help: ArgumentHelp("Serve it with Cache-Control: max-age=N.", valueName: "seconds"))
    var cacheMaxAge: Int?

    @Flag(help: "Update an existing query (POST) instead of creating one (PUT).")
    var update = false

    @OptionGroup var aem: AEMOptions
    @OptionGroup var options: GlobalOptions
    @OptionGroup var output: OutputOptions

    func run() async throws {
        try await reportFailures {
            let text = try AEMInvocation.readText(file)
            let (query, cacheMaxAge, update) = (self.query, self.cacheMaxAge, self.update)
            try await AEMInvocation(aem: aem, options: options, output: output).perform { backend in
                try await backend.persist(operation: query, query: text, cacheMaxAge: cacheMaxAge, update: update)
            }
        }
    }
}

/// `content aem graphql (QUERY | --file F)`.
struct AEMGraphQLCommand: AsyncParsableCommand, Sendable {
    static let configuration = CommandConfiguration(
        commandName: "graphql",
        abstract:
            "Run an ad-hoc query on the GraphQL endpoint: content aem graphql '{ adventureList { items { title } } }'."
    )

    @Argument(help: ArgumentHelp("The GraphQL text.", valueName: "query"))
    var query: String?

    @Option(help: ArgumentHelp("Read the query from a file.", valueName: "file"))
    var file: String?

    @Option(help: ArgumentHelp("Variables as a JSON object, or @file.", valueName: "json"))
    var variables: String?

    @OptionGroup var aem: AEMOptions
    @OptionGroup var options: GlobalOptions
    @OptionGroup var output: OutputOptions

    func validate() throws {
        guard (query == nil) != (file == nil) else {
            throw ValidationError("give the query as an argument or with --file, not both")
        }
    }

    func run() async throws {
        try await reportFailures {
            var text = query ?? ""
            if let file { text = try AEMInvocation.readText(file) }
            var values = try AEMInvocation.variablesObject(variables)
            for member in try aem.variables().members { values[member.key] = member.value }
            let (graphql, bound) = (text, values)
            try await AEMInvocation(aem: aem, options: options, output: output).perform { backend in
                try await backend.executeAdHoc(query: graphql, variables: bound)
            }
        }
    }
}

/// `content aem image PATH -O FILE`.
struct AEMImageCommand: AsyncParsableCommand, Sendable {
    static let configuration = CommandConfiguration(
        commandName: "image",
        abstract: "Download an image (a DAM _path, a _dynamicUrl or a full URL) with the backend's auth."
    )

    @Argument(help: ArgumentHelp("The image's _path, _dynamicUrl or URL.", valueName: "path"))
    var path: String

    @Option(
        name: [.customShort("O"), .customLong("output-file")],
        help: ArgumentHelp("Write it here; default stdout.", valueName: "file"))
    var outputFile: String?

    @OptionGroup var aem: AEMOptions
    @OptionGroup var options: GlobalOptions

    func run() async throws {
        try await reportFailures {
            let (path, outputFile) = (self.path, self.outputFile)
            try await AEMInvocation(aem: aem, options: options, output: OutputOptions()).download(path, to: outputFile)
        }
    }
}

/// `content aem fragments [--path FOLDER] [--all]`: Content Fragment Delivery with OpenAPI's listing.
struct AEMFragmentsCommand: AsyncParsableCommand, Sendable {
    static let configuration = CommandConfiguration(
        commandName: "fragments",
        abstract: "List content fragments under a DAM folder through the Content Fragment Delivery API.",
        discussion: """
            Each fragment is { path, name, title, id, description, model, fields }, one per row.

            Examples:
              content aem fragments --path /content/dam/wknd-shared/en/adventures
              content aem fragments --all -o ndjson | jq -r .title
            """
    )

    @Option(help: ArgumentHelp("The DAM folder; every fragment when left out.", valueName: "folder"))
    var path: String?

    @OptionGroup var aem: AEMOptions
    @OptionGroup var options: GlobalOptions
    @OptionGroup var output: OutputOptions

    func validate() throws {
        // --all follows the API's cursor; a page holds at most 50 there.
        if let size = aem.pageSize, size > 50 { throw ValidationError("--page-size takes 1 to 50 for fragments") }
        if let path, !path.hasPrefix("/") { throw ValidationError("--path takes a DAM folder such as /content/dam") }
    }

    func run() async throws {
        try await reportFailures {
            let (folder, all, limit) = (path, aem.all, aem.pageSize)
            try await AEMInvocation(aem: aem, options: options, output: output).perform { backend in
                try await backend.deliveryFragments(folder: folder, all: all, limit: limit)
            }
        }
    }
}

/// `content aem fragment ID|PATH [--references MODE]`: one fragment through Content Fragment Delivery.
struct AEMFragmentCommand: AsyncParsableCommand, Sendable {
    static let configuration = CommandConfiguration(
        commandName: "fragment",
        abstract: "Show one content fragment, by id or DAM path, through the Content Fragment Delivery API."
    )

    @Argument(help: ArgumentHelp("The fragment's id, or its path (starting with /).", valueName: "id-or-path"))
    var fragment: String

    @Option(
        help: ArgumentHelp(
            "Fill in references: none, direct-hydrated or all-hydrated.", valueName: "mode"))
    var references: String = "none"

    @Option(help: ArgumentHelp("How deep all-hydrated goes (0–10).", valueName: "n"))
    var depth: Int?

    @OptionGroup var aem: AEMOptions
    @OptionGroup var options: GlobalOptions
    @OptionGroup var output: OutputOptions

    func validate() throws {
        guard AEMBackend.DeliveryReferences(rawValue: references) != nil else {
            throw ValidationError("--references takes none, direct-hydrated or all-hydrated, not '\(references)'")
        }
        if let depth, !(0...10).contains(depth) { throw ValidationError("--depth takes 0 to 10") }
    }

    func run() async throws {
        try await reportFailures {
            let mode = AEMBackend.DeliveryReferences(rawValue: references) ?? .none
            let (fragment, depth) = (self.fragment, self.depth)
            try await AEMInvocation(aem: aem, options: options, output: output).perform { backend in
                try await backend.deliveryFragment(fragment, references: mode, depth: depth)
            }
        }
    }
}
