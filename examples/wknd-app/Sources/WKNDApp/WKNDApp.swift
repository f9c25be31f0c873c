import ContentKit
import Foundation

/// Prints WKND adventures (all of them, or those of one activity) through the generated
/// `AEM.wkndSharedQueries`, which runs AEM's persisted queries `wknd-shared/adventures-all` and
/// `wknd-shared/adventures-by-activity`.
///
///     content serve --workspace examples &
///     swift run --package-path examples/wknd-app WKNDApp --aem http://127.0.0.1:4503 Surfing
///
/// The client is configured in code: the instance comes from `--aem`, else the local publish tier
/// `content serve` starts.
@main
struct WKNDApp {
    static func main() async {
        var arguments = Array(CommandLine.arguments.dropFirst())
        var url = "http://127.0.0.1:4503"
        if let flag = arguments.firstIndex(of: "--aem"), flag + 1 < arguments.count {
            url = arguments[flag + 1]
            arguments.removeSubrange(flag...(flag + 1))
        }
        let activity = arguments.first
        let wknd = AEM.wkndSharedQueries
        wknd.aem.settings = AEMSettings(url: url)
        do {
            // AEM types list items as nullable (`items: [AdventureModel]!`).
            let adventures =
                if let activity {
                    try await wknd.adventuresByActivityQuery.execute(activity: activity).data.adventureList.items
                        .compactMap { $0 }.map { ($0.title, $0.activity, $0.price) }
                } else {
                    try await wknd.adventuresAllQuery.execute().data.adventureList.items
                        .compactMap { $0 }.map { ($0.title, $0.activity, $0.price) }
                }
            for (title, activity, price) in adventures { printRow(title, activity, price) }
        } catch {
            FileHandle.standardError.write(Data("wknd-app: \(error)\n".utf8))
            exit(1)
        }
    }

    /// One tab-separated line: title, activity, price.
    static func printRow(_ title: String?, _ activity: String?, _ price: Double?) {
        print([title ?? "-", activity ?? "-", price.map { String($0) } ?? "-"].joined(separator: "\t"))
    }
}
