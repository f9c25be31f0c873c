import ContentTesting
import Foundation
import Testing

/// The build plugin's list of input files: SwiftPM reruns the generator only when one of them changes, so a
/// missing file means a stale client and an extra one (a `.build` folder) means needless rebuilds.
struct ContentClientInputsTests {
    private static func folder(_ files: [String: String]) throws -> URL {
        let directory = try TemporaryDirectory()
        for (path, text) in files { try directory.write(text, to: path) }
        return URL(fileURLWithPath: directory.root)
    }

    private static func relativePaths(_ urls: [URL], under folder: URL) -> [String] {
        let base = folder.standardizedFileURL.resolvingSymlinksInPath().path + "/"
        return urls.map { $0.resolvingSymlinksInPath().path.replacingOccurrences(of: base, with: "") }
    }

    @Test func tracksFoldersTheWorkspaceNamesAndSkipsHiddenOnes() throws {
        let folder = try Self.folder([
            "app/content-client.yaml": "dataconnect: ../service\t# the workspace\r\naem: \"../aem\"\r\n",
            "service/dataconnect.yaml":
                "schema:\n  source: \"../shared-schema\" # beside it\nconnectorDirs: [\"./movies\", '../extra']\n",
            "service/movies/connector.yaml": "connectorId: movies\n",
            "service/movies/queries.gql": "query q { movies { id } }\n",
            "service/movies/notes.txt": "not an input\n",
            "service/.build/stale.gql": "# a build folder is not an input\n",
            "shared-schema/schema.gql": "type Movie @table { title: String! }\n",
            "extra/connector.yaml": "connectorId: extra\n",
            "aem/models/adventure.yaml": "name: adventure\n",
            "aem/queries/site/all.graphql": "query { adventureList { items { title } } }\n",
            "unrelated/other.gql": "query q { x }\n",
        ])
        defer { try? FileManager.default.removeItem(at: folder) }
        let files = ContentClientInputs.files(
            configuration: folder.appendingPathComponent("app/content-client.yaml"))
        #expect(
            Self.relativePaths(files, under: folder) == [
                "aem/models/adventure.yaml", "aem/queries/site/all.graphql", "app/content-client.yaml",
                "extra/connector.yaml", "service/dataconnect.yaml", "service/movies/connector.yaml",
                "service/movies/queries.gql", "shared-schema/schema.gql",
            ])
    }

    @Test func anyKeyNamingAFolderIsTrackedAndOtherValuesAreNot() throws {
        let folder = try Self.folder([
            "app/content-client.yaml": "changelog: ../entries\naccess: internal\nconnectors: [movies]\n",
            "app/internal/trap.gql": "# a folder named like a value that is not a path\n",
            "entries/feed.graphql": "query { entries { title } }\n",
        ])
        defer { try? FileManager.default.removeItem(at: folder) }
        let files = ContentClientInputs.files(
            configuration: folder.appendingPathComponent("app/content-client.yaml"))
        // `access: internal` names a folder beside the file too: it is tracked, which costs a rebuild at most.
        #expect(
            Self.relativePaths(files, under: folder) == [
                "app/content-client.yaml", "app/internal/trap.gql", "entries/feed.graphql",
            ])
    }

    @Test func commentsNeedABlankBeforeTheirHash() {
        #expect(ContentClientInputs.scalar(" \"a#b\"\t# note") == "a#b")
        #expect(ContentClientInputs.scalar(" path # note") == "path")
        #expect(ContentClientInputs.topLevelValues("  aem: nested\n# aem: commented\naem: top\r\n").map(\.1) == ["top"])
    }

    @Test func anUnreadableConfigurationIsItsOwnOnlyInput() throws {
        let missing = FileManager.default.temporaryDirectory.appendingPathComponent("absent-\(UUID().uuidString).yaml")
        #expect(ContentClientInputs.files(configuration: missing) == [missing.standardizedFileURL])
    }
}
