internal import ContentDataConnect
internal import ContentDataConnectWire
public import ContentEmulator
internal import ContentGraphQL
internal import ContentJSON
internal import Foundation
internal import GRPCCore
internal import GRPCNIOTransportHTTP2Posix
internal import GRPCProtobuf
public import Logging
internal import NIOConcurrencyHelpers
internal import NIOCore
internal import NIOHTTP2
internal import NIOPosix
internal import SwiftProtobuf

/// `google.firebase.dataconnect.v1.ConnectorService` over gRPC, as the iOS and Android SDKs call it: the operations
/// run by the same engine, with the same checks, as `:executeQuery` and `:executeMutation`.
///
/// The caller is `x-firebase-auth-token` metadata. A request error is the gRPC status the REST API names
/// (`NOT_FOUND` for an unknown operation, `INVALID_ARGUMENT`, `UNAUTHENTICATED`, `PERMISSION_DENIED`,
/// `FAILED_PRECONDITION`); a GraphQL error with or without data is an OK status with `errors` filled, as the
/// service answers.
///
/// The methods are registered here rather than through the generated `ServiceProtocol` so that the answer's data
/// goes from the engine's JSON to the wire without a `Struct` in between (``ExecuteResponseSerializer``); requests
/// are decoded by swift-protobuf as generated.
struct DataConnectGRPCService: RegistrableRPCService {
    let engine: DataConnectEngine

    func registerMethods<Transport: ServerTransport>(with router: inout RPCRouter<Transport>) {
        typealias Method = Google_Firebase_Dataconnect_V1_ConnectorService.Method
        register(
            Method.ExecuteQuery.descriptor, Google_Firebase_Dataconnect_V1_ExecuteQueryRequest.self, kind: .query,
            with: &router)
        register(
            Method.ExecuteMutation.descriptor, Google_Firebase_Dataconnect_V1_ExecuteMutationRequest.self,
            kind: .mutation, with: &router)
    }

    private func register<Request: ExecuteRequestMessage & SwiftProtobuf.Message, Transport: ServerTransport>(
        _ method: MethodDescriptor, _ request: Request.Type, kind: ConnectorOperation.Kind,
        with router: inout RPCRouter<Transport>
    ) {
        router.registerHandler(
            forMethod: method, deserializer: ProtobufDeserializer<Request>(), serializer: ExecuteResponseSerializer()
        ) { request, _ in
            // A unary call: exactly one request message, as the generated service requires.
            let single = try await ServerRequest(stream: request)
            return StreamingServerResponse(single: try await respond(to: single, kind: kind))
        }
    }

    /// Runs either method's request: the two differ only in their message types.
    private func respond<Request: ExecuteRequestMessage>(
        to request: ServerRequest<Request>, kind: ConnectorOperation.Kind
    ) async throws(RPCError) -> ServerResponse<ExecuteResponse> {
        let message = request.message
        let connector = try connectorID(of: message.name)
        guard !message.operationName.isEmpty else {
            throw RPCError(code: .invalidArgument, message: "operation_name is required: an operation of \(connector)")
        }
        let (json, auth) = try Self.inputs(
            variables: message.hasVariables ? message.variables : nil,
            token: Self.text(request.metadata, "x-firebase-auth-token"))
        let outcome = await engine.execute(
            connector: connector, operationName: message.operationName, kind: kind, variables: json, auth: auth)
        switch outcome {
        case .failure(let failure):
            throw RPCError(code: Self.code(failure.status), message: failure.message)
        case .response(let document):
            let response = try ExecuteResponse(
                data: document["data"]?.objectValue,
                errors: (document["errors"]?.arrayValue ?? []).map(ProtobufJSON.graphQLError),
                extensions: document["extensions"].map(ProtobufJSON.responseExtensions))
            GraphQLExecution.releaseMemory(afterResponseOf: response.byteCount)
            // The limit REST holds its bodies to, on the bytes this API sends, with its status.
            if let oversized = GraphQLExecution.oversized(response.byteCount, limits: engine.limits) {
                throw RPCError(code: .resourceExhausted, message: oversized)
            }
            return ServerResponse(message: response)
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
        let parts = name.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 8, parts[0] == "projects", parts[2] == "locations", parts[4] == "services",
            parts[6] == "connectors", !parts[7].isEmpty
        else {
            throw RPCError(
                code: .invalidArgument,
                message: "name must be projects/{project}/locations/{location}/services/{service}/connectors/"
                    + "{connector}, was '\(name)'")
        }
        if let mismatch = serviceMismatch(service: parts[5], workspace: workspace) {
            throw RPCError(code: .notFound, message: mismatch)
        }
        return String(parts[7])
    }

    /// Why a service named in a request is not this emulator's, or `nil` when it is.
    ///
    /// The location is not compared: Firebase's emulator ignores it (firebase-tools `dataconnect:execute` documents
    /// `--location` as "Ignored by the emulator" and sends `locations/unused` when only `--service` is given), so a
    /// request that names another location is answered, where production would answer NOT_FOUND.
    static func serviceMismatch(service: some StringProtocol, workspace: DataConnectWorkspace) -> String? {
        guard service != workspace.serviceID else { return nil }
        return "service \(service) not found; this emulator serves \(workspace.serviceID) (in any location, as "
            + "Firebase's emulator does)"
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

/// The gRPC server beside the Data Connect routes: the port's HTTP/2 connections are handed to it as they are, and
/// served on their own channels.
final class DataConnectGRPCCompanion: EmulatorCompanion {
    private let engine: DataConnectEngine
    private let server = NIOLockedValueBox<GRPCServer<HTTP2ServerTransport.Custom<AdoptingListener>>?>(nil)
    private let stopping: StopSignal
    private let listener = AdoptingListener()

    init(engine: DataConnectEngine, stopping: StopSignal) {
        self.engine = engine
        self.stopping = stopping
    }

    func run(onReady: @escaping @Sendable () -> Void) async throws {
        var config = HTTP2ServerTransport.Custom<AdoptingListener>.Config.defaults
        // The REST API's body limit, so that the same operation is refused, or not, on both.
        config.rpc.maxRequestPayloadSize = 16 << 20
        // A client that never answers the shutdown's ping does not hold the shutdown past this.
        config.connection.maxGraceTime = .seconds(5)
        // The transport delays each flush up to 100 µs to batch writes, which only pays under a load an emulator does
        // not see: one client calling one operation at a time waited for it on every answer (compare-grpc.sh).
        config.connection.flushCoalescing = nil
        let transport = HTTP2ServerTransport.Custom(listenerFactory: listener, config: config)
        let server = GRPCServer(
            transport: transport,
            services: [
                DataConnectGRPCService(engine: engine),
                DataConnectGRPCStreamService(engine: engine, stopping: stopping),
            ])
        self.server.withLockedValue { $0 = server }
        if stopping.isStopped { server.beginGracefulShutdown() }
        try await withThrowingTaskGroup(of: Void.self) { [listener] group in
            // The calls run on their connections' event loops where they can (compare-grpc.sh).
            group.addTask(executorPreference: EventLoopAffineExecutor.shared) {
                // A server that ends before it listens (stopped first, or failing) leaves no one waiting.
                defer { listener.boundContinuation.finish() }
                try await server.serve()
            }
            for await isListening in listener.bound {
                if isListening { onReady() }
                break
            }
            try await group.waitForAll()
        }
    }

    func beginGracefulShutdown() {
        stopping.stop()
        server.withLockedValue { $0 }?.beginGracefulShutdown()
        // The listener's quiescing reaches the connections it accepted; the adopted ones are told here.
        listener.quiesceAdopted()
    }

    func adopt(_ channel: any Channel) -> Bool {
        listener.adopt(channel)
    }
}

/// The gRPC transport's listener: a loopback socket (the transport needs one; the port does not send to it), and the
/// connections of the Data Connect port handed to it as if it had accepted them.
///
/// A handed-over connection enters the listening channel's pipeline after its accepting handler, where the transport
/// configures the gRPC pipeline on it as on any accepted connection; the configuration then fires
/// ``EmulatorCompanionReady`` so that the port's handler passes on the bytes it read.
final class AdoptingListener: HTTP2ServerTransport.ListenerFactory {
    let eventLoopGroup: any EventLoopGroup = MultiThreadedEventLoopGroup.singleton
    private let listening = NIOLockedValueBox<(any Channel)?>(nil)
    /// One element once the transport has asked for the listening channel: whether it listens.
    let (bound, boundContinuation) = AsyncStream<Bool>.makeStream()
    private let adopted = NIOLockedValueBox([ObjectIdentifier: any Channel]())

    func makeListeningChannel(
        listenerConfigurator: HTTP2ServerTransport.ListenerConfigurator,
        connectionConfigurator: HTTP2ServerTransport.ConnectionConfigurator
    ) async throws -> NIOAsyncChannel<HTTP2ServerTransport.ConnectionConfigurator.ConnectionChannel, Never> {
        let listening: NIOAsyncChannel<HTTP2ServerTransport.ConnectionConfigurator.ConnectionChannel, Never>
        do {
            listening = try await ServerBootstrap(group: eventLoopGroup)
                .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
                .serverChannelInitializer { listenerConfigurator.configure(channel: $0) }
                .bind(host: "127.0.0.1", port: 0) { [adopted] channel in
                    connectionConfigurator.configure(channel: channel, tls: .none).flatMapThrowing { configured in
                        if adopted.withLockedValue({ $0[ObjectIdentifier(channel)] != nil }) {
                            try Self.finishAdoption(channel)
                        }
                        return configured
                    }
                }
            // The listener registers each channel it has accepted once the transport has it; an adopted one is
            // registered already, with its own server, so it stops short of that.
            let adopted = self.adopted
            try await listening.channel.eventLoop.submit {
                try listening.channel.pipeline.syncOperations.addHandler(
                    AdoptedChannelStop(isAdopted: { channel in
                        adopted.withLockedValue { $0[ObjectIdentifier(channel)] != nil }
                    }))
            }.get()
        } catch {
            boundContinuation.yield(false)
            throw error
        }
        self.listening.withLockedValue { $0 = listening.channel }
        boundContinuation.yield(true)
        return listening
    }

    /// What an adopted connection needs that an accepted one gets from its listener: the gRPC handlers behind the
    /// HTTP/2 one see it become active (which starts their keepalive and idle timers; the HTTP/2 handler, added to an
    /// active channel, keeps that event to itself), a client that stops sending is done (the port's connections
    /// allow half-closure, which no gRPC client uses), and the port's handler is told to pass on what it holds.
    private static func finishAdoption(_ channel: any Channel) throws {
        let pipeline = channel.pipeline.syncOperations
        try pipeline.addHandler(ClosingOnInputClosed(), position: .first)
        try pipeline.context(handlerType: NIOHTTP2Handler.self).fireChannelActive()
        channel.pipeline.fireUserInboundEventTriggered(EmulatorCompanionReady())
    }

    /// Hands a connection to the transport, unless it is not listening.
    func adopt(_ channel: any Channel) -> Bool {
        guard let listening = listening.withLockedValue({ $0 }), listening.isActive else { return false }
        let id = ObjectIdentifier(channel)
        adopted.withLockedValue { $0[id] = channel }
        channel.closeFuture.whenComplete { _ in _ = self.adopted.withLockedValue { $0.removeValue(forKey: id) } }
        listening.eventLoop.execute {
            // After the accepting handler: the rest of the listener's pipeline takes the channel as accepted.
            guard let accept = try? listening.pipeline.syncOperations.context(name: "AcceptHandler") else {
                channel.close(promise: nil)
                return
            }
            accept.fireChannelRead(NIOAny(channel))
        }
        return true
    }

    /// Asks each adopted connection to finish its calls and close, as the listener does its own.
    func quiesceAdopted() {
        for channel in adopted.withLockedValue({ Array($0.values) }) {
            channel.pipeline.fireUserInboundEventTriggered(ChannelShouldQuiesceEvent())
        }
    }
}

/// Closes a connection whose client has stopped sending.
final class ClosingOnInputClosed: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = NIOAny

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if let event = event as? ChannelEvent, event == .inputClosed {
            context.close(promise: nil)
            return
        }
        context.fireUserInboundEventTriggered(event)
    }
}

/// Last in the listener's pipeline: keeps an adopted connection from the listening socket's own handling, which would
/// register it a second time.
final class AdoptedChannelStop: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = any Channel
    typealias InboundOut = any Channel

    private let isAdopted: @Sendable (any Channel) -> Bool

    init(isAdopted: @escaping @Sendable (any Channel) -> Bool) {
        self.isAdopted = isAdopted
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        if isAdopted(unwrapInboundIn(data)) { return }
        context.fireChannelRead(data)
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

/// The answer of `ExecuteQuery` or `ExecuteMutation` in protobuf's wire format, written before it is sent so that its
/// size can be held to the server's limit.
///
/// The two methods' messages have the same fields under the same numbers (`data = 1`, `errors = 2`,
/// `extensions = 3`). The data field is written straight from the engine's JSON (``StructWireWriter``), then `errors`
/// and `extensions` by swift-protobuf from a message without data, so the fields come in number order, as
/// swift-protobuf writes them, and `data` once.
struct ExecuteResponse: Sendable {
    private var wire = StructWireWriter()

    /// Writes an answer.
    ///
    /// - Parameters:
    ///   - data: The result's `data`, when it is an object; `nil` leaves the field unset.
    ///   - errors: The GraphQL errors.
    ///   - extensions: The entities read or written; `nil` leaves the field unset.
    /// - Throws: `INTERNAL` when swift-protobuf cannot write `errors` or `extensions`.
    init(
        data: JSONObject?, errors: [Google_Firebase_Dataconnect_V1_GraphqlError],
        extensions: Google_Firebase_Dataconnect_V1_GraphqlResponseExtensions?
    ) throws(RPCError) {
        if !errors.isEmpty || extensions != nil {
            var others = Google_Firebase_Dataconnect_V1_ExecuteQueryResponse()
            others.errors = errors
            if let extensions { others.extensions = extensions }
            do {
                wire.prepend(try others.serializedBytes() as [UInt8])
            } catch {
                // As grpc-swift-protobuf's serializer words it, with the status of a fault of the server's own.
                throw RPCError(
                    code: .internalError, message: "Can't serialize message of type \(type(of: others)).",
                    cause: error)
            }
        }
        if let data { wire.prependStruct(data, field: 1) }
    }

    /// The message's size in bytes.
    var byteCount: Int { wire.count }

    /// Calls `body` with the message's bytes.
    func withBytes<Result>(_ body: (UnsafeRawBufferPointer) throws -> Result) rethrows -> Result {
        try wire.withBytes(body)
    }
}

/// Hands an ``ExecuteResponse``'s bytes, written already, to the transport.
struct ExecuteResponseSerializer: MessageSerializer {
    func serialize<Bytes: GRPCContiguousBytes>(_ message: ExecuteResponse) throws -> Bytes {
        message.withBytes { written in
            var bytes = Bytes(repeating: 0, count: written.count)
            bytes.withUnsafeMutableBytes { $0.copyMemory(from: written) }
            return bytes
        }
    }
}

extension Google_Firebase_Dataconnect_V1_ExecuteQueryRequest: ExecuteRequestMessage {}
extension Google_Firebase_Dataconnect_V1_ExecuteMutationRequest: ExecuteRequestMessage {}
