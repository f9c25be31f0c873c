public import ContentCore
public import ContentDataConnect
public import ContentJSON
internal import ContentKit

/// What watching a query yields: a new result, or word that the connection was lost and when it is tried again.
public enum WatchEvent: Sendable {
    /// The query's result, first as subscribed, then each time it changed.
    case result(ContentResult)
    /// The stream ended; it is opened again after `delay`, and the query subscribed again.
    case reconnecting(delay: Duration, reason: String)
}

extension DataConnectBackend {
    /// Subscribes to a query over the gRPC `ConnectorStreamService` and yields every new result.
    ///
    /// The stream is the one generated clients open (``DataConnectSubscription``): to the emulator in plain text or
    /// to the service over TLS, with the same credentials as a REST call, reconnecting with backoff and resuming from
    /// the last result's `data_etag`. A subscription the server cancels or refuses ends the watch with its reason.
    ///
    /// - Parameters:
    ///   - operation: The query.
    ///   - connector: Its connector.
    ///   - variables: Its variables.
    /// - Returns: The events, until the task iterating them is cancelled or the watch fails.
    public func watch(_ operation: ConnectorOperation, in connector: Connector, variables: JSONObject)
        -> AsyncThrowingStream<WatchEvent, any Error>
    {
        let idToken = idToken
        let appCheck = configuration.auth?.appCheckToken?.value
        let settings = DataConnectSettings(
            endpoint: .url(baseURL), project: configuration.project, location: location, service: service,
            idToken: { idToken }, appCheckToken: { appCheck }, apiKey: configuration.auth?.apiKey?.value,
            headers: configuration.headers ?? [:])
        let events = DataConnectSubscription.events(
            of: DataConnectOperation(
                location: location, service: service, connector: connector.id, name: operation.name, kind: .query),
            variables: variables, settings: settings)
        let (stream, continuation) = AsyncThrowingStream<WatchEvent, any Error>.makeStream()
        let task = Task {
            // What was last shown. A `data_etag` covers the whole response, extensions included, so a server
            // started again whose rows got new generated keys (a seed's `uuidV4()`) sends the same data under a
            // new etag; a watch shows data and errors, and shows them again only when they changed.
            var shown: JSONObject?
            do {
                for try await event in events {
                    switch event {
                    case .result(let data, let errors, _):
                        var body: JSONObject = ["data": data]
                        if !errors.isEmpty { body["errors"] = .array(errors) }
                        guard body != shown else { continue }
                        shown = body
                        let http = HTTPTransportResponse(
                            status: 200, headers: ["Content-Type": "application/json"],
                            body: JSONValue.object(body).serialized(), url: baseURL)
                        continuation.yield(.result(try result(of: http, operation: operation, connector: connector)))
                    case .reconnecting(let delay, let reason):
                        continuation.yield(.reconnecting(delay: delay, reason: reason))
                    }
                }
                continuation.finish()
            } catch let error as ContentClientError {
                continuation.finish(throwing: failure(error))
            } catch {
                continuation.finish(throwing: error)
            }
        }
        continuation.onTermination = { _ in task.cancel() }
        return stream
    }

    /// A subscription's end as the error the REST call would have been.
    private func failure(_ error: ContentClientError) -> DataConnectError {
        switch error {
        case .subscriptionRefused(_, let status, let code, let message):
            return DataConnectError(
                kind: .httpStatus(status),
                description: "\(context.redactor.redact(url: baseURL)): the subscription was refused: \(code): "
                    + context.redactor.redact(message))
        default:
            return DataConnectError(kind: .operationFailed, description: context.redactor.redact(error.description))
        }
    }
}
