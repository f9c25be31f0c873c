import ContentConfig
import ContentCore
import ContentTesting
import ContentYAML
import Foundation
import Testing

// Expected positions are 1-based `line:column`, counted by hand: in `    type: ~` the value starts at column 11.

private func load(_ yaml: String, environment: [String: String] = [:]) throws -> ContentConfiguration {
    try ConfigLoader(environment: environment).load(text: yaml, file: "content.yaml")
}

/// The YAML problem loading `yaml` throws; records an issue when it throws none, or throws no YAML problem.
private func loadError(
    _ yaml: String,
    environment: [String: String] = [:],
    sourceLocation: SourceLocation = #_sourceLocation
) throws -> YAMLError {
    let error = try #require(throws: ConfigError.self, sourceLocation: sourceLocation) {
        try ConfigLoader(environment: environment).load(text: yaml, file: "content.yaml")
    }
    #expect(error.category == .configuration, sourceLocation: sourceLocation)
    let yamlError = try #require(error.yamlError, sourceLocation: sourceLocation)
    #expect(error.description == yamlError.description, sourceLocation: sourceLocation)
    return yamlError
}

struct ConfigLoaderTests {
    // MARK: - Defaults

    @Test func readsDefaultsWithTheirUnits() throws {
        let yaml = """
            defaults:
              output: json
              timeout: 5s
              retries: 3
              maxResponseSize: 1MiB
            """
        let configuration = try load(yaml)
        #expect(configuration.defaults.timeout == .seconds(5))
        #expect(configuration.defaults.retries == 3)
        #expect(configuration.defaults.maxResponseBytes == 1_048_576)
        #expect(configuration.output == .json)
    }

    @Test func emptyFileGivesTheBuiltInDefaults() throws {
        let configuration = try load("")
        #expect(configuration.defaults == BackendDefaults())
        #expect(configuration.defaults.timeout == .seconds(30))
        #expect(configuration.defaults.retries == 2)
        #expect(configuration.defaults.maxResponseBytes == 256 << 20)
        #expect(configuration.output == nil)
        #expect(configuration.backends.isEmpty)
        #expect(configuration.warnings.isEmpty)
        #expect(configuration.secrets.isEmpty)
        #expect(configuration.location == nil)
    }

    @Test func partialDefaultsKeepTheRest() throws {
        let configuration = try load("defaults:\n  retries: 0\n")
        #expect(configuration.defaults.retries == 0)
        #expect(configuration.defaults.timeout == .seconds(30))
    }

    @Test(arguments: [
        ("500ms", Duration.milliseconds(500)),
        ("2m", Duration.seconds(120)),
        ("1.5s", Duration.milliseconds(1500)),
        ("1h", Duration.seconds(3600)),
        ("7", Duration.seconds(7)),
    ])
    func readsEachDurationForm(text: String, expected: Duration) throws {
        let configuration = try load("defaults:\n  timeout: \(text)\n")
        #expect(configuration.defaults.timeout == expected)
    }

    @Test(arguments: [
        ("4096", 4096),
        ("10MB", 10_000_000),
        ("512KiB", 524_288),
        ("1GiB", 1 << 30),
        ("2kB", 2000),
    ])
    func readsEachSizeForm(text: String, expected: Int) throws {
        let configuration = try load("defaults:\n  maxResponseSize: \(text)\n")
        #expect(configuration.defaults.maxResponseBytes == expected)
    }

    @Test(arguments: ["11", "-1", "100"])
    func retriesOutOfRangeIsAnError(text: String) throws {
        let error = try loadError("defaults:\n  retries: \(text)\n")
        #expect(error.mark == YAMLMark(line: 2, column: 12))
        #expect(error.keyPath == "defaults.retries")
        #expect(error.message == "expected 0 to 10 retries, found \(text)")
    }

    @Test func zeroTimeoutIsAnError() throws {
        let error = try loadError("defaults:\n  timeout: 0s\n")
        #expect(error.mark == YAMLMark(line: 2, column: 12))
        #expect(error.keyPath == "defaults.timeout")
        #expect(error.message == "the timeout must be longer than zero")
    }

    @Test func unreadableTimeoutIsAnError() throws {
        let error = try loadError("defaults:\n  timeout: soon\n")
        #expect(error.mark == YAMLMark(line: 2, column: 12))
        #expect(error.keyPath == "defaults.timeout")
        #expect(error.message == "expected a duration such as 30s, 500ms or 2m, found 'soon'")
    }

    @Test func unreadableSizeIsAnError() throws {
        let error = try loadError("defaults:\n  maxResponseSize: lots\n")
        #expect(error.mark == YAMLMark(line: 2, column: 20))
        #expect(error.keyPath == "defaults.maxResponseSize")
        #expect(error.message == "expected a size such as 256MiB, 10MB or 4096, found 'lots'")
    }

    @Test func unknownOutputFormatListsTheFormats() throws {
        let error = try loadError("defaults:\n  output: jsn\n")
        #expect(
            error.description
                == "content.yaml:2:11: defaults.output: expected one of table, json, ndjson, jsonl, csv, tsv, "
                + "markdown, found 'jsn' (did you mean 'json'?)"
        )
    }

    // MARK: - Unknown keys

    @Test func unknownTopLevelKeySuggestsTheKnownOne() throws {
        let error = try loadError("backend:\n  wknd:\n    type: aem\n")
        #expect(error.mark == YAMLMark(line: 1, column: 1))
        #expect(error.keyPath == "backend")
        #expect(error.hint == "did you mean 'backends'?")
        #expect(error.description == "content.yaml:1:1: backend: unknown key 'backend' (did you mean 'backends'?)")
    }

    @Test func unknownKeyUnderDefaultsSuggestsTheKnownOne() throws {
        let error = try loadError("defaults:\n  timout: 5s\n")
        #expect(error.mark == YAMLMark(line: 2, column: 3))
        #expect(error.keyPath == "defaults.timout")
        #expect(error.hint == "did you mean 'timeout'?")
    }

    @Test func malformedYAMLIsAConfigurationError() throws {
        let error = try loadError("defaults: a: b\n")
        #expect(error.mark == YAMLMark(line: 1, column: 12))
        #expect(error.file == "content.yaml")
    }

    // MARK: - Backends

    @Test func backendsKeepFileOrderTypeNamesAndTypePositions() throws {
        let yaml = """
            backends:
              zeta:
                type: testaem
                url: https://zeta.example.com
              alpha:
                type: other
            """
        let configuration = try load(yaml)
        #expect(configuration.backends.map(\.name) == ["zeta", "alpha"])
        #expect(configuration.backends.map(\.typeName) == ["testaem", "other"])
        #expect(
            configuration.backends.map(\.typeMark) == [YAMLMark(line: 3, column: 11), YAMLMark(line: 6, column: 11)]
        )
        #expect(try configuration.backend(named: "alpha").typeName == "other")
    }

    @Test func sectionKnowsItsPlaceAndDirectory() throws {
        let yaml = "backends:\n  zeta:\n    type: testaem\n    url: x\n"
        let relative = try load(yaml)
        let section = try #require(relative.backends.first?.section)
        #expect(section.location == "content.yaml:3:5")
        #expect(section.baseDirectory == ".")
        let absolute = try ConfigLoader(environment: [:]).load(text: yaml, file: "/etc/content/content.yaml")
        #expect(absolute.backends.first?.section.baseDirectory == "/etc/content")
    }

    @Test func backendWithoutATypeIsAnError() throws {
        let error = try loadError("backends:\n  wknd:\n    url: https://example.com\n")
        #expect(error.mark == YAMLMark(line: 3, column: 5))
        #expect(error.keyPath == "backends.wknd")
        #expect(error.message == "missing required key 'type'")
        #expect(error.hint == "add `type: aem`, say")
    }

    @Test func backendThatIsNotAMappingIsAnError() throws {
        let error = try loadError("backends:\n  wknd: just-a-string\n")
        #expect(error.mark == YAMLMark(line: 2, column: 9))
        #expect(error.keyPath == "backends.wknd")
        #expect(error.message == "expected a mapping with a `type:` key, found a scalar")
    }

    @Test func nullTypeIsAnError() throws {
        let error = try loadError("backends:\n  wknd:\n    type: ~\n")
        #expect(error.mark == YAMLMark(line: 3, column: 11))
        #expect(error.keyPath == "backends.wknd.type")
        #expect(error.message == "expected a plugin name, found null")
    }

    @Test(arguments: ["bad name", "-leading-dash", "_underscore", ".dot", "ünïcode", "a/b", "semi;colon"])
    func invalidBackendNameIsAnError(name: String) throws {
        let error = try loadError("backends:\n  \"\(name)\":\n    type: testaem\n")
        #expect(error.keyPath == "backends.\(name)")
        #expect(error.message.contains("backend names use letters, digits, '.', '_' and '-'"))
        #expect(error.mark?.line == 2 || error.mark?.line == 3)
    }

    @Test func invalidBackendNameErrorPointsAtTheName() throws {
        let error = try loadError("backends:\n  \"bad name\":\n    type: testaem\n")
        #expect(error.mark == YAMLMark(line: 2, column: 3))

    }

    @Test(arguments: ["wknd", "movies-app", "a.b_c-1", "1st", "UPPER"])
    func validBackendNameIsAccepted(name: String) throws {
        let configuration = try load("backends:\n  \"\(name)\":\n    type: testaem\n")
        #expect(configuration.backends.map(\.name) == [name])
    }

    // MARK: - Secrets

    @Test func secretsAreCollectedByKeyNameAfterInterpolation() throws {
        let yaml = """
            backends:
              one:
                type: testaem
                url: https://one.example.com
                tokenUrl: https://auth.example.com/token
                auth:
                  token: ${TOKEN}
                  password: inline-password
              two:
                type: testaem
                headers:
                  - name: X-Api-Key
                    apiKey: ${API_KEY:-default-key}
                clientSecret: "${CLIENT_SECRET}"
            """
        let environment = ["TOKEN": "s3cr3t", "CLIENT_SECRET": "client-s3cr3t"]
        let configuration = try load(yaml, environment: environment)
        #expect(configuration.secrets == ["s3cr3t", "inline-password", "default-key", "client-s3cr3t"])
        #expect(
            configuration.backends.map(\.secrets) == [
                ["s3cr3t", "inline-password"], ["default-key", "client-s3cr3t"],
            ])
    }

    @Test func unsetSecretVariableDoesNotFailTheLoad() throws {
        let yaml = "backends:\n  one:\n    type: testaem\n    token: ${UNSET_TOKEN}\n"
        let configuration = try load(yaml, environment: [:])
        #expect(configuration.secrets.isEmpty)
        #expect(configuration.backends.count == 1)
    }

    @Test func tokenFileContentsAreASecretButNotAnInlineOne() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        try directory.write("from-file\n", to: "token.txt")
        let yaml = "backends:\n  one:\n    type: testaem\n    tokenFile: token.txt\n"
        let path = try directory.write(yaml, to: "content.yaml", permissions: 0o644)
        let configuration = try ConfigLoader(environment: [:]).load(ConfigLocation(path: path, origin: .flag))
        #expect(configuration.secrets == ["from-file"])
        #expect(configuration.warnings.isEmpty)
    }

    // MARK: - Permission warning

    private static let inlineToken = """
        backends:
          wknd:
            type: testaem
            url: https://example.com
            auth:
              type: token
              token: abcd1234
        """

    private static let referencedToken = """
        backends:
          wknd:
            type: testaem
            url: https://example.com
            auth:
              type: token
              token: "${TOKEN}"
        """

    @Test(arguments: [0o644, 0o640, 0o604, 0o660])
    func inlineSecretInAFileOthersCanReadIsWarnedAbout(permissions: Int) throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = try directory.write(Self.inlineToken, to: "content.yaml", permissions: permissions)
        let location = ConfigLocation(path: path, origin: .flag)
        let configuration = try ConfigLoader(environment: [:]).load(location)
        #expect(configuration.location == location)
        #expect(configuration.warnings.count == 1)
        let warning = try #require(configuration.warnings.first)
        #expect(warning.severity == .warning)
        #expect(warning.location == path)
        #expect(warning.message.contains("inline secret (backends.wknd.auth.token at 7:14)"))
        #expect(warning.message.contains("chmod 600 \(path)"))
        #expect(configuration.secrets == ["abcd1234"])
    }

    @Test func everyInlineSecretIsNamedInTheWarning() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let yaml = """
            backends:
              wknd:
                type: aem
                url: https://example.com
                auth:
                  type: basic
                  username: admin
                  password: first-secret
              mfp:
                type: resource
                url: https://example.com
                auth:
                  type: bearer
                  token: second-secret
            """
        let path = try directory.write(yaml, to: "content.yaml", permissions: 0o644)
        let configuration = try ConfigLoader(environment: [:]).load(ConfigLocation(path: path, origin: .flag))
        let warning = try #require(configuration.warnings.first)
        #expect(warning.message.contains("holds 2 inline secrets"), "\(warning.message)")
        #expect(warning.message.contains("backends.wknd.auth.password at 8:17"), "\(warning.message)")
        #expect(warning.message.contains("backends.mfp.auth.token at 14:14"), "\(warning.message)")
        #expect(warning.message.contains(#"password: "${PASSWORD}", token: "${TOKEN}""#), "\(warning.message)")
        #expect(!warning.message.contains("first-secret") && !warning.message.contains("second-secret"))
    }

    @Test(arguments: [0o600, 0o400])
    func inlineSecretInAPrivateFileIsNotWarnedAbout(permissions: Int) throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = try directory.write(Self.inlineToken, to: "content.yaml", permissions: permissions)
        let configuration = try ConfigLoader(environment: [:]).load(ConfigLocation(path: path, origin: .flag))
        #expect(configuration.warnings.isEmpty)
        #expect(configuration.secrets == ["abcd1234"])
    }

    @Test func referencedSecretInAReadableFileIsNotWarnedAbout() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = try directory.write(Self.referencedToken, to: "content.yaml", permissions: 0o644)
        let configuration = try ConfigLoader(environment: ["TOKEN": "abcd1234"])
            .load(ConfigLocation(path: path, origin: .workingDirectory))
        #expect(configuration.warnings.isEmpty)
        #expect(configuration.secrets == ["abcd1234"])
    }

    @Test func warningSuggestsAVariableNamedAfterTheKey() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let yaml = "backends:\n  mfp:\n    type: testaem\n    clientSecret: hunter2-secret\n"
        let path = try directory.write(yaml, to: "content.yaml", permissions: 0o644)
        let configuration = try ConfigLoader(environment: [:]).load(ConfigLocation(path: path, origin: .flag))
        let warning = try #require(configuration.warnings.first)
        #expect(warning.message.contains(#"clientSecret: "${CLIENT_SECRET}""#))
        #expect(!warning.message.contains("hunter2-secret"))
    }

    @Test func singleQuotedReferenceIsAnInlineSecret() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let yaml = "backends:\n  one:\n    type: testaem\n    token: '${TOKEN}'\n"
        let path = try directory.write(yaml, to: "content.yaml", permissions: 0o644)
        let configuration = try ConfigLoader(environment: ["TOKEN": "from-env"])
            .load(ConfigLocation(path: path, origin: .flag))
        #expect(configuration.warnings.count == 1)
        #expect(configuration.secrets == ["${TOKEN}"])
    }

    @Test func emptyInlineSecretIsNotWarnedAbout() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let yaml = "backends:\n  one:\n    type: testaem\n    token: \"\"\n"
        let path = try directory.write(yaml, to: "content.yaml", permissions: 0o644)
        let configuration = try ConfigLoader(environment: [:]).load(ConfigLocation(path: path, origin: .flag))
        #expect(configuration.warnings.isEmpty)
    }

    @Test func keysEndingInKeyAreSecrets() throws {
        let yaml = "backends:\n  one:\n    type: testaem\n    privateKey: pk-123456\n    accessKey: ak-123456\n"
        #expect(try load(yaml).secrets == ["pk-123456", "ak-123456"])
    }

    @Test func zeroResponseSizeIsAnError() throws {
        let error = #expect(throws: ConfigError.self) {
            try load("defaults:\n  maxResponseSize: 0\n")
        }
        #expect(error?.yamlError?.message.contains("larger than zero") == true)
        #expect(error?.yamlError?.keyPath == "defaults.maxResponseSize")
    }

    @Test func loadingTextNeverWarns() throws {
        let configuration = try load(Self.inlineToken)
        #expect(configuration.warnings.isEmpty)
        #expect(configuration.secrets == ["abcd1234"])
    }

    // MARK: - Files

    @Test func missingFileIsUnreadable() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.path("absent.yaml")
        let error = #expect(throws: ConfigError.self) {
            try ConfigLoader(environment: [:]).load(ConfigLocation(path: path, origin: .flag))
        }
        #expect(error?.description.hasPrefix("\(path): cannot read the configuration file: ") == true)
        #expect(error?.yamlError == nil)
    }

    @Test func nonUTF8FileIsUnreadable() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = try directory.write([0x61, 0x3A, 0x20, 0xFF, 0x0A], to: "content.yaml")
        let error = #expect(throws: ConfigError.self) {
            try ConfigLoader(environment: [:]).load(ConfigLocation(path: path, origin: .flag))
        }
        #expect(error?.description == "\(path): cannot read the configuration file: the file is not UTF-8 text")
    }

    @Test func errorsInAFileNameItsPath() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = try directory.write("backends:\n  wknd:\n    url: x\n", to: "content.yaml")
        let error = #expect(throws: ConfigError.self) {
            try ConfigLoader(environment: [:]).load(ConfigLocation(path: path, origin: .flag))
        }
        #expect(error?.description.hasPrefix("\(path):3:5: backends.wknd: missing required key 'type'") == true)
    }

    // MARK: - The sample

    @Test func sampleConfigurationLoads() throws {
        let configuration = try ConfigLoader(environment: [:]).load(text: ConfigSample.yaml, file: "sample.yaml")
        #expect(configuration.backends.map(\.name) == ["wknd", "movies-app", "mfp"])
        #expect(configuration.backends.map(\.typeName) == ["aem", "dataconnect", "resource"])
        #expect(configuration.output == .table)
        let expected = BackendDefaults(timeout: .seconds(30), retries: 2, maxResponseBytes: 256 << 20)
        #expect(configuration.defaults == expected)
        #expect(configuration.secrets.isEmpty)
        #expect(configuration.warnings.isEmpty)
    }

    @Test func sampleSecretsComeFromTheEnvironment() throws {
        let configuration = try ConfigLoader(environment: ["AEM_TOKEN": "aem-s3cr3t"])
            .load(text: ConfigSample.yaml, file: "sample.yaml")
        #expect(configuration.secrets == ["aem-s3cr3t"])
    }
}
