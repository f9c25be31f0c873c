internal import ContentJSON
internal import HTTPTypes
internal import NIOConcurrencyHelpers

/// Persisted-query answers kept in memory, as AEM's Dispatcher and CDN keep them in front of publish.
///
/// A persisted query is a GET whose bytes depend only on the stored query, its variables and the content, so the
/// answer is kept by the request that names them: the configuration, the query's name and its variables as the
/// request spelled them (`;name=value` segments, or the POSTed JSON in canonical form). Anything that can change the
/// bytes (a persist, which is the emulator's only write to queries or content at run time) drops every answer
/// before it is acknowledged, so no answer older than a write is served after it. The `ETag` is made once with the
/// bytes and kept beside them.
///
/// Bounded: at most `maxEntries` answers and `maxBytes` bytes; past either, the oldest go first.
final class PersistedAnswers: Sendable {
    /// A kept answer: the body, its `ETag`, and the headers it was sent with.
    struct Answer: Sendable {
        let bytes: [UInt8]
        let etag: String
        let headers: HTTPFields
    }

    let maxEntries: Int
    let maxBytes: Int

    init(maxEntries: Int = 4096, maxBytes: Int = 64 << 20) {
        self.maxEntries = maxEntries
        self.maxBytes = maxBytes
    }

    private struct State {
        var answers: [String: Answer] = [:]
        /// Keys, oldest first, for eviction.
        var order: [String] = []
        var bytes = 0
    }

    private let state = NIOLockedValueBox(State())

    /// The key of a request: GET's raw variable segments, or POST's variables in canonical form.
    static func key(configuration: String, name: String, segments: [Substring], posted: JSONObject?) -> String {
        let variables: String
        if let posted {
            variables = "POST\u{0}" + JSONValue.object(canonical(posted)).jsonText
        } else {
            variables = "GET\u{0}" + segments.joined(separator: ";")
        }
        return configuration + "\u{0}" + name + "\u{0}" + variables
    }

    /// Members sorted by name at every depth, so that one set of variables has one key however it was ordered.
    private static func canonical(_ object: JSONObject) -> JSONObject {
        JSONObject(
            object.members.sorted { $0.key < $1.key }.map { JSONMember($0.key, canonical($0.value)) })
    }

    private static func canonical(_ value: JSONValue) -> JSONValue {
        switch value {
        case .object(let object): return .object(canonical(object))
        case .array(let elements): return .array(elements.map(canonical))
        default: return value
        }
    }

    /// The answer kept for `key`, if any.
    func answer(for key: String) -> Answer? {
        state.withLockedValue { $0.answers[key] }
    }

    /// Keeps an answer, dropping the oldest past the bounds; one larger than `maxBytes` alone is not kept.
    func keep(_ answer: Answer, for key: String) {
        guard answer.bytes.count <= maxBytes else { return }
        let maxEntries = self.maxEntries
        let maxBytes = self.maxBytes
        state.withLockedValue { state in
            if let previous = state.answers.updateValue(answer, forKey: key) {
                state.bytes -= previous.bytes.count
            } else {
                state.order.append(key)
            }
            state.bytes += answer.bytes.count
            while state.order.count > maxEntries || state.bytes > maxBytes, !state.order.isEmpty {
                let oldest = state.order.removeFirst()
                if let dropped = state.answers.removeValue(forKey: oldest) { state.bytes -= dropped.bytes.count }
            }
        }
    }

    /// Drops every answer: something they were made from changed.
    func removeAll() {
        state.withLockedValue { $0 = State() }
    }

    /// How many answers are kept.
    var count: Int { state.withLockedValue { $0.answers.count } }
}
