public import Foundation

/// Where the repository, its samples and the shared real-world corpus are, for every test target.
///
/// Found from this file's path at build time: tests run from the source tree. A test that reads the corpus asks
/// ``corpusFolder(_:)``, which says so and returns `nil` when `../shared` is not beside the repository.
public enum TestLocations {
    /// The repository's root folder.
    public static let repository = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// `examples/`: the sample workspace.
    public static let examples = repository.appendingPathComponent("examples")

    /// `../shared/corpus/`: real inputs and facts of each service, when present.
    public static let corpus = repository.deletingLastPathComponent().appendingPathComponent("shared/corpus")

    /// Every GraphQL file (`.gql`, `.graphql`) of the samples and, when it is beside the repository, the corpus.
    ///
    /// - Returns: The files' URLs.
    public static func graphQLFiles() -> [URL] {
        var found: [URL] = []
        for folder in [examples, corpus] {
            guard FileManager.default.fileExists(atPath: folder.path) else {
                print("note: skipping the GraphQL files of \(folder.path): not present")
                continue
            }
            let files = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: [.isRegularFileKey])
            while let file = files?.nextObject() as? URL {
                let isFile = (try? file.resourceValues(forKeys: [.isRegularFileKey]))?.isRegularFile == true
                if isFile, ["gql", "graphql"].contains(file.pathExtension) { found.append(file) }
            }
        }
        return found
    }

    /// A folder or file of the corpus, or `nil` (with a note on stdout) when the corpus is not beside the repository.
    ///
    /// - Parameter relative: The path inside `corpus/`, such as `aem/wknd-shared`.
    /// - Returns: Its URL, or `nil`.
    public static func corpusFolder(_ relative: String) -> URL? {
        let url = corpus.appendingPathComponent(relative)
        guard FileManager.default.fileExists(atPath: url.path) else {
            print("note: skipping checks on \(relative): the shared corpus is not beside the repository")
            return nil
        }
        return url
    }
}
