internal import ContentGraphQL
public import Foundation

/// The schema this project generates for a workspace, held to the one Firebase's tools generated for it.
public enum DataConnectSchemaComparison {
    /// What the two schemas do not share; see ``GraphQLSchemaShape/differences(from:)`` for the lines.
    ///
    /// - Parameters:
    ///   - workspace: The workspace.
    ///   - reference: The folder Firebase generated (`.dataconnect/schema`): every `.gql` file under it is read,
    ///     with the workspace's own schema files, which the generated ones extend.
    /// - Returns: One line per difference, sorted; empty when they match.
    /// - Throws: ``DataConnectWorkspaceError`` when the reference cannot be read or parsed.
    public static func differences(of workspace: DataConnectWorkspace, reference: URL) throws(DataConnectWorkspaceError)
        -> [String]
    {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: reference.path, isDirectory: &isDirectory), isDirectory.boolValue
        else {
            throw DataConnectWorkspaceError(
                file: reference.path, "no such folder; --compare takes the .dataconnect/schema folder Firebase wrote")
        }
        var files: [(path: String, text: String)] = []
        for url in DataConnectWorkspace.gqlFiles(in: reference) {
            files.append((url.path, try DataConnectWorkspace.readText(url)))
        }
        guard !files.isEmpty else {
            throw DataConnectWorkspaceError(file: reference.path, "the folder holds no .gql files")
        }
        do {
            let theirs = try GraphQLSchemaShape(files: files + workspace.schemaFiles)
            let ours = try GraphQLSchemaShape(files: [("generated schema", DataConnectSDL.make(workspace.schema))])
            return ours.differences(from: theirs)
        } catch {
            throw DataConnectWorkspaceError(error)
        }
    }
}
