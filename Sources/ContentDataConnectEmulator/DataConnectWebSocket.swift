internal import ContentDataConnect
internal import ContentDataConnectWire
public import ContentEmulator
internal import Foundation
internal import HTTPTypes
public import Logging
internal import SwiftProtobuf

/// `ConnectorStreamService.Connect` as the web SDK opens it: a WebSocket at
/// `/ws/google.firebase.dataconnect.v1.ConnectorStreamService.Connect/{project}/locations/{location}/services/{service}`
/// on the Data Connect port, carrying the same stream as the gRPC method.
///
/// Each message from the client is a `StreamRequest` in protobuf's JSON form (`requestId`, `subscribe: {
/// operationName, variables }`, `headers`); each answer is a text message `{"result": StreamResponse}`, which is
/// what the web SDK reads from the emulator (firebase-js-sdk's `WebSocketTransport.parseWebSocketData`: a text
/// message must wrap the response in `result`, a binary one, which its comment says production sends, is the response
/// itself; FlutterFire's WebSocket transport reads the same path and messages). A message that is not a request
/// closes the connection with 1007 and what was wrong; the server stopping closes it with 1001.
struct DataConnectWebSocketEndpoint: EmulatorWebSocketEndpoint {
    static let pathPrefix = "/ws/google.firebase.dataconnect.v1.ConnectorStreamService.Connect/"
    /// The path web SDK releases 12.12.0 to 12.17.1 open, with the location alone.
    ///
    /// The service is the one each request's `name` names, as on the gRPC stream. The SDK moved to the path above for production's server
    /// affinity (firebase-js-sdk 981204d8, "update websocket URL for GSLB soft stickiness", first in 12.18.0), so
    /// apps built with those releases still open this one.
    static let legacyPathPrefix = "/ws/google.firebase.dataconnect.v1.ConnectorStreamService/Connect/locations/"

    let engine: DataConnectEngine
    let stopping: StopSignal

    func accepts(path: String) -> Bool {
        path.hasPrefix(Self.pathPrefix) || path.hasPrefix(Self.legacyPathPrefix)
    }

    func serve(_ connection: EmulatorWebSocketConnection) async throws {
        if let refusal = refusal(path: connection.path) {
            await connection.close(.policyViolation, reason: refusal)
            return
        }
        // A browser cannot set headers on a WebSocket; other clients may send the caller on the upgrade request.
        let token = HTTPField.Name("X-Firebase-Auth-Token").flatMap { connection.headers[$0] }
        let requests = Requests(messages: connection.messages)
        do {
            try await StreamSession.run(
                engine: engine, stopping: stopping, token: token, requests: requests,
                send: { response in
                    guard let frame = Self.frame(response) else { return }
                    // A client that went away leaves nothing to write to; its stream is ending.
                    try? await connection.send(frame)
                })
            if stopping.isStopped {
                await connection.close(.goingAway, reason: "the emulator is stopping")
            } else {
                await connection.close(.normal, reason: "")
            }
        } catch let error as MalformedRequest {
            await connection.close(.invalidMessage, reason: error.reason)
        }
    }

    /// Why a path is not this service's stream, or `nil` when it is.
    private func refusal(path: String) -> String? {
        if path.hasPrefix(Self.legacyPathPrefix) {
            let location = path.dropFirst(Self.legacyPathPrefix.count)
            guard location.isEmpty || location.contains("/") else { return nil }
            return "the stream is at \(Self.pathPrefix){project}/locations/{location}/services/{service}"
        }
        let parts = path.dropFirst(Self.pathPrefix.count).split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 5, !parts[0].isEmpty, parts[1] == "locations", parts[3] == "services" else {
            return "the stream is at \(Self.pathPrefix){project}/locations/{location}/services/{service}"
        }
        return DataConnectGRPCService.serviceMismatch(service: parts[4], workspace: engine.workspace)
    }

    struct MalformedRequest: Error {
        var reason: String
    }

    /// A connection's messages as requests; one that is not ends them with ``MalformedRequest``.
    struct Requests: AsyncSequence, Sendable {
        let messages: EmulatorWebSocketConnection.Messages

        struct AsyncIterator: AsyncIteratorProtocol {
            var messages: EmulatorWebSocketConnection.Messages.AsyncIterator

            mutating func next() async throws -> Google_Firebase_Dataconnect_V1_StreamRequest? {
                guard let text = try await messages.next() else { return nil }
                return try DataConnectWebSocketEndpoint.request(text)
            }
        }

        func makeAsyncIterator() -> AsyncIterator {
            AsyncIterator(messages: messages.makeAsyncIterator())
        }
    }

    /// A client message as a request.
    static func request(_ text: String) throws(MalformedRequest) -> Google_Firebase_Dataconnect_V1_StreamRequest {
        var options = JSONDecodingOptions()
        // Newer SDKs may send fields this emulator does not know; the service ignores them too.
        options.ignoreUnknownFields = true
        do {
            return try Google_Firebase_Dataconnect_V1_StreamRequest(jsonString: text, options: options)
        } catch {
            // The reason is all a client sees (a close frame holds 123 bytes): what was wrong, then the form.
            guard (try? JSONSerialization.jsonObject(with: Data(text.utf8))) is [String: Any] else {
                throw MalformedRequest(reason: "a message is not a JSON object; send a StreamRequest as JSON")
            }
            throw MalformedRequest(
                reason: "a message is not a StreamRequest (\(error)); send {requestId, subscribe: {operationName}}")
        }
    }

    /// A response as the emulator sends it: `{"result": …}`.
    static func frame(_ response: Google_Firebase_Dataconnect_V1_StreamResponse) -> String? {
        guard let json = try? response.jsonString() else { return nil }
        // The web SDK refuses a message without `requestId`, which protobuf's JSON form leaves out when it is empty
        // (the refusal of a request that had none).
        guard response.requestID.isEmpty else { return "{\"result\":" + json + "}" }
        let rest = json.dropFirst()
        return "{\"result\":{\"requestId\":\"\"" + (rest == "}" ? "" : ",") + rest + "}"
    }
}

extension DataConnectEmulator {
    /// The realtime stream of the web SDK, on the Data Connect port.
    ///
    /// - Parameter logger: Unused: the stream logs nothing of its own.
    /// - Returns: The endpoint.
    public func webSocketEndpoint(logger: Logger) -> (any EmulatorWebSocketEndpoint)? {
        DataConnectWebSocketEndpoint(engine: engine, stopping: stopping)
    }
}
