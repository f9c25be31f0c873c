import ContentConfig
import ContentCore
import ContentTesting
import Foundation
import Testing

/// Every test passes `environment:` and `workingDirectory:` explicitly, so the real home directory, the
/// process's current directory and its environment never take part.
struct ConfigLocationTests {
    /// A directory holding a candidate file in every place `find` looks.
    private struct Places {
        let directory: TemporaryDirectory
        let flagged: String
        let named: String
        let workingDirectory: String
        let local: String
        let xdgHome: String
        let xdgFile: String
        let home: String
        let homeFile: String

        init() throws {
            directory = try TemporaryDirectory()
            flagged = try directory.write("defaults: {}\n", to: "flagged.yaml")
            named = try directory.write("defaults: {}\n", to: "named.yaml")
            workingDirectory = directory.path("work")
            local = try directory.write("defaults: {}\n", to: "work/content.yaml")
            xdgHome = directory.path("xdg")
            xdgFile = try directory.write("defaults: {}\n", to: "xdg/content/config.yaml")
            home = directory.path("home")
            homeFile = try directory.write("defaults: {}\n", to: "home/.config/content/config.yaml")
        }

        var environment: [String: String] {
            ["CONTENT_CONFIG": named, "XDG_CONFIG_HOME": xdgHome, "HOME": home]
        }

        func delete(_ path: String) throws {
            try FileManager.default.removeItem(atPath: path)
        }
    }

    @Test func flagWinsOverEveryOtherPlace() throws {
        let places = try Places()
        defer { places.directory.remove() }
        let location = try ConfigLocation.find(
            flag: places.flagged,
            environment: places.environment,
            workingDirectory: places.workingDirectory
        )
        #expect(location == ConfigLocation(path: places.flagged, origin: .flag))
    }

    @Test func environmentVariableWinsOverTheDefaultPlaces() throws {
        let places = try Places()
        defer { places.directory.remove() }
        let location = try ConfigLocation.find(
            flag: nil,
            environment: places.environment,
            workingDirectory: places.workingDirectory
        )
        #expect(location == ConfigLocation(path: places.named, origin: .environment))
    }

    @Test func workingDirectoryFileWinsOverTheUserFile() throws {
        let places = try Places()
        defer { places.directory.remove() }
        var environment = places.environment
        environment["CONTENT_CONFIG"] = nil
        let location = try ConfigLocation.find(
            flag: nil,
            environment: environment,
            workingDirectory: places.workingDirectory
        )
        #expect(location == ConfigLocation(path: places.local, origin: .workingDirectory))
    }

    @Test func emptyEnvironmentVariableIsIgnored() throws {
        let places = try Places()
        defer { places.directory.remove() }
        var environment = places.environment
        environment["CONTENT_CONFIG"] = ""
        let location = try ConfigLocation.find(
            flag: nil,
            environment: environment,
            workingDirectory: places.workingDirectory
        )
        #expect(location?.origin == .workingDirectory)
    }

    @Test func xdgConfigHomeWinsOverHome() throws {
        let places = try Places()
        defer { places.directory.remove() }
        try places.delete(places.local)
        var environment = places.environment
        environment["CONTENT_CONFIG"] = nil
        let location = try ConfigLocation.find(
            flag: nil,
            environment: environment,
            workingDirectory: places.workingDirectory
        )
        #expect(location == ConfigLocation(path: places.xdgFile, origin: .userConfig))
    }

    @Test func homeConfigIsUsedWithoutXDGConfigHome() throws {
        let places = try Places()
        defer { places.directory.remove() }
        try places.delete(places.local)
        let location = try ConfigLocation.find(
            flag: nil,
            environment: ["HOME": places.home],
            workingDirectory: places.workingDirectory
        )
        #expect(location == ConfigLocation(path: places.homeFile, origin: .userConfig))
    }

    @Test func relativeXDGConfigHomeIsIgnored() throws {
        let places = try Places()
        defer { places.directory.remove() }
        try places.delete(places.local)
        let location = try ConfigLocation.find(
            flag: nil,
            environment: ["XDG_CONFIG_HOME": "relative/xdg", "HOME": places.home],
            workingDirectory: places.workingDirectory
        )
        #expect(location == ConfigLocation(path: places.homeFile, origin: .userConfig))
    }

    @Test func xdgConfigHomeWithoutTheFileDoesNotFallBackToHome() throws {
        let places = try Places()
        defer { places.directory.remove() }
        try places.delete(places.local)
        try places.delete(places.xdgFile)
        let location = try ConfigLocation.find(
            flag: nil,
            environment: ["XDG_CONFIG_HOME": places.xdgHome, "HOME": places.home],
            workingDirectory: places.workingDirectory
        )
        #expect(location == nil)
    }

    @Test func nothingFoundAnywhereIsNil() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let empty = try directory.makeDirectory("empty")
        let home = try directory.makeDirectory("home")
        let location = try ConfigLocation.find(flag: nil, environment: ["HOME": home], workingDirectory: empty)
        #expect(location == nil)
        let withoutHome = try ConfigLocation.find(flag: nil, environment: [:], workingDirectory: empty)
        #expect(withoutHome == nil)
    }

    @Test func directoryNamedLikeAConfigFileIsSkipped() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let work = try directory.makeDirectory("work")
        try directory.makeDirectory("work/content.yaml")
        let home = try directory.makeDirectory("home")
        let location = try ConfigLocation.find(flag: nil, environment: ["HOME": home], workingDirectory: work)
        #expect(location == nil)
    }

    @Test func missingFlaggedFileIsAnErrorEvenWhenOthersExist() throws {
        let places = try Places()
        defer { places.directory.remove() }
        let missing = places.directory.path("missing.yaml")
        let error = #expect(throws: ConfigError.self) {
            try ConfigLocation.find(
                flag: missing,
                environment: places.environment,
                workingDirectory: places.workingDirectory
            )
        }
        #expect(error?.description.hasPrefix("\(missing): configuration file not found (named by --config)") == true)
        #expect(error?.category == .configuration)
        #expect(error?.yamlError == nil)
    }

    @Test func flaggedDirectoryIsAnError() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let folder = try directory.makeDirectory("folder")
        #expect(throws: ConfigError.self) {
            try ConfigLocation.find(flag: folder, environment: [:], workingDirectory: directory.root)
        }
    }

    @Test func missingFileNamedByTheEnvironmentIsAnError() throws {
        let places = try Places()
        defer { places.directory.remove() }
        let missing = places.directory.path("gone.yaml")
        var environment = places.environment
        environment["CONTENT_CONFIG"] = missing
        let error = #expect(throws: ConfigError.self) {
            try ConfigLocation.find(flag: nil, environment: environment, workingDirectory: places.workingDirectory)
        }
        #expect(error?.description.contains(missing) == true)
        #expect(error?.description.contains("$CONTENT_CONFIG") == true)
    }

    @Test func searchedPlacesEndWithTheUserFile() {
        #expect(
            ConfigLocation.searchedPlaces(environment: ["XDG_CONFIG_HOME": "/xdg", "HOME": "/home/me"])
                == ["--config", "$CONTENT_CONFIG", "./content.yaml", "/xdg/content/config.yaml"]
        )
        #expect(
            ConfigLocation.searchedPlaces(environment: ["HOME": "/home/me"]).last
                == "/home/me/.config/content/config.yaml"
        )
        #expect(ConfigLocation.searchedPlaces(environment: [:]) == ["--config", "$CONTENT_CONFIG", "./content.yaml"])
    }

    @Test func descriptionSaysWhyTheFileWasChosen() {
        let location = ConfigLocation(path: "/etc/content.yaml", origin: .environment)
        #expect(location.description == "/etc/content.yaml (named by $CONTENT_CONFIG)")
    }
}
