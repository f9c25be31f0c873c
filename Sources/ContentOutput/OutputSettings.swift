public import ContentCore
public import ContentJSON

/// Everything that decides how a result is printed, resolved from flags, configuration and the terminal.
public struct OutputSettings: Sendable {
    /// Whether to use ANSI colours and bold.
    public enum ColorMode: String, Sendable, CaseIterable {
        /// Colour on a terminal, unless `NO_COLOR` or `CLICOLOR=0` says otherwise (`CLICOLOR_FORCE` forces it).
        case auto
        /// Always colour.
        case always
        /// Never colour.
        case never
    }

    /// The format.
    public var format: OutputFormat
    /// Where the items are; overrides the backend's default.
    public var itemsPath: JSONPath?
    /// The columns to show; overrides the backend's default columns.
    public var fields: FieldSelection?
    /// Indented JSON.
    public var pretty: Bool
    /// ANSI colour and bold.
    public var color: Bool
    /// Whether stdout is a terminal: only then are table cells truncated.
    public var isTerminal: Bool
    /// The terminal width in columns.
    public var width: Int
    /// CSV and TSV lines end in CRLF.
    public var crlf: Bool
    /// Print the whole response untouched.
    public var raw: Bool

    /// Creates settings.
    ///
    /// - Parameters:
    ///   - format: The format.
    ///   - itemsPath: Where the items are.
    ///   - fields: The columns to show.
    ///   - pretty: Indented JSON.
    ///   - color: ANSI colour.
    ///   - isTerminal: Whether stdout is a terminal.
    ///   - width: The terminal width.
    ///   - crlf: CRLF line ends for CSV and TSV.
    ///   - raw: The whole response untouched.
    public init(
        format: OutputFormat = .json,
        itemsPath: JSONPath? = nil,
        fields: FieldSelection? = nil,
        pretty: Bool = false,
        color: Bool = false,
        isTerminal: Bool = false,
        width: Int = 80,
        crlf: Bool = false,
        raw: Bool = false
    ) {
        self.format = format
        self.itemsPath = itemsPath
        self.fields = fields
        self.pretty = pretty
        self.color = color
        self.isTerminal = isTerminal
        self.width = width
        self.crlf = crlf
        self.raw = raw
    }

    /// Whether colour is on, by the conventions of `NO_COLOR` (no-color.org) and `CLICOLOR`.
    ///
    /// - Parameters:
    ///   - mode: The `--color` flag.
    ///   - isTerminal: Whether stdout is a terminal.
    ///   - environment: The process environment.
    /// - Returns: Whether to colour.
    public static func colorEnabled(mode: ColorMode, isTerminal: Bool, environment: [String: String]) -> Bool {
        switch mode {
        case .always: return true
        case .never: return false
        case .auto:
            if let force = environment["CLICOLOR_FORCE"], !force.isEmpty, force != "0" { return true }
            if let noColor = environment["NO_COLOR"], !noColor.isEmpty { return false }
            if environment["CLICOLOR"] == "0" { return false }
            return isTerminal && environment["TERM"] != "dumb"
        }
    }

    /// The terminal width: `COLUMNS`, else what the terminal reports, else 80.
    ///
    /// - Parameters:
    ///   - environment: The process environment.
    ///   - reported: What the terminal reports, if anything.
    /// - Returns: The width, at least 20.
    public static func width(environment: [String: String], reported: Int?) -> Int {
        if let columns = environment["COLUMNS"].flatMap(Int.init), columns > 0 { return max(20, columns) }
        return max(20, reported ?? 80)
    }
}
