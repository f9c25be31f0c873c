internal import ContentCore
internal import ContentDataConnectWire
public import ContentJSON
internal import Foundation
internal import GRPCCore
internal import GRPCNIOTransportHTTP2Posix

/// What a subscription to a Data Connect query yields: a new result, or word that the stream was lost and when it
/// is opened again.
public enum SubscriptionEvent: Sendable {
    /// The query's result as the service sent it: first as subscribed, then each time it changed.
    case result(data: JSONValue, errors: [JSONValue], extensions: JSONValue?)
    /// The stream ended; it is opened again after `delay`, and the query subscribed again.
    case reconnecting(delay: Duration, reason: String)
}

/// How long to wait before reconnecting, as the iOS SDK does: 1 s, then 1.3 times the last, with jitter, at most 30 s.
public struct SubscriptionBackoff: Sendable {
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

/// Subscriptions to Data Connect queries over the realtime `ConnectorStreamService` (gRPC over HTTP/2), as the
/// iOS and Android SDKs open them: to an emulator in plain text, to the service over TLS, with the credentials of a
/// REST call as metadata.
public enum DataConnectSubscription {
    /// Subscribes to a query and yields every new result.
    ///
    /// A lost connection, or a stream the server ends, is opened again after a ``SubscriptionBackoff`` wait and the
    /// query subscribed again with the last result's `data_etag`, so that an unchanged result is not sent twice. A
    /// subscription the server cancels, or refuses, ends the stream with ``ContentClientError``.
    ///
    /// - Parameters:
    ///   - operation: The query.
    ///   - variables: Its variables.
    ///   - settings: Where the service is and who calls it; its location and service override the operation's.
    /// - Returns: The events, until the task iterating them is cancelled or the subscription fails.
    public static func events(
        of operation: DataConnectOperation, variables: JSONObject, settings: DataConnectSettings
    ) -> AsyncThrowingStream<SubscriptionEvent, any Error> {
        let (stream, continuation) = AsyncThrowingStream<SubscriptionEvent, any Error>.makeStream()
        let task = Task {
            let progress = SubscriptionProgress()
            while !Task.isCancelled {
                do {
                    try await subscribe(
                        operation, variables: variables, settings: settings, etag: await progress.etag
                    ) { response in
                        await progress.received(etag: response.dataEtag)
                        var errors: [JSONValue] = []
                        for error in response.errors { errors.append(ProtobufJSON.json(error)) }
                        continuation.yield(
                            .result(
                                data: response.hasData ? .object(try ProtobufJSON.object(response.data)) : .null,
                                errors: errors,
                                extensions: response.hasExtensions
                                    ? ProtobufJSON.json(response.extensions) : nil))
                    }
                    if Task.isCancelled { break }
                    let delay = await progress.nextDelay()
                    continuation.yield(.reconnecting(delay: delay, reason: "the server ended the stream"))
                    try await Task.sleep(for: delay)
                } catch let error as RPCError where isTransient(error.code) {
                    let delay = await progress.nextDelay()
                    continuation.yield(.reconnecting(delay: delay, reason: "\(error.code): \(error.message)"))
                    do { try await Task.sleep(for: delay) } catch { break }
                } catch is CancellationError {
                    break
                } catch let error as RPCError {
                    continuation.finish(
                        throwing: ContentClientError.subscriptionRefused(
                            operation: operation.name, status: status(of: error.code), code: "\(error.code)",
                            message: error.message))
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

    /// The HTTP status the REST call would have answered for a refusal.
    static func status(of code: RPCError.Code) -> Int {
        switch code {
        case .invalidArgument, .notFound, .failedPrecondition: return 400
        case .unauthenticated: return 401
        case .permissionDenied: return 403
        case .unimplemented: return 501
        default: return 500
        }
    }

    /// One stream: subscribes, hands each response on, and returns when the server ends it.
    private static func subscribe(
        _ operation: DataConnectOperation, variables: JSONObject, settings: DataConnectSettings, etag: String,
        _ receive: @escaping @Sendable (Google_Firebase_Dataconnect_V1_StreamResponse) async throws -> Void
    ) async throws {
        let endpoint = try self.endpoint(
            settings.endpoint.baseURL, redactor: Redactor(secrets: [settings.apiKey ?? ""]))
        let transport = try HTTP2ClientTransport.Posix(
            target: .dns(host: endpoint.host, port: endpoint.port),
            transportSecurity: endpoint.secure ? .tls : .plaintext)
        let location = settings.location ?? operation.location
        var request = Google_Firebase_Dataconnect_V1_StreamRequest()
        request.name =
            "projects/\(settings.project)/locations/\(location)/services/"
            + "\(settings.service ?? operation.service)/connectors/\(operation.connector)"
        request.requestID = "1"
        request.dataEtag = etag
        var subscribe = Google_Firebase_Dataconnect_V1_ExecuteRequest()
        subscribe.operationName = operation.name
        subscribe.variables = ProtobufJSON.structValue(variables)
        request.subscribe = subscribe
        let message = request
        let (metadata, secrets) = try await self.metadata(settings, location: location)
        // What the server says back is quoted in errors: without the caller's credentials.
        let redactor = Redactor(secrets: secrets)
        do {
            try await connect(
                transport: transport, request: message, metadata: metadata, operation: operation.name, receive)
        } catch let error as RPCError {
            throw RPCError(code: error.code, message: redactor.redact(error.message))
        } catch ContentClientError.subscriptionEnded(let name, let reasons) {
            throw ContentClientError.subscriptionEnded(operation: name, reasons: redactor.redact(reasons))
        }
    }

    /// Opens the stream on `transport`, sends the subscription and hands each response on until the server ends it.
    private static func connect(
        transport: HTTP2ClientTransport.Posix, request message: Google_Firebase_Dataconnect_V1_StreamRequest,
        metadata: Metadata, operation name: String,
        _ receive: @escaping @Sendable (Google_Firebase_Dataconnect_V1_StreamResponse) async throws -> Void
    ) async throws {
        try await withGRPCClient(transport: transport) { client in
            let service = Google_Firebase_Dataconnect_V1_ConnectorStreamService.Client(wrapping: client)
            let outgoing = StreamingClientRequest<Google_Firebase_Dataconnect_V1_StreamRequest>(metadata: metadata) {
                writer in
                try await writer.write(message)
                // The subscription lasts as long as this side stays open.
                let (forever, _) = AsyncStream<Never>.makeStream()
                for await _ in forever {}
            }
            try await service.connect(request: outgoing) { response in
                for try await answer in response.messages where answer.requestID == "1" {
                    if answer.cancelled {
                        throw ContentClientError.subscriptionEnded(
                            operation: name, reasons: answer.errors.map(\.message).joined(separator: "; "))
                    }
                    try await receive(answer)
                }
            }
        }
    }

    /// Host, port and whether TLS is used, from the base URL REST calls go to.
    static func endpoint(_ baseURL: String, redactor: Redactor = Redactor()) throws(ContentClientError)
        -> (host: String, port: Int, secure: Bool)
    {
        guard let components = URLComponents(string: baseURL), let host = components.host, !host.isEmpty else {
            throw ContentClientError.notConfigured(
                service: "the realtime stream at \(redactor.redact(url: baseURL))", operation: "subscribe")
        }
        let secure = components.scheme?.lowercased() == "https"
        // URLComponents keeps an IPv6 literal's brackets, which a DNS target must not have.
        let bare = host.hasPrefix("[") && host.hasSuffix("]") ? String(host.dropFirst().dropLast()) : host
        return (bare, components.port ?? (secure ? 443 : 80), secure)
    }

    /// The credentials as gRPC metadata, the names the SDKs send, and the secret values among them.
    static func metadata(_ settings: DataConnectSettings, location: String) async throws -> (Metadata, [String]) {
        var metadata = Metadata()
        var secrets: [String] = []
        for (name, value) in settings.headers.sorted(by: { $0.key < $1.key }) {
            metadata.addString(value, forKey: name.lowercased())
        }
        metadata.addString("location=\(location)&frontend=data", forKey: "x-goog-request-params")
        if let idToken = try await settings.idToken?(), !idToken.isEmpty {
            metadata.addString(idToken, forKey: "x-firebase-auth-token")
            secrets.append(idToken)
        }
        if let appCheck = try await settings.appCheckToken?(), !appCheck.isEmpty {
            metadata.addString(appCheck, forKey: "x-firebase-appcheck")
            secrets.append(appCheck)
        }
        if let key = settings.apiKey, !key.isEmpty {
            metadata.addString(key, forKey: "x-goog-api-key")
            secrets.append(key)
        }
        return (metadata, secrets)
    }
}

/// What a subscription carries from one stream to the next: the last result's etag, and the backoff.
private actor SubscriptionProgress {
    var etag = ""
    private var backoff = SubscriptionBackoff()

    func received(etag: String) {
        self.etag = etag
        backoff.reset()
    }

    func nextDelay() -> Duration { backoff.next() }
}
