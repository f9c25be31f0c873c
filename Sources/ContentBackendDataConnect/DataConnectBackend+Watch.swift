public import ContentCore
public import ContentDataConnect
internal import ContentDataConnectWire
public import ContentJSON
internal import Foundation
internal import GRPCCore
internal import GRPCNIOTransportHTTP2Posix
internal import Logging

/// What watching a query yields: a new result, or word that the connection was lost and when it is tried again.
public enum WatchEvent: Sendable {
    /// The query's result, first as subscribed, then each time it changed.
    case result(ContentResult)
    /// The stream ended; it is opened again after `delay`, and the query subscribed again.
    case reconnecting(delay: Duration, reason: String)
}

/// How long to wait before reconnecting, as the iOS SDK does: 1 s, then 1.3 times the last, with jitter, at most 30 s.
public struct WatchBackoff: Sendable {
    /// The wait before the next attempt, without jitter.
    public private(set) var current: Duration = .seconds(1)

    /// A new backoff, at 1 s.
    public init() {}

    /// The next wait: the current one with up to 20% jitter either way, then grown by 1.3 up to 30 s.
    ///
    /// - Parameter random: A number in 0..<1, for the jitter.
    /// - Returns: The wait.
    public mutating func next(random: Double = Double.random(in: 0..<1)) -> Duration {
        let wait = current * (0.8 + 0.4 * random)
        current = min(current * 1.3, .seconds(30))
        return wait
    }

    /// Back to 1 s, after a stream that worked.
    public mutating func reset() { current = .seconds(1) }
}

extension DataConnectBackend {
    /// Subscribes to a query over the gRPC `ConnectorStreamService` and yields every new result.
    ///
    /// The stream goes to the emulator (HTTP/2 in plain text) or to the service (TLS), with the same credentials as
    /// a REST call. A lost connection or a stream the server ends is opened again after a ``WatchBackoff`` wait and the
    /// query subscribed again, with the last result's `data_etag` so that an unchanged result is not sent twice. A
    /// subscription the server cancels ends the watch with its reason.
    ///
    /// - Parameters:
    ///   - operation: The query.
    ///   - connector: Its connector.
    ///   - variables: Its variables.
    /// - Returns: The events, until the task iterating them is cancelled or the watch fails.
    public func watch(_ operation: ConnectorOperation, in connector: Connector, variables: JSONObject)
        -> AsyncThrowingStream<WatchEvent, any Error>
    {
        let (stream, continuation) = AsyncThrowingStream<WatchEvent, any Error>.makeStream()
        let task = Task {
            let progress = WatchProgress()
            while !Task.isCancelled {
                do {
                    let etag = await progress.etag
                    try await subscribe(operation, in: connector, variables: variables, etag: etag) { response in
                        await progress.received(etag: response.dataEtag)
                        continuation.yield(
                            .result(try result(of: response, operation: operation, connector: connector)))
                    }
                    if Task.isCancelled { break }
                    let delay = await progress.nextDelay()
                    continuation.yield(.reconnecting(delay: delay, reason: "the server ended the stream"))
                    try await Task.sleep(for: delay)
                } catch let error as RPCError where Self.isTransient(error.code) {
                    let delay = await progress.nextDelay()
                    continuation.yield(.reconnecting(delay: delay, reason: "\(error.code): \(error.message)"))
                    do { try await Task.sleep(for: delay) } catch { break }
                } catch is CancellationError {
                    break
                } catch let error as RPCError {
                    continuation.finish(throwing: refusal(error))
                    return
                } catch {
                    continuation.finish(throwing: error)
                    return
                }
            }
            continuation.finish()
        }
        continuation.onTermination = { _ in task.cancel() }
        return stream
    }

    /// Codes a new connection may cure.
    static func isTransient(_ code: RPCError.Code) -> Bool {
        [.unavailable, .deadlineExceeded, .aborted, .internalError, .unknown, .resourceExhausted].contains(code)
    }

    /// One stream: subscribes, hands each response on, and returns when the server ends it.
    private func subscribe(
        _ operation: ConnectorOperation, in connector: Connector, variables: JSONObject, etag: String,
        _ receive: @escaping @Sendable (Google_Firebase_Dataconnect_V1_StreamResponse) async throws -> Void
    ) async throws {
        let endpoint = try grpcEndpoint()
        let transport = try HTTP2ClientTransport.Posix(
            target: .dns(host: endpoint.host, port: endpoint.port),
            transportSecurity: endpoint.secure ? .tls : .plaintext)
        var request = Google_Firebase_Dataconnect_V1_StreamRequest()
        request.name =
            "projects/\(configuration.project)/locations/\(location)/services/\(service)/connectors/\(connector.id)"
        request.requestID = "1"
        request.dataEtag = etag
        var subscribe = Google_Firebase_Dataconnect_V1_ExecuteRequest()
        subscribe.operationName = operation.name
        subscribe.variables = ProtobufJSON.structValue(variables)
        request.subscribe = subscribe
        let message = request
        try await withGRPCClient(transport: transport) { client in
            let service = Google_Firebase_Dataconnect_V1_ConnectorStreamService.Client(wrapping: client)
            let outgoing = StreamingClientRequest<Google_Firebase_Dataconnect_V1_StreamRequest>(
                metadata: grpcMetadata()
            ) { writer in
                try await writer.write(message)
                // The subscription lasts as long as this side stays open.
                let (forever, _) = AsyncStream<Never>.makeStream()
                for await _ in forever {}
            }
            try await service.connect(request: outgoing) { response in
                for try await answer in response.messages where answer.requestID == "1" {
                    if answer.cancelled {
                        let reasons = answer.errors.map(\.message).joined(separator: "; ")
                        throw DataConnectError(
                            kind: .operationFailed,
                            description: "the server ended the subscription to \(operation.name)"
                                + (reasons.isEmpty ? "" : ": \(reasons)"))
                    }
                    try await receive(answer)
                }
            }
        }
    }

    /// A stream response as the REST answer it stands for, read as `content query` reads one.
    private func result(
        of response: Google_Firebase_Dataconnect_V1_StreamResponse, operation: ConnectorOperation, connector: Connector
    ) throws -> ContentResult {
        var body = JSONObject()
        body["data"] = response.hasData ? .object(try ProtobufJSON.object(response.data)) : .null
        if !response.errors.isEmpty { body["errors"] = .array(response.errors.map(ProtobufJSON.json)) }
        let http = HTTPTransportResponse(
            status: 200, headers: ["Content-Type": "application/json"], body: JSONValue.object(body).serialized(),
            url: baseURL)
        return try self.result(of: http, operation: operation, connector: connector)
    }

    /// A refusal of the subscription as the error the REST call would have been.
    private func refusal(_ error: RPCError) -> DataConnectError {
        let kind: DataConnectError.Kind =
            switch error.code {
            case .invalidArgument, .notFound, .failedPrecondition: .httpStatus(400)
            case .unauthenticated: .httpStatus(401)
            case .permissionDenied: .httpStatus(403)
            case .unimplemented: .httpStatus(501)
            default: .httpStatus(500)
            }
        return DataConnectError(
            kind: kind,
            description: "\(context.redactor.redact(url: baseURL)): the subscription was refused: \(error.code): "
                + context.redactor.redact(error.message))
    }

    /// Host, port and whether TLS is used, from the base URL REST calls go to.
    func grpcEndpoint() throws(DataConnectError) -> (host: String, port: Int, secure: Bool) {
        guard let components = URLComponents(string: baseURL), let host = components.host, !host.isEmpty else {
            throw DataConnectError(
                kind: .configuration, description: "cannot tell the gRPC endpoint from \(baseURL)")
        }
        let secure = components.scheme?.lowercased() == "https"
        return (host, components.port ?? (secure ? 443 : 80), secure)
    }

    /// The credentials as gRPC metadata: the names the SDKs send.
    func grpcMetadata() -> Metadata {
        var metadata = Metadata()
        for (name, value) in (configuration.headers ?? [:]).sorted(by: { $0.key < $1.key }) {
            metadata.addString(value, forKey: name.lowercased())
        }
        metadata.addString("location=\(location)&frontend=data", forKey: "x-goog-request-params")
        if let idToken, !idToken.isEmpty { metadata.addString(idToken, forKey: "x-firebase-auth-token") }
        if let appCheck = configuration.auth?.appCheckToken?.value, !appCheck.isEmpty {
            metadata.addString(appCheck, forKey: "x-firebase-appcheck")
        }
        if let key = configuration.auth?.apiKey?.value, !key.isEmpty {
            metadata.addString(key, forKey: "x-goog-api-key")
        }
        return metadata
    }
}

/// What a watch carries from one stream to the next: the last result's etag, and the backoff.
private actor WatchProgress {
    var etag = ""
    private var backoff = WatchBackoff()

    func received(etag: String) {
        self.etag = etag
        backoff.reset()
    }

    func nextDelay() -> Duration { backoff.next() }
}
