public import ContentCore
public import ContentYAML

/// The configuration file as written, before plugins read their sections.
///
/// Configuration keys:
/// - `defaults` (mapping, optional): settings every backend shares.
///   - `output` (`table` | `json` | `ndjson` | `csv` | `tsv` | `markdown`, optional): the output format
///     when `-o` is not given. Default: `table` on a terminal, `json` otherwise.
///   - `timeout` (duration, optional): the longest one operation may take. Default `30s`.
///   - `retries` (integer 0–10, optional): retries of idempotent requests. Default `2`.
///   - `maxResponseSize` (size, optional): the largest response accepted. Default `256MiB`.
/// - `backends` (mapping, optional): backends by name; each has `type` (a plugin name, required)
///   and that plugin's own keys.
public struct UserConfig: Decodable, Sendable {
    /// The `defaults:` section.
    public struct Defaults: Decodable, Sendable, Hashable {
        /// `defaults.output`.
        public var output: OutputFormat?
        /// `defaults.timeout`.
        public var timeout: ConfigDuration?
        /// `defaults.retries`.
        public var retries: Int?
        /// `defaults.maxResponseSize`.
        public var maxResponseSize: ByteCount?

        /// Decodes the section, checking ranges.
        ///
        /// - Parameter decoder: The decoder.
        /// - Throws: `DecodingError` for a value out of range.
        public init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            output = try container.decodeIfPresent(OutputFormat.self, forKey: .output)
            timeout = try container.decodeIfPresent(ConfigDuration.self, forKey: .timeout)
            retries = try container.decodeIfPresent(Int.self, forKey: .retries)
            maxResponseSize = try container.decodeIfPresent(ByteCount.self, forKey: .maxResponseSize)
            if let retries, !(0...10).contains(retries) {
                throw DecodingError.dataCorruptedError(
                    forKey: .retries,
                    in: container,
                    debugDescription: "expected 0 to 10 retries, found \(retries)"
                )
            }
            if let maxResponseSize, maxResponseSize.bytes <= 0 {
                throw DecodingError.dataCorruptedError(
                    forKey: .maxResponseSize,
                    in: container,
                    debugDescription: "the response size cap must be larger than zero"
                )
            }
            if let timeout, timeout.duration <= .zero {
                throw DecodingError.dataCorruptedError(
                    forKey: .timeout,
                    in: container,
                    debugDescription: "the timeout must be longer than zero"
                )
            }
        }

        private enum CodingKeys: String, CodingKey {
            case output, timeout, retries, maxResponseSize
        }
    }

    /// One entry under `backends:`, kept as YAML until its plugin decodes it.
    public struct BackendEntry: Sendable {
        /// The backend's name (its key under `backends:`).
        public var name: String
        /// Where the name is written.
        public var nameMark: YAMLMark
        /// The whole section, `type` included.
        public var node: YAMLNode
    }

    /// `defaults:`.
    public var defaults: Defaults?
    /// `backends:`, in file order.
    public var backends: [BackendEntry]

    /// Decodes the file's top level.
    ///
    /// - Parameter decoder: The decoder.
    /// - Throws: `DecodingError` or the YAML decoder's positioned errors.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        defaults = try container.decodeIfPresent(Defaults.self, forKey: .defaults)
        backends = try container.decodeIfPresent(Backends.self, forKey: .backends)?.entries ?? []
    }

    private enum CodingKeys: String, CodingKey {
        case defaults, backends
    }

    /// The `backends:` mapping in file order, each section captured whole with the position of its name.
    private struct Backends: Decodable {
        var entries: [BackendEntry] = []

        init(from decoder: any Decoder) throws {
            let node = try YAMLNode(from: decoder)
            switch node.kind {
            case .mapping(let mapping):
                entries = mapping.map { BackendEntry(name: $0.key, nameMark: $0.keyMark, node: $0.value) }
            case .scalar(let scalar) where scalar.isNull:
                entries = []
            default:
                throw DecodingError.dataCorrupted(
                    .init(
                        codingPath: decoder.codingPath,
                        debugDescription: "expected a mapping of backend names to settings, found \(node.kindName)"
                    )
                )
            }
        }
    }
}
