/// A duration written the way people write them in config files and flags: `30s`, `500ms`, `2m`, `1.5s`.
///
/// A bare number means seconds. Decodes from a YAML scalar; the CLI parses flags with the same rule.
public struct ConfigDuration: Sendable, Hashable, Decodable, CustomStringConvertible {
    /// The duration.
    public var duration: Duration

    /// Wraps a duration.
    ///
    /// - Parameter duration: The duration.
    public init(_ duration: Duration) {
        self.duration = duration
    }

    /// Parses `500ms`, `30s`, `2m`, `1h` or a bare number of seconds; `nil` when the text is none of these
    /// or is negative.
    ///
    /// - Parameter text: The text.
    public init?(parsing text: String) {
        let trimmed = text.trimmingSpaces()
        let units: [(suffix: String, milliseconds: Double)] = [("ms", 1), ("s", 1000), ("m", 60_000), ("h", 3_600_000)]
        var number = Substring(trimmed)
        var scale = 1000.0
        for unit in units where trimmed.hasSuffix(unit.suffix) {
            number = trimmed.dropLast(unit.suffix.count)
            scale = unit.milliseconds
            break
        }
        guard !number.isEmpty, number.allSatisfy({ $0.isASCII && ($0.isNumber || $0 == ".") }),
            let value = Double(number), value.isFinite, value >= 0, value * scale < 1e12
        else { return nil }
        duration = .milliseconds(Int64((value * scale).rounded()))
    }

    /// Decodes from a string such as `30s`, or a number of seconds.
    ///
    /// - Parameter decoder: The decoder.
    /// - Throws: `DecodingError.dataCorrupted` naming the accepted forms.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        // YAML scalars decode as strings; a JSON document may hold a bare number of seconds.
        let text = try (try? container.decode(String.self)) ?? String(container.decode(Double.self))
        guard let parsed = ConfigDuration(parsing: text) else {
            throw DecodingError.dataCorruptedError(
                in: container,
                debugDescription: "expected a duration such as 30s, 500ms or 2m, found '\(text)'"
            )
        }
        self = parsed
    }

    /// `30s`, `500ms`.
    public var description: String {
        let milliseconds = duration.components.seconds * 1000 + duration.components.attoseconds / 1_000_000_000_000_000
        return milliseconds % 1000 == 0 ? "\(milliseconds / 1000)s" : "\(milliseconds)ms"
    }
}

/// A size in bytes written as `256MiB`, `10MB`, `512KiB` or a bare number of bytes.
public struct ByteCount: Sendable, Hashable, Decodable, CustomStringConvertible {
    /// The number of bytes.
    public var bytes: Int

    /// Wraps a byte count.
    ///
    /// - Parameter bytes: The number of bytes.
    public init(_ bytes: Int) {
        self.bytes = bytes
    }

    /// Parses `256MiB`, `10MB`, `1GiB`, `512KiB`, `1kB` or a bare number; `nil` otherwise.
    ///
    /// - Parameter text: The text.
    public init?(parsing text: String) {
        let trimmed = text.trimmingSpaces()
        let units: [(suffix: String, factor: Int)] = [
            ("KiB", 1 << 10), ("MiB", 1 << 20), ("GiB", 1 << 30), ("kB", 1000), ("KB", 1000), ("MB", 1_000_000),
            ("GB", 1_000_000_000), ("B", 1),
        ]
        var number = Substring(trimmed)
        var factor = 1
        for unit in units where trimmed.hasSuffix(unit.suffix) {
            number = trimmed.dropLast(unit.suffix.count)
            factor = unit.factor
            break
        }
        let digits = number.trimmingSpaces()
        guard digits.allSatisfy({ $0.isASCII && $0.isNumber }), let value = Int(digits) else { return nil }
        let (product, overflow) = value.multipliedReportingOverflow(by: factor)
        guard !overflow else { return nil }
        bytes = product
    }

    /// Decodes from `256MiB` or a number of bytes.
    ///
    /// - Parameter decoder: The decoder.
    /// - Throws: `DecodingError.dataCorrupted` naming the accepted forms.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let text = try container.decode(String.self)
        guard let parsed = ByteCount(parsing: text) else {
            throw DecodingError.dataCorruptedError(
                in: container,
                debugDescription: "expected a size such as 256MiB, 10MB or 4096, found '\(text)'"
            )
        }
        self = parsed
    }

    /// The size with the largest binary unit that divides it.
    public var description: String {
        for (suffix, factor) in [("GiB", 1 << 30), ("MiB", 1 << 20), ("KiB", 1 << 10)]
        where bytes >= factor && bytes % factor == 0 {
            return "\(bytes / factor)\(suffix)"
        }
        return "\(bytes)B"
    }
}

extension String {
    fileprivate func trimmingSpaces() -> String {
        String(drop { $0 == " " }.reversed().drop { $0 == " " }.reversed())
    }
}

extension Substring {
    fileprivate func trimmingSpaces() -> Substring {
        let start = firstIndex { $0 != " " } ?? endIndex
        let end = lastIndex { $0 != " " }.map(index(after:)) ?? start
        return self[start..<end]
    }
}
