internal import ContentBackendDataConnect
internal import ContentCommandLine
internal import ContentConfig
internal import ContentCore
internal import ContentDataConnect
internal import ContentJSON
internal import ContentRuntime
internal import Foundation

extension DataConnectCommandPlugin {
    /// `content query CONNECTOR OPERATION --help`: the operation's variables as flags.
    ///
    /// - Parameter arguments: The command line, without the executable.
    /// - Returns: The help, or `nil` when the arguments do not name an operation this can find.
    public static func dynamicHelp(for arguments: [String]) async -> String? {
        guard let verb = arguments.first, verb == "query" || verb == "mutate" else { return nil }
        // Options of `content query` that take a value, so their values are not taken for names.
        let valued: Set<String> = [
            "--config", "--backend", "--vars", "-o", "--output", "--items", "--fields", "--color",
        ]
        var positionals: [String] = []
        var configFlag: String?
        var backendFlag: String?
        var index = 1
        while index < arguments.count {
            let word = arguments[index]
            index += 1
            if valued.contains(word), index < arguments.count {
                if word == "--config" { configFlag = arguments[index] }
                if word == "--backend" { backendFlag = arguments[index] }
                index += 1
            } else if !word.hasPrefix("-") {
                positionals.append(word)
            }
        }
        guard positionals.count >= 2 else { return nil }
        let environment = ProcessInfo.processInfo.environment
        guard
            let workspace = try? await helpWorkspace(
                config: configFlag, backend: backendFlag, environment: environment),
            let connector = workspace.connector(positionals[0]),
            let operation = connector.operation(positionals[1])
        else { return nil }
        return help(for: operation, connector: connector, verb: verb, enums: workspace.schema.enums)
    }

    private static func helpWorkspace(config: String?, backend: String?, environment: [String: String]) async throws
        -> DataConnectWorkspace?
    {
        let session = try ContentSession.load(
            configFlag: config, environment: environment, registry: DataConnectInvocation.registry)
        let hasBackend = session.configuration.backends.contains { $0.typeName == DataConnectPlugin.typeName }
        if session.configuration.location == nil, !hasBackend, backend == nil {
            guard let sample = EmbeddedSample.sample(for: DataConnectPlugin.typeName) else { return nil }
            let loaded = LoadedWorkspace()
            try await sample.read { folder in loaded.set(try DataConnectWorkspace.load(from: folder)) }
            return loaded.get()
        }
        let configured = try session.selectBackend(named: backend, type: DataConnectPlugin.typeName)
        let configuration = try configured.section.decode(DataConnectConfiguration.self)
        let made = try DataConnectPlugin.makeDataConnectBackend(
            name: configured.name, configuration: configuration,
            context: BackendContext(
                transport: OfflineTransport(), baseDirectory: configured.section.baseDirectory, isOffline: true),
            environment: environment)
        return made.workspace
    }

    static func help(
        for operation: ConnectorOperation, connector: Connector, verb: String, enums: [String: [String]]
    ) -> String {
        let allEnums = enums.merging(OperationVariables.builtInEnums) { mine, _ in mine }
        var lines = [
            "OVERVIEW: \(operation.name), a \(operation.kind.rawValue) of connector \(connector.id) "
                + "(@auth: \(connector.effectiveAuth(of: operation)))",
            "",
            "USAGE: content \(operation.kind == .query ? "query" : "mutate") \(connector.id) \(operation.name)"
                + operation.variables.map { variable in
                    let flag = "--\(variable.name) <\(variable.type.namedType)>"
                    return variable.type.isRequired && variable.defaultValue == nil ? " \(flag)" : " [\(flag)]"
                }.joined() + " [output options]",
            "",
        ]
        if operation.variables.isEmpty {
            lines.append("VARIABLES: none")
        } else {
            lines.append("VARIABLES:")
            let width = (operation.variables.map { "  --\($0.name) <\($0.type.namedType)>".count }.max() ?? 0) + 2
            for variable in operation.variables {
                var notes: [String] = [variable.type.description]
                if variable.type.isRequired && variable.defaultValue == nil { notes.append("required") }
                if let value = variable.defaultValue { notes.append("default \(value.jsonText)") }
                if case .list = variable.type { notes.append("repeat the flag for each element") }
                if case .nonNull(.list) = variable.type { notes.append("repeat the flag for each element") }
                if let values = allEnums[variable.type.namedType] {
                    notes.append("one of \(values.joined(separator: ", "))")
                }
                let flag = "  --\(variable.name) <\(variable.type.namedType)>"
                lines.append(flag.padding(toLength: width, withPad: " ", startingAt: 0) + notes.joined(separator: "; "))
            }
        }
        lines += [
            "",
            "Variables can also be given together as --vars '{…}' or --vars @file.json; flags override them.",
            "Declared at \(operation.position). Output and other options: content \(verb) --help.",
        ]
        if verb != (operation.kind == .query ? "query" : "mutate") {
            lines.append("Note: \(operation.name) is a \(operation.kind.rawValue); `content \(verb)` will refuse it.")
        }
        return lines.joined(separator: "\n")
    }
}

/// The workspace a sample's reader loaded, handed out of its `@Sendable` closure.
private final class LoadedWorkspace: @unchecked Sendable {
    private let lock = NSLock()
    private var workspace: DataConnectWorkspace?

    func set(_ value: DataConnectWorkspace) { lock.withLock { workspace = value } }
    func get() -> DataConnectWorkspace? { lock.withLock { workspace } }
}
