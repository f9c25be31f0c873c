import ContentTesting
import Foundation
import Testing

/// The README's module graph is `Package.swift`'s: every arrow a dependency between two of the package's modules,
/// and every such dependency an arrow, leaving out `ContentCore`, `ContentJSON` and the test support.
struct ArchitectureTests {
    /// Modules the picture leaves out, as it says.
    static let omitted: Set<String> = ["ContentCore", "ContentJSON", "ContentTesting", "ContentEmulatorTesting"]

    /// `dependency → dependent` for every non-test target of `Package.swift` and each of its dependencies that is a
    /// module of this package (`Content…`, `content…`, `CYAML`).
    static func packageEdges(_ manifest: String) -> Set<String> {
        var edges: Set<String> = []
        let kinds = [".target(", ".executableTarget(", ".plugin(", ".systemLibrary("]
        let declarations = manifest.components(separatedBy: "\n        .").dropFirst()
        for declaration in declarations where kinds.contains(where: { declaration.hasPrefix($0.dropFirst()) }) {
            let quoted = declaration.split(separator: "\"", omittingEmptySubsequences: false)
                .enumerated().filter { $0.offset % 2 == 1 }.map { String($0.element) }
            guard let name = quoted.first else { continue }
            for dependency in quoted.dropFirst() where dependency != name && !omitted.contains(dependency) {
                guard dependency.hasPrefix("Content") || dependency.hasPrefix("content") || dependency == "CYAML",
                    !omitted.contains(name)
                else { continue }
                edges.insert("\(dependency) --> \(name)")
            }
        }
        return edges
    }

    /// The arrows of the README's Mermaid block.
    static func readmeEdges(_ readme: String) -> Set<String> {
        guard let start = readme.range(of: "```mermaid\n"),
            let end = readme.range(of: "\n```", range: start.upperBound..<readme.endIndex)
        else { return [] }
        return Set(
            readme[start.upperBound..<end.lowerBound].split(separator: "\n")
                .map { $0.trimmingCharacters(in: .whitespaces) }
                .filter { $0.contains("-->") })
    }

    @Test func theReadmeGraphIsThePackagesGraph() throws {
        let manifest = try String(
            contentsOf: TestLocations.repository.appendingPathComponent("Package.swift"), encoding: .utf8)
        let readme = try String(
            contentsOf: TestLocations.repository.appendingPathComponent("README.md"), encoding: .utf8)
        let package = Self.packageEdges(manifest)
        let pictured = Self.readmeEdges(readme)
        #expect(package.count > 40, "the manifest was not read: \(package.sorted())")
        #expect(package.subtracting(pictured).isEmpty, "missing from the README: \(package.subtracting(pictured))")
        #expect(pictured.subtracting(package).isEmpty, "not in Package.swift: \(pictured.subtracting(package))")
    }

    @Test func noBackendImportsAnotherOrTheCommandLine() throws {
        let manifest = try String(
            contentsOf: TestLocations.repository.appendingPathComponent("Package.swift"), encoding: .utf8)
        let edges = Self.packageEdges(manifest)
        let backends = ["ContentBackendAEM", "ContentBackendDataConnect", "ContentBackendResource"]
        let forbidden = backends + ["ContentCommandLine", "ContentOutput", "ContentRuntime", "ContentConfig"]
        for backend in backends {
            for dependency in forbidden where dependency != backend {
                #expect(!edges.contains("\(dependency) --> \(backend)"), "\(backend) depends on \(dependency)")
            }
        }
        // Nor any of the command line's or the server's packages.
        for declaration in manifest.components(separatedBy: "\n        .")
        where backends.contains(where: { declaration.contains("name: \"\($0)\"") }) {
            for package in ["ArgumentParser", "Hummingbird", "GRDB", "GraphQL\""] {
                #expect(!declaration.contains(package), "\(declaration.prefix(60)) uses \(package)")
            }
        }
        for module in ["ContentKit"] {
            let reaches = edges.filter { $0.hasSuffix("--> \(module)") }.map { String($0.prefix { $0 != " " }) }
            // Besides the core and the JSON document: the HTTP transport, and the realtime stream's wire messages.
            #expect(
                Set(reaches) == ["ContentHTTP", "ContentDataConnectWire"], "\(module) depends on \(reaches.sorted())")
        }
    }
}
