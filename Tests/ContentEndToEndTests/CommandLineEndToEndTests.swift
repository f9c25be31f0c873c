import Foundation
import Testing

/// The built binary, run as a user would: stdout, stderr and exit status.
struct CommandLineEndToEndTests {
    @Test func versionPrintsTheVersionOnStdout() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let result = try ContentProcess.run(["--version"], in: scratch.url)
        #expect(result.status == 0)
        #expect(result.stdout.range(of: #"^\d+\.\d+\.\d+\n$"#, options: .regularExpression) != nil)
        #expect(result.stderr.isEmpty)
    }

    @Test func helpGoesToStdoutWithTheExitCodeTable() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let result = try ContentProcess.run(["--help"], in: scratch.url)
        #expect(result.status == 0)
        #expect(result.stdout.contains("USAGE: content <subcommand>"))
        #expect(result.stdout.contains("130  interrupted"))
        #expect(result.stderr.isEmpty)
    }

    @Test func unknownFlagIsAUsageErrorOnStderr() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        for arguments in [["--bogus"], ["config", "validate", "a", "b"], ["nosuchcommand"]] {
            let result = try ContentProcess.run(arguments, in: scratch.url)
            #expect(result.status == 2, "\(arguments)")
            #expect(result.stdout.isEmpty, "\(arguments)")
            #expect(!result.stderr.isEmpty, "\(arguments)")
        }
    }

    @Test func configPathWithoutAnyFileExitsThreeAndSaysWhereItLooked() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let result = try ContentProcess.run(["config", "path"], in: scratch.url)
        #expect(result.status == 3)
        #expect(result.stdout.isEmpty)
        #expect(result.stderr.contains("no configuration file found"))
        #expect(result.stderr.contains("./content.yaml"))
    }

    @Test func configPathPrefersTheFlagThenTheVariableThenTheWorkingDirectory() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let local = try scratch.write("defaults: {}\n", to: "content.yaml")
        let named = try scratch.write("defaults: {}\n", to: "named.yaml")
        let flagged = try scratch.write("defaults: {}\n", to: "flagged.yaml")

        let fromDirectory = try ContentProcess.run(["config", "path"], in: scratch.url)
        #expect(fromDirectory.status == 0)
        #expect(fromDirectory.stdout.hasSuffix("/content.yaml\n"))
        #expect(
            URL(fileURLWithPath: fromDirectory.stdout.trimmingCharacters(in: .newlines)).lastPathComponent
                == local.lastPathComponent)
        #expect(fromDirectory.stderr.contains("working directory"))

        let fromVariable = try ContentProcess.run(
            ["config", "path"],
            in: scratch.url,
            environment: ["CONTENT_CONFIG": named.path]
        )
        #expect(fromVariable.stdout == named.path + "\n")
        #expect(fromVariable.stderr.contains("$CONTENT_CONFIG"))

        let fromFlag = try ContentProcess.run(
            ["config", "path", "--config", flagged.path],
            in: scratch.url,
            environment: ["CONTENT_CONFIG": named.path]
        )
        #expect(fromFlag.stdout == flagged.path + "\n")
        #expect(fromFlag.stderr.contains("--config"))
    }

    @Test func missingFileNamedByTheVariableIsAConfigurationError() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let result = try ContentProcess.run(
            ["backends"],
            in: scratch.url,
            environment: ["CONTENT_CONFIG": "/nonexistent/content.yaml"]
        )
        #expect(result.status == 3)
        #expect(result.stderr.contains("/nonexistent/content.yaml: configuration file not found"))
        #expect(result.stderr.contains("$CONTENT_CONFIG"))
    }

    @Test func validateAcceptsAFileWithDefaultsOnly() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let file = try scratch.write("defaults:\n  output: json\n  timeout: 5s\n", to: "ok.yaml")
        let result = try ContentProcess.run(["config", "validate", file.path], in: scratch.url)
        #expect(result.status == 0)
        #expect(result.stdout.isEmpty)
        #expect(result.stderr.contains("is valid (0 backends)"))
    }

    @Test func validateReportsAnUnknownKeyWithItsPositionAndASuggestion() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let file = try scratch.write("defaults:\n  output: json\n  timout: 5s\n", to: "bad.yaml")
        let result = try ContentProcess.run(["config", "validate", file.path], in: scratch.url)
        #expect(result.status == 3)
        #expect(result.stdout.isEmpty)
        #expect(
            result.stderr.contains("\(file.path):3:3: defaults.timout: unknown key 'timout' (did you mean 'timeout'?)"))
    }

    @Test func validateReportsEveryUnknownBackendType() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let yaml = """
            backends:
              one:
                type: nosuchtype
              two:
                type: alsonot
            """
        let file = try scratch.write(yaml, to: "types.yaml")
        let result = try ContentProcess.run(["config", "validate", file.path], in: scratch.url)
        #expect(result.status == 3)
        #expect(result.stderr.contains("\(file.path):3:11: backends.one.type: unknown backend type 'nosuchtype'"))
        #expect(result.stderr.contains("\(file.path):5:11: backends.two.type: unknown backend type 'alsonot'"))
    }

    @Test func malformedYAMLIsAConfigurationErrorWithItsPosition() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let file = try scratch.write("defaults:\n  output: [json\n", to: "broken.yaml")
        let result = try ContentProcess.run(["config", "validate", file.path], in: scratch.url)
        #expect(result.status == 3)
        #expect(result.stderr.contains("\(file.path):3:1:"))
    }

    @Test func unsetVariableIsNamedWithTheFix() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let file = try scratch.write("defaults:\n  timeout: ${CONTENT_TEST_UNSET}\n", to: "env.yaml")
        let result = try ContentProcess.run(["config", "validate", file.path], in: scratch.url)
        #expect(result.status == 3)
        #expect(result.stderr.contains("environment variable CONTENT_TEST_UNSET is not set"))
        let fixed = try ContentProcess.run(
            ["config", "validate", file.path],
            in: scratch.url,
            environment: ["CONTENT_TEST_UNSET": "12s"]
        )
        #expect(fixed.status == 0)
    }

    @Test func backendsListsConfiguredBackendsOnStdout() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let yaml = """
            backends:
              wknd:
                type: aem
                url: https://example.com
              movies:
                type: dataconnect
              legacy:
                type: soap
            """
        try scratch.write(yaml, to: "content.yaml")
        let csv = try ContentProcess.run(["backends", "-o", "csv"], in: scratch.url)
        #expect(csv.status == 0)
        let path = scratch.url.appendingPathComponent("content.yaml").path
        #expect(
            csv.stdout == """
                name,type,definedAt,plugin
                wknd,aem,\(path):3:5,true
                movies,dataconnect,\(path):6:5,true
                legacy,soap,\(path):8:5,false

                """
        )
        let json = try ContentProcess.run(["backends"], in: scratch.url)
        #expect(json.stdout.hasPrefix(#"[{"name":"wknd","type":"aem","#))
    }

    @Test func backendTypesListsTheBuiltInPlugins() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let result = try ContentProcess.run(["backends", "--types", "-o", "ndjson"], in: scratch.url)
        #expect(result.status == 0)
        let types = result.stdout.split(separator: "\n").compactMap { line -> String? in
            guard let range = line.range(of: #"^\{"type":"([a-z]+)""#, options: .regularExpression) else { return nil }
            return String(line[range].dropFirst(9).dropLast())
        }
        #expect(types == ["aem", "dataconnect", "resource"], "\(result.stdout)")
    }

    @Test func inlineSecretsAreWarnedAboutAndNeverPrinted() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let secret = "sup3r-s3cret-t0ken"
        let yaml = """
            backends:
              wknd:
                type: aem
                auth:
                  token: \(secret)
            """
        try scratch.write(yaml, to: "content.yaml", permissions: 0o644)
        for arguments in [["backends"], ["config", "validate"], ["backends", "--verbose"]] {
            let result = try ContentProcess.run(arguments, in: scratch.url)
            #expect(result.stderr.contains("holds an inline secret (backends.wknd.auth.token at 5:14)"), "\(arguments)")
            #expect(result.stderr.contains("chmod 600"), "\(arguments)")
            #expect(!result.stdout.contains(secret), "\(arguments)")
            #expect(!result.stderr.contains(secret), "\(arguments)")
        }
    }

    @Test func completionScriptsAreGenerated() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        for shell in ["bash", "zsh", "fish"] {
            let result = try ContentProcess.run(["--generate-completion-script", shell], in: scratch.url)
            #expect(result.status == 0, "\(shell)")
            #expect(result.stdout.contains("content"), "\(shell)")
            #expect(result.stdout.contains("validate"), "\(shell)")
        }
    }
}
