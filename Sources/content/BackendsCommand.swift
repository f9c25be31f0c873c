import ArgumentParser
import ContentCommandLine
import ContentConfig
import ContentCore
import ContentKit
import Foundation

/// `content backends`: the configured backends and the plugin types this build knows.
struct BackendsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "backends",
        abstract: "List the configured backends and the built-in backend types.",
        discussion: """
            Prints one line per configured backend (name, type, where it is defined), then the backend
            types this build of content supports. A backend whose type is unknown is marked.
            """
    )

    @OptionGroup var options: GlobalOptions

    func run() async throws {
        try await reportFailures {
            let session = try options.session()
            var rows: [[String]] = [["NAME", "TYPE", "DEFINED AT"]]
            for backend in session.configuration.backends {
                let known = session.registry.entry(forType: backend.typeName) != nil
                rows.append([
                    backend.name, backend.typeName + (known ? "" : " (unknown type)"), backend.section.location,
                ])
            }
            if session.configuration.backends.isEmpty {
                StandardError.write(
                    session.configuration.location == nil
                        ? "content: no configuration file found; `content config --help` shows how to write one"
                        : "content: no backends are configured in \(session.configuration.location?.path ?? "")"
                )
            } else {
                StandardOutput.write(alignedColumns(rows))
            }
            let types = session.registry.entries.map { [$0.typeName, $0.summary] }
            if types.isEmpty {
                StandardError.write("content: this build has no backend plugins")
            } else {
                StandardOutput.write("\n" + alignedColumns([["TYPE", "TALKS TO"]] + types))
            }
        }
    }
}

/// Pads columns to their widest cell; a stopgap until the output layer renders tables.
func alignedColumns(_ rows: [[String]]) -> String {
    let widths = rows.reduce(into: [Int]()) { widths, row in
        for (column, cell) in row.enumerated() {
            if column < widths.count {
                widths[column] = max(widths[column], cell.count)
            } else {
                widths.append(cell.count)
            }
        }
    }
    return rows.map { row in
        row.enumerated().map { column, cell in
            column == row.count - 1 ? cell : cell.padding(toLength: widths[column], withPad: " ", startingAt: 0)
        }.joined(separator: "  ")
    }.joined(separator: "\n") + "\n"
}
