internal import ContentDataConnect
internal import ContentDataConnectWire
public import ContentEmulator
internal import ContentJSON
internal import Foundation
internal import GRPCCore
internal import GRPCNIOTransportHTTP2Posix
public import Logging
internal import NIOConcurrencyHelpers
internal import NIOCore
internal import SwiftProtobuf

/// `google.firebase.dataconnect.v1.ConnectorService` over gRPC, as the iOS and Android SDKs call it: the operations
/// run by the same engine, with the same checks, as `:executeQuery` and `:executeMutation`.
///
/// The caller is `x-firebase-auth-token` metadata. A request error is the gRPC status the REST API names
/// (`NOT_FOUND` for an unknown operation, `INVALID_ARGUMENT`, `UNAUTHENTICATED`, `PERMISSION_DENIED`,
/// `FAILED_PRECONDITION`); a GraphQL error with or without data is an OK status with `errors` filled, as the
/// service answers.
struct DataConnectGRPCService: Google_Firebase_Dataconnect_V1_ConnectorService.ServiceProtocol {
    let engine: DataConnectEngine

    func executeQuery(
        request: ServerRequest<Google_Firebase_Dataconnect_V1_ExecuteQueryRequest>, context: ServerContext
    ) async throws -> ServerResponse<Google_Firebase_Dataconnect_V1_ExecuteQueryResponse> {
        try await respond(to: request, kind: .query)
    }

    func executeMutation(
        request: ServerRequest<Google_Firebase_Dataconnect_V1_ExecuteMutationRequest>, context: ServerContext
    ) async throws -> ServerResponse<Google_Firebase_Dataconnect_V1_ExecuteMutationResponse> {
        try await respond(to: request, kind: .mutation)
    }

    /// Runs either method's request and fills its response: the two differ only in their message types.
    private func respond<Request: ExecuteRequestMessage, Response: ExecuteResponseMessage>(
        to request: ServerRequest<Request>, kind: ConnectorOperation.Kind
    ) async throws(RPCError) -> ServerResponse<Response> {
        let message = request.message
        let body = try await run(
            name: message.name, operationName: message.operationName,
            variables: message.hasVariables ? message.variables : nil, kind: kind, metadata: request.metadata)
        var response = Response()
        if let data = body.data { response.data = data }
        response.errors = body.errors
        if let extensions = body.extensions { response.extensions = extensions }
        return ServerResponse(message: response)
    }

    /// What both methods return: the result's data and errors as the wire types carry them.
    struct Body {
        var data: Google_Protobuf_Struct?
        var errors: [Google_Firebase_Dataconnect_V1_GraphqlError]
        var extensions: Google_Firebase_Dataconnect_V1_GraphqlResponseExtensions?
    }

    private func run(
        name: String, operationName: String, variables: Google_Protobuf_Struct?, kind: ConnectorOperation.Kind,
        metadata: Metadata
    ) async throws(RPCError) -> Body {
        let connector = try connectorID(of: name)
        guard !operationName.isEmpty else {
            throw RPCError(code: .invalidArgument, message: "operation_name is required: an operation of \(connector)")
        }
        let (json, auth) = try Self.inputs(variables: variables, token: Self.text(metadata, "x-firebase-auth-token"))
        let outcome = await engine.execute(
            connector: connector, operationName: operationName, kind: kind, variables: json, auth: auth)
        switch outcome {
        case .failure(let failure):
            throw RPCError(code: Self.code(failure.status), message: failure.message)
        case .response(let document):
            var body = Body(data: nil, errors: [])
            if case .object(let data)? = document["data"] { body.data = ProtobufJSON.structValue(data) }
            body.errors = (document["errors"]?.arrayValue ?? []).map(ProtobufJSON.graphQLError)
            body.extensions = document["extensions"].map(ProtobufJSON.responseExtensions)
            return body
        }
    }

    /// A request's variables and caller, as the engine takes them; what is wrong with them is the status the REST
    /// API answers.
    static func inputs(variables: Google_Protobuf_Struct?, token: String?) throws(RPCError) -> (JSONObject, AuthContext)
    {
        let json: JSONObject
        do {
            json = try variables.map(ProtobufJSON.object) ?? JSONObject()
        } catch {
            throw RPCError(code: .invalidArgument, message: "variables: \(error)")
        }
        do {
            return (json, try AuthContext(header: token))
        } catch {
            throw RPCError(code: .unauthenticated, message: "\(error)")
        }
    }

    /// The first text value of a metadata key.
    static func text(_ metadata: Metadata, _ key: String) -> String? {
        for value in metadata[key] {
            if case .string(let text) = value { return text }
        }
        return nil
    }

    private func connectorID(of name: String) throws(RPCError) -> String {
        try Self.connectorID(of: name, workspace: engine.workspace)
    }

    /// The connector of `projects/{project}/locations/{location}/services/{service}/connectors/{connector}`, checked
    /// against the service this emulator serves.
    static func connectorID(of name: String, workspace: DataConnectWorkspace) throws(RPCError) -> String {
        let parts = name.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        guard parts.count == 8, parts[0] == "projects", parts[2] == "locations", parts[4] == "services",
            parts[6] == "connectors", !parts[7].isEmpty
        else {
            throw RPCError(
                code: .invalidArgument,
                message: "name must be projects/{project}/locations/{location}/services/{service}/connectors/"
                    + "{connector}, was '\(name)'")
        }
        guard parts[3] == workspace.location, parts[5] == workspace.serviceID else {
            throw RPCError(
                code: .notFound,
                message: "service \(parts[5]) in \(parts[3]) not found; this emulator serves \(workspace.serviceID) in "
                    + workspace.location)
        }
        return parts[7]
    }

    /// The gRPC code of a status name the REST API writes.
    static func code(_ status: String) -> RPCError.Code {
        switch status {
        case "INVALID_ARGUMENT": return .invalidArgument
        case "NOT_FOUND": return .notFound
        case "UNAUTHENTICATED": return .unauthenticated
        case "PERMISSION_DENIED": return .permissionDenied
        case "FAILED_PRECONDITION": return .failedPrecondition
        case "RESOURCE_EXHAUSTED": return .resourceExhausted
        case "ALREADY_EXISTS": return .alreadyExists
        case "ABORTED": return .aborted
        case "DEADLINE_EXCEEDED": return .deadlineExceeded
        case "UNAVAILABLE": return .unavailable
        case "UNIMPLEMENTED": return .unimplemented
        default: return .internalError
        }
    }
}

/// The gRPC server beside the Data Connect routes: it listens on a loopback port of its own, and `content serve`
/// relays the HTTP/2 connections of the Data Connect port to it.
final class DataConnectGRPCCompanion: EmulatorCompanion {
    private let engine: DataConnectEngine
    private let server = NIOLockedValueBox<GRPCServer<HTTP2ServerTransport.Posix>?>(nil)
    private let stopping: StopSignal

    init(engine: DataConnectEngine, stopping: StopSignal) {
        self.engine = engine
        self.stopping = stopping
    }

    func run(onListening: @escaping @Sendable (NIOCore.SocketAddress) -> Void) async throws {
        var config = HTTP2ServerTransport.Posix.Config.defaults
        // The REST API's body limit, so that the same operation is refused, or not, on both.
        config.rpc.maxRequestPayloadSize = 16 << 20
        let transport = HTTP2ServerTransport.Posix(
            address: .ipv4(host: "127.0.0.1", port: 0), transportSecurity: .plaintext, config: config)
        let server = GRPCServer(
            transport: transport,
            services: [
                DataConnectGRPCService(engine: engine),
                DataConnectGRPCStreamService(engine: engine, stopping: stopping),
            ])
        self.server.withLockedValue { $0 = server }
        if stopping.isStopped { server.beginGracefulShutdown() }
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { try await server.serve() }
            if let address = try await transport.listeningAddress.ipv4 {
                onListening(try NIOCore.SocketAddress(ipAddress: address.host, port: address.port))
            }
            try await group.waitForAll()
        }
    }

    func beginGracefulShutdown() {
        stopping.stop()
        server.withLockedValue { $0 }?.beginGracefulShutdown()
    }
}

extension DataConnectEmulator {
    /// The gRPC server for the iOS and Android SDKs, on the Data Connect port.
    ///
    /// - Parameter logger: Unused: the gRPC server logs nothing of its own.
    /// - Returns: The companion.
    public func companion(logger: Logger) -> (any EmulatorCompanion)? {
        DataConnectGRPCCompanion(engine: engine, stopping: stopping)
    }
}

/// `ExecuteQueryRequest` and `ExecuteMutationRequest`: the same fields under two names.
protocol ExecuteRequestMessage: Sendable {
    var name: String { get }
    var operationName: String { get }
    var variables: Google_Protobuf_Struct { get }
    var hasVariables: Bool { get }
}

/// `ExecuteQueryResponse` and `ExecuteMutationResponse`: the same fields under two names.
protocol ExecuteResponseMessage: Sendable {
    init()
    var data: Google_Protobuf_Struct { get set }
    var errors: [Google_Firebase_Dataconnect_V1_GraphqlError] { get set }
    var extensions: Google_Firebase_Dataconnect_V1_GraphqlResponseExtensions { get set }
}

extension Google_Firebase_Dataconnect_V1_ExecuteQueryRequest: ExecuteRequestMessage {}
extension Google_Firebase_Dataconnect_V1_ExecuteMutationRequest: ExecuteRequestMessage {}
extension Google_Firebase_Dataconnect_V1_ExecuteQueryResponse: ExecuteResponseMessage {}
extension Google_Firebase_Dataconnect_V1_ExecuteMutationResponse: ExecuteResponseMessage {}
