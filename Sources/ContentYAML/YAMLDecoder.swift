/// Decodes any `Decodable` type from YAML, with errors that point at the line, column and key path.
///
/// On top of the `Decodable` contract it:
/// - replaces `${NAME}` and `${NAME:-default}` in scalars with environment values (single-quoted
///   scalars are taken literally);
/// - rejects keys that no type asked for, with a did-you-mean hint from the keys that were asked for;
/// - names the allowed values when a `CaseIterable` string enum meets an unknown one.
///
/// ```swift
/// let config = try YAMLDecoder(environment: ProcessInfo.processInfo.environment)
///     .decode(UserConfig.self, from: text, file: "content.yaml")
/// ```
public struct YAMLDecoder: Sendable {
    /// The variables `${NAME}` reads.
    public var environment: [String: String]
    /// The parser's bounds.
    public var limits: YAMLLimits
    /// Whether keys no type asked for are errors.
    public var rejectsUnknownKeys: Bool

    /// Creates a decoder.
    ///
    /// - Parameters:
    ///   - environment: The variables `${NAME}` reads.
    ///   - limits: The parser's bounds.
    ///   - rejectsUnknownKeys: Whether keys no type asked for are errors.
    public init(environment: [String: String] = [:], limits: YAMLLimits = .default, rejectsUnknownKeys: Bool = true) {
        self.environment = environment
        self.limits = limits
        self.rejectsUnknownKeys = rejectsUnknownKeys
    }

    /// Parses and decodes a document.
    ///
    /// An empty document decodes as an empty mapping.
    ///
    /// - Parameters:
    ///   - type: The type to decode.
    ///   - text: The YAML text.
    ///   - file: The file name errors mention.
    /// - Returns: The decoded value.
    /// - Throws: ``YAMLError``.
    public func decode<T: Decodable>(_ type: T.Type, from text: String, file: String) throws(YAMLError) -> T {
        let root = try YAMLParser(limits: limits).parse(text, file: file)
        return try decode(type, from: root, file: file)
    }

    /// Decodes a node that was parsed earlier, such as one section of a larger document.
    ///
    /// - Parameters:
    ///   - type: The type to decode.
    ///   - node: The node; `nil`, or a null document root, stands for an empty mapping.
    ///   - file: The file name errors mention.
    ///   - keyPath: The keys leading to `node`, so that errors show the full path.
    /// - Returns: The decoded value.
    /// - Throws: ``YAMLError``.
    public func decode<T: Decodable>(
        _ type: T.Type,
        from node: YAMLNode?,
        file: String,
        keyPath: [String] = []
    ) throws(YAMLError) -> T {
        var root = node ?? YAMLNode(.mapping([]), at: YAMLMark(line: 1, column: 1))
        if keyPath.isEmpty, case .scalar(let scalar) = root.kind, scalar.isNull {
            root = YAMLNode(.mapping([]), at: root.mark)
        }
        let context = DecodingContext(file: file, environment: environment, prefix: keyPath)
        let decoder = NodeDecoder(node: root, codingPath: [], context: context)
        let value: T
        do {
            value = try decoder.decodeValue(T.self)
        } catch let error as YAMLError {
            throw error
        } catch let error as DecodingError {
            throw context.translate(error, root: root)
        } catch {
            throw YAMLError(file: file, mark: root.mark, keyPath: context.render([]), message: "\(error)")
        }
        if rejectsUnknownKeys, let unknown = context.firstUnknownKey() {
            throw unknown
        }
        return value
    }
}

extension YAMLNode: Decodable {
    /// Captures the node as it is, so a later decode (a plugin's own section) can read it with positions.
    ///
    /// - Parameter decoder: A decoder from ``YAMLDecoder``.
    /// - Throws: `DecodingError` when the decoder does not read YAML.
    public init(from decoder: any Decoder) throws {
        guard let yaml = decoder as? NodeDecoder else {
            throw DecodingError.dataCorrupted(
                .init(codingPath: decoder.codingPath, debugDescription: "YAMLNode decodes only from YAMLDecoder")
            )
        }
        self = yaml.node
    }
}
