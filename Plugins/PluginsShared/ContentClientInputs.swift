import Foundation

/// The files a generated client depends on, found without the generator (a plugin links only Foundation):
/// the configuration, and every `.gql`, `.graphql` and `.yaml` file of the workspaces it names, including
/// connector and schema folders a `dataconnect.yaml` points at outside its own folder.
enum ContentClientInputs {
    static let extensions: Set<String> = ["gql", "graphql", "yaml"]

    /// The configuration file and the workspace files it names, sorted, each once.
    static func files(configuration: URL) -> [URL] {
        var files: Set<URL> = [configuration.standardizedFileURL]
        guard let text = try? String(contentsOf: configuration, encoding: .utf8) else { return Array(files) }
        let base = configuration.deletingLastPathComponent()
        // Every top-level value that names a folder is a workspace, whatever its key: the generator's registry
        // decides which keys exist, and this list need not follow it.
        for (_, value) in topLevelValues(text) where !value.isEmpty {
            let folder = URL(fileURLWithPath: value, relativeTo: base).standardizedFileURL
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: folder.path, isDirectory: &isDirectory), isDirectory.boolValue
            else { continue }
            files.formUnion(walk(folder))
            // A Data Connect workspace reads the folders its `dataconnect.yaml` names, which may lie beside it.
            let manifest = folder.appendingPathComponent("dataconnect.yaml")
            guard let workspace = try? String(contentsOf: manifest, encoding: .utf8) else { continue }
            for path in relativePaths(in: workspace) {
                files.formUnion(walk(URL(fileURLWithPath: path, relativeTo: folder).standardizedFileURL))
            }
        }
        return files.sorted { $0.path < $1.path }
    }

    /// `key: value` pairs of a YAML file's unindented lines, comments and quotes removed.
    static func topLevelValues(_ text: String) -> [(String, String)] {
        text.split(whereSeparator: \.isNewline).compactMap { line in
            guard let first = line.first, first != " ", first != "\t", first != "#",
                let colon = line.firstIndex(of: ":")
            else { return nil }
            let key = line[..<colon].trimmingCharacters(in: .whitespaces)
            return (key, scalar(line[line.index(after: colon)...]))
        }
    }

    /// The paths starting `./` or `../` anywhere in a YAML file: `connectorDirs` entries and `schema.source`.
    static func relativePaths(in text: String) -> [String] {
        text.split(whereSeparator: \.isNewline).flatMap { line -> [String] in
            let content = withoutComment(line)
            return content.split { $0 == "," || $0 == "[" || $0 == "]" || $0 == " " || $0 == "\t" || $0 == ":" }
                .map { $0.trimmingCharacters(in: CharacterSet(charactersIn: "\"'-")) }
                .filter { $0.hasPrefix("./") || $0.hasPrefix("../") }
        }
    }

    /// A YAML scalar as written after its key: comment, surrounding blanks and quotes removed.
    static func scalar(_ text: Substring) -> String {
        withoutComment(text).trimmingCharacters(in: .whitespaces).trimmingCharacters(
            in: CharacterSet(charactersIn: "\"'"))
    }

    /// The text before a `#` that starts a comment: one at the start or after a blank.
    static func withoutComment(_ text: Substring) -> Substring {
        var previous: Character = " "
        for index in text.indices {
            if text[index] == "#", previous == " " || previous == "\t" { return text[..<index] }
            previous = text[index]
        }
        return text
    }

    /// The input files under a folder, skipping hidden ones such as `.build` and `.git`.
    static func walk(_ folder: URL) -> [URL] {
        guard
            let walker = FileManager.default.enumerator(
                at: folder, includingPropertiesForKeys: nil, options: [.skipsHiddenFiles])
        else { return [] }
        var files: [URL] = []
        for case let file as URL in walker where extensions.contains(file.pathExtension) {
            files.append(file.standardizedFileURL)
        }
        return files
    }
}
