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
