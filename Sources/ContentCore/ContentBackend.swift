public import ContentJSON

/// A configured connection to one content service: the one thing every backend plugin makes.
///
/// A command resolves its arguments into a ``ContentRequest``, the backend sends it (through the
/// ``HTTPTransport`` in its ``BackendContext``) and returns a ``ContentResult`` that the shared output
/// layer renders. Backends never format output and never print; they throw ``ContentFailure``s.
public protocol ContentBackend: Sendable {
    /// The backend's name in the configuration, such as `wknd`.
    var name: String { get }

    /// Runs one operation.
    ///
    /// - Parameter request: What to run.
    /// - Returns: The result, whole or streamed.
    /// - Throws: A ``ContentFailure``.
    func execute(_ request: ContentRequest) async throws -> ContentResult
}

/// What to run: an operation the backend understands, with its variables.
public struct ContentRequest: Sendable, Hashable {
    /// How many pages to fetch.
    public enum Pagination: Sendable, Hashable {
        /// One request, one page.
        case firstPage
        /// Every page, streaming items as pages arrive.
        case all(pageSize: Int?)
    }

    /// The backend's address for the operation: a persisted query path, an operation name, a URL path.
    public var operation: String
    /// The operation's variables, in the order given.
    public var variables: JSONObject
    /// How many pages to fetch.
    public var pagination: Pagination

    /// Creates a request.
    ///
    /// - Parameters:
    ///   - operation: The backend's address for the operation.
    ///   - variables: The variables, in order.
    ///   - pagination: How many pages to fetch.
    public init(operation: String, variables: JSONObject = [:], pagination: Pagination = .firstPage) {
        self.operation = operation
        self.variables = variables
        self.pagination = pagination
    }
}

/// What a backend returns: a whole JSON document or a stream of items, plus what it knows about them.
public struct ContentResult: Sendable {
    /// The payload.
    public enum Body: Sendable {
        /// The whole response, in memory; items are found at ``Metadata/itemsPath``.
        case document(JSONValue)
        /// Items arriving page by page, so output can start before the last page.
        case items(AsyncThrowingStream<JSONValue, any Error>)
    }

    /// What the backend knows about the payload.
    public struct Metadata: Sendable {
        /// Where the items are inside a ``Body/document(_:)``; `nil` means the document itself.
        public var itemsPath: JSONPath?
        /// The columns to show when the user names none.
        public var columns: [String]
        /// The HTTP status of the (last) response.
        public var httpStatus: Int?
        /// How long the operation took.
        public var duration: Duration?
        /// Problems that did not stop the operation, such as GraphQL errors next to partial data.
        public var diagnostics: [Diagnostic]
        /// Applied to every item before it is rendered (never to `--raw` output), such as adding an
        /// absolute `url` to image references.
        public var itemTransform: (@Sendable (JSONValue) -> JSONValue)?

        /// Creates metadata.
        ///
        /// - Parameters:
        ///   - itemsPath: Where the items are.
        ///   - columns: Default columns.
        ///   - httpStatus: The HTTP status.
        ///   - duration: How long it took.
        ///   - diagnostics: Problems that did not stop the operation.
        ///   - itemTransform: Applied to every item before it is rendered.
        public init(
            itemsPath: JSONPath? = nil,
            columns: [String] = [],
            httpStatus: Int? = nil,
            duration: Duration? = nil,
            diagnostics: [Diagnostic] = [],
            itemTransform: (@Sendable (JSONValue) -> JSONValue)? = nil
        ) {
            self.itemTransform = itemTransform
            self.itemsPath = itemsPath
            self.columns = columns
            self.httpStatus = httpStatus
            self.duration = duration
            self.diagnostics = diagnostics
        }
    }

    /// The payload.
    public var body: Body
    /// What the backend knows about it.
    public var metadata: Metadata

    /// Creates a result.
    ///
    /// - Parameters:
    ///   - body: The payload.
    ///   - metadata: What the backend knows about it.
    public init(body: Body, metadata: Metadata = Metadata()) {
        self.body = body
        self.metadata = metadata
    }
}
