internal import ContentCore
internal import ContentDataConnect
internal import ContentDataConnectWire
internal import ContentGraphQL
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
        // gRPC clients send the caller as the stream's metadata; a request's headers may replace it.
        let token = DataConnectGRPCService.text(request.metadata, "x-firebase-auth-token")
        if let refusal = StreamSession.refusal(ofConnectionToken: token) {
            throw RPCError(code: .unauthenticated, message: refusal)
        }
        return StreamingServerResponse { writer in
            try await StreamSession.run(
                engine: engine, stopping: stopping, token: token, requests: request.messages,
                send: { response in
                    // A client that went away leaves nothing to write to; its stream is ending.
                    try? await writer.write(response)
                })
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
        /// Which subscription under this id: a refresh that ran while the id was subscribed again is dropped.
        var generation: UInt64 = 0

        func isRefreshed(by event: MutationEvent) -> Bool {
            let request = JSONValue.object(["variables": .object(variables), "auth": auth.expressionValue])
            return policy.isRefreshed(by: event, connector: connector, request: request)
        }
    }

    /// A subscription whose first result is being read, and whether a mutation that refreshes it came meanwhile.
    private struct Starting {
        var subscription: Subscription
        var missed = false
    }

    private let engine: DataConnectEngine
    private var sender: (@Sendable (Google_Firebase_Dataconnect_V1_StreamResponse) async -> Void)?
    private var subscriptions: [String: Subscription] = [:]
    /// Subscriptions not yet in `subscriptions`: a mutation that commits while one's first result is read may have
    /// come after the read, and it reads again once in place rather than miss the change.
    private var starting: [String: Starting] = [:]
    /// The last `name` seen: later requests on the stream may leave it out.
    private var name: String?
    private var nextGeneration: UInt64 = 0
    /// The caller's latest ID token: the SDKs send it in a request's headers when it changes (the Flutter SDK in a
    /// request of its own, with no operation), and it holds for the requests after.
    private var token: String?

    init(
        engine: DataConnectEngine, token: String?,
        send: @escaping @Sendable (Google_Firebase_Dataconnect_V1_StreamResponse) async -> Void
    ) {
        self.engine = engine
        self.token = token
        self.sender = send
    }

    /// Runs one stream: its requests in order, and the refreshes mutations cause, until the client ends its side or
    /// the server stops; the subscriptions and their polls end with it.
    ///
    /// - Throws: What reading `requests` throws (a frame that is not a request).
    static func run<Requests: AsyncSequence & Sendable>(
        engine: DataConnectEngine, stopping: StopSignal, token: String?, requests: Requests,
        send: @escaping @Sendable (Google_Firebase_Dataconnect_V1_StreamResponse) async -> Void
    ) async throws where Requests.Element == Google_Firebase_Dataconnect_V1_StreamRequest {
        let session = StreamSession(engine: engine, token: token, send: send)
        do {
            try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask {
                    for await event in engine.mutations.listen() { await session.mutated(event) }
                }
                group.addTask {
                    for try await message in requests { await session.handle(message) }
                }
                group.addTask { await stopping.wait() }
                // The client ending its side ends the stream, as does the server stopping; the listener and the
                // polls go with it.
                defer { group.cancelAll() }
                try await group.next()
            }
        } catch {
            await session.end()
            throw error
        }
        await session.end()
    }

    /// Why a stream is refused for the token it was opened with, or `nil`.
    ///
    /// A token that is malformed or expired ends the call with `UNAUTHENTICATED`: the Android SDK refreshes its token
    /// and reconnects only on that status of the call itself (firebase-android-sdk `DataConnectGrpcRPCs.kt`,
    /// `isUnauthenticatedFailure` then `forceRefresh`; its changelog: tokens "rejected by the server upon
    /// connection"). A request's error in the stream would leave it holding the stale token.
    ///
    /// - Parameter token: The `x-firebase-auth-token` metadata, or `nil`.
    /// - Returns: The message of the call's `UNAUTHENTICATED` status, or `nil` to serve it.
    static func refusal(ofConnectionToken token: String?) -> String? {
        do {
            _ = try AuthContext(header: token)
            return nil
        } catch {
            return "unauthenticated: \(error)"
        }
    }

    func end() {
        for subscription in subscriptions.values { subscription.poll?.cancel() }
        subscriptions = [:]
        starting = [:]
        sender = nil
    }

    func handle(_ request: Google_Firebase_Dataconnect_V1_StreamRequest) async {
        if !request.name.isEmpty { name = request.name }
        if let token = request.headers.first(where: { $0.key.lowercased() == "x-firebase-auth-token" })?.value {
            self.token = token
        }
        let id = request.requestID
        switch request.requestKind {
        case .execute(let operation)?:
            await execute(operation, id: id)
        case .subscribe(let operation)?:
            await subscribe(operation, id: id, etag: request.dataEtag)
        case .cancel?:
            subscriptions.removeValue(forKey: id)?.poll?.cancel()
            var response = Google_Firebase_Dataconnect_V1_StreamResponse()
            response.requestID = id
            response.cancelled = true
            await send(response)
        case .resume?:
            guard subscriptions[id] != nil else {
                await refuse(
                    id: id, code: .notFound,
                    "no subscription \(id) on this stream to resume; subscriptions do not outlive their stream, "
                        + "so subscribe again", cancel: true)
                return
            }
            await refresh(id, held: request.dataEtag, always: true)
        case nil:
            // The first request may carry only the connector's name, and a later one only a new token.
            guard request.name.isEmpty, request.headers.isEmpty else { return }
            await refuse(id: id, code: .invalidArgument, "a request needs one of subscribe, execute, resume or cancel")
        }
    }

    func mutated(_ event: MutationEvent) async {
        for (id, pending) in starting where pending.subscription.isRefreshed(by: event) {
            starting[id]?.missed = true
        }
        for (id, subscription) in subscriptions where subscription.isRefreshed(by: event) {
            await refresh(id)
        }
    }

    /// Runs a subscription's query again and sends the result if it changed.
    ///
    /// - Parameters:
    ///   - id: The subscription.
    ///   - held: The etag of the result the client holds, when it says (a `resume`).
    ///   - always: Whether to answer even when nothing changed (a `resume`, whose client waits for an answer): then
    ///     with the etag alone.
    func refresh(_ id: String, held: String? = nil, always: Bool = false) async {
        guard let subscription = subscriptions[id] else { return }
        let outcome = await engine.execute(
            connector: subscription.connector, operationName: subscription.operationName, kind: .query,
            variables: subscription.variables, auth: subscription.auth)
        // The subscription may have been cancelled, or replaced under the same id, while the query ran.
        guard subscriptions[id]?.generation == subscription.generation else { return }
        let body: JSONValue
        switch outcome {
        case .response(let answered):
            body = answered
        case .failure(let failure):
            // A resume's client waits for an answer; a refresh that fails sends nothing new.
            if always { await refuse(id: id, code: DataConnectGRPCService.code(failure.status), failure.message) }
            return
        }
        guard let etag = await etag(of: body, id: id, refusing: always) else { return }
        let clientHas = held.map { !$0.isEmpty && $0 == etag } ?? (subscriptions[id]?.etag == etag)
        subscriptions[id]?.etag = etag
        if !clientHas {
            await send(Self.response(body, id: id, etag: etag))
        } else if always {
            var unchanged = Google_Firebase_Dataconnect_V1_StreamResponse()
            unchanged.requestID = id
            unchanged.dataEtag = etag
            await send(unchanged)
        }
    }

    // MARK: - Requests

    private func execute(_ request: Google_Firebase_Dataconnect_V1_ExecuteRequest, id: String) async {
        guard let (connector, variables, auth) = await prepare(request, id: id, cancel: false) else {
            return
        }
        let kind = engine.operations[connector]?[request.operationName]?.operation.kind ?? .query
        let outcome = await engine.execute(
            connector: connector, operationName: request.operationName, kind: kind, variables: variables, auth: auth)
        switch outcome {
        case .response(let body):
            if let etag = await etag(of: body, id: id, refusing: true) {
                await send(Self.response(body, id: id, etag: etag))
            }
        case .failure(let failure):
            await refuse(id: id, code: DataConnectGRPCService.code(failure.status), failure.message)
        }
    }

    private func subscribe(_ request: Google_Firebase_Dataconnect_V1_ExecuteRequest, id: String, etag held: String)
        async
    {
        guard let (connector, variables, auth) = await prepare(request, id: id, cancel: true) else {
            return
        }
        guard let prepared = engine.operations[connector]?[request.operationName] else {
            // The engine names what exists; a subscription that cannot start is cancelled.
            let outcome = await engine.execute(
                connector: connector, operationName: request.operationName, kind: .query, variables: variables,
                auth: auth)
            if case .failure(let failure) = outcome {
                await refuse(id: id, code: DataConnectGRPCService.code(failure.status), failure.message, cancel: true)
            }
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
        nextGeneration &+= 1
        var subscription = Subscription(
            connector: connector, operationName: request.operationName, variables: variables, auth: auth,
            policy: prepared.refresh, etag: nil, generation: nextGeneration)
        starting[id] = Starting(subscription: subscription)
        let outcome = await engine.execute(
            connector: connector, operationName: request.operationName, kind: .query, variables: variables, auth: auth)
        let missed = starting.removeValue(forKey: id)?.missed ?? false
        let body: JSONValue
        switch outcome {
        case .response(let answered): body = answered
        case .failure(let failure):
            await refuse(id: id, code: DataConnectGRPCService.code(failure.status), failure.message, cancel: true)
            return
        }
        subscriptions.removeValue(forKey: id)?.poll?.cancel()
        guard let etag = await etag(of: body, id: id, refusing: true, cancel: true) else { return }
        subscription.etag = etag
        if let every = subscription.policy.every {
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
        if missed { await refresh(id) }
    }

    /// The connector, variables and caller of a request, or `nil` after answering why there are none.
    private func prepare(_ request: Google_Firebase_Dataconnect_V1_ExecuteRequest, id: String, cancel: Bool) async
        -> (String, JSONObject, AuthContext)?
    {
        do {
            let connector = try DataConnectGRPCService.connectorID(of: name ?? "", workspace: engine.workspace)
            let (variables, auth) = try DataConnectGRPCService.inputs(
                variables: request.hasVariables ? request.variables : nil, token: token)
            return (connector, variables, auth)
        } catch {
            await refuse(id: id, code: error.code, error.message, cancel: cancel)
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
        await sender?(response)
    }

    static func response(_ body: JSONValue, id: String, etag: String) -> Google_Firebase_Dataconnect_V1_StreamResponse {
        var response = Google_Firebase_Dataconnect_V1_StreamResponse()
        response.requestID = id
        if case .object(let data)? = body["data"] { response.data = ProtobufJSON.structValue(data) }
        response.errors = (body["errors"]?.arrayValue ?? []).map(ProtobufJSON.graphQLError)
        if let extensions = body["extensions"] { response.extensions = ProtobufJSON.responseExtensions(extensions) }
        response.dataEtag = etag
        return response
    }

    /// A result's etag, or `nil` when its JSON is past the server's `response-bytes` limit, after answering
    /// `RESOURCE_EXHAUSTED` with the limit's message when `refusing`.
    private func etag(of body: JSONValue, id: String, refusing: Bool, cancel: Bool = false) async -> String? {
        switch Self.etag(body, limits: engine.limits) {
        case .success(let etag):
            return etag
        case .failure(let oversized):
            if refusing { await refuse(id: id, code: .resourceExhausted, oversized.message, cancel: cancel) }
            return nil
        }
    }

    /// The result's identity, a hash of its JSON, or what to answer instead when that JSON is past the server's
    /// `response-bytes` limit, as REST answers such a body.
    static func etag(_ body: JSONValue, limits: GraphQLLimits) -> Result<String, GraphQLExecution.OversizedResponse> {
        GraphQLExecution.responseBytes(body, limits: limits).map { StableHash.hex(String(decoding: $0, as: UTF8.self)) }
    }
}
