import ArgumentParser
import ContentAEMEmulator
import ContentCommandLine
import ContentCore
import ContentDataConnectEmulator
import ContentEmulator
import ContentGraphQL
import ContentOutput
import ContentResourceEmulator
import ContentSamples
import Foundation
import Logging

/// `--mode`, spelled as the emulator's tiers.
enum ServeMode: String, CaseIterable, ExpressibleByArgument {
    case publish, author

    var tier: AEMEmulator.Options.Mode { self == .author ? .author : .publish }
}

/// `content serve`: local emulators of the content services over a workspace.
struct ServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Run local emulators of AEM headless and Firebase Data Connect, executing real GraphQL over SQLite.",
        // Lists and examples are laid out to fit 80 columns (argument-parser wraps longer lines without an indent);
        // prose paragraphs are one line each, for it to wrap.
        discussion: """
            The workspace folder holds what each service needs; a service whose part is missing is not started.
              aem/          content fragment models, fragments and persisted queries.
                            Answers GET/POST /graphql/execute.json/{config}/{name}
                            and /graphql/list.json as AEM publish does
                            (--aem-port, default 4503). aem/ims.yaml lists who
                            Adobe IMS's token endpoints on that port sign in
                            (/ims/exchange/jwt, /ims/token/v3).
              Data Connect  found through firebase.json (dataconnect.source),
                            dataconnect.yaml or dataconnect/dataconnect.yaml: the schema
                            becomes SQLite tables, and every connector operation runs by
                            name at POST /v1/projects/{project}/locations/{location}
                            /services/{service}/connectors/{connector}:executeQuery
                            (or :executeMutation), as the production API does, and
                            answers the iOS and Android SDKs' gRPC ConnectorService and
                            ConnectorStreamService (realtime subscriptions), and the
                            web SDK's WebSocket stream at /ws/google.firebase.dataconnect
                            .v1.ConnectorStreamService.Connect/{project}/locations
                            /{location}/services/{service}, all on the same port
                            (--dataconnect-port, default 9399).
                            A new database is seeded from seed_data.gql beside
                            dataconnect.yaml, or from --seed. Caller identity comes from
                            X-Firebase-Auth-Token, an unsigned JWT whose payload is
                            trusted as Firebase's own emulator does: for development only.
              resource/     sample MobileFirst-style adapters under /mfp/api for
                            `content request`: JavaAdapter users CRUD and echo, JSAdapter
                            procedures taking params, binary bytes, an OAuth
                            client-credentials token endpoint (az/v1/token) and a
                            protected SecureAdapter (--resource-port, default 9080).

            It listens on loopback unless --host says otherwise and prints its URLs on stderr. Ctrl-C \
            (exit 130) or SIGTERM (exit 0) stops it cleanly. A port in use \
            exits 2, naming the service and the flag that moves it. With --data, rows and fragments \
            survive a restart.

            Every GraphQL request is held to limits before it runs: at most 1 MiB and 15000 tokens of text \
            (AEM's own limits), 64 levels of nesting, 100 aliases, 5000 fields and 500 fragments with fragments \
            expanded, 16 directives on one node; it runs at most 30 s and answers at most 64 MiB. A request \
            over one gets a GraphQL error naming the limit; --limit NAME=VALUE raises it.

              content serve --workspace examples
              curl -s \\
                http://127.0.0.1:4503/graphql/execute.json/wknd-shared/adventures-all
              base=http://127.0.0.1:9399/v1/projects/demo/locations/us-central1
              curl -s -H 'Content-Type: application/json' -d \\
                '{"operationName":"listMoviesByGenre","variables":{"genre":"Sci-Fi"}}' \\
                "$base/services/content-sample/connectors/movies:executeQuery"
            """
    )

    @Option(
        help: ArgumentHelp(
            "The workspace folder; default ./examples, else the sample workspace built into content.",
            valueName: "dir"
        )
    )
    var workspace: String?

    @Option(help: ArgumentHelp("The address to listen on.", valueName: "address"))
    var host: String = "127.0.0.1"

    @Option(name: .customLong("aem-port"), help: ArgumentHelp("The AEM port; 0 picks a free one.", valueName: "port"))
    var aemPort: Int = 4503

    @Option(
        name: .customLong("dataconnect-port"),
        help: ArgumentHelp("The Data Connect port; 0 picks a free one.", valueName: "port")
    )
    var dataConnectPort: Int = 9399

    @Option(
        name: .customLong("resource-port"),
        help: ArgumentHelp("The sample adapters' port; 0 picks a free one.", valueName: "port")
    )
    var resourcePort: Int = 9080

    @Option(
        help: ArgumentHelp(
            "Keep content in this SQLite file; without it nothing outlives the server (Data Connect keeps its rows in "
                + "a temporary file, removed when it stops).", valueName: "file"))
    var data: String?

    @Option(
        help: ArgumentHelp(
            "Keep Data Connect's rows in this PostgreSQL database (postgresql://user[:password]@host[:port]/db), "
                + "as the service does, instead of SQLite; default: FIREBASE_DATACONNECT_POSTGRESQL_STRING.",
            valueName: "url"))
    var postgres: String?

    @Option(
        name: .customLong("postgres-pool"),
        help: ArgumentHelp("With --postgres: the most connections to open (1 to 256).", valueName: "n"))
    var postgresPool: Int = 16

    @Flag(
        help: ArgumentHelp(
            "With --postgres: drop the schema's tables (saying which) and recreate them, when the database holds "
                + "tables an earlier schema made that this one cannot migrate to."))
    var reset = false

    @Flag(
        name: .customLong("print-schema-sql"),
        help: "Print the PostgreSQL DDL of the Data Connect schema, as the service creates its tables, and exit.")
    var printSchemaSQL = false

    @Option(
        help: ArgumentHelp(
            "Seed a new Data Connect database from this .gql mutation file instead of seed_data.gql.",
            valueName: "file"
        )
    )
    var seed: String?

    @Flag(
        help: ArgumentHelp(
            "Refuse to start when a Data Connect operation does not validate, as a deploy would be refused; by "
                + "default each one is reported at start and answered with FAILED_PRECONDITION."))
    var strict = false

    @Option(help: "The AEM tier: publish (anonymous reads) or author (basic auth or a token; persisting allowed).")
    var mode: ServeMode = .publish

    @Option(
        help: ArgumentHelp(
            "The author-mode user and password; default $CONTENT_EMULATOR_CREDENTIALS, else admin:admin.",
            valueName: "user:password"
        )
    )
    var credentials: String?

    @Option(
        help: ArgumentHelp(
            "An author-mode bearer token; default $CONTENT_EMULATOR_TOKEN.",
            valueName: "token"
        )
    )
    var token: String?

    @Option(
        help: ArgumentHelp(
            "Allow browser calls, writes included, from this origin (* for any).", valueName: "origin"))
    var cors: String?

    @Option(
        name: .customLong("allow-host"),
        help: ArgumentHelp(
            "Also answer requests addressed to this host name (repeatable); loopback names and --host always are.",
            valueName: "name"
        )
    )
    var allowedHosts: [String] = []

    @Option(
        name: .customLong("admin-token"),
        help: ArgumentHelp(
            "The bearer token Data Connect's admin API (:executeGraphql, :impersonateQuery, …) requires; default "
                + "$CONTENT_EMULATOR_ADMIN_TOKEN, else a new one, printed at start ('owner' lets the Firebase Admin "
                + "SDK in).",
            valueName: "token"
        )
    )
    var adminToken: String?

    @Option(
        name: .customLong("idle-timeout"),
        help: ArgumentHelp(
            "Close a connection that sends no complete request for this long, headers included.",
            valueName: "duration"
        )
    )
    var idleTimeout: String = "30s"

    @Option(
        name: .customLong("max-connections"),
        help: ArgumentHelp(
            "The most connections each service holds open; default a quarter of the descriptor limit, at most 1024.",
            valueName: "count"
        )
    )
    var maxConnections: Int?

    @Flag(
        help:
            "AEM: answer every query as application/graphql-response+json, a failing one with 400 (does not parse) or 500 (does not validate or run) instead of 200."
    )
    var graphqlResponseJSON = false

    @Option(
        name: .customLong("delivery-rate-limit"),
        help: ArgumentHelp(
            "Answer Content Fragment Delivery requests past this many a second with 429 and Retry-After, as AEM "
                + "does past 200; default: no limit.", valueName: "n"))
    var deliveryRateLimit: Int?

    @Option(
        name: .customLong("limit"),
        help: ArgumentHelp(
            "Raise or lower one GraphQL request limit (repeatable): \(GraphQLLimits.nameList).",
            valueName: "name=value"
        )
    )
    var limits: [String] = []

    @Flag(name: .shortAndLong, help: "Log one line per request on stderr.")
    var verbose = false

    /// The limits with every `--limit` applied.
    var graphQLLimits: GraphQLLimits {
        get throws {
            var limits = GraphQLLimits()
            for assignment in self.limits {
                do {
                    try limits.set(assignment)
                } catch {
                    throw ValidationError("--limit \(error)")
                }
            }
            return limits
        }
    }

    func validate() throws {
        guard (0...65535).contains(aemPort) else { throw ValidationError("--aem-port must be 0 to 65535") }
        if let deliveryRateLimit, !(1...1_000_000).contains(deliveryRateLimit) {
            throw ValidationError(
                "--delivery-rate-limit takes 1 to 1000000 requests a second, was \(deliveryRateLimit)")
        }
        guard (0...65535).contains(resourcePort) else { throw ValidationError("--resource-port must be 0 to 65535") }
        guard (0...65535).contains(dataConnectPort) else {
            throw ValidationError("--dataconnect-port must be 0 to 65535")
        }
        if let seed, !FileManager.default.fileExists(atPath: seed) {
            throw ValidationError("--seed \(seed): no such file")
        }
        guard authorCredentials.contains(":") else {
            throw ValidationError("--credentials (or CONTENT_EMULATOR_CREDENTIALS) takes user:password")
        }
        _ = try graphQLLimits
        _ = try connections
        guard (1...256).contains(postgresPool) else { throw ValidationError("--postgres-pool takes 1 to 256") }
        if let postgresURL, data != nil {
            throw ValidationError(
                "--data keeps rows in a SQLite file and --postgres in \(PostgresSettings(url: postgresURL).redacted); "
                    + "give one")
        }
        if reset, postgresURL == nil {
            throw ValidationError(
                "--reset drops PostgreSQL tables: give --postgres URL (or set "
                    + "FIREBASE_DATACONNECT_POSTGRESQL_STRING)")
        }
    }

    /// `--postgres`, else the environment variable Firebase's emulator reads.
    var postgresURL: String? {
        postgres
            ?? ProcessInfo.processInfo.environment["FIREBASE_DATACONNECT_POSTGRESQL_STRING"].flatMap {
                $0.isEmpty ? nil : $0
            }
    }

    /// The connection policy the flags describe.
    var connections: EmulatorConnectionPolicy {
        get throws {
            guard let idle = ConfigDuration(parsing: idleTimeout), idle.duration > .zero else {
                throw ValidationError("--idle-timeout takes a duration such as 30s or 500ms, got '\(idleTimeout)'")
            }
            var policy = EmulatorConnectionPolicy()
            policy.idleTimeout = idle.duration
            if let maxConnections {
                guard maxConnections >= 1 else { throw ValidationError("--max-connections must be 1 or more") }
                policy.maxConnections = maxConnections
            }
            policy.allowedHosts = allowedHosts
            policy.allowedOrigin = cors
            return policy
        }
    }

    /// `--credentials`, else the environment's, else the emulator's default.
    private var authorCredentials: String {
        credentials ?? ProcessInfo.processInfo.environment["CONTENT_EMULATOR_CREDENTIALS"] ?? "admin:admin"
    }

    func run() async throws {
        try await reportFailures {
            let level: Logger.Level = verbose ? .info : .warning
            let logger = Logger(label: "content.serve") { _ in StderrLogHandler(logLevel: level) }
            if printSchemaSQL {
                let print = { (folder: URL) in
                    FileHandle.standardOutput.write(
                        Data(try DataConnectEmulator.postgresSchemaSQL(workspace: folder).utf8))
                }
                if let workspace {
                    try print(URL(fileURLWithPath: workspace))
                } else if DataConnectEmulator.isPresent(in: URL(fileURLWithPath: "examples")) {
                    try print(URL(fileURLWithPath: "examples"))
                } else {
                    try await SampleWorkspace.withFolder { try print($0) }
                }
                return
            }
            if let workspace {
                try await serve(URL(fileURLWithPath: workspace), logger: logger)
            } else if BuiltInServices.all.contains(where: { $0.isPresent(in: URL(fileURLWithPath: "examples")) }) {
                try await serve(URL(fileURLWithPath: "examples"), logger: logger)
            } else {
                // The sample workspace travels in the binary; it is written out for as long as the services run.
                try await SampleWorkspace.withFolder { try await serve($0, logger: logger) }
            }
        }
    }

    private func serve(_ folder: URL, logger: Logger) async throws {
        var options = EmulatorServer.Options(
            workspace: folder, services: BuiltInServices.all, host: host,
            ports: [
                AEMEmulator.name: aemPort, DataConnectEmulator.name: dataConnectPort,
                ResourceEmulator.name: resourcePort,
            ],
            dataFile: data)
        options.limits = try graphQLLimits
        options.connections = try connections
        let admin =
            adminToken ?? ProcessInfo.processInfo.environment["CONTENT_EMULATOR_ADMIN_TOKEN"]
            ?? UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "")
        let credentials = authorCredentials
        options.set(
            AEMEmulator.Options(
                mode: mode.tier,
                username: String(credentials.prefix { $0 != ":" }),
                password: String(credentials.drop { $0 != ":" }.dropFirst()),
                token: token ?? ProcessInfo.processInfo.environment["CONTENT_EMULATOR_TOKEN"],
                corsOrigin: cors,
                graphqlResponseJSON: graphqlResponseJSON,
                deliveryRateLimit: deliveryRateLimit.map { RequestRate(requests: $0) }
            ), for: AEMEmulator.self)
        var dataConnect = DataConnectEmulator.Options(
            seedFile: seed.map { URL(fileURLWithPath: $0) }, corsOrigin: cors, adminToken: admin)
        dataConnect.strict = strict
        if let postgresURL {
            var settings = PostgresSettings(url: postgresURL, connections: postgresPool, reset: reset)
            settings.announce = { StandardError.write("content: dataconnect: \($0)") }
            // A URL that is not one is a usage error, before anything starts.
            _ = try settings.checkedLocation()
            dataConnect.postgres = settings
        }
        options.set(dataConnect, for: DataConnectEmulator.self)
        try await EmulatorServer(options: options).run(logger: logger) { service, url, notes in
            StandardError.write("content: \(service) emulator on \(url)")
            for note in notes { StandardError.write("content: \(service): \(note)") }
        }
    }
}
