internal import ContentCore
internal import ContentDataConnect
internal import ContentDataConnectPostgres
internal import ContentEmulator
internal import ContentGraphQL
internal import ContentJSON
internal import Foundation
internal import GRDB
internal import GraphQL
internal import NIOConcurrencyHelpers
internal import OrderedCollections

/// Executes a workspace's connector operations against SQLite, with the schema Data Connect derives from
/// its tables.
///
/// Every connector operation is parsed and validated when the engine is made, so a workspace that the
/// service would refuse to deploy is refused here too, with the file, line and column.
struct DataConnectEngine: Sendable {
    let workspace: DataConnectWorkspace
    let schema: GraphQLSchema
    let store: any DataConnectStorage
    let limits: GraphQLLimits
    /// Each connector's operations with the parsed document they run from.
    let operations: [String: [String: PreparedOperation]]
    /// Each connector's operations that do not validate, by name, with the first problem: served as an error,
    /// so that one bad operation does not keep the others from running.
    let invalidOperations: [String: [String: DataConnectWorkspaceError]]
    /// Every mutation that ran, for the subscriptions of the streaming API.
    let mutations = MutationBroadcast()

    struct PreparedOperation: Sendable {
        let operation: ConnectorOperation
        let document: Document
        let connector: Connector
        /// When a subscription to it (a query) is run again.
        let refresh: RefreshPolicy
        /// The tables its single-entity root fields write (a mutation), which refresh single-entity queries.
        let singleEntityWrites: Set<String>
        /// The operation planned once, when its shape allows (see ``CompiledOperation``).
        let plan: CompiledOperation?
        /// What its `_Data` variables may hold.
        let allowances: [DataVariableAllowance]

        init(
            operation: ConnectorOperation, document: Document, connector: Connector, schema: DataConnectSchema,
            graphQLSchema: GraphQLSchema
        ) {
            self.operation = operation
            self.document = document
            self.connector = connector
            refresh = RefreshPolicy(document, schema: schema)
            singleEntityWrites = RefreshPolicy.singleEntityTables(writtenBy: document, schema: schema)
            plan = CompiledOperation(document: document, schema: graphQLSchema, tables: schema)
            allowances =
                DataConnectEngine.operation(in: document, named: operation.name).map(
                    DataVariableAllowance.allowances(of:)) ?? []
        }
    }

    /// What running an operation came to.
    enum Outcome: Sendable {
        /// A GraphQL response body (`data` and/or `errors`), HTTP 200.
        case response(JSONValue)
        /// A request error, in the production `{"error": {code, message, status}}` shape.
        case failure(RequestFailure)
    }

    /// A request-level error: the HTTP status, its gRPC-style name and a message.
    struct RequestFailure: Error, Sendable, Equatable {
        var code: Int
        var status: String
        var message: String
        /// The GraphQL errors behind a refusal of the variables, which the admin API answers as a response instead.
        var errors: [JSONValue] = []

        static func invalid(_ message: String) -> Self {
            .init(code: 400, status: "INVALID_ARGUMENT", message: message)
        }
        static func notFound(_ message: String) -> Self { .init(code: 404, status: "NOT_FOUND", message: message) }
        static func unauthenticated(_ message: String) -> Self {
            .init(code: 401, status: "UNAUTHENTICATED", message: message)
        }
        static func denied(_ message: String) -> Self {
            .init(code: 403, status: "PERMISSION_DENIED", message: message)
        }

        /// The production shape, `{"error": {code, message, status}}` (the corpus's facts of the service).
        ///
        /// Sources disagree here: Firebase's own emulator answers grpc-gateway's flat `{"code": 13, "message": …,
        /// "details": […]}` with a numeric gRPC code (a browser's log in firebase-tools issue #9508), and
        /// firebase-admin-node reads both (`src/data-connect/error.ts`, `EMULATOR_GRPC_STATUS_CODE_TO_STRING`). The
        /// production shape is kept, so that what a client does with an error here is what it does in production.
        var body: JSONValue {
            .object([
                "error": .object([
                    "code": .number(JSONNumber(code)), "message": .string(message), "status": .string(status),
                ])
            ])
        }
    }

    /// Builds the schema, opens the database and prepares every connector operation.
    ///
    /// - Parameters:
    ///   - workspace: The workspace.
    ///   - dataFile: A database file, or `nil` for memory.
    ///   - seedFile: A `.gql` mutation file to run instead of the workspace's `seed_data.gql`.
    ///   - limits: What one request may ask.
    ///   - strict: Whether an operation that does not validate is thrown, instead of kept to answer with an error.
    ///   - postgres: A PostgreSQL server to keep the rows in instead of SQLite.
    /// - Throws: ``EmulatorError`` or ``DataConnectWorkspaceError``.
    init(
        workspace: DataConnectWorkspace, dataFile: String?, seedFile: URL? = nil, limits: GraphQLLimits,
        strict: Bool = true, postgres: PostgresSettings? = nil
    ) async throws {
        self.workspace = workspace
        self.limits = limits
        do {
            schema = try DataConnectGraphQL.schema(for: workspace.schema, forExecution: true)
        } catch {
            throw EmulatorError.workspace(error.message)
        }
        DataConnectScalars.install(in: schema)
        // A data file is bound to its tables, not to the GraphQL the service generates over them, which grows as
        // the emulator follows the service.
        // The full-text indexes are part of the file too (none without `@searchable`, so older files still open).
        if let postgres {
            store = try await PostgresStore.open(postgres, workspace: workspace)
        } else {
            let tables =
                workspace.schema.tables.filter { !$0.isView }.map {
                    DataConnectStore.createStatement($0, in: workspace.schema)
                }
                + workspace.schema.tables.flatMap(FullTextSearch.statements)
            store = try DataConnectStore(
                path: dataFile, schema: workspace.schema, fingerprint: StableHash.hex(tables.joined(separator: ";\n")))
        }
        var prepared: [String: [String: PreparedOperation]] = [:]
        var invalid: [String: [String: DataConnectWorkspaceError]] = [:]
        for connector in workspace.connectors {
            var byName: [String: PreparedOperation] = [:]
            for operation in connector.operations {
                let graphQLSchema: GraphQLSchema = schema
                let checked = Result { () throws(DataConnectWorkspaceError) -> Document in
                    try DataConnectGraphQL.parseAndValidate(operation, schema: graphQLSchema)
                }
                switch checked {
                case .success(let document):
                    byName[operation.name] = PreparedOperation(
                        operation: operation, document: document, connector: connector, schema: workspace.schema,
                        graphQLSchema: graphQLSchema)
                case .failure(let problem):
                    if strict { throw problem }
                    invalid[connector.id, default: [:]][operation.name] = problem
                }
            }
            prepared[connector.id] = byName
        }
        invalidOperations = invalid
        operations = prepared
        do {
            try attachResolvers()
            try attachEntityRecording()
            if store.isNew, let seed = seedFile ?? workspace.seedFile {
                try await runSeed(seed)
            }
        } catch {
            // The resolvers hold the engine, and with it the store: it is not released, so it is closed here.
            await store.close()
            throw error
        }
    }

    private func runSeed(_ url: URL) async throws {
        guard let data = FileManager.default.contents(atPath: url.path), let text = String(data: data, encoding: .utf8)
        else {
            throw EmulatorError.workspace("\(url.path): cannot read the seed file")
        }
        let document = try DataConnectGraphQL.parseAndValidate(text, path: url.path, schema: schema)
        // Not timed: the request time limit guards against clients, and a large seed on a busy machine can outlast it.
        let outcome = await run(
            document: document, operationName: nil, variables: [:], auth: .anonymous, isAdmin: true, timed: false)
        if case .response(let body) = outcome, let errors = body["errors"]?.arrayValue, let first = errors.first {
            let message = first["message"]?.stringValue ?? "failed"
            throw EmulatorError.workspace("\(url.path): seeding failed: \(message)")
        }
        if case .failure(let failure) = outcome {
            throw EmulatorError.workspace("\(url.path): seeding failed: \(failure.message)")
        }
    }

    // MARK: - Running

    /// Runs a connector operation by name, as `:executeQuery` and `:executeMutation` do.
    ///
    /// - Parameters:
    ///   - connectorID: The connector.
    ///   - operationName: The operation.
    ///   - kind: Which endpoint was called.
    ///   - variables: The request's variables.
    ///   - auth: The caller.
    ///   - checksAuth: Whether the operation's `@auth` is checked: only the admin API's `:impersonateQuery` and
    ///     `:impersonateMutation` without `extensions.impersonate` bypass it.
    /// - Returns: The response body, or a request error. Its errors carry no `locations`: the service omits them from
    ///   `ExecuteQuery` and `ExecuteMutation`, "since the caller shouldn't have access [to] the underlying GQL source"
    ///   (`graphql_error.proto`).
    func execute(
        connector connectorID: String, operationName: String, kind: ConnectorOperation.Kind, variables: JSONObject,
        auth: AuthContext, checksAuth: Bool = true
    ) async -> Outcome {
        Self.withoutLocations(
            await executeWithLocations(
                connector: connectorID, operationName: operationName, kind: kind, variables: variables, auth: auth,
                checksAuth: checksAuth))
    }

    /// The outcome with `locations` taken out of each error.
    static func withoutLocations(_ outcome: Outcome) -> Outcome {
        guard case .response(.object(var body)) = outcome, case .array(let errors)? = body["errors"] else {
            return outcome
        }
        body["errors"] = .array(
            errors.map { error in
                guard case .object(var fields) = error else { return error }
                fields["locations"] = nil
                return .object(fields)
            })
        return .response(.object(body))
    }

    private func executeWithLocations(
        connector connectorID: String, operationName: String, kind: ConnectorOperation.Kind, variables: JSONObject,
        auth: AuthContext, checksAuth: Bool
    ) async -> Outcome {
        guard let connectorOperations = operations[connectorID] else {
            let known = operations.keys.sorted().joined(separator: ", ")
            return .failure(.notFound("connector \(connectorID) not found; this service has: \(known)"))
        }
        if let problem = invalidOperations[connectorID]?[operationName] {
            return .failure(
                .init(
                    code: 400, status: "FAILED_PRECONDITION",
                    message: "operation \(operationName) of connector \(connectorID) is not valid: \(problem); fix "
                        + "it and restart content serve"))
        }
        guard let prepared = connectorOperations[operationName] else {
            return .failure(
                .notFound(
                    "operation \(operationName) not found in connector \(connectorID); it has: "
                        + connectorOperations.keys.sorted().joined(separator: ", ")))
        }
        let operation = prepared.operation
        guard operation.kind == kind else {
            let verb = operation.kind == .query ? "executeQuery" : "executeMutation"
            return .failure(
                .invalid("\(operationName) is a \(operation.kind.rawValue); call :\(verb) to run it"))
        }
        if checksAuth,
            let denied = authorize(
                prepared.connector.effectiveAuth(of: operation), of: operation.name,
                declared: operation.declaresAuth, auth: auth, variables: variables)
        {
            return .failure(denied)
        }
        // The service names a variable the operation does not declare instead of dropping it.
        let declared = Set(operation.variables.map(\.name))
        if let unknown = variables.members.map(\.key).sorted().first(where: { !declared.contains($0) }) {
            return .failure(
                .invalid(
                    "unknown variable $\(unknown): \(operation.signature) "
                        + (declared.isEmpty ? "declares none" : "declares no such variable")))
        }
        for variable in operation.variables where variable.type.isRequired {
            // An explicit null is not a missing value: a default does not replace it (GraphQL, "Coercing
            // Variable Values").
            if variables[variable.name] == .null {
                return .failure(
                    .invalid(
                        "variable $\(variable.name) of non-null type \(variable.type) must not be null "
                            + "(\(operation.signature))"))
            }
            if variables[variable.name] == nil, variable.defaultValue == nil {
                return .failure(
                    .invalid("missing required variable $\(variable.name): \(variable.type) of \(operation.signature)"))
            }
        }
        if let refusal = Self.allowanceRefusal(prepared.allowances, variables: variables) { return .failure(refusal) }
        let outcome: Outcome
        if let plan = prepared.plan, let planned = await run(plan, variables: variables, auth: auth) {
            outcome = planned
        } else {
            outcome = await run(
                document: prepared.document, operationName: operationName, variables: variables, auth: auth,
                isAdmin: false)
        }
        if operation.kind == .mutation, case .response(let body) = outcome, body["data"] != nil, body["data"] != .null {
            mutations.publish(
                MutationEvent(
                    connector: connectorID, operation: operationName, variables: variables, auth: auth.expressionValue,
                    singleEntityTables: prepared.singleEntityWrites))
        }
        return outcome
    }

    /// Runs any GraphQL text, as the service's admin `:executeGraphql` and `:executeGraphqlRead` do.
    ///
    /// - Parameters:
    ///   - query: The GraphQL text.
    ///   - operationName: Which of its operations to run.
    ///   - variables: The request's variables.
    ///   - readOnly: `:executeGraphqlRead`, which refuses a mutation with `PERMISSION_DENIED` (firebase-admin-node
    ///     `test/integration/data-connect.spec.ts`, "executeGraphqlRead() should throw for a GraphQL mutation").
    ///   - impersonating: The caller of `extensions.impersonate`, whose operation's `@auth` is then checked;
    ///     `nil` bypasses `@auth`, as the admin API does.
    /// - Returns: The response. A document that does not parse or validate, or whose variables do not fit, is an OK
    ///   response with `errors`: "Upon query compile error, `ExecuteGraphql`, `ExecuteGraphqlRead` … return
    ///   Code.OK with a list of `GraphqlError`" (`graphql_error.proto`). Only a request over the server's limits
    ///   is refused.
    func executeAdmin(
        query: String, operationName: String?, variables: JSONObject, readOnly: Bool = false,
        impersonating: AuthContext? = nil
    ) async -> Outcome {
        let document: Document
        switch GraphQLSource.request(query, schema: schema, limits: limits, rules: DataConnectGraphQL.rules) {
        case .success(let checked):
            document = checked
        case .failure(let refusal) where refusal.stage != .limit:
            return .response(.object(["errors": .array(refusal.json)]))
        case .failure(let refusal):
            return .failure(.invalid(refusal.summary))
        }
        let operations = document.definitions.compactMap { $0 as? OperationDefinition }
        if operations.count > 1, operationName?.isEmpty ?? true {
            // The service refuses the request as a whole, and firebase-tools' `dataconnect:execute` recognises the
            // refusal by its status and words (src/commands/dataconnect-execute.ts: INVALID_ARGUMENT whose message
            // includes "operationName is required").
            let names = operations.map { $0.name?.value ?? "(anonymous)" }.joined(separator: ", ")
            return .failure(
                .invalid(
                    "operationName is required: the document has \(operations.count) operations (\(names)); name the "
                        + "one to run"))
        }
        let selected = Self.operation(in: document, named: operationName)
        if readOnly, selected?.operation == .mutation {
            return .failure(
                .denied(
                    ":executeGraphqlRead runs queries only; send the mutation"
                        + (selected?.name.map { " \($0.value)" } ?? "") + " to :executeGraphql"))
        }
        if let selected,
            let refusal = Self.allowanceRefusal(DataVariableAllowance.allowances(of: selected), variables: variables)
        {
            return .failure(refusal)
        }
        if let caller = impersonating, let selected {
            let name = selected.name?.value ?? "the operation"
            let declared: AuthPolicy?
            do {
                declared = try AuthPolicy.declared(on: selected)
            } catch {
                return .response(.object(["errors": .array([.object(["message": .string(error.message(on: name))])])]))
            }
            if let denied = authorize(
                declared ?? .level(.noAccess), of: name, declared: declared != nil, auth: caller, variables: variables)
            {
                return .failure(denied)
            }
        }
        let auth = impersonating ?? .anonymous
        var outcome = await run(
            document: document, operationName: operationName, variables: variables, auth: auth, isAdmin: true)
        if case .failure(let failure) = outcome, !failure.errors.isEmpty {
            outcome = .response(.object(["errors": .array(failure.errors)]))
        }
        if selected?.operation == .mutation, case .response(let body) = outcome, body["data"] != nil,
            body["data"] != .null
        {
            // An admin mutation names no connector operation: only the automatic refresh of single entities follows.
            mutations.publish(
                MutationEvent(
                    connector: "", operation: "", variables: variables, auth: auth.expressionValue,
                    singleEntityTables: RefreshPolicy.singleEntityTables(writtenBy: document, schema: workspace.schema))
            )
        }
        return outcome
    }

    /// Why a request's `_Data` variables are refused by their `@allow`, or `nil` when they fit: `INVALID_ARGUMENT`, as
    /// for any variable that does not fit its declaration.
    static func allowanceRefusal(_ allowances: [DataVariableAllowance], variables: JSONObject) -> RequestFailure? {
        for allowance in allowances {
            guard let value = variables[allowance.variable], let problem = allowance.violation(of: value) else {
                continue
            }
            return .invalid(problem)
        }
        return nil
    }

    /// The operation a request runs: the one named, or the first when it names none.
    ///
    /// - Parameters:
    ///   - document: The request's document.
    ///   - operationName: The request's `operationName`.
    /// - Returns: The operation, or `nil` when the document has no such one.
    static func operation(in document: Document, named operationName: String?) -> OperationDefinition? {
        document.definitions.lazy.compactMap { $0 as? OperationDefinition }
            .first { operationName == nil || $0.name?.value == operationName }
    }

    /// Why a caller may not run an operation, or `nil` when it may.
    ///
    /// A level the caller does not meet is `UNAUTHENTICATED`, also for a signed-in caller (an anonymous user
    /// calling a `USER` operation, a user without a verified email calling a `USER_EMAIL_VERIFIED` one);
    /// `NO_ACCESS` is `PERMISSION_DENIED`. Source: firebase-admin-node `test/integration/data-connect.spec.ts`,
    /// run against the service ("should fail to execute a query with @auth(level: USER)" with anonymous claims
    /// expects `data-connect/unauthenticated`, and `NO_ACCESS` `data-connect/permission-denied`).
    ///
    /// - Parameters:
    ///   - policy: The operation's effective policy.
    ///   - name: The operation's name, for the message.
    ///   - declared: Whether the operation declares `@auth` (a missing one is `NO_ACCESS`).
    ///   - auth: The caller.
    ///   - variables: The request's variables, which `@auth(expr:)` sees as `vars`.
    /// - Returns: The refusal, or `nil`.
    func authorize(
        _ policy: AuthPolicy, of name: String, declared: Bool, auth: AuthContext, variables: JSONObject
    ) -> RequestFailure? {
        switch policy {
        case .level(.public):
            return nil
        case .level(.noAccess):
            // The service's own words first, then why and what to do.
            let reason =
                declared
                ? "\(name) is @auth(level: NO_ACCESS)"
                : "\(name) has no @auth, which is NO_ACCESS whatever authMode says"
            return .denied(
                "unauthorized: you are not authorized to perform this operation (\(reason); only admin access "
                    + "runs it: give it @auth(level: PUBLIC) or another level to open it)")
        case .level(let level):
            // "unauthenticated" leads, as in the service's messages (firebase-android-sdk's AuthIntegrationTest, run
            // against Firebase's emulator, looks for the word in a refused subscription's message).
            guard auth.hasToken else {
                return .unauthenticated(
                    "unauthenticated: \(name) is @auth(level: \(level.rawValue)): send a Firebase ID token in "
                        + "X-Firebase-Auth-Token")
            }
            return auth.satisfies(level)
                ? nil
                : .unauthenticated(
                    "unauthenticated: the caller does not meet @auth(level: \(level.rawValue)) of \(name): "
                        + Self.missing(for: level))
        case .expression(let text):
            let values = ServerValues(auth: auth, now: DataConnectScalars.now(), variables: variables)
            let result = try? ServerExpression(text).evaluate(values.environment)
            if result == .bool(true) { return nil }
            return auth.hasToken
                ? .denied("@auth(expr: \(text)) of \(name) is not true for this caller")
                : .unauthenticated(
                    "unauthenticated: @auth(expr: \(text)) of \(name) needs a caller: send X-Firebase-Auth-Token")
        }
    }

    /// What a token needs to meet a level, for the message of one that does not.
    private static func missing(for level: AuthPolicy.Level) -> String {
        switch level {
        case .user: return "it needs a token of a signed-in, not anonymous, user"
        case .userEmailVerified: return "it needs a token with \"email_verified\": true"
        case .userAnonymous, .public, .noAccess: return "it needs a token with a \"sub\" claim"
        }
    }

    /// Executes in one transaction of the store; a mutation commits before the response.
    ///
    /// A mutation with `@transaction` or `@check` runs one root field at a time, in order, as the service
    /// describes: after each, its checks are evaluated; a failed check (or, under `@transaction`, any error) stops
    /// the operation, the fields after it answer `(aborted)`, and under `@transaction` everything is rolled back and
    /// the fields before it answer `(rolled back)`.
    ///
    /// `timed` says whether the request time limit applies; only the seed file runs untimed.
    func run(
        document: Document, operationName: String?, variables: JSONObject, auth: AuthContext, isAdmin: Bool,
        timed: Bool = true
    ) async -> Outcome {
        let operation = Self.operation(in: document, named: operationName)
        let isMutation = operation?.operation == .mutation
        let isTransaction = operation?.directives.contains { $0.name.value == "transaction" } ?? false
        let checks = operation.map { OperationChecks(operation: $0, document: document) }
        let values = ServerValues(auth: auth, now: DataConnectScalars.now(), variables: variables)
        let given = GraphQLJSON.variables(variables)
        do {
            return try await store.transaction(isMutation: isMutation, isSerializable: isTransaction) { transaction in
                let run = Execution(
                    engine: self, document: document, operationName: operationName, values: values, inputs: given,
                    checks: checks, transaction: transaction, timed: timed)
                let outcome: Execution.Result
                if isMutation, isTransaction || checks?.hasChecks == true, let checks {
                    outcome = try await run.fieldByField(checks.rootFields, isTransaction: isTransaction)
                } else {
                    outcome = try await run.whole(isTransaction: isTransaction, isMutation: isMutation)
                }
                return (outcome.outcome, commit: !outcome.rollBack)
            }
        } catch let failure as PostgresFailure where failure.kind != .other {
            return .failure(
                .init(
                    code: 503, status: "UNAVAILABLE",
                    message: "the PostgreSQL engine could not finish the operation: \(failure.message); try again"))
        } catch let timeout as GraphQLExecutionTimeout {
            return .failure(.init(code: 504, status: "DEADLINE_EXCEEDED", message: timeout.description))
        } catch {
            return .failure(.init(code: 500, status: "INTERNAL", message: "\(error)"))
        }
    }

    /// One operation's run inside its transaction.
    private struct Execution {
        struct Result {
            var outcome: Outcome
            var rollBack: Bool
        }

        let engine: DataConnectEngine
        let document: Document
        let operationName: String?
        let values: ServerValues
        let inputs: [String: Map]
        let checks: OperationChecks?
        let transaction: any SQLTransaction
        /// Whether the request time limit applies (not to the seed file).
        let timed: Bool

        /// Runs every root field in one execution, then applies the checks and redactions to each.
        func whole(isTransaction: Bool, isMutation: Bool) async throws -> Result {
            // A mutation of one root field runs it without a savepoint; its failure then rolls the transaction back,
            // which undoes what the savepoint would have.
            let single = isMutation && Self.hasOneRootField(document, operationName)
            let state = ExecutionState(values: values, transaction: transaction, isolatesRootFields: !single)
            let result = try await execute(state)
            if let refused = Self.refusal(result, state) { return refused }
            var errors = result.errors.map(GraphQLJSON.json)
            let failed = !result.errors.isEmpty && (isTransaction || result.data == nil || single)
            guard case .object(var data)? = result.data.map(GraphQLJSON.json) else {
                return respond(data: .null, errors: errors, rollBack: failed)
            }
            if isTransaction, failed {
                for member in data.members { data[member.key] = .null }
                return respond(data: .object(data), errors: errors, rollBack: true)
            }
            guard let checks, checks.hasChecks || checks.hasRedactions else {
                return respond(data: .object(data), errors: errors, rollBack: failed, entities: state.entityRecords)
            }
            var response = JSONObject()
            var stopped = false
            for root in checks.rootFields {
                guard let value = data[root.key] else { continue }
                if stopped {
                    data[root.key] = .null
                    errors.append(Self.error(Self.aborted, at: root.key))
                } else if let message = checks.failure(of: root, value: value, environment: environment(response)) {
                    data[root.key] = .null
                    errors.append(Self.error(message, at: root.key))
                    stopped = true
                } else {
                    response[root.key] = value
                    data[root.key] = checks.redacted(root, value: value)
                }
            }
            return respond(data: .object(data), errors: errors, rollBack: failed, entities: state.entityRecords)
        }

        /// Runs the root fields one at a time, each under a savepoint.
        func fieldByField(_ roots: [OperationChecks.RootField], isTransaction: Bool) async throws -> Result {
            var data = JSONObject()
            var errors: [JSONValue] = []
            var response = JSONObject()
            var entities: [EntityRecord] = []
            for (position, root) in roots.enumerated() {
                // Each root runs under its own savepoint here (below).
                let state = ExecutionState(
                    values: values, transaction: transaction, activeRoot: root.key, isolatesRootFields: false)
                try await transaction.execute(SQLFragment(text: "SAVEPOINT root"))
                let result = try await execute(state)
                if let refused = Self.refusal(result, state) { return refused }
                guard let value = result.data.map(GraphQLJSON.json)?.objectValue?[root.key] else {
                    // Left out by @skip or @include: nothing ran, and nothing is answered for it.
                    try await transaction.execute(SQLFragment(text: "RELEASE root"))
                    continue
                }
                var problems = result.errors.map(GraphQLJSON.json)
                if problems.isEmpty, let checks,
                    let message = checks.failure(of: root, value: value, environment: environment(response))
                {
                    problems = [Self.error(message, at: root.key)]
                }
                guard !problems.isEmpty else {
                    try await transaction.execute(SQLFragment(text: "RELEASE root"))
                    response[root.key] = value
                    data[root.key] = checks?.redacted(root, value: value)
                    entities += state.entityRecords
                    continue
                }
                let checkFailed = result.errors.isEmpty
                if !isTransaction && !checkFailed {
                    // An error in one root field of a mutation without @transaction stands alone.
                    try await transaction.execute(SQLFragment(text: "RELEASE root"))
                    data[root.key] = .null
                    errors += problems
                    continue
                }
                // A failed check ends the operation; under @transaction any error does, and undoes it all.
                try await transaction.execute(SQLFragment(text: "ROLLBACK TO root"))
                try await transaction.execute(SQLFragment(text: "RELEASE root"))
                if isTransaction {
                    for earlier in roots[..<position] {
                        data[earlier.key] = .null
                        errors.append(Self.error(Self.rolledBack, at: earlier.key))
                    }
                }
                data[root.key] = .null
                errors += problems
                for later in roots[(position + 1)...] {
                    data[later.key] = .null
                    errors.append(Self.error(Self.aborted, at: later.key))
                }
                return respond(data: .object(data), errors: errors, rollBack: isTransaction, entities: entities)
            }
            return respond(data: .object(data), errors: errors, rollBack: false, entities: entities)
        }

        /// When nothing ran, because the variables did not fit their declarations: the request's error.
        private static func refusal(_ result: GraphQLResult, _ state: ExecutionState) -> Result? {
            guard result.data == nil, !state.started else { return nil }
            var failure = RequestFailure.invalid(result.errors.map(\.message).joined(separator: "; "))
            failure.errors = result.errors.map(GraphQLJSON.json)
            return Result(outcome: .failure(failure), rollBack: true)
        }

        /// Whether the operation selects exactly one root field, outside any fragment or directive.
        static func hasOneRootField(_ document: Document, _ operationName: String?) -> Bool {
            let operation = DataConnectEngine.operation(in: document, named: operationName)
            guard let selections = operation?.selectionSet.selections, selections.count == 1,
                let field = selections.first as? Field
            else { return false }
            return field.directives.isEmpty
        }

        static let aborted = "(aborted) not run: an earlier root field of the operation failed"
        static let rolledBack = "(rolled back) undone with the rest of the @transaction"

        private func execute(_ state: ExecutionState) async throws -> GraphQLResult {
            try await GraphQLExecution.execute(
                schema: engine.schema, document: document, context: state, variables: inputs,
                operationName: operationName, limits: engine.limits, timed: timed)
        }

        /// What `@check` expressions see: the request's values and the results of the root fields before.
        private func environment(_ response: JSONObject) -> [String: JSONValue] {
            var environment = values.environment
            environment["response"] = .object(response)
            return environment
        }

        private func respond(
            data: JSONValue, errors: [JSONValue], rollBack: Bool, entities: [EntityRecord] = []
        ) -> Result {
            var body = JSONObject()
            body["data"] = data
            if !errors.isEmpty { body["errors"] = .array(errors) }
            if !rollBack, let extensions = EntityRecord.extensions(entities, data: data) {
                body["extensions"] = extensions
            }
            return Result(outcome: .response(.object(body)), rollBack: rollBack)
        }

        static func error(_ message: String, at key: String) -> JSONValue {
            .object(["message": .string(message), "path": .array([.string(key)])])
        }
    }
}

/// Per-request state the resolvers share: the caller and request time, and whether any resolver ran.
final class ExecutionState: Sendable {
    let values: ServerValues
    /// The operation's transaction, which every resolver's statements run in.
    let sql: any SQLTransaction
    /// Whether each root field of a mutation runs under a savepoint of its own, so that one that fails leaves the
    /// others' writes; not needed when there is one.
    let isolatesRootFields: Bool
    /// The one root field that runs when a mutation runs field by field; the others answer null at once.
    let activeRoot: String?
    private let ran = NIOLockedValueBox(false)
    private let entities = NIOLockedValueBox([EntityRecord]())

    init(
        values: ServerValues, transaction: any SQLTransaction, activeRoot: String? = nil,
        isolatesRootFields: Bool = true
    ) {
        self.values = values
        self.sql = transaction
        self.isolatesRootFields = isolatesRootFields
        self.activeRoot = activeRoot
    }

    /// Whether a root resolver should stand aside in this pass.
    func skips(_ info: GraphQLResolveInfo) -> Bool {
        guard let activeRoot, info.path.elements.count == 1, case .key(let key)? = info.path.elements.first else {
            return false
        }
        return key != activeRoot
    }

    var started: Bool { ran.withLockedValue { $0 } }

    /// The entities the resolvers answered, for `extensions.dataConnect`.
    var entityRecords: [EntityRecord] { entities.withLockedValue { $0 } }

    func record(_ entity: EntityRecord) {
        entities.withLockedValue { $0.append(entity) }
    }

    func markStarted() {
        ran.withLockedValue { $0 = true }
    }

    static func from(_ context: any Sendable) throws -> ExecutionState {
        // Every resolver starts here: a request that ran out of time or lost its client stops before its next load.
        try Task.checkCancellation()
        guard let state = context as? ExecutionState else {
            throw RowQuery.Failure(description: "internal: the resolver has no execution state")
        }
        state.markStarted()
        return state
    }
}
