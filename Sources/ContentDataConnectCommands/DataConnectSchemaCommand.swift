internal import ArgumentParser
internal import ContentCommandLine
internal import ContentCore
internal import ContentDataConnect
internal import ContentOutput
internal import Foundation

/// `content dataconnect`: questions about a Data Connect workspace itself.
struct DataConnectCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "dataconnect",
        abstract: "Inspect a Firebase Data Connect workspace.",
        subcommands: [DataConnectSchemaCommand.self]
    )
}

/// `content dataconnect schema`: the schema `content serve` generates, alone or against Firebase's.
struct DataConnectSchemaCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "schema",
        abstract: "Print the GraphQL schema the Data Connect emulator generates, or compare it with Firebase's.",
        discussion: """
            Examples:
              content dataconnect schema --workspace examples
              content dataconnect schema --workspace app --compare app/dataconnect/.dataconnect/schema

            --compare takes the folder Firebase's tools write the generated schema to \
            (.dataconnect/schema, with prelude.gql and one folder per schema) and prints one line \
            per difference: every type, field, argument, input field, enum value and directive, \
            with nullability. The workspace's own schema files are read as part of the reference, \
            as Firebase's generated files extend them. Exits 6 when the schemas differ.
            """
    )

    @Option(help: ArgumentHelp("A folder that leads to dataconnect.yaml.", valueName: "dir"))
    var workspace: String = "."

    @Option(help: ArgumentHelp("A schema folder Firebase generated to compare with.", valueName: "dir"))
    var compare: String?

    func run() async throws {
        try await reportFailures {
            let folder = URL(fileURLWithPath: workspace)
            guard let manifest = DataConnectWorkspace.locate(from: folder) else {
                throw DataConnectWorkspaceError(
                    file: folder.path, "no dataconnect.yaml here or in dataconnect/; point --workspace at one")
            }
            let loaded = try DataConnectWorkspace.load(from: manifest.deletingLastPathComponent())
            guard let compare else {
                try StandardOutput.write(bytes: Array(DataConnectSDL.make(loaded.schema).utf8))
                return
            }
            let differences = try DataConnectSchemaComparison.differences(
                of: loaded, reference: URL(fileURLWithPath: compare))
            try StandardOutput.write(bytes: Array(differences.map { $0 + "\n" }.joined().utf8))
            guard differences.isEmpty else {
                throw SchemaMismatch(count: differences.count, reference: compare)
            }
            StandardError.write("content: the schemas match")
        }
    }
}

/// The generated schema and the reference differ.
struct SchemaMismatch: ContentFailure {
    let count: Int
    let reference: String
    var category: FailureCategory { .operationFailed }
    var description: String {
        "the generated schema differs from \(reference) in \(count) place\(count == 1 ? "" : "s") (listed on stdout)"
    }
}
