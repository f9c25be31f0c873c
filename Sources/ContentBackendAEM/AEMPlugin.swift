public import ContentCore
internal import Foundation

/// The `aem` backend plugin: Adobe Experience Manager persisted GraphQL queries.
public enum AEMPlugin: BackendPlugin {
    /// `aem`.
    public static let typeName = "aem"
    /// For `content backends --types`.
    public static let summary = "Adobe Experience Manager persisted GraphQL queries"

    /// Makes a backend, reading a token file when one is named.
    ///
    /// - Parameters:
    ///   - name: The backend's name.
    ///   - configuration: Its settings.
    ///   - context: Transport and shared settings.
    /// - Returns: The backend.
    /// - Throws: ``AEMError`` for a URL without scheme or host, or an unreadable token file.
    public static func makeBackend(name: String, configuration: AEMConfiguration, context: BackendContext) throws
        -> any ContentBackend
    {
        if let problem = BackendURL.problem(configuration.url) {
            throw AEMError(
                kind: .configuration,
                description: "backend '\(name)': url '\(context.redactor.redact(url: configuration.url))' \(problem); "
                    + "write it like https://publish-p123-e456.adobeaemcloud.com"
            )
        }
        let token = try configuration.auth?.bearerToken(backend: name)
        return AEMBackend(
            name: name,
            configuration: configuration,
            context: context,
            token: token,
            cache: ResponseCache.standard(environment: ProcessInfo.processInfo.environment)
        )
    }
}
