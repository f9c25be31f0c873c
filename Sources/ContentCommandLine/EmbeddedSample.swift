internal import Foundation

/// The built-in sample services a command can fall back to when no configuration exists.
///
/// The executable installs the runners once at start (it links the emulator); backend commands read them
/// without depending on the emulator themselves.
public enum EmbeddedSample {
    /// Starts a sample service on loopback, runs `body` with its base URL, and stops it.
    public typealias Runner =
        @Sendable (_ body: @Sendable (_ baseURL: String) async throws -> Void) async throws -> Void

    /// Starts a sample service over a workspace folder, runs `body` with its base URL and the folder.
    public typealias WorkspaceRunner =
        @Sendable (_ body: @Sendable (_ baseURL: String, _ workspace: String) async throws -> Void) async throws
        -> Void

    /// The samples a build has.
    public struct Samples: Sendable {
        /// The AEM sample (the WKND workspace).
        public var aem: Runner?
        /// The Data Connect sample (the movies connector).
        public var dataConnect: WorkspaceRunner?
        /// Finds the Data Connect sample's workspace folder, for reading its operations without starting it;
        /// only `--help` on an operation asks, so start-up does not look for it.
        public var dataConnectWorkspace: (@Sendable () -> String?)?
        /// The sample adapters for `content request`.
        public var resource: Runner?

        /// Creates a set of samples.
        ///
        /// - Parameters:
        ///   - aem: The AEM sample.
        ///   - dataConnect: The Data Connect sample.
        ///   - dataConnectWorkspace: Its workspace folder.
        ///   - resource: The sample adapters.
        public init(
            aem: Runner? = nil, dataConnect: WorkspaceRunner? = nil,
            dataConnectWorkspace: (@Sendable () -> String?)? = nil,
            resource: Runner? = nil
        ) {
            self.aem = aem
            self.dataConnect = dataConnect
            self.dataConnectWorkspace = dataConnectWorkspace
            self.resource = resource
        }
    }

    /// Installs the samples; the executable does this once, before any command runs.
    ///
    /// - Parameter samples: The samples.
    public static func install(_ samples: Samples) {
        box.set(samples)
    }

    /// The AEM sample, when installed.
    public static var aem: Runner? { box.get().aem }
    /// The Data Connect sample, when installed.
    public static var dataConnect: WorkspaceRunner? { box.get().dataConnect }
    /// The Data Connect sample's workspace folder, when installed.
    public static var dataConnectWorkspace: String? { box.get().dataConnectWorkspace?() }
    /// The sample adapters, when installed.
    public static var resource: Runner? { box.get().resource }

    private static let box = SamplesBox()

    /// Written once at start and read by commands; a lock keeps that safe under strict concurrency.
    private final class SamplesBox: @unchecked Sendable {
        private let lock = NSLock()
        private var samples = Samples()

        func set(_ value: Samples) { lock.withLock { samples = value } }
        func get() -> Samples { lock.withLock { samples } }
    }
}
