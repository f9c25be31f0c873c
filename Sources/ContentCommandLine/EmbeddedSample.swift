public import Foundation

/// The built-in sample services commands fall back to when nothing is configured, found by backend type.
///
/// The executable installs them once at start, from its registry of emulated services (it links the emulators);
/// a backend's commands ask for their own type's sample without depending on any emulator.
public enum EmbeddedSample {
    /// Starts a sample service on loopback, runs `body` with its base URL and the folder of the service's part of
    /// the sample workspace, and stops it.
    public typealias Runner =
        @Sendable (_ body: @Sendable (_ baseURL: String, _ workspace: URL) async throws -> Void) async throws -> Void

    /// Runs `body` with the folder of the service's part of the sample workspace, starting nothing: for reading
    /// its files, as `--help` on an operation does.
    public typealias Reader = @Sendable (_ body: @Sendable (_ workspace: URL) async throws -> Void) async throws -> Void

    /// One backend type's sample.
    public struct Sample: Sendable {
        /// Starts the sample service.
        public var run: Runner
        /// Reads the sample's files.
        public var read: Reader

        /// Creates a sample.
        ///
        /// - Parameters:
        ///   - run: Starts the sample service.
        ///   - read: Reads the sample's files.
        public init(run: @escaping Runner, read: @escaping Reader) {
            self.run = run
            self.read = read
        }
    }

    /// Installs the samples by backend type; the executable does this once, before any command runs.
    ///
    /// - Parameter samples: The samples, keyed by the backend type they answer for (`aem`, `dataconnect`, …).
    public static func install(_ samples: [String: Sample]) {
        box.set(samples)
    }

    /// The sample for a backend type, when one is installed.
    ///
    /// - Parameter backendType: The backend type, such as `aem`.
    /// - Returns: Its sample, or `nil`.
    public static func sample(for backendType: String) -> Sample? {
        box.get()[backendType]
    }

    private static let box = SamplesBox()

    /// Written once at start and read by commands; a lock keeps that safe under strict concurrency.
    private final class SamplesBox: @unchecked Sendable {
        private let lock = NSLock()
        private var samples: [String: Sample] = [:]

        func set(_ value: [String: Sample]) { lock.withLock { samples = value } }
        func get() -> [String: Sample] { lock.withLock { samples } }
    }
}
