internal import ArgumentParser
internal import ContentBackendDataConnect
internal import ContentCommandLine
internal import ContentDataConnect

/// `content query`: a connector's queries by name.
struct QueryCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "query",
        abstract: "Run a Firebase Data Connect query by name, with flags typed from its .gql declaration.",
        discussion: """
            Examples:
              content query                        # the connectors
              content query movies                 # operations, variables, @auth
              content query movies listMoviesByGenre --genre Sci-Fi
              content query movies getMovieByKey \\
                --key '{"id":"0b5c1b1e3a524c7e9d0b6f1e8a2c4d01"}'
              content query movies listMovies --limit 3 --dry-run
              content query movies listMovies --help   # its flags

            Every variable of the operation is a flag: --NAME VALUE, \
            --NAME=VALUE or --kebab-name VALUE. Int, Float and Boolean are \
            checked; UUID, Date (YYYY-MM-DD), Timestamp (RFC 3339) and Int64 \
            are validated and normalised; enums are checked; a list takes its \
            flag repeatedly; input objects and Any take JSON. --vars gives \
            several at once. Missing, unknown or malformed variables fail \
            before anything is sent (exit 2).

            With no configuration at all, these answer from the built-in movies \
            sample through an embedded emulator, and say so on stderr.
            """
    )

    @OptionGroup var arguments: DataConnectArguments

    func run() async throws {
        try await reportFailures { try await arguments.invocation(.query).run() }
    }
}

/// `content mutate`: a connector's mutations by name.
struct MutateCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "mutate",
        abstract: "Run a Firebase Data Connect mutation by name, with flags typed from its .gql declaration.",
        discussion: """
            Examples:
              content mutate movies createMovie --title "Dust Lanes" \\
                --release-year 2025 --genre Sci-Fi
              content mutate movies createMovie --title X --release-year 2025 \\
                --genre Drama --dry-run

            Flags work as for `content query`. A query is refused here (and a \
            mutation by `content query`), so nothing is written by accident. \
            Mutations are never retried.
            """
    )

    @OptionGroup var arguments: DataConnectArguments

    func run() async throws {
        try await reportFailures { try await arguments.invocation(.mutation).run() }
    }
}

/// What `content query` and `content mutate` both take: the operation, its variable flags and the options.
struct DataConnectArguments: ParsableArguments, Sendable {
    @OptionGroup var options: GlobalOptions
    @OptionGroup var output: OutputOptions
    @OptionGroup var dataConnect: DataConnectOptions

    @Argument(help: ArgumentHelp("The connector id; omit to list the connectors.", valueName: "connector"))
    var connector: String?

    @Argument(help: ArgumentHelp("The operation; omit to list the connector's operations.", valueName: "operation"))
    var operation: String?

    @Argument(parsing: .allUnrecognized, help: .hidden)
    var variableFlags: [String] = []

    func invocation(_ kind: ConnectorOperation.Kind) -> DataConnectInvocation {
        DataConnectInvocation(
            kind: kind, options: options, output: output, dataConnect: dataConnect, connector: connector,
            operation: operation, flags: variableFlags)
    }
}

/// Flags every Data Connect command takes.
struct DataConnectOptions: ParsableArguments, Sendable {
    @Option(help: ArgumentHelp("The dataconnect backend to use, when several are configured.", valueName: "name"))
    var backend: String?

    @Option(
        help: ArgumentHelp(
            "Variables as a JSON object, or @FILE holding one; flags override them.", valueName: "json|@file"))
    var vars: String?

    @Flag(help: "Print the request as a curl command (tokens as $VARIABLES) and send nothing.")
    var dryRun = false

    @Flag(
        help: ArgumentHelp(
            "Subscribe to the query and print every new result (NDJSON when piped, a redrawn table on a terminal), "
                + "reconnecting when the connection is lost; Ctrl-C stops."))
    var watch = false
}
