/// Global options written before the subcommand, as gh and kubectl take them: `content --config c.yaml -o json aem
/// adventures`.
///
/// The argument parser reads a command's options only after its name, so `content` moves the options it knows to be
/// global (the ones of ``GlobalOptions`` and ``OutputOptions``) from in front of the first command word to the end
/// of the line (before a `--`, if there is one), where the command reads them as if written there.
public enum LeadingOptions {
    /// Options that take a value, long and short spellings.
    static let valued: Set<String> = ["--config", "--output", "-o", "--items", "--fields", "--color"]
    /// Options that take none.
    static let flags: Set<String> = ["--verbose", "-v", "--pretty", "--compact", "--crlf", "--raw"]

    /// The command line with leading global options moved behind the command.
    ///
    /// - Parameter arguments: The command line, without the executable.
    /// - Returns: The same words, leading global options moved; unchanged when there are none or nothing follows.
    public static func moved(_ arguments: [String]) -> [String] {
        var leading: [String] = []
        var index = 0
        while index < arguments.count {
            let word = arguments[index]
            let name = String(word.prefix { $0 != "=" })
            if flags.contains(word) {
                leading.append(word)
                index += 1
            } else if valued.contains(name) && word.contains("=") {
                leading.append(word)
                index += 1
            } else if valued.contains(word), index + 1 < arguments.count {
                leading += [word, arguments[index + 1]]
                index += 2
            } else if word.count > 2, word.hasPrefix("-o"), !word.hasPrefix("--") {
                leading.append(word)
                index += 1
            } else {
                break
            }
        }
        guard !leading.isEmpty, index < arguments.count else { return arguments }
        var rest = Array(arguments[index...])
        let end = rest.firstIndex(of: "--") ?? rest.endIndex
        rest.insert(contentsOf: leading, at: end)
        return rest
    }
}
