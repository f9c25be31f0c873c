public import Observation

/// A query with its variables that a view can watch, in the shape of Firebase's `QueryRefObservation`: `data`,
/// `source` and `lastError` change when ``execute(fetchPolicy:)`` or ``subscribe()`` brings a result, and
/// Observation (SwiftUI's `@State`, or `withObservationTracking` anywhere, Linux included) sees the change.
///
/// It lives on the main actor, as Firebase's generated `execute` does.
@MainActor
@Observable
public final class QueryRef<ResultData: Decodable & Sendable, Variables: Encodable & Sendable> {
    /// The last result's data, or `nil` before the first.
    public private(set) var data: ResultData?
    /// Where the last result came from.
    public private(set) var source: DataSource?
    /// The last call's failure; cleared by a result.
    public private(set) var lastError: (any Error)?

    @ObservationIgnored private let query: QueryCall<ResultData, Variables>

    /// A reference to one query with its variables; generated code makes them.
    ///
    /// - Parameters:
    ///   - service: The connector, or the AEM configuration, that runs it.
    ///   - operationName: The query's name.
    ///   - variables: Its variables.
    public init(service: any QueryExecuting, operationName: String, variables: Variables) {
        query = QueryCall(service: service, operationName: operationName, variables: variables)
    }

    /// Runs the query and publishes the result.
    ///
    /// - Parameter fetchPolicy: Where to look; the cache within its maximum age first, by default, as Firebase's SDK.
    /// - Returns: The result.
    /// - Throws: What the call throws, which is also kept in ``lastError``.
    @discardableResult
    public func execute(fetchPolicy: QueryFetchPolicy = .preferCache) async throws -> OperationResult<ResultData> {
        do {
            let result = try await query.execute(fetchPolicy: fetchPolicy)
            publish(result)
            return result
        } catch {
            lastError = error
            throw error
        }
    }

    /// Subscribes to the query over the service's realtime stream: each new result is published, as
    /// ``execute(fetchPolicy:)`` publishes, and yielded.
    ///
    /// - Returns: The results, from the first as subscribed, until the iterating task is cancelled or the
    ///   subscription fails, which is also kept in ``lastError``.
    public func subscribe() -> AsyncThrowingStream<OperationResult<ResultData>, any Error> {
        query.subscribe { [weak self] in
            self?.publish($0)
        } failing: { [weak self] in
            self?.lastError = $0
        }
    }

    private func publish(_ result: OperationResult<ResultData>) {
        data = result.data
        source = result.source
        lastError = nil
    }
}

/// One query with its variables, as both kinds of ref run it.
struct QueryCall<ResultData: Decodable & Sendable, Variables: Encodable & Sendable>: Sendable {
    let service: any QueryExecuting
    let operationName: String
    let variables: Variables

    func execute(fetchPolicy: QueryFetchPolicy) async throws -> OperationResult<ResultData> {
        try await service.executeQuery(
            operationName, variables: variables, as: ResultData.self, fetchPolicy: fetchPolicy)
    }

    /// The query's results over the realtime stream, each handed to `publish` on the main actor before it is
    /// yielded, and a failure to `failing`.
    func subscribe(
        publishing publish: @escaping @MainActor (OperationResult<ResultData>) -> Void,
        failing: @escaping @MainActor (any Error) -> Void
    ) -> AsyncThrowingStream<OperationResult<ResultData>, any Error> {
        let results = service.subscribe(operationName, variables: variables, as: ResultData.self)
        let (stream, continuation) = AsyncThrowingStream<OperationResult<ResultData>, any Error>.makeStream()
        let task = Task { @MainActor in
            do {
                for try await result in results {
                    publish(result)
                    continuation.yield(result)
                }
                continuation.finish()
            } catch {
                failing(error)
                continuation.finish(throwing: error)
            }
        }
        continuation.onTermination = { _ in task.cancel() }
        return stream
    }
}

/// What runs a query by name with a fetch policy: a Data Connect connector or an AEM configuration.
public protocol QueryExecuting: Sendable {
    /// Runs a query by the fetch policy.
    ///
    /// - Parameters:
    ///   - name: The query's name.
    ///   - variables: Its variables.
    ///   - type: The generated type its `data` decodes to.
    ///   - fetchPolicy: Where to look.
    /// - Returns: The data and its source.
    /// - Throws: ``ContentClientError``, or a transport failure.
    func executeQuery<ResultData: Decodable & Sendable>(
        _ name: String, variables: some Encodable & Sendable, as type: ResultData.Type,
        fetchPolicy: QueryFetchPolicy
    ) async throws -> OperationResult<ResultData>

    /// Subscribes to a query and yields every new result.
    ///
    /// - Parameters:
    ///   - name: The query's name.
    ///   - variables: Its variables.
    ///   - type: The generated type its `data` decodes to.
    /// - Returns: The results; a service without a realtime stream finishes it with
    ///   ``ContentClientError/notSubscribable(operation:)``.
    func subscribe<ResultData: Decodable & Sendable>(
        _ name: String, variables: some Encodable & Sendable, as type: ResultData.Type
    ) -> AsyncThrowingStream<OperationResult<ResultData>, any Error>
}

/// A mutation with its variables, to run later, as Firebase's `MutationRef`.
public struct MutationRef<ResultData: Decodable & Sendable, Variables: Encodable & Sendable>: Sendable {
    private let dataConnect: DataConnect
    private let operationName: String
    private let variables: Variables

    /// A reference to one mutation with its variables; generated code makes them.
    ///
    /// - Parameters:
    ///   - dataConnect: The connector.
    ///   - operationName: The mutation's name.
    ///   - variables: Its variables.
    public init(dataConnect: DataConnect, operationName: String, variables: Variables) {
        self.dataConnect = dataConnect
        self.operationName = operationName
        self.variables = variables
    }

    /// Runs the mutation.
    ///
    /// - Returns: Its result, from the service.
    /// - Throws: ``ContentClientError``, or a transport failure.
    @discardableResult
    public func execute() async throws -> OperationResult<ResultData> {
        try await dataConnect.executeMutation(operationName, variables: variables, as: ResultData.self)
    }
}
