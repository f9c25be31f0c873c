internal import ContentCore
internal import ContentDataConnect
internal import ContentDataConnectWire
internal import ContentJSON
internal import Foundation
internal import GRPCCore
internal import SwiftProtobuf

/// `google.firebase.dataconnect.v1.ConnectorStreamService.Connect`: one bidirectional stream per client carrying
/// one-off executions and subscriptions to queries, matched by `request_id`.
///
/// - `execute` runs a query or a mutation once and answers with its result.
/// - `subscribe` runs a query and answers with its result, unless the request's `data_etag` is the result's, then
///   again each time its ``RefreshPolicy`` says, sending a result only when its etag changed.
/// - `cancel` ends a subscription and answers `cancelled`.
/// - `resume` is for a subscription this stream holds; the server keeps none across streams, so a client that
///   reconnects subscribes again, as the SDKs do.
///
/// A request that cannot run (an unknown operation, a subscription to a mutation, a refused caller) is answered on
/// the stream with the error in `errors` (its `extensions.code` the status the unary call would have), and a
/// subscription that cannot start is answered `cancelled`: one bad request does not end the others. The stream
/// ends when the client ends it, or when the server stops.
struct DataConnectGRPCStreamService: Google_Firebase_Dataconnect_V1_ConnectorStreamService.ServiceProtocol {
    let engine: DataConnectEngine
    /// Ends every open stream when the server stops: a subscription never holds a shutdown open.
    let stopping: StopSignal

    /// The most subscriptions one stream holds; past it a subscription is refused, so that one client cannot
    /// make every mutation run without bound.
    static let maximumSubscriptions = 100

    func connect(
        request: StreamingServerRequest<Google_Firebase_Dataconnect_V1_StreamRequest>, context: ServerContext
    ) async throws -> StreamingServerResponse<Google_Firebase_Dataconnect_V1_StreamResponse> {
        let session = StreamSession(engine: engine, metadata: request.metadata)
        return StreamingServerResponse { writer in
            await session.attach(writer)
            try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask {
                    for await event in engine.mutations.listen() { await session.mutated(event) }
                }
                group.addTask {
                    for try await message in request.messages { await session.handle(message) }
                }
                group.addTask { await stopping.wait() }
                // The client ending its side ends the stream, as does the server stopping; the listener and the polls
                // go with it.
                try await group.next()
                group.cancelAll()
            }
            await session.end()
            return [:]
        }
    }
}

/// The subscriptions of one stream, and the one writer every response goes through.
actor StreamSession {
    struct Subscription {
        var connector: String
        var operationName: String
        var variables: JSONObject
        var auth: AuthContext
        var policy: RefreshPolicy
        var etag: String?
        var poll: Task<Void, Never>?
    }

    private let engine: DataConnectEngine
    private let metadata: Metadata
    private var writer: RPCWriter<Google_Firebase_Dataconnect_V1_StreamResponse>?
    private var subscriptions: [String: Subscription] = [:]
    /// The last `name` seen: later requests on the stream may leave it out.
    private var name: String?

    init(engine: DataConnectEngine, metadata: Metadata) {
        self.engine = engine
        self.metadata = metadata
    }

    func attach(_ writer: RPCWriter<Google_Firebase_Dataconnect_V1_StreamResponse>) {
        self.writer = writer
    }

    func end() {
        for subscription in subscriptions.values { subscription.poll?.cancel() }
        subscriptions = [:]
        writer = nil
    }

    func handle(_ request: Google_Firebase_Dataconnect_V1_StreamRequest) async {
        if !request.name.isEmpty { name = request.name }
        let id = request.requestID
        switch request.requestKind {
        case .execute(let operation)?:
            await execute(operation, id: id, headers: request.headers)
        case .subscribe(let operation)?:
            await subscribe(operation, id: id, etag: request.dataEtag, headers: request.headers)
        case .cancel?:
            subscriptions.removeValue(forKey: id)?.poll?.cancel()
            var response = Google_Firebase_Dataconnect_V1_StreamResponse()
            response.requestID = id
            response.cancelled = true
            await send(response)
        case .resume?:
            guard subscriptions[id] == nil else { return }
            await refuse(id: id, code: .notFound, "no subscription \(id) on this stream; subscribe again", cancel: true)
        case nil:
            await refuse(id: id, code: .invalidArgument, "a request needs one of subscribe, execute, resume or cancel")
        }
    }

    func mutated(_ event: MutationEvent) async {
        for (id, subscription) in subscriptions {
            let request = JSONValue.object([
                "variables": .object(subscription.variables), "auth": subscription.auth.expressionValue,
            ])
            guard subscription.policy.isRefreshed(by: event, connector: subscription.connector, request: request)
            else { continue }
            await refresh(id)
        }
    }

    /// Runs a subscription's query again and sends the result if it changed.
    func refresh(_ id: String) async {
        guard let subscription = subscriptions[id] else { return }
        let outcome = await engine.execute(
            connector: subscription.connector, operationName: subscription.operationName, kind: .query,
            variables: subscription.variables, auth: subscription.auth)
        guard case .response(let body) = outcome else { return }
        let etag = Self.etag(body)
        // The subscription may have been cancelled while the query ran.
        guard subscriptions[id] != nil, subscriptions[id]?.etag != etag else { return }
        subscriptions[id]?.etag = etag
        await send(Self.response(body, id: id, etag: etag))
    }

    // MARK: - Requests

    private func execute(
        _ request: Google_Firebase_Dataconnect_V1_ExecuteRequest, id: String, headers: [String: String]
    ) async {
        guard let (connector, variables, auth) = await prepare(request, id: id, headers: headers, cancel: false) else {
            return
        }
        let kind = engine.operations[connector]?[request.operationName]?.operation.kind ?? .query
        let outcome = await engine.execute(
            connector: connector, operationName: request.operationName, kind: kind, variables: variables, auth: auth)
        switch outcome {
        case .response(let body):
            await send(Self.response(body, id: id, etag: Self.etag(body)))
        case .failure(let failure):
            await refuse(id: id, code: DataConnectGRPCService.code(failure.status), failure.message)
        }
    }

    private func subscribe(
        _ request: Google_Firebase_Dataconnect_V1_ExecuteRequest, id: String, etag held: String,
        headers: [String: String]
    ) async {
        guard let (connector, variables, auth) = await prepare(request, id: id, headers: headers, cancel: true) else {
            return
        }
        guard let prepared = engine.operations[connector]?[request.operationName] else {
            // The engine names what exists.
            await execute(request, id: id, headers: headers)
            return
        }
        guard prepared.operation.kind == .query else {
            await refuse(
                id: id, code: .invalidArgument,
                "\(request.operationName) is a mutation: only queries can be subscribed to; execute it instead",
                cancel: true)
            return
        }
        guard subscriptions[id] != nil || subscriptions.count < DataConnectGRPCStreamService.maximumSubscriptions else {
            await refuse(
                id: id, code: .resourceExhausted,
                "this stream holds \(DataConnectGRPCStreamService.maximumSubscriptions) subscriptions; cancel one first",
                cancel: true)
            return
        }
        let outcome = await engine.execute(
            connector: connector, operationName: request.operationName, kind: .query, variables: variables, auth: auth)
        let body: JSONValue
        switch outcome {
        case .response(let answered): body = answered
        case .failure(let failure):
            await refuse(id: id, code: DataConnectGRPCService.code(failure.status), failure.message, cancel: true)
            return
        }
        subscriptions.removeValue(forKey: id)?.poll?.cancel()
        let etag = Self.etag(body)
        let policy = RefreshPolicy(prepared, schema: engine.workspace.schema)
        var subscription = Subscription(
            connector: connector, operationName: request.operationName, variables: variables, auth: auth,
            policy: policy, etag: etag)
        if let every = policy.every {
            subscription.poll = Task { [weak self] in
                while !Task.isCancelled {
                    try? await Task.sleep(for: every)
                    guard !Task.isCancelled, let self else { return }
                    await self.refresh(id)
                }
            }
        }
        subscriptions[id] = subscription
        // A client that already holds this result is not sent it again.
        if etag != held { await send(Self.response(body, id: id, etag: etag)) }
    }

    /// The connector, variables and caller of a request, or `nil` after answering why there are none.
    private func prepare(
        _ request: Google_Firebase_Dataconnect_V1_ExecuteRequest, id: String, headers: [String: String], cancel: Bool
    ) async -> (String, JSONObject, AuthContext)? {
        let connector: String
        do {
            connector = try DataConnectGRPCService.connectorID(of: name ?? "", workspace: engine.workspace)
        } catch {
            // Typed: the name's check throws RPCError only.
            await refuse(id: id, code: error.code, error.message, cancel: cancel)
            return nil
        }
        let variables: JSONObject
        do {
            variables = try request.hasVariables ? ProtobufJSON.object(request.variables) : JSONObject()
        } catch {
            await refuse(id: id, code: .invalidArgument, "variables: \(error)", cancel: cancel)
            return nil
        }
        // The web SDK puts the caller in the request's headers; gRPC clients send it as the stream's metadata.
        let token =
            headers.first { $0.key.lowercased() == "x-firebase-auth-token" }?.value
            ?? DataConnectGRPCService.text(metadata, "x-firebase-auth-token")
        do {
            return (connector, variables, try AuthContext(header: token))
        } catch {
            await refuse(id: id, code: .unauthenticated, "\(error)", cancel: cancel)
            return nil
        }
    }

    // MARK: - Responses

    private func refuse(id: String, code: RPCError.Code, _ message: String, cancel: Bool = false) async {
        var error = Google_Firebase_Dataconnect_V1_GraphqlError()
        error.message = message
        var extensions = Google_Firebase_Dataconnect_V1_GraphqlErrorExtensions()
        extensions.code = Google_Rpc_Code(rawValue: code.rawValue) ?? .unknown
        error.extensions = extensions
        var response = Google_Firebase_Dataconnect_V1_StreamResponse()
        response.requestID = id
        response.errors = [error]
        response.cancelled = cancel
        await send(response)
    }

    private func send(_ response: Google_Firebase_Dataconnect_V1_StreamResponse) async {
        // A client that went away leaves nothing to write to; its stream is ending.
        try? await writer?.write(response)
    }

    static func response(_ body: JSONValue, id: String, etag: String) -> Google_Firebase_Dataconnect_V1_StreamResponse {
        var response = Google_Firebase_Dataconnect_V1_StreamResponse()
        response.requestID = id
        if case .object(let data)? = body["data"] { response.data = ProtobufJSON.structValue(data) }
        response.errors = (body["errors"]?.arrayValue ?? []).map(ProtobufJSON.graphQLError)
        response.dataEtag = etag
        return response
    }

    /// The result's identity: a hash of its data and errors as sent.
    static func etag(_ body: JSONValue) -> String {
        StableHash.hex(String(decoding: body.serialized(), as: UTF8.self))
    }
}
