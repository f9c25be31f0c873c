internal import ContentDataConnect
internal import ContentEmulator
public import ContentGraphQL
internal import ContentJSON
public import Foundation
internal import HTTPTypes
public import Hummingbird
internal import NIOCore

/// Firebase Data Connect's REST surface over a workspace: connector operations run by name on SQLite.
///
/// Routes (also under `/v1beta/`):
/// - `POST /v1/projects/{project}/locations/{location}/services/{service}/connectors/{connector}:executeQuery`
///   and `:executeMutation`, body `{"name", "operationName", "variables"}`;
/// - `POST /v1/projects/{project}/locations/{location}/services/{service}:executeGraphql`, body
///   `{"query", "operationName", "variables"}`: any GraphQL with full access, as the admin API allows.
///
/// Request errors use the production shape `{"error": {"code", "message", "status"}}` and status codes.
public struct DataConnectEmulator: Sendable {
    /// What the emulator serves beyond the workspace itself.
    public struct Options: Sendable {
        /// A `.gql` file of mutations to seed a new database with, instead of the workspace's `seed_data.gql`.
        public var seedFile: URL?
        /// An origin allowed to call from a browser (`*` for any).
        public var corsOrigin: String?
        /// The bearer token `:executeGraphql` requires, as the admin API requires Google credentials; `nil` leaves
        /// it open (an in-process sample, reachable only for one command's lifetime).
        public var adminToken: String?
        /// Whether an operation that does not validate stops the service from starting, as a deploy to Firebase
        /// would be refused; otherwise it is reported at start and answered with an error.
        public var strict = false
        /// A PostgreSQL server to keep the rows in instead of SQLite (`--postgres`).
        public var postgres: PostgresSettings?

        /// Creates options.
        ///
        /// - Parameters:
        ///   - seedFile: The seed file to use instead of `seed_data.gql`.
        ///   - corsOrigin: An origin allowed from browsers.
        ///   - adminToken: The bearer token the admin endpoint requires, or `nil`.
        public init(seedFile: URL? = nil, corsOrigin: String? = nil, adminToken: String? = nil) {
            self.seedFile = seedFile
            self.corsOrigin = corsOrigin
            self.adminToken = adminToken
        }
    }

    let engine: DataConnectEngine
    /// Ends the open gRPC and WebSocket streams when the server stops, so that no subscription holds a shutdown
    /// open.
    let stopping = StopSignal()
    let options: Options

    /// What the web SDK sends besides `Content-Type` (firebase-js-sdk `packages/data-connect/src/network/rest/fetch.ts`,
    /// `dcFetch`: `x-firebase-gmpid` whenever the app has an ID, `X-Client-Version: web/…` on every request since
    /// data-connect 0.7.3), and FlutterFire's web client (`X-Firebase-Client`).
    static let firebaseHeaders = [
        "X-Firebase-Auth-Token", "X-Firebase-AppCheck", "X-Goog-Api-Client", "X-Firebase-GMPID", "X-Firebase-Client",
        "X-Client-Version",
    ].compactMap {
        HTTPField.Name($0)
    }

    /// The largest request body accepted.
    static let maxBody = 16 << 20

    /// Loads a workspace, opens its database (seeding a new one) and prepares every operation.
    ///
    /// - Parameters:
    ///   - folder: A folder that leads to a `dataconnect.yaml` (see ``DataConnectWorkspace/locate(from:)``).
    ///   - dataFile: A database file to keep rows in, or `nil` for memory.
    ///   - options: Seeding and CORS.
    ///   - limits: What one GraphQL request may ask.
    /// - Throws: ``EmulatorError`` or a workspace error naming file, line and column.
    public init(
        workspace folder: URL, dataFile: String? = nil, options: Options = Options(),
        limits: GraphQLLimits = GraphQLLimits()
    ) async throws {
        let workspace = try DataConnectWorkspace.load(from: folder)
        self.options = options
        engine = try await DataConnectEngine(
            workspace: workspace, dataFile: dataFile, seedFile: options.seedFile, limits: limits,
            strict: options.strict, postgres: options.postgres)
    }

    /// Whether a folder holds a Data Connect workspace this emulator can serve.
    ///
    /// - Parameter folder: A project folder.
    /// - Returns: Whether ``DataConnectWorkspace/locate(from:)`` finds one.
    public static func hasWorkspace(in folder: URL) -> Bool {
        DataConnectWorkspace.locate(from: folder) != nil
    }

    /// `service fdc (us-central1), connectors: movies`.
    public var summary: String {
        let workspace = engine.workspace
        return "service \(workspace.serviceID) (\(workspace.location)), connectors: "
            + workspace.connectors.map(\.id).joined(separator: ", ")
    }

    /// Parts of the workspace that are not served, to tell the user at start.
    public var workspaceNotes: [String] {
        var notes = engine.workspace.notes
        for table in engine.workspace.schema.tables {
            guard let problem = engine.store.viewProblems[table.typeName] else { continue }
            notes.append("\(table.position): \(engine.viewFailure(table, problem).description)")
        }
        for connector in engine.workspace.connectors {
            if let mode = connector.defaultAuth {
                notes.append(
                    "connector \(connector.id): authMode \(mode.rawValue) is not applied; as on Firebase, an "
                        + "operation without @auth is NO_ACCESS")
            }
            let invalid = engine.invalidOperations[connector.id] ?? [:]
            for name in invalid.keys.sorted() {
                guard let problem = invalid[name] else { continue }
                notes.append(
                    "\(problem) (operation \(name) is answered with FAILED_PRECONDITION; --strict refuses to start)")
            }
        }
        return notes
    }

    /// Adds the Data Connect routes to a router.
    ///
    /// - Parameter router: The router.
    public func addRoutes(to router: Router<BasicRequestContext>) {
        if let origin = options.corsOrigin {
            router.middlewares.add(
                CORSMiddleware(
                    allowOrigin: origin == "*" ? .all : .custom(origin),
                    allowHeaders: [.contentType, .authorization] + Self.firebaseHeaders,
                    allowMethods: [.post, .options]
                )
            )
        }
        for version in ["v1", "v1beta"] {
            let service = "/\(version)/projects/{project}/locations/{location}/services"
            router.post("\(service)/{service}/connectors/{action}") { request, context in
                await self.connectorRequest(request, context: context)
            }
            router.post("\(service)/{service}") { request, context in
                await self.adminRequest(request, context: context)
            }
        }
    }

    // MARK: - Requests

    private func connectorRequest(_ request: Request, context: BasicRequestContext) async -> Response {
        let action = context.parameters.get("action") ?? ""
        guard let colon = action.lastIndex(of: ":") else {
            return Self.failure(.notFound("expected connectors/{connector}:executeQuery or :executeMutation"))
        }
        let connector = String(action[..<colon])
        let kind: ConnectorOperation.Kind
        // The admin API's forms (firebase-admin-node `executeQuery` and `executeMutation`) run the operation as the
        // caller in `extensions.impersonate`, or bypass `@auth` without it.
        let isImpersonation: Bool
        switch action[action.index(after: colon)...] {
        case "executeQuery": (kind, isImpersonation) = (.query, false)
        case "executeMutation": (kind, isImpersonation) = (.mutation, false)
        case "impersonateQuery": (kind, isImpersonation) = (.query, true)
        case "impersonateMutation": (kind, isImpersonation) = (.mutation, true)
        default:
            return Self.failure(
                .notFound(
                    "unknown method \(action[colon...]); use :executeQuery or :executeMutation (or, with the admin "
                        + "token, :impersonateQuery or :impersonateMutation)"))
        }
        if let mismatch = checkService(context) { return Self.failure(mismatch) }
        if isImpersonation, let refusal = adminRefusal(request, method: String(action[colon...])) {
            return Self.failure(refusal)
        }
        let body: JSONObject
        switch await Self.readBody(request) {
        case .success(let object): body = object
        case .failure(let failure): return Self.failure(failure)
        }
        guard let operationName = body["operationName"]?.stringValue, !operationName.isEmpty else {
            return Self.failure(.invalid("the body needs operationName, the name of an operation in \(connector)"))
        }
        if let name = body["name"]?.stringValue {
            let project = context.parameters.get("project") ?? ""
            let location = context.parameters.get("location") ?? ""
            let expected =
                "projects/\(project)/locations/\(location)/services/\(engine.workspace.serviceID)/connectors/\(connector)"
            guard name == expected else {
                return Self.failure(.invalid("name is \(name) but the URL addresses \(expected)"))
            }
        }
        let variables: JSONObject
        switch body["variables"] {
        case nil, .null?: variables = JSONObject()
        case .object(let object)?: variables = object
        default: return Self.failure(.invalid("variables must be a JSON object"))
        }
        let auth: AuthContext
        var checksAuth = true
        if isImpersonation {
            switch Self.impersonation(body) {
            case .success(let caller?): auth = caller
            case .success(nil): (auth, checksAuth) = (.anonymous, false)
            case .failure(let failure): return Self.failure(failure)
            }
        } else {
            do {
                auth = try AuthContext(header: Self.header(request, "X-Firebase-Auth-Token"))
            } catch {
                return Self.failure(.unauthenticated("\(error)"))
            }
        }
        let outcome = await engine.execute(
            connector: connector, operationName: operationName, kind: kind, variables: variables, auth: auth,
            checksAuth: checksAuth)
        return response(outcome)
    }

    /// Why a request to the admin API is refused, or `nil` when it carries the admin token.
    private func adminRefusal(_ request: Request, method: String) -> DataConnectEngine.RequestFailure? {
        guard let adminToken = options.adminToken, request.headers[.authorization] != "Bearer \(adminToken)" else {
            return nil
        }
        return .unauthenticated(
            "\(method) is the admin API: send Authorization: Bearer with the admin token content serve printed at "
                + "start (or set with --admin-token; the Firebase Admin SDK sends \"owner\" to an emulator)")
    }

    /// The caller of an admin request's `extensions.impersonate`.
    ///
    /// As firebase-admin-node's `GraphqlOptions.impersonate` has it: `{"authClaims": {…}}` is a signed-in caller with
    /// those claims, `{"unauthenticated": true}` a caller without a token; both have `@auth` checked. `nil` when the
    /// request impersonates no one, which bypasses `@auth`.
    static func impersonation(_ body: JSONObject) -> Result<AuthContext?, DataConnectEngine.RequestFailure> {
        let impersonate: JSONValue
        switch body["extensions"] {
        case nil, .null?:
            return .success(nil)
        case .object(let extensions)?:
            guard let value = extensions["impersonate"], value != .null else { return .success(nil) }
            impersonate = value
        default:
            return .failure(.invalid("extensions must be a JSON object"))
        }
        let claims = impersonate["authClaims"].flatMap { $0 == .null ? nil : $0 }
        let unauthenticated = impersonate["unauthenticated"] == .bool(true)
        switch (claims, unauthenticated) {
        case (.object(let claims)?, false):
            return .success(AuthContext(claims: claims, hasToken: true))
        case (nil, true):
            return .success(.anonymous)
        case (_?, true):
            return .failure(.invalid("extensions.impersonate takes authClaims or unauthenticated, not both"))
        case (_?, false):
            return .failure(.invalid("extensions.impersonate.authClaims must be a JSON object of token claims"))
        case (nil, false):
            return .failure(
                .invalid(
                    "extensions.impersonate needs authClaims (a JSON object of token claims) or unauthenticated: true"))
        }
    }

    private func adminRequest(_ request: Request, context: BasicRequestContext) async -> Response {
        let action = context.parameters.get("service") ?? ""
        // The service, then exactly one method after the first colon: `S:x:executeGraphqlRead` is no method.
        let method = String(action.drop { $0 != ":" })
        guard method == ":executeGraphql" || method == ":executeGraphqlRead" else {
            return Self.failure(
                .notFound("unknown method in \(action); use :executeGraphql or :executeGraphqlRead"))
        }
        if let mismatch = checkService(context, service: String(action.prefix { $0 != ":" })) {
            return Self.failure(mismatch)
        }
        if let refusal = adminRefusal(request, method: method) { return Self.failure(refusal) }
        let body: JSONObject
        switch await Self.readBody(request) {
        case .success(let object): body = object
        case .failure(let failure): return Self.failure(failure)
        }
        guard let query = body["query"]?.stringValue else {
            return Self.failure(.invalid("the body needs query, the GraphQL text to run"))
        }
        let caller: AuthContext?
        switch Self.impersonation(body) {
        case .success(let impersonated): caller = impersonated
        case .failure(let failure): return Self.failure(failure)
        }
        let outcome = await engine.executeAdmin(
            query: query, operationName: body["operationName"]?.stringValue,
            variables: body["variables"]?.objectValue ?? JSONObject(), readOnly: method == ":executeGraphqlRead",
            impersonating: caller)
        return response(outcome)
    }

    private func checkService(_ context: BasicRequestContext, service: String? = nil) -> DataConnectEngine
        .RequestFailure?
    {
        let requested = service ?? context.parameters.get("service") ?? ""
        return DataConnectGRPCService.serviceMismatch(service: requested, workspace: engine.workspace).map {
            .notFound($0)
        }
    }

    private static func readBody(_ request: Request) async -> Result<JSONObject, DataConnectEngine.RequestFailure> {
        guard request.declaresJSON else {
            return .failure(
                .init(
                    code: 415, status: "INVALID_ARGUMENT",
                    message: "the body must be sent with Content-Type: application/json"))
        }
        let buffer: ByteBuffer
        do {
            buffer = try await request.body.collect(upTo: maxBody)
        } catch is NIOTooManyBytesError {
            return .failure(
                .init(code: 413, status: "INVALID_ARGUMENT", message: "the request body is larger than 16 MiB"))
        } catch {
            // Malformed chunked framing or a body cut short: the request is bad, not too large.
            return .failure(.invalid("the request body could not be read: \(error)"))
        }
        do {
            guard case .object(let object) = try JSONParser().parse(Array(buffer.readableBytesView)) else {
                return .failure(.invalid("the body must be a JSON object"))
            }
            return .success(object)
        } catch {
            return .failure(.invalid("the body is not JSON: \(error)"))
        }
    }

    private static func header(_ request: Request, _ name: String) -> String? {
        HTTPField.Name(name).flatMap { request.headers[$0] }
    }

    private func response(_ outcome: DataConnectEngine.Outcome) -> Response {
        switch outcome {
        case .response(let body):
            switch GraphQLExecution.responseBytes(body, limits: engine.limits) {
            case .success(let bytes):
                return Self.json(status: .ok, bytes: bytes)
            case .failure(let oversized):
                // gRPC's status for a message larger than allowed.
                return Self.failure(.init(code: 429, status: "RESOURCE_EXHAUSTED", message: oversized.message))
            }
        case .failure(let failure):
            return Self.failure(failure)
        }
    }

    private static func failure(_ failure: DataConnectEngine.RequestFailure) -> Response {
        json(status: HTTPResponse.Status(code: failure.code), failure.body)
    }

    private static func json(status: HTTPResponse.Status, _ body: JSONValue) -> Response {
        json(status: status, bytes: body.serialized())
    }

    private static func json(status: HTTPResponse.Status, bytes: [UInt8]) -> Response {
        Response(
            status: status, headers: [.contentType: "application/json"],
            body: ResponseBody(byteBuffer: ByteBuffer(bytes: bytes)))
    }
}
