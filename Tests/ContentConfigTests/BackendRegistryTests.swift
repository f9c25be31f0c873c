import ContentConfig
import ContentCore
import ContentJSON
import ContentRuntime
import ContentTesting
import ContentYAML
import Testing

// MARK: - Test plugins

/// A plugin shaped like a real one: a URL and an auth mode.
private enum TestAEMPlugin: BackendPlugin {
    enum Auth: String, Decodable, Sendable, CaseIterable {
        case none, basic, token
    }

    struct Configuration: Decodable, Sendable {
        var url: String
        var auth: Auth
    }

    static let typeName = "testaem"
    static let summary = "A test plugin with a URL and an auth mode"

    static func makeBackend(name: String, configuration: Configuration, context: BackendContext) throws
        -> any ContentBackend
    {
        TestBackend(name: name, url: configuration.url, auth: configuration.auth)
    }
}

/// A second plugin, so that lookups have something to choose between.
private enum TestGraphQLPlugin: BackendPlugin {
    struct Configuration: Decodable, Sendable {
        var endpoint: String
    }

    static let typeName = "testgql"
    static let summary = "A test plugin with an endpoint"

    static func makeBackend(name: String, configuration: Configuration, context: BackendContext) throws
        -> any ContentBackend
    {
        TestBackend(name: name, url: configuration.endpoint, auth: .none)
    }
}

/// A plugin that claims the first test plugin's type name.
private enum ImpostorPlugin: BackendPlugin {
    struct Configuration: Decodable, Sendable {}

    static let typeName = "testaem"
    static let summary = "Claims another plugin's type name"

    static func makeBackend(name: String, configuration: Configuration, context: BackendContext) throws
        -> any ContentBackend
    {
        TestBackend(name: name, url: "", auth: .none)
    }
}

private struct TestBackend: ContentBackend {
    let name: String
    let url: String
    let auth: TestAEMPlugin.Auth

    func execute(_ request: ContentRequest) async throws -> ContentResult {
        ContentResult(body: .document(.null))
    }
}

/// A transport for backends that must never send anything.
private struct UnusedTransport: HTTPTransport {
    struct NotConnected: Error {}

    func send(_ request: HTTPTransportRequest) async throws -> HTTPTransportResponse {
        throw NotConnected()
    }
}

private let testRegistry = BackendRegistry([TestAEMPlugin.self, TestGraphQLPlugin.self])

/// A session over `yaml`, read as if from `content.yaml` found with `--config`.
private func makeSession(
    _ yaml: String,
    registry: BackendRegistry = testRegistry,
    environment: [String: String] = [:]
) throws -> ContentSession {
    var configuration = try ConfigLoader(environment: environment).load(text: yaml, file: "content.yaml")
    configuration.location = ConfigLocation(path: "content.yaml", origin: .flag)
    return ContentSession(configuration: configuration, registry: registry, environment: environment)
}

// Expected positions are 1-based `line:column`, counted by hand: in `    type: testaen` the value starts at
// column 11, and in `    auth: tokn` at column 11.

struct BackendRegistryTests {
    // MARK: - The registry

    @Test func findsPluginsByTypeName() throws {
        let aem = try #require(testRegistry.entry(forType: "testaem"))
        #expect(aem.typeName == "testaem")
        #expect(aem.summary == TestAEMPlugin.summary)
        #expect(ObjectIdentifier(aem.plugin) == ObjectIdentifier(TestAEMPlugin.self))
        let graph = try #require(testRegistry.entry(forType: "testgql"))
        #expect(ObjectIdentifier(graph.plugin) == ObjectIdentifier(TestGraphQLPlugin.self))
        #expect(testRegistry.typeNames == ["testaem", "testgql"])
    }

    @Test func lookupIsExact() {
        #expect(testRegistry.entry(forType: "TESTAEM") == nil)
        #expect(testRegistry.entry(forType: "testae") == nil)
        #expect(testRegistry.entry(forType: "") == nil)
        #expect(BackendRegistry([]).entry(forType: "testaem") == nil)
    }

    @Test func duplicateTypeNamesAreReportedAndTheFirstPluginWins() throws {
        let registry = BackendRegistry([TestAEMPlugin.self, TestGraphQLPlugin.self, ImpostorPlugin.self])
        #expect(registry.duplicateTypeNames == ["testaem"])
        let entry = try #require(registry.entry(forType: "testaem"))
        #expect(entry.summary == TestAEMPlugin.summary)
        #expect(testRegistry.duplicateTypeNames.isEmpty)
    }

    @Test func builtInRegistryHasNoDuplicateTypeNames() {
        #expect(BuiltInBackends.registry.duplicateTypeNames.isEmpty)
    }

    // MARK: - Finding a backend's plugin

    private static let typo = """
        backends:
          wknd:
            type: testaen
            url: https://example.com
            auth: token
        """

    @Test func knownTypeFindsItsPlugin() throws {
        let session = try makeSession("backends:\n  wknd:\n    type: testgql\n    endpoint: https://example.com\n")
        let backend = try session.configuration.backend(named: "wknd")
        let entry = try session.plugin(for: backend)
        #expect(entry.typeName == "testgql")
    }

    @Test func unknownTypeIsReportedAtTheTypeValueWithASuggestion() throws {
        let session = try makeSession(Self.typo)
        let backend = try session.configuration.backend(named: "wknd")
        let error = #expect(throws: ConfigError.self) {
            try session.plugin(for: backend)
        }
        #expect(error?.category == .configuration)
        #expect(error?.yamlError?.mark == YAMLMark(line: 3, column: 11))
        #expect(error?.yamlError?.keyPath == "backends.wknd.type")
        #expect(error?.description.contains("content.yaml:3:11") == true)
        #expect(error?.description.contains("did you mean 'testaem'?") == true)
        #expect(
            error?.description
                == "content.yaml:3:11: backends.wknd.type: unknown backend type 'testaen' (did you mean 'testaem'?)"
        )
    }

    @Test func unknownTypeErrorNamesTheFileItWasReadFrom() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = try directory.write(Self.typo, to: "content.yaml")
        let session = try ContentSession.load(configFlag: path, environment: [:], registry: testRegistry)
        #expect(session.configuration.location == ConfigLocation(path: path, origin: .flag))
        let backend = try session.configuration.backend(named: "wknd")
        let error = #expect(throws: ConfigError.self) {
            try session.plugin(for: backend)
        }
        #expect(error?.description.hasPrefix("\(path):3:11: backends.wknd.type: unknown backend type") == true)
    }

    @Test func unknownTypeFarFromAnyKnownOneListsTheTypes() throws {
        let session = try makeSession("backends:\n  wknd:\n    type: kafka\n")
        let backend = try session.configuration.backend(named: "wknd")
        let error = #expect(throws: ConfigError.self) {
            try session.plugin(for: backend)
        }
        #expect(error?.yamlError?.hint == "built-in types: testaem, testgql")
    }

    @Test func unknownTypeWithNoPluginsSaysSo() throws {
        let session = try makeSession("backends:\n  wknd:\n    type: testaem\n", registry: BackendRegistry([]))
        let backend = try session.configuration.backend(named: "wknd")
        let error = #expect(throws: ConfigError.self) {
            try session.plugin(for: backend)
        }
        #expect(error?.yamlError?.hint == "this build has no backend plugins")
    }

    // MARK: - Validation

    private static let mixed = """
        backends:
          good:
            type: testaem
            url: https://good.example.com
            auth: token
          badauth:
            type: testaem
            url: https://bad.example.com
            auth: tokn
          typo:
            type: testaem
            url: https://typo.example.com
            auth: none
            urls: https://extra.example.com
          missing:
            type: testaem
            auth: basic
          stranger:
            type: testaen
          graph:
            type: testgql
            endpoint: https://graph.example.com
        """

    @Test func validConfigurationHasNoProblems() throws {
        let yaml = """
            backends:
              good:
                type: testaem
                url: https://good.example.com
                auth: basic
              graph:
                type: testgql
                endpoint: https://graph.example.com
            """
        let problems = try makeSession(yaml).validate()
        #expect(problems.isEmpty)
    }

    @Test func validateReportsEveryProblemInFileOrder() throws {
        let problems = try makeSession(Self.mixed).validate()
        let errors = problems.compactMap { $0 as? ConfigError }
        #expect(problems.count == 4)
        #expect(errors.count == 4)
        #expect(errors.map { $0.category } == [.configuration, .configuration, .configuration, .configuration])
        #expect(
            errors.compactMap { $0.yamlError?.keyPath } == [
                "backends.badauth.auth", "backends.typo.urls", "backends.missing", "backends.stranger.type",
            ])
        #expect(
            errors.compactMap { $0.yamlError?.mark } == [
                YAMLMark(line: 9, column: 11), YAMLMark(line: 14, column: 5),
                YAMLMark(line: 16, column: 5), YAMLMark(line: 19, column: 11),
            ])
    }

    @Test func validateNamesTheAllowedValuesOfAPluginEnum() throws {
        let problems = try makeSession(Self.mixed).validate()
        let error = try #require(problems.first as? ConfigError)
        #expect(error.yamlError?.keyPath == "backends.badauth.auth")
        #expect(error.description.contains("expected one of none, basic, token"))
        #expect(
            error.description
                == "content.yaml:9:11: backends.badauth.auth: expected one of none, basic, token, found 'tokn' "
                + "(did you mean 'token'?)"
        )
    }

    @Test func validateReportsAnUnknownKeyInAPluginSectionWithItsPath() throws {
        let problems = try makeSession(Self.mixed).validate()
        let error = try #require(problems.dropFirst().first as? ConfigError)
        #expect(
            error.description
                == "content.yaml:14:5: backends.typo.urls: unknown key 'urls' (did you mean 'url'?)"
        )
    }

    @Test func validateReportsAMissingPluginKeyAtTheSection() throws {
        let problems = try makeSession(Self.mixed).validate()
        let error = try #require(problems.dropFirst(2).first as? ConfigError)
        #expect(error.description == "content.yaml:16:5: backends.missing: missing required key 'url'")
    }

    @Test func pluginSectionDoesNotSeeItsTypeKey() throws {
        // `type` is the registry's; a plugin that does not declare it must not be told it is unknown.
        let problems = try makeSession("backends:\n  graph:\n    type: testgql\n    endpoint: x\n").validate()
        #expect(problems.isEmpty)
    }

    @Test func pluginSectionReadsTheEnvironment() throws {
        let yaml = "backends:\n  wknd:\n    type: testaem\n    url: ${AEM_URL}\n    auth: ${AEM_AUTH:-none}\n"
        let configured = try makeSession(yaml, environment: ["AEM_URL": "https://env.example.com"])
        #expect(configured.validate().isEmpty)
        let unset = try makeSession(yaml, environment: [:]).validate()
        let error = try #require(unset.first as? ConfigError)
        #expect(error.yamlError?.keyPath == "backends.wknd.url")
        #expect(error.description.contains("environment variable AEM_URL is not set"))
    }

    // MARK: - Making a backend

    @Test func madeBackendGetsItsNameAndDecodedConfiguration() async throws {
        let session = try makeSession(Self.mixed)
        let configured = try session.configuration.backend(named: "good")
        let entry = try session.plugin(for: configured)
        let backend = try entry.makeBackend(
            name: configured.name,
            section: configured.section,
            context: BackendContext(transport: UnusedTransport())
        )
        #expect(backend.name == "good")
        let test = try #require(backend as? TestBackend)
        #expect(test.url == "https://good.example.com")
        #expect(test.auth == .token)
        let result = try await backend.execute(ContentRequest(operation: "anything"))
        guard case .document(let document) = result.body else {
            Issue.record("expected a whole document")
            return
        }
        #expect(document == .null)
    }

    @Test func makingABackendFromABadSectionThrowsTheDecodingError() throws {
        let session = try makeSession(Self.mixed)
        let configured = try session.configuration.backend(named: "badauth")
        let entry = try session.plugin(for: configured)
        let error = #expect(throws: ConfigError.self) {
            try entry.makeBackend(
                name: configured.name,
                section: configured.section,
                context: BackendContext(transport: UnusedTransport())
            )
        }
        #expect(error?.yamlError?.keyPath == "backends.badauth.auth")
    }

    // MARK: - Choosing a backend

    private static let several = """
        backends:
          wknd:
            type: testaem
            url: https://wknd.example.com
            auth: none
          staging:
            type: testaem
            url: https://staging.example.com
            auth: basic
          graph:
            type: testgql
            endpoint: https://graph.example.com
        """

    @Test func onlyBackendOfATypeIsChosenWithoutAName() throws {
        let backend = try makeSession(Self.several).selectBackend(named: nil, type: "testgql")
        #expect(backend.name == "graph")
    }

    @Test func namedBackendIsChosen() throws {
        let backend = try makeSession(Self.several).selectBackend(named: "staging", type: "testaem")
        #expect(backend.name == "staging")
        #expect(backend.typeName == "testaem")
    }

    @Test func severalBackendsOfATypeAreAmbiguousWithoutAName() throws {
        let session = try makeSession(Self.several)
        let error = #expect(throws: ConfigError.self) {
            try session.selectBackend(named: nil, type: "testaem")
        }
        #expect(
            error?.description
                == "several 'testaem' backends are configured (wknd, staging); pick one with --backend NAME"
        )
    }

    @Test func unknownBackendNameSuggestsTheClosestOne() throws {
        let session = try makeSession(Self.several)
        let error = #expect(throws: ConfigError.self) {
            try session.selectBackend(named: "wkdn", type: "testaem")
        }
        #expect(error?.description.contains("no backend named 'wkdn' in content.yaml") == true)
        #expect(error?.description.contains("(configured: wknd, staging, graph)") == true)
        #expect(error?.description.contains("did you mean 'wknd'?") == true)
    }

    @Test func backendOfAnotherTypeIsNotChosenByName() throws {
        let session = try makeSession(Self.several)
        let error = #expect(throws: ConfigError.self) {
            try session.selectBackend(named: "graph", type: "testaem")
        }
        #expect(error?.description.contains("backend 'graph' is of type 'testgql'") == true)
        #expect(error?.description.contains("needs a 'testaem' backend") == true)
    }

    @Test func missingTypeSaysHowToAddOne() throws {
        let session = try makeSession(Self.several)
        let error = #expect(throws: ConfigError.self) {
            try session.selectBackend(named: nil, type: "testrest")
        }
        #expect(
            error?.description
                == "no backend of type 'testrest' is configured in content.yaml; "
                + "add one under `backends:` with `type: testrest`"
        )
    }

    @Test func emptyConfigurationHasNoBackends() {
        let session = ContentSession(configuration: .empty, registry: testRegistry, environment: [:])
        #expect(session.validate().isEmpty)
        #expect(throws: ConfigError.self) {
            try session.selectBackend(named: nil, type: "testaem")
        }
        let error = #expect(throws: ConfigError.self) {
            try session.selectBackend(named: "wknd", type: "testaem")
        }
        #expect(error?.description.contains("none are configured") == true)
    }
}
