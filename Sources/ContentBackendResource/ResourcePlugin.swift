public import ContentCore
internal import Foundation

/// The `resource` backend plugin: REST resource requests to adapters or any URL, as MobileFirst's
/// `WLResourceRequest` sends them.
public enum ResourcePlugin: BackendPlugin {
    /// `resource`.
    public static let typeName = "resource"
    /// For `content backends --types`.
    public static let summary = "REST resource requests to adapters or URLs, in the style of MobileFirst"

    /// Makes a backend.
    ///
    /// - Parameters:
    ///   - name: The backend's name.
    ///   - configuration: Its settings.
    ///   - context: Transport and shared settings.
    /// - Returns: The backend.
    /// - Throws: ``ResourceError`` for a URL without scheme or host, or incomplete OAuth settings.
    public static func makeBackend(name: String, configuration: ResourceConfiguration, context: BackendContext) throws
        -> any ContentBackend
    {
        try ResourceBackend(
            name: name, configuration: configuration, context: context,
            environment: ProcessInfo.processInfo.environment)
    }
}
