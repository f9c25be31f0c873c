public import ContentJSON
internal import Foundation

/// A connector's in-memory cache of query results, normalised by the entity ids the service names.
///
/// Every Data Connect answer says, in `extensions.dataConnect`, which table row each object of its `data` is
/// (`{"path": [...], "entityId": "..."}`, or `entityIds` for a list). The cache keeps each entity's fields once,
/// under its id, and each query's result with the paths where entities sit; a result read back takes the
/// entities' current fields. So a row another query or a mutation answered since shows its new values in every
/// cached result that holds it, as Firebase's SDK cache does (`ResultTreeNormalizer` in its sources).
///
/// Results and entities are kept per scope (the endpoint, project and signed-in user), as Firebase scopes its cache
/// by project, user and host, so one user's answers never show in another's. Fields are kept by response key: a
/// query that aliases one field under another's name (`title: description`) shares that name with queries that do
/// not; the cache cannot tell them apart without the schema.
public actor EntityCache {
    /// One query's last answer and the entities in it.
    private struct Entry {
        var data: JSONValue
        /// Where each entity sits, and its key in ``entities`` (scope and id).
        var links: [(path: [JSONValue], id: String)]
        var storedAt: ContinuousClock.Instant
    }

    private var entries: [String: Entry] = [:]
    private var entities: [String: JSONObject] = [:]
    /// At most this many query results are kept; the oldest goes first.
    private let capacity: Int
    /// How many entities there may be before those no kept result points at are dropped.
    private var pruneAt: Int

    /// An empty cache.
    ///
    /// - Parameter capacity: How many query results it keeps at most (a result's entities stay while any keeps them).
    public init(capacity: Int = 1000) {
        self.capacity = max(1, capacity)
        pruneAt = 4 * self.capacity
    }

    /// Keeps a query's answer and merges its entities into those already known.
    ///
    /// - Parameters:
    ///   - data: The answer's `data`.
    ///   - extensions: The answer's `extensions`, if any.
    ///   - key: The query and its variables (``key(operation:variables:)``).
    ///   - scope: Whose view of the rows this is (the endpoint, project and caller): entities of one scope never
    ///     show in another's results.
    public func store(data: JSONValue, extensions: JSONValue?, key: String, scope: String = "") {
        let links = Self.links(in: extensions, data: data, scope: scope)
        merge(links, from: data)
        if entries[key] == nil, entries.count >= capacity,
            let oldest = entries.min(by: { $0.value.storedAt < $1.value.storedAt })?.key
        {
            entries[oldest] = nil
        }
        entries[key] = Entry(data: data, links: links, storedAt: .now)
        // Entities no kept result points at any more go; if most are still in use, the next pass waits until
        // there are twice as many, so that a store does not scan them all each time.
        if entities.count > pruneAt {
            let used = Set(entries.values.flatMap { $0.links.map(\.id) })
            entities = entities.filter { used.contains($0.key) }
            pruneAt = max(4 * capacity, 2 * entities.count)
        }
    }

    /// Merges the entities a mutation's answer names (the keys it wrote) into those already known.
    ///
    /// - Parameters:
    ///   - data: The answer's `data`.
    ///   - extensions: The answer's `extensions`, if any.
    ///   - scope: Whose view of the rows this is.
    public func merge(data: JSONValue, extensions: JSONValue?, scope: String = "") {
        merge(Self.links(in: extensions, data: data, scope: scope), from: data)
    }

    /// A query's cached answer, with its entities' current fields, or `nil` when it was never answered or is older
    /// than `maxAge`.
    ///
    /// - Parameters:
    ///   - key: The query and its variables.
    ///   - maxAge: How old the answer may be; `nil` for any age.
    /// - Returns: The `data`.
    public func data(for key: String, maxAge: Duration?) -> JSONValue? {
        guard let entry = entries[key] else { return nil }
        if let maxAge, entry.storedAt.duration(to: .now) > maxAge { return nil }
        var data = entry.data
        for link in entry.links {
            guard let fields = entities[link.id] else { continue }
            Self.update(&data, at: link.path[...]) { object in
                // Only the entity's own values: what is nested (a related row, a list of them) has links of its own.
                for member in object.members where !Self.isNested(member.value) {
                    if let current = fields[member.key] { object[member.key] = current }
                }
            }
        }
        return data
    }

    /// Answers a query by the fetch policy: from the cache, or from `ask` (whose answer is kept).
    ///
    /// - Parameters:
    ///   - key: The query and its variables.
    ///   - operation: The query's name, for errors.
    ///   - type: The generated type its `data` decodes to.
    ///   - policy: Where to look.
    ///   - maxAge: How old an answer `.preferCache` may take.
    ///   - scope: Whose view of the rows this is; part of `key` too.
    ///   - ask: Asks the service for `data` and `extensions`.
    /// - Returns: The decoded data and where it came from.
    /// - Throws: ``ContentClientError``, or what `ask` throws.
    public func fetch<ResultData: Decodable & Sendable>(
        key: String, operation: String, as type: ResultData.Type, policy: QueryFetchPolicy, maxAge: Duration,
        scope: String = "", ask: @Sendable () async throws -> (data: JSONValue, extensions: JSONValue?)
    ) async throws -> OperationResult<ResultData> {
        switch policy {
        case .cacheOnly:
            guard let data = data(for: key, maxAge: nil) else {
                throw ContentClientError.notCached(operation: operation)
            }
            return OperationResult(
                data: try ContentClient.decode(type, from: data, operation: operation), source: .cache)
        case .preferCache:
            if maxAge > .zero, let data = data(for: key, maxAge: maxAge) {
                return OperationResult(
                    data: try ContentClient.decode(type, from: data, operation: operation), source: .cache)
            }
        case .serverOnly:
            break
        }
        let answer = try await ask()
        let decoded = try ContentClient.decode(type, from: answer.data, operation: operation)
        store(data: answer.data, extensions: answer.extensions, key: key, scope: scope)
        return OperationResult(data: decoded, source: .server)
    }

    /// Forgets everything.
    public func removeAll() {
        entries = [:]
        entities = [:]
    }

    /// The cache key of a query with its variables: the same variables in any member order make the same key.
    ///
    /// - Parameters:
    ///   - operation: The connector and operation, such as `movies/listMoviesByGenre`.
    ///   - variables: The variables as they travel.
    /// - Returns: The key.
    public static func key(operation: String, variables: JSONObject) -> String {
        operation + "\n" + String(decoding: canonical(.object(variables)).serialized(), as: UTF8.self)
    }

    private static func canonical(_ value: JSONValue) -> JSONValue {
        switch value {
        case .object(let object):
            return .object(
                JSONObject(
                    object.members.sorted { $0.key < $1.key }.map { JSONMember($0.key, canonical($0.value)) }))
        case .array(let items):
            return .array(items.map(canonical))
        default:
            return value
        }
    }

    private func merge(_ links: [(path: [JSONValue], id: String)], from data: JSONValue) {
        for link in links {
            guard case .object(let object)? = Self.value(in: data, at: link.path[...]) else { continue }
            var fields = entities[link.id] ?? JSONObject()
            for member in object.members {
                // A related row is not a value of this one: drop whatever another answer had there (`null`, `[]`).
                fields[member.key] = Self.isNested(member.value) ? nil : member.value
            }
            entities[link.id] = fields
        }
    }

    /// Objects and lists of objects have entities of their own; only the rest is an entity's field.
    private static func isNested(_ value: JSONValue) -> Bool {
        switch value {
        case .object: return true
        case .array(let items): return items.contains { if case .object = $0 { true } else { false } }
        default: return false
        }
    }

    /// Each object's path and id: an `entityIds` list names the elements of the list at its path.
    private static func links(in extensions: JSONValue?, data: JSONValue, scope: String)
        -> [(path: [JSONValue], id: String)]
    {
        var links: [(path: [JSONValue], id: String)] = []
        for entry in extensions?["dataConnect"]?.arrayValue ?? [] {
            guard let path = entry["path"]?.arrayValue else { continue }
            if let id = entry["entityId"]?.stringValue {
                links.append((path, scope + "\n" + id))
            } else if let ids = entry["entityIds"]?.arrayValue {
                for (index, id) in ids.enumerated() {
                    guard let id = id.stringValue else { continue }
                    links.append((path + [.number(JSONNumber(index))], scope + "\n" + id))
                }
            }
        }
        return links
    }

    private static func value(in data: JSONValue, at path: ArraySlice<JSONValue>) -> JSONValue? {
        guard let step = path.first else { return data }
        switch (data, step) {
        case (.object(let object), .string(let key)):
            return object[key].flatMap { value(in: $0, at: path.dropFirst()) }
        case (.array(let items), .number(let number)):
            guard let index = Int(number.text), items.indices.contains(index) else { return nil }
            return value(in: items[index], at: path.dropFirst())
        default:
            return nil
        }
    }

    private static func update(
        _ data: inout JSONValue, at path: ArraySlice<JSONValue>, _ change: (inout JSONObject) -> Void
    ) {
        guard let step = path.first else {
            if case .object(var object) = data {
                change(&object)
                data = .object(object)
            }
            return
        }
        switch (data, step) {
        case (.object(var object), .string(let key)):
            guard var inner = object[key] else { return }
            update(&inner, at: path.dropFirst(), change)
            object[key] = inner
            data = .object(object)
        case (.array(var items), .number(let number)):
            guard let index = Int(number.text), items.indices.contains(index) else { return }
            update(&items[index], at: path.dropFirst(), change)
            data = .array(items)
        default:
            return
        }
    }
}
