import ContentHTTP
import ContentKit
import ContentRuntime
import ContentTesting
import Testing

/// `ContentClientConfiguration(contentYAML:)`: the settings of a `content.yaml`, for programs that share the
/// command's configuration.
struct ContentClientConfigurationYAMLTests {
    @Test func theBackendsOfAFileBecomeSettings() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let file = try directory.write(
            """
            defaults: { timeout: 5s, retries: 0 }
            backends:
              movies:
                type: dataconnect
                project: demo
                emulator: 127.0.0.1:9399
                location: europe-west1
                auth: { idToken: "${TOKEN}", apiKey: key-1 }
              wknd:
                type: aem
                url: https://publish.example.com/
                auth: { type: basic, username: admin, password: "${PASSWORD}" }
            """, to: "content.yaml")
        let configuration = try ContentClientConfiguration(
            contentYAML: file, environment: ["TOKEN": "id-token", "PASSWORD": "pw"])
        let dataConnect = try #require(configuration.dataConnect)
        #expect(dataConnect.endpoint.baseURL == "http://127.0.0.1:9399")
        #expect(dataConnect.project == "demo")
        #expect(dataConnect.location == "europe-west1")
        #expect(dataConnect.service == nil)
        #expect(dataConnect.apiKey == "key-1")
        #expect(try await dataConnect.idToken?() == "id-token")
        let aem = try #require(configuration.aem)
        #expect(aem.url == "https://publish.example.com")
        guard case .basic(let username, let password) = aem.authentication else {
            Issue.record("expected basic authentication")
            return
        }
        #expect(username == "admin" && password == "pw")
        #expect(configuration.http.totalTimeout == .seconds(5))
        #expect(configuration.http.retry.maxRetries == 0)
    }

    @Test func theEmulatorVariableWinsOverProduction() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let file = try directory.write(
            "backends:\n  movies:\n    type: dataconnect\n    project: demo\n", to: "content.yaml")
        let local = try ContentClientConfiguration(
            contentYAML: file, environment: ["FIREBASE_DATA_CONNECT_EMULATOR_HOST": "localhost:9999"])
        #expect(local.dataConnect?.endpoint.baseURL == "http://localhost:9999")
        let production = try ContentClientConfiguration(contentYAML: file, environment: [:])
        #expect(production.dataConnect?.endpoint.baseURL == "https://firebasedataconnect.googleapis.com")
        #expect(production.aem == nil)
    }

    @Test func anUnsetVariableIsAnErrorWithItsPlace() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let file = try directory.write(
            "backends:\n  wknd:\n    type: aem\n    url: ${AEM_URL}\n", to: "content.yaml")
        do {
            _ = try ContentClientConfiguration(contentYAML: file, environment: [:])
            Issue.record("an unset variable was accepted")
        } catch {
            #expect("\(error)".contains("content.yaml:4:"), "\(error)")
            #expect("\(error)".contains("AEM_URL"), "\(error)")
        }
    }
}
