package import ContentJSON
package import GraphQL

#if canImport(Glibc)
    internal import Glibc
#endif

/// Executing a checked document within the time and size a server allows.
package enum GraphQLExecution {
    /// Executes `document`, cancelling it once it runs longer than ``GraphQLLimits/seconds`` (when `timed`) or the
    /// request's task is cancelled (the client went away).
    ///
    /// Resolvers see the cancellation through `Task.checkCancellation()`; GraphQLSwift's executor itself never
    /// checks, so the resolvers that load data check before each load.
    ///
    /// - Parameters:
    ///   - schema: The schema.
    ///   - document: A document ``GraphQLSource`` parsed and validated.
    ///   - context: What the resolvers receive as context.
    ///   - variables: The variables.
    ///   - operationName: Which operation, when the document has several.
    ///   - limits: The server's limits.
    ///   - timed: Whether ``GraphQLLimits/seconds`` applies: it guards the server against a client's request, not
    ///     against work its operator started (a seed file run before the server listens).
    /// - Returns: The result.
    /// - Throws: ``GraphQLExecutionTimeout`` when the time ran out; GraphQLSwift's errors otherwise.
    package static func execute(
        schema: GraphQLSchema, document: Document, context: any Sendable, variables: [String: Map],
        operationName: String?, limits: GraphQLLimits, timed: Bool = true
    ) async throws -> GraphQLResult {
        let work = Task {
            try await GraphQL.execute(
                schema: schema, documentAST: document, rootValue: (), context: context, variableValues: variables,
                operationName: operationName)
        }
        let timer: Task<Bool, any Error>? =
            timed
            ? Task {
                try await Task.sleep(for: .seconds(limits.seconds))
                work.cancel()
                return true
            } : nil
        let result = await withTaskCancellationHandler {
            await work.result
        } onCancel: {
            work.cancel()
        }
        timer?.cancel()
        if (try? await timer?.value) == true { throw GraphQLExecutionTimeout(seconds: limits.seconds) }
        return try result.get()
    }

    /// A response body's bytes, within ``GraphQLLimits/responseBytes``: the one way each emulator serializes a
    /// GraphQL answer, handing the memory a large one used back to the system.
    ///
    /// - Parameters:
    ///   - body: The response body.
    ///   - limits: The server's limits.
    /// - Returns: The bytes, or the message to answer with instead.
    package static func responseBytes(_ body: JSONValue, limits: GraphQLLimits) -> Result<[UInt8], OversizedResponse> {
        let bytes = body.serialized()
        releaseMemory(afterResponseOf: bytes.count)
        if let message = oversized(bytes.count, limits: limits) { return .failure(OversizedResponse(message: message)) }
        return .success(bytes)
    }

    /// A response body larger than ``GraphQLLimits/responseBytes``.
    package struct OversizedResponse: Error {
        /// What to answer with.
        package var message: String
    }

    /// Hands the memory a large response used back to the system.
    ///
    /// glibc keeps freed memory in its arenas, so after one request near the limits the server would stay hundreds
    /// of megabytes large for good; a response of 256 KiB or more is followed by `malloc_trim`, which costs a
    /// few milliseconds against the tens such a response took.
    ///
    /// - Parameter size: The response body's size in bytes.
    package static func releaseMemory(afterResponseOf size: Int) {
        #if canImport(Glibc)
            if size >= 256 << 10, let trim = mallocTrim { _ = trim(0) }
        #endif
    }

    #if canImport(Glibc)
        /// glibc's `malloc_trim`, which its Swift module map leaves out of `Glibc`; looked up once.
        private static let mallocTrim: (@convention(c) (Int) -> Int32)? = {
            guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "malloc_trim") else { return nil }
            return unsafeBitCast(symbol, to: (@convention(c) (Int) -> Int32).self)
        }()
    #endif

    /// The error answered instead of a response body larger than ``GraphQLLimits/responseBytes``.
    ///
    /// - Parameters:
    ///   - size: The body's size in bytes.
    ///   - limits: The server's limits.
    /// - Returns: The message, or `nil` when the body is within the limit.
    package static func oversized(_ size: Int, limits: GraphQLLimits) -> String? {
        guard size > limits.responseBytes else { return nil }
        return "the response would be \(size) bytes; at most \(limits.responseBytes) are allowed: select fewer fields "
            + "or page with limit/first\(limits.advice("response-bytes"))"
    }
}

/// Execution that ran past ``GraphQLLimits/seconds``.
package struct GraphQLExecutionTimeout: Error, CustomStringConvertible {
    /// The budget.
    package var seconds: Int

    /// The error for a run past `seconds`.
    package init(seconds: Int) {
        self.seconds = seconds
    }

    /// What happened and what to do.
    package var description: String {
        "the query ran longer than \(seconds) s and was cancelled\(GraphQLLimits().advice("seconds"))"
    }
}
