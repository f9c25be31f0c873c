internal import ContentDataConnect
internal import ContentJSON
internal import Foundation
internal import GraphQL
internal import NIOConcurrencyHelpers

/// A mutation that has run, as subscriptions see it: what may make a subscribed query's result change.
struct MutationEvent: Sendable {
    /// The connector and the operation's name, for `@refresh(onMutationExecuted: { operation })`.
    var connector: String
    var operation: String
    /// The mutation's variables and caller, as CEL's `mutation.variables` and `mutation.auth`.
    var variables: JSONObject
    var auth: JSONValue
    /// The tables of its single-entity root fields (`movie_insert`, `movie_update`, `movie_upsert`, `movie_delete`),
    /// by type name: a single-entity query of one of them is refreshed without any `@refresh`.
    var singleEntityTables: Set<String>
}

/// Hands every mutation that ran to every stream listening, without ever waiting for a slow one: each listener
/// keeps the newest events only.
final class MutationBroadcast: Sendable {
    /// Events a listener may fall behind by before the oldest are dropped; a dropped event only means a refresh
    /// that a later one repeats.
    static let buffered = 64

    private let listeners = NIOLockedValueBox([UInt64: AsyncStream<MutationEvent>.Continuation]())
    private let nextID = NIOLockedValueBox<UInt64>(0)

    /// A stream of the events from now on; it ends when the task iterating it is cancelled.
    func listen() -> AsyncStream<MutationEvent> {
        let (stream, continuation) = AsyncStream<MutationEvent>.makeStream(
            bufferingPolicy: .bufferingNewest(Self.buffered))
        let id = nextID.withLockedValue { value in
            defer { value &+= 1 }
            return value
        }
        listeners.withLockedValue { $0[id] = continuation }
        continuation.onTermination = { [weak self] _ in
            _ = self?.listeners.withLockedValue { $0.removeValue(forKey: id) }
        }
        return stream
    }

    func publish(_ event: MutationEvent) {
        for continuation in listeners.withLockedValue({ Array($0.values) }) { continuation.yield(event) }
    }
}

/// When a subscribed query is run again, from its `@refresh` directives and its shape.
///
/// As the service documents it (the `@refresh` of its prelude): `every` polls; `onMutationExecuted` refreshes after
/// the named mutation of the same connector when the CEL `condition` over `request` (the subscription's
/// `variables` and `auth`) and `mutation` holds; and a query that reads single entities by key is refreshed after a
/// single-entity mutation of one of their tables, with no directive. A refresh whose result is unchanged is not
/// sent (`data_etag`).
struct RefreshPolicy: Sendable {
    struct Trigger: Sendable {
        var operation: String
        var condition: String?
    }

    var every: Duration?
    var onMutation: [Trigger] = []
    /// The tables of a query whose root fields all read one entity; empty otherwise.
    var singleEntityTables: Set<String> = []

    /// The policy of an operation's document (a query's; a mutation's is never used).
    init(_ document: Document, schema: DataConnectSchema) {
        guard let definition = document.definitions.lazy.compactMap({ $0 as? OperationDefinition }).first else {
            return
        }
        for directive in definition.directives where directive.name.value == "refresh" {
            for argument in directive.arguments {
                switch argument.name.value {
                case "every":
                    every = Self.duration(argument.value)
                case "onMutationExecuted":
                    let events = (argument.value as? ListValue)?.values ?? [argument.value]
                    for event in events {
                        guard let object = event as? ObjectValue else { continue }
                        let field = { (name: String) in object.fields.first { $0.name.value == name }?.value }
                        guard let operation = (field("operation") as? StringValue)?.value else { continue }
                        onMutation.append(
                            Trigger(operation: operation, condition: (field("condition") as? StringValue)?.value))
                    }
                default:
                    continue
                }
            }
        }
        let bySingular = Dictionary(
            schema.tables.map { ($0.singular, $0.typeName) }, uniquingKeysWith: { first, _ in first })
        let roots = definition.selectionSet.selections.compactMap { ($0 as? Field)?.name.value }
        let tables = roots.compactMap { bySingular[$0] }
        if !roots.isEmpty, tables.count == roots.count { singleEntityTables = Set(tables) }
    }

    /// `{ seconds: 5 }`, `{ minutes: 1 }`: Timestamp_Duration's fields added up; nothing below 1 ms.
    static func duration(_ value: any Value) -> Duration? {
        guard let object = value as? ObjectValue else { return nil }
        let units: [String: Int64] = [
            "milliseconds": 1, "seconds": 1000, "minutes": 60_000, "hours": 3_600_000, "days": 86_400_000,
            "weeks": 604_800_000,
        ]
        var milliseconds: Int64 = 0
        for field in object.fields {
            guard let unit = units[field.name.value], let text = (field.value as? IntValue)?.value,
                let count = Int64(text), count >= 0
            else { continue }
            let (product, overflow) = count.multipliedReportingOverflow(by: unit)
            guard !overflow else { return nil }
            milliseconds = milliseconds.addingReportingOverflow(product).overflow ? Int64.max : milliseconds + product
        }
        return milliseconds > 0 ? .milliseconds(milliseconds) : nil
    }

    /// Whether a mutation that ran refreshes a subscription of this query.
    ///
    /// - Parameters:
    ///   - event: The mutation.
    ///   - connector: The subscription's connector.
    ///   - request: CEL's `request`: the subscription's `variables` and `auth`.
    /// - Returns: Whether to run the query again.
    func isRefreshed(by event: MutationEvent, connector: String, request: JSONValue) -> Bool {
        // Single entities are refreshed whoever wrote them, an admin mutation included.
        if !singleEntityTables.isDisjoint(with: event.singleEntityTables) { return true }
        guard event.connector == connector else { return false }
        for trigger in onMutation where trigger.operation == event.operation {
            guard let condition = trigger.condition else { return true }
            let scope: [String: JSONValue] = [
                "request": request, "mutation": .object(["variables": .object(event.variables), "auth": event.auth]),
            ]
            if (try? ServerExpression(condition).evaluate(scope)) == .bool(true) { return true }
        }
        return false
    }
}

extension RefreshPolicy {
    /// The tables a mutation's single-entity root fields write, by type name.
    static func singleEntityTables(writtenBy document: Document, schema: DataConnectSchema) -> Set<String> {
        guard let definition = document.definitions.lazy.compactMap({ $0 as? OperationDefinition }).first else {
            return []
        }
        let tables = KeyedWrite.tablesBySingular(schema)
        return Set(
            definition.selectionSet.selections.compactMap { selection -> String? in
                guard let field = selection as? Field, let write = KeyedWrite(field: field.name.value, tables: tables),
                    !write.isMany
                else { return nil }
                return write.table.typeName
            })
    }
}

/// Tells every open stream that the server is stopping, so that it ends instead of holding the shutdown open.
final class StopSignal: Sendable {
    private let state = NIOLockedValueBox(
        (stopped: false, waiting: [UInt64: CheckedContinuation<Void, Never>](), next: UInt64(0)))

    /// Returns once ``stop()`` has been called (at once if it has), or when the waiting task is cancelled.
    func wait() async {
        let id = state.withLockedValue { state -> UInt64 in
            defer { state.next &+= 1 }
            return state.next
        }
        await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                let resumeNow = state.withLockedValue { state -> Bool in
                    if state.stopped || Task.isCancelled { return true }
                    state.waiting[id] = continuation
                    return false
                }
                if resumeNow { continuation.resume() }
            }
        } onCancel: {
            state.withLockedValue { $0.waiting.removeValue(forKey: id) }?.resume()
        }
    }

    /// Whether ``stop()`` has been called.
    var isStopped: Bool { state.withLockedValue { $0.stopped } }

    /// Wakes every waiter, now and later.
    func stop() {
        let waiting = state.withLockedValue { state -> [CheckedContinuation<Void, Never>] in
            state.stopped = true
            defer { state.waiting = [:] }
            return Array(state.waiting.values)
        }
        for continuation in waiting { continuation.resume() }
    }
}
