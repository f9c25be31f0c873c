import ContentJSON
import Foundation

/// Benchmark inputs, generated at start and never committed: AEM `adventureList` responses built from the
/// real WKND adventures (when the shared corpus is beside the repository) and Data Connect `movies` responses.
package enum Inputs {
    private static let cache = InputCache()

    /// The AEM response with `count` items, generated on first use in this process (each benchmark runs in
    /// a process of its own, so only the inputs it reads are ever built).
    package static func aem(_ count: Int) -> [UInt8] {
        cache.value(for: "aem-\(count)") { aemResponse(items: count) }
    }

    /// The Data Connect response with `count` rows, generated on first use.
    package static func movies(_ count: Int) -> [UInt8] {
        cache.value(for: "movies-\(count)") { moviesResponse(rows: count) }
    }

    /// The WKND adventures' fields, or a synthetic stand-in with the same shape when the corpus is absent.
    static let adventures: [JSONValue] = {
        let corpus = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("shared/corpus/aem/wknd-shared/adventures.json")
        if let data = FileManager.default.contents(atPath: corpus.path),
            let list = (try? JSONParser().parse(Array(data)))?.arrayValue, !list.isEmpty
        {
            return list
        }
        return (0..<16).map { index in
            .object([
                "title": .string("Adventure \(index) – Café à la plage"),
                "slug": .string("adventure-\(index)"),
                "activity": .string(["Surfing", "Cycling", "Hiking"][index % 3]),
                "price": .number(JSONNumber(text: "\(1000 + index).50")),
                "tripLength": .string("\(index + 2) Days"),
                "description": .string("<p>Day one: <b>arrive</b> &amp; settle in.</p>"),
                "primaryImage": .string("/content/dam/wknd-shared/en/adventures/\(index).jpg"),
            ])
        }
    }()

    /// An AEM persisted-query response with `count` adventure items, as bytes.
    static func aemResponse(items count: Int) -> [UInt8] {
        var items: [JSONValue] = []
        items.reserveCapacity(count)
        for index in 0..<count {
            guard case .object(var item) = adventures[index % adventures.count] else { continue }
            let path = item["primaryImage"]?.stringValue ?? "/content/dam/x.jpg"
            item["_path"] = .string("/content/dam/wknd-shared/en/adventures/item-\(index)/item-\(index)")
            item["primaryImage"] = .object([
                "_path": .string(path),
                "_dynamicUrl": .string("/adobe/dynamicmedia/deliver/dm-aid--\(index)/image.jpg?width=750"),
                "mimeType": .string("image/jpeg"), "width": .number(JSONNumber(1600)),
                "height": .number(JSONNumber(1200)),
            ])
            if let html = item["description"]?.stringValue {
                item["description"] = .object(["html": .string(html), "plaintext": .string(html)])
            }
            items.append(.object(item))
        }
        let body: JSONValue = .object(["data": .object(["adventureList": .object(["items": .array(items)])])])
        return Array(body.serialized())
    }

    /// A Data Connect `movies` response with `count` rows, as bytes.
    static func moviesResponse(rows count: Int) -> [UInt8] {
        let genres = ["Sci-Fi", "Drama", "Comedy", "Animation", "Thriller"]
        let rows = (0..<count).map { index -> JSONValue in
            .object([
                "id": .string(String(format: "%032x", index)),
                "title": .string("Movie \(index): “Ünïcode” édition"),
                "releaseYear": .number(JSONNumber(1980 + index % 45)),
                "genre": .string(genres[index % genres.count]),
                "rating": .number(JSONNumber(text: "\(index % 10).\(index % 7)")),
                "tags": .array([.string("tag\(index % 13)"), .string("tag\(index % 17)")]),
            ])
        }
        return Array(JSONValue.object(["data": .object(["movies": .array(rows)])]).serialized())
    }
}

/// The typed model Foundation's `JSONDecoder` decodes, the baseline for the project's own typed decoding.
package struct AdventureList: Decodable, Sendable {
    package struct Data: Decodable, Sendable {
        package struct List: Decodable, Sendable {
            package var items: [Adventure]
        }
        package var adventureList: List
    }

    package struct Adventure: Decodable, Sendable {
        package struct Image: Decodable, Sendable {
            package var _path: String
            package var _dynamicUrl: String
            package var width: Int
            package var height: Int
        }
        package var _path: String
        package var title: String
        package var slug: String?
        package var activity: String?
        package var price: Double?
        package var tripLength: String?
        package var primaryImage: Image?
    }

    package var data: Data
}

/// The typed model for the Data Connect `movies` response.
package struct MovieList: Decodable, Sendable {
    package struct Data: Decodable, Sendable {
        package var movies: [Movie]
    }

    package struct Movie: Decodable, Sendable {
        package var id: String
        package var title: String
        package var releaseYear: Int
        package var genre: String?
        package var rating: Double?
        package var tags: [String]
    }

    package var data: Data
}

/// Generated inputs by name; a lock because benchmark closures may run on any thread.
final class InputCache: @unchecked Sendable {
    private let lock = NSLock()
    private var values: [String: [UInt8]] = [:]

    func value(for name: String, make: () -> [UInt8]) -> [UInt8] {
        lock.lock()
        defer { lock.unlock() }
        if let value = values[name] { return value }
        let value = make()
        FileHandle.standardError.write(Data("input \(name): \(value.count) bytes\n".utf8))
        values[name] = value
        return value
    }
}
