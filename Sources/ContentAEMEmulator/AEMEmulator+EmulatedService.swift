public import ContentEmulator
public import Foundation

extension AEMEmulator.Options: EmulatorOptions {
    /// A publish tier with AEM's default author credentials.
    public init() {
        self.init(mode: .publish)
    }
}

extension AEMEmulator: EmulatedService {
    /// `aem`.
    public static let name = "aem"
    /// The built-in sample of `content aem`.
    public static let sampleBackendType: String? = "aem"
    /// AEM's publish port.
    public static let defaultPort = 4503
    /// What a workspace holds for AEM.
    public static let workspaceDescription = "aem/ or an AEM project's jcr_root/"

    /// Whether the workspace has an `aem/` folder or an AEM content package.
    ///
    /// - Parameter workspace: The workspace folder.
    /// - Returns: `true` when it does.
    public static func isPresent(in workspace: URL) -> Bool {
        FileManager.default.fileExists(atPath: workspace.appendingPathComponent("aem").path)
            || !AEMContentPackage.roots(in: workspace).isEmpty
    }

    /// Loads `aem/`: models, fragments and persisted queries into a fresh store (or the one in the data file).
    ///
    /// - Parameters:
    ///   - workspace: The workspace folder.
    ///   - context: The tier, the base URL image references are made on, and the data file.
    /// - Returns: The emulator.
    /// - Throws: A workspace or store error.
    public static func load(workspace: URL, context: EmulatorContext<Options>) async throws -> AEMEmulator {
        try AEMEmulator(
            directory: workspace.appendingPathComponent("aem"), dataFile: context.dataFile,
            publishBase: context.baseURL, options: context.options,
            limits: context.limits, contentPackages: AEMContentPackage.roots(in: workspace))
    }
}
