/// The backend plugins a build of `content` knows, looked up by their `type:` name.
public struct BackendRegistry: Sendable {
    /// One registered plugin, with its generic parts erased so plugins of different types share a list.
    public struct Entry: Sendable {
        /// The plugin's `type:` name.
        public let typeName: String
        /// What the plugin talks to.
        public let summary: String
        /// The plugin type, for conformances such as command contribution.
        public let plugin: any BackendPlugin.Type
        private let check: @Sendable (any ConfigSection) throws -> Void
        private let make: @Sendable (String, any ConfigSection, BackendContext) throws -> any ContentBackend

        init<Plugin: BackendPlugin>(_ plugin: Plugin.Type) {
            typeName = Plugin.typeName
            summary = Plugin.summary
            self.plugin = plugin
            check = { section in _ = try section.decode(Plugin.Configuration.self) }
            make = { name, section, context in
                var context = context
                context.baseDirectory = section.baseDirectory
                return try Plugin.makeBackend(
                    name: name,
                    configuration: section.decode(Plugin.Configuration.self),
                    context: context
                )
            }
        }

        /// Decodes a section to check it, making nothing.
        ///
        /// - Parameter section: The backend's section.
        /// - Throws: The decoding failure.
        public func validate(_ section: any ConfigSection) throws {
            try check(section)
        }

        /// Decodes a section and makes the backend.
        ///
        /// - Parameters:
        ///   - name: The backend's name.
        ///   - section: Its section.
        ///   - context: Transport and shared settings.
        /// - Returns: The backend.
        /// - Throws: The decoding or construction failure.
        public func makeBackend(name: String, section: any ConfigSection, context: BackendContext) throws
            -> any ContentBackend
        {
            try make(name, section, context)
        }
    }

    /// The plugins, in registration order.
    public let entries: [Entry]

    /// Creates a registry.
    ///
    /// When two plugins claim one `type:` name, the first wins; see ``duplicateTypeNames``.
    ///
    /// - Parameter plugins: The plugin types.
    public init(_ plugins: [any BackendPlugin.Type]) {
        entries = plugins.map { Self.entry(for: $0) }
    }

    private static func entry<Plugin: BackendPlugin>(for plugin: Plugin.Type) -> Entry {
        Entry(plugin)
    }

    /// The plugin for a `type:` name.
    ///
    /// - Parameter typeName: The name, such as `aem`.
    /// - Returns: The plugin, or `nil`.
    public func entry(forType typeName: String) -> Entry? {
        entries.first { $0.typeName == typeName }
    }

    /// The `type:` names, in registration order.
    public var typeNames: [String] { entries.map(\.typeName) }

    /// Names claimed by more than one plugin; a correct build has none.
    public var duplicateTypeNames: [String] {
        var seen = Set<String>()
        return typeNames.filter { !seen.insert($0).inserted }
    }
}
