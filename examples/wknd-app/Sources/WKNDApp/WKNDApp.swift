import ContentKit
import Foundation

/// Prints WKND adventures (all of them, or those of one activity) through the generated `WkndSharedQueries`,
/// which runs AEM's persisted queries `wknd-shared/adventures-all` and `wknd-shared/adventures-by-activity`.
///
///     content serve --workspace examples &
///     swift run --package-path examples/wknd-app WKNDApp --config examples/content.yaml Surfing
@main
struct WKNDApp {
    static func main() async {
        var arguments = Array(CommandLine.arguments.dropFirst())
        var configFile: String?
        if let flag = arguments.firstIndex(of: "--config"), flag + 1 < arguments.count {
            configFile = arguments[flag + 1]
            arguments.removeSubrange(flag...(flag + 1))
        }
        do {
            let wknd = WkndSharedQueries(client: try ContentClient(configFile: configFile))
            if let activity = arguments.first {
                for adventure in try await wknd.adventuresByActivity(activity: activity).adventureList.items {
                    printRow(adventure.title, adventure.activity, adventure.price)
                }
            } else {
                for adventure in try await wknd.adventuresAll().adventureList.items {
                    printRow(adventure.title, adventure.activity, adventure.price)
                }
            }
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
