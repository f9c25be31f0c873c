internal import ContentCore
internal import ContentHTTP
internal import NIOConcurrencyHelpers

/// What a generated client's runtime object (``DataConnect``, ``AEM``) keeps for its service: the settings calls
/// read, the cache's maximum age, the cache, and the one client every call goes through: the caller's transport,
/// or an HTTP client made at the first call and kept, so that calls reuse its connections.
final class ServiceConnection<Settings: Sendable>: Sendable {
    private struct State {
        var settings: Settings
        var cacheMaxAge: Duration = .zero
        var client: ContentClient?
    }

    private let state: NIOLockedValueBox<State>
    private let http: HTTPSettings
    private let transport: (any HTTPTransport)?
    /// Query results by operation and variables.
    let cache = EntityCache()

    /// - Parameters:
    ///   - settings: Where the service is and who calls it.
    ///   - http: The HTTP client's settings, when one is made.
    ///   - transport: A transport the caller owns, instead.
    init(settings: Settings, http: HTTPSettings, transport: (any HTTPTransport)?) {
        state = NIOLockedValueBox(State(settings: settings))
        self.http = http
        self.transport = transport
    }

    var settings: Settings {
        get { state.withLockedValue { $0.settings } }
        set { state.withLockedValue { $0.settings = newValue } }
    }

    /// Changes the settings in one step, so that a change made at the same time from elsewhere is not lost.
    func updateSettings(_ change: (inout Settings) -> Void) {
        state.withLockedValue { change(&$0.settings) }
    }

    /// Masks the secrets the HTTP settings name, for errors that quote the service.
    var redactor: Redactor { http.redactor }

    var cacheMaxAge: Duration {
        get { state.withLockedValue { $0.cacheMaxAge } }
        set { state.withLockedValue { $0.cacheMaxAge = newValue } }
    }

    /// The client, made now if this is the first call since the start or the last ``shutdown()``.
    var client: ContentClient {
        state.withLockedValue { state in
            if let client = state.client { return client }
            let configuration = ContentClientConfiguration(http: http)
            let made =
                transport.map { ContentClient(configuration: configuration, transport: $0) }
                ?? ContentClient(configuration: configuration)
            state.client = made
            return made
        }
    }

    /// Closes the client's connections, if one was made.
    func shutdown() async throws {
        let made = state.withLockedValue { state in
            defer { state.client = nil }
            return state.client
        }
        try await made?.shutdown()
    }
}
