/// What running an operation gives: its data and where the data came from, as in Firebase's Swift SDK.
///
/// Firebase's SDK declares `data` optional since its cache arrived; its guide and generated examples read it
/// as a value (`result.data.movie_insert.id`), which is what this type gives: a response without data is an
/// error here (``ContentClientError/noData(operation:)``), never a result.
public struct OperationResult<ResultData: Decodable & Sendable>: Sendable {
    /// The operation's `data`, decoded.
    public let data: ResultData
    /// The service, or the connector's cache.
    public let source: DataSource

    /// Creates a result.
    ///
    /// - Parameters:
    ///   - data: The decoded data.
    ///   - source: Where it came from.
    public init(data: ResultData, source: DataSource) {
        self.data = data
        self.source = source
    }
}

extension OperationResult: Equatable where ResultData: Equatable {}

/// Where a result came from.
public enum DataSource: Sendable, Hashable {
    /// The service answered it.
    case server
    /// The connector's in-memory cache answered it.
    case cache
}

/// Where `execute(fetchPolicy:)` looks for a query's result, as Firebase's Swift SDK names the choices.
public enum QueryFetchPolicy: Sendable, Hashable {
    /// The cache when its entry is younger than the connector's `cacheMaxAge` (0 by default, as in Firebase's
    /// `CacheSettings`, so by default the service), else the service; a failure of the service is thrown.
    case preferCache
    /// The cache only; a query never answered before is ``ContentClientError/notCached(operation:)``.
    case cacheOnly
    /// The service only; its answer refreshes the cache.
    case serverOnly
}
