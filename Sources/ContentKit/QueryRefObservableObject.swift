#if canImport(Combine)
    public import Combine

    /// A query with its variables that a view can watch through Combine, in the shape of Firebase's
    /// `QueryRefObservableObject`: what `generate.swiftSdk.observablePublisher: observableObject` asks for.
    @MainActor
    public final class QueryRefObservableObject<ResultData: Decodable & Sendable, Variables: Encodable & Sendable>:
        ObservableObject
    {
        /// The last result's data, or `nil` before the first.
        @Published public private(set) var data: ResultData?
        /// Where the last result came from.
        @Published public private(set) var source: DataSource?
        /// The last call's failure; cleared by a result.
        @Published public private(set) var lastError: (any Error)?

        private let query: QueryCall<ResultData, Variables>

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
        /// - Parameter fetchPolicy: Where to look; the cache within its maximum age first, by default.
        /// - Returns: The result.
        /// - Throws: What the call throws, which is also kept in ``lastError``.
        @discardableResult
        public func execute(fetchPolicy: QueryFetchPolicy = .preferCache) async throws -> OperationResult<ResultData> {
            do {
                let result = try await query.execute(fetchPolicy: fetchPolicy)
                data = result.data
                source = result.source
                lastError = nil
                return result
            } catch {
                lastError = error
                throw error
            }
        }

        /// Subscribes to the query over the service's realtime stream: each new result is published and yielded.
        ///
        /// - Returns: The results, from the first as subscribed, until the iterating task is cancelled or the
        ///   subscription fails, which is also kept in ``lastError``.
        public func subscribe() -> AsyncThrowingStream<OperationResult<ResultData>, any Error> {
            query.subscribe { [weak self] result in
                self?.data = result.data
                self?.source = result.source
                self?.lastError = nil
            } failing: { [weak self] in
                self?.lastError = $0
            }
        }
    }
#else
    /// Where Combine does not exist (Linux), the Observation ref: a client generated with
    /// `observablePublisher: observableObject` builds and behaves the same, observed through Observation.
    public typealias QueryRefObservableObject<ResultData: Decodable & Sendable, Variables: Encodable & Sendable> =
        QueryRef<ResultData, Variables>
#endif
