public import ContentEmulator
public import Foundation
public import Hummingbird

extension ResourceEmulator: EmulatedService {
    /// `resource`.
    public static let name = "resource"
    /// The built-in sample of `content request`.
    public static let sampleBackendType: String? = "resource"
    /// The port of MobileFirst's development server (`http://localhost:9080/mfp/api/az/v1/token`, Developer Center,
    /// "Confidential clients"), so an app set up for one reaches the other.
    public static let defaultPort = 9080
    /// What a workspace holds for the sample adapters.
    public static let workspaceDescription = "resource/"
    /// `HEAD` answers wherever `GET` does, as a MobileFirst server's does.
    public static let routerOptions: RouterOptions = .autoGenerateHeadEndpoints

    /// Whether the workspace has a `resource/` folder.
    ///
    /// - Parameter workspace: The workspace folder.
    /// - Returns: `true` when it does.
    public static func isPresent(in workspace: URL) -> Bool {
        FileManager.default.fileExists(atPath: workspace.appendingPathComponent("resource").path)
    }

    /// Loads `resource/resource.yaml`.
    ///
    /// - Parameters:
    ///   - workspace: The workspace folder.
    ///   - context: Nothing the adapters use.
    /// - Returns: The emulator.
    /// - Throws: A workspace error.
    public static func load(workspace: URL, context: EmulatorContext<NoEmulatorOptions>) async throws
        -> ResourceEmulator
    {
        try ResourceEmulator(directory: workspace.appendingPathComponent("resource"))
    }

    /// Where the adapters are.
    public var notes: [String] { ["sample adapters under /mfp/api"] }
}
