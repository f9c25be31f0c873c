import Testing

@testable import ContentCore

// MARK: - Test plugins

/// A backend that only remembers how it was made.
private struct EchoBackend: ContentBackend {
    struct NotImplemented: Error {}

    let name: String
    let detail: String

    func execute(_ request: ContentRequest) async throws -> ContentResult {
        throw NotImplemented()
    }
}

private enum AlphaPlugin: BackendPlugin {
    struct Configuration: Decodable, Sendable {
        var url: String
    }

    static let typeName = "alpha"
    static let summary = "The first test plugin"

    static func makeBackend(name: String, configuration: Configuration, context: BackendContext) throws
        -> any ContentBackend
    {
        EchoBackend(name: name, detail: "alpha:" + configuration.url)
    }
}

private enum BetaPlugin: BackendPlugin {
    struct Configuration: Decodable, Sendable {
        var endpoint: String
    }

    static let typeName = "beta"
    static let summary = "The second test plugin"

    static func makeBackend(name: String, configuration: Configuration, context: BackendContext) throws
        -> any ContentBackend
    {
        EchoBackend(name: name, detail: "beta:" + configuration.endpoint)
    }
}

/// Claims `alpha` as well.
private enum ImpostorPlugin: BackendPlugin {
    struct Configuration: Decodable, Sendable {}

    static let typeName = "alpha"
    static let summary = "Claims another plugin's type name"

    static func makeBackend(name: String, configuration: Configuration, context: BackendContext) throws
        -> any ContentBackend
    {
        EchoBackend(name: name, detail: "impostor")
    }
}

/// A plugin whose factory refuses, as one does for settings that decode but cannot work.
private enum RefusingPlugin: BackendPlugin {
    struct Configuration: Decodable, Sendable {}

    static let typeName = "refusing"
    static let summary = "Never makes a backend"

    static func makeBackend(name: String, configuration: Configuration, context: BackendContext) throws
        -> any ContentBackend
    {
        throw TestFailure(category: .configuration, description: "backend '\(name)' cannot work")
    }
}

/// A section holding an already-decoded configuration, or nothing that decodes.
private struct StubSection: ConfigSection {
    struct WrongType: Error {}

    let value: any Sendable
    var location: String { "test.yaml:1:1" }
    var baseDirectory: String { "/tmp" }

    func decode<T: Decodable>(_ type: T.Type) throws -> T {
        guard let decoded = value as? T else { throw WrongType() }
        return decoded
    }
}

/// A transport for backends that must never send anything.
private struct UnusedTransport: HTTPTransport {
    struct NotConnected: Error {}

    func send(_ request: HTTPTransportRequest) async throws -> HTTPTransportResponse {
        throw NotConnected()
    }
}

private struct TestFailure: ContentFailure {
    let category: FailureCategory
    let description: String
}

private struct PlainError: Error {}

private let context = BackendContext(transport: UnusedTransport())

struct RegistryTests {
    // MARK: - Lookup

    @Test func findsEachPluginByItsTypeName() throws {
        let registry = BackendRegistry([AlphaPlugin.self, BetaPlugin.self])
        let alpha = try #require(registry.entry(forType: "alpha"))
        #expect(alpha.typeName == "alpha")
        #expect(alpha.summary == "The first test plugin")
        #expect(ObjectIdentifier(alpha.plugin) == ObjectIdentifier(AlphaPlugin.self))
        let beta = try #require(registry.entry(forType: "beta"))
        #expect(ObjectIdentifier(beta.plugin) == ObjectIdentifier(BetaPlugin.self))
    }

    @Test func lookupIsExact() {
        let registry = BackendRegistry([AlphaPlugin.self, BetaPlugin.self])
        #expect(registry.entry(forType: "Alpha") == nil)
        #expect(registry.entry(forType: "alph") == nil)
        #expect(registry.entry(forType: "alpha ") == nil)
        #expect(registry.entry(forType: "") == nil)
        #expect(BackendRegistry([]).entry(forType: "alpha") == nil)
    }

    @Test func typeNamesFollowRegistrationOrder() {
        #expect(BackendRegistry([BetaPlugin.self, AlphaPlugin.self]).typeNames == ["beta", "alpha"])
        #expect(BackendRegistry([AlphaPlugin.self, BetaPlugin.self]).typeNames == ["alpha", "beta"])
        #expect(BackendRegistry([]).typeNames.isEmpty)
    }

    @Test func duplicateTypeNamesAreReportedAndTheFirstPluginWins() throws {
        let registry = BackendRegistry([AlphaPlugin.self, BetaPlugin.self, ImpostorPlugin.self])
        #expect(registry.duplicateTypeNames == ["alpha"])
        #expect(registry.typeNames == ["alpha", "beta", "alpha"])
        let entry = try #require(registry.entry(forType: "alpha"))
        #expect(ObjectIdentifier(entry.plugin) == ObjectIdentifier(AlphaPlugin.self))
        let reversed = BackendRegistry([ImpostorPlugin.self, AlphaPlugin.self])
        #expect(reversed.entry(forType: "alpha")?.summary == "Claims another plugin's type name")
        #expect(BackendRegistry([AlphaPlugin.self, BetaPlugin.self]).duplicateTypeNames.isEmpty)
    }

    @Test func aNameClaimedThreeTimesIsReportedForEachExtraClaim() {
        let registry = BackendRegistry([AlphaPlugin.self, ImpostorPlugin.self, BetaPlugin.self, AlphaPlugin.self])
        #expect(registry.duplicateTypeNames == ["alpha", "alpha"])
    }

    // MARK: - Making backends

    @Test func entryMakesABackendFromItsOwnConfiguration() throws {
        let registry = BackendRegistry([AlphaPlugin.self, BetaPlugin.self])
        let beta = try #require(registry.entry(forType: "beta"))
        let section = StubSection(value: BetaPlugin.Configuration(endpoint: "https://graph.example.com"))
        let backend = try beta.makeBackend(name: "graph", section: section, context: context)
        #expect(backend.name == "graph")
        let echo = try #require(backend as? EchoBackend)
        #expect(echo.detail == "beta:https://graph.example.com")
    }

    @Test func entryValidatesAgainstItsOwnConfigurationType() throws {
        let registry = BackendRegistry([AlphaPlugin.self, BetaPlugin.self])
        let alpha = try #require(registry.entry(forType: "alpha"))
        try alpha.validate(StubSection(value: AlphaPlugin.Configuration(url: "https://a")))
        #expect(throws: StubSection.WrongType.self) {
            try alpha.validate(StubSection(value: BetaPlugin.Configuration(endpoint: "https://b")))
        }
        #expect(throws: StubSection.WrongType.self) {
            try alpha.makeBackend(
                name: "x", section: StubSection(value: BetaPlugin.Configuration(endpoint: "https://b")),
                context: context)
        }
    }

    @Test func factoryFailuresPassThrough() throws {
        let entry = try #require(BackendRegistry([RefusingPlugin.self]).entry(forType: "refusing"))
        try entry.validate(StubSection(value: RefusingPlugin.Configuration()))
        let error = #expect(throws: TestFailure.self) {
            try entry.makeBackend(
                name: "nope", section: StubSection(value: RefusingPlugin.Configuration()), context: context)
        }
        #expect(error?.category == .configuration)
        #expect(error?.description == "backend 'nope' cannot work")
    }

    // MARK: - Failure categories

    @Test func contentFailureKeepsItsOwnCategory() {
        for category in FailureCategory.allCases {
            let error: any Error = TestFailure(category: category, description: "x")
            #expect(error.failureCategory == category)
        }
    }

    @Test func plainErrorIsUnexpected() {
        let error: any Error = PlainError()
        #expect(error.failureCategory == .unexpected)
        #expect(StubSection.WrongType().failureCategory == .unexpected)
    }
}
