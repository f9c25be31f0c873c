/// The ways results can be printed, shared by the configuration (`defaults.output`) and the CLI (`-o`).
public enum OutputFormat: String, Sendable, Hashable, CaseIterable, Decodable {
    /// Aligned columns for a terminal.
    case table
    /// A JSON array, or the single object.
    case json
    /// One JSON object per line.
    case ndjson
    /// `ndjson` under its other name.
    case jsonl
    /// Comma-separated values (RFC 4180).
    case csv
    /// Tab-separated values.
    case tsv
    /// A GitHub-flavoured Markdown table.
    case markdown
}
