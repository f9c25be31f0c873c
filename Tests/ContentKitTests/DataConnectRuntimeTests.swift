import Foundation
import Testing

@testable import ContentKit

/// The runtime's small parts: how long a subscription waits before reconnecting, who a token says the caller is,
/// and settings that never print their secrets.
struct DataConnectRuntimeTests {
    @Test func theBackoffGrowsByOnePointThreeFromOneSecondUpToThirty() {
        var backoff = SubscriptionBackoff()
        // The middle of the jitter is the wait itself.
        let waits = (0..<20).map { _ in backoff.next(random: 0.5) }
        #expect(waits[0] == .seconds(1))
        #expect(waits[1] == .milliseconds(1300))
        #expect(waits.last == .seconds(30))
        #expect(zip(waits, waits.dropFirst()).allSatisfy { $0 <= $1 })
        // Jitter stays within 20% either way.
        var jittered = SubscriptionBackoff()
        #expect(jittered.next(random: 0) == .milliseconds(800))
        #expect(jittered.next(random: 0.999_999) < .milliseconds(1560))
        jittered.reset()
        #expect(jittered.current == .seconds(1))
    }

    @Test func theCallerIsTheTokensUserIdOrAHashNeverTheToken() {
        func encode(_ text: String) -> String {
            Data(text.utf8).base64EncodedString().replacingOccurrences(of: "+", with: "-")
                .replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
        }
        let firebase = encode(#"{"alg":"none"}"#) + "." + encode(#"{"user_id":"ana","sub":"x"}"#) + "."
        #expect(CallerIdentity.uid(ofIDToken: firebase) == "uid:ana")
        let plain = encode(#"{"alg":"none"}"#) + "." + encode(#"{"sub":"ben"}"#) + "."
        #expect(CallerIdentity.uid(ofIDToken: plain) == "uid:ben")
        let opaque = "not-a-jwt-secret"
        #expect(CallerIdentity.uid(ofIDToken: opaque).hasPrefix("token:"))
        #expect(!CallerIdentity.uid(ofIDToken: opaque).contains(opaque))
        #expect(CallerIdentity.uid(ofIDToken: "") == "")
    }

    @Test func theStreamsEndpointComesFromTheBaseURL() throws {
        #expect(try DataConnectSubscription.endpoint("http://127.0.0.1:9399") == ("127.0.0.1", 9399, false))
        #expect(
            try DataConnectSubscription.endpoint("https://firebasedataconnect.googleapis.com") == (
                "firebasedataconnect.googleapis.com", 443, true
            ))
        #expect(try DataConnectSubscription.endpoint("http://[::1]:9399") == ("::1", 9399, false))
        #expect(throws: ContentClientError.self) { try DataConnectSubscription.endpoint("not a url") }
    }

    @Test func settingsNeverPrintTheirSecrets() {
        let dataConnect = DataConnectSettings(
            endpoint: .production, project: "p", idToken: { "id-token-secret" }, apiKey: "api-key-secret",
            headers: ["X-Custom": "header-secret"])
        let aem = AEMSettings(
            url: "https://user:url-secret@author.example", authentication: .basic(username: "u", password: "pw-secret"),
            headers: ["Authorization": "header-secret"])
        for text in [
            "\(dataConnect)", String(reflecting: dataConnect), "\(aem)", String(reflecting: aem),
            {
                var out = ""
                dump(dataConnect, to: &out)
                dump(aem, to: &out)
                return out
            }(),
        ] {
            for secret in ["api-key-secret", "header-secret", "url-secret", "pw-secret", "id-token-secret"] {
                #expect(!text.contains(secret), "\(text)")
            }
        }
        #expect("\(dataConnect)".contains("apiKey: <redacted>"))
    }

    /// A subscription whose stream cannot be opened says so after a few attempts, instead of waiting in silence.
    @Test func aSubscriptionToNothingFailsWithWhereItLooked() async throws {
        let dataConnect = DataConnect(
            connectorConfig: ConnectorConfig(serviceId: "s", location: "us-central1", connector: "c"), projectID: "p")
        dataConnect.useEmulator(port: 9)
        var failure: ContentClientError?
        do {
            for try await _ in dataConnect.subscribe("listThings", variables: NoVariables(), as: AnyValue.self) {}
        } catch let error as ContentClientError {
            failure = error
        }
        guard case .streamUnavailable(let operation, let url, _)? = failure else {
            Issue.record("expected streamUnavailable, got \(String(describing: failure))")
            return
        }
        #expect(operation == "listThings")
        #expect(url == "http://127.0.0.1:9")
        #expect(failure?.description.contains("useEmulator") == true)
    }
}
