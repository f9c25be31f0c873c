package import ContentCore
package import ContentJSON

/// The body of an error status from Data Connect, in either of the two shapes it comes in.
///
/// The service wraps it, `{"error": {"code": 400, "message", "status": "INVALID_ARGUMENT", "details": [GraphqlError]}}`;
/// Firebase's own emulator answers its gRPC gateway's flat form, `{"code": 3, "message", "details"}`, whose `code` is
/// the gRPC code rather than the HTTP status. Both are read, as firebase-tools reads them
/// (`src/dataconnect/types.ts`, `GraphqlResponseError`: "the GRPC library in emulator serve them at top-level") and
/// as the web SDK takes a top-level `message` (`packages/data-connect`, `fetch.ts`, `getErrorMessage`). Any other
/// JSON object with a top-level `message` (AEM's errors) gives its message alone.
package struct GoogleAPIErrorBody: Sendable, Equatable {
    /// The canonical status, such as `INVALID_ARGUMENT`, when the body names one or gives a gRPC code that fits the
    /// HTTP status.
    package var status: String?
    /// Why.
    package var message: String
    /// The GraphQL errors in `details`: what the service found wrong, field by field.
    package var graphQLErrors: [JSONValue]

    /// At most this many characters of the message, and this many GraphQL errors, are shown: a body is the server's
    /// to size, a terminal line is not.
    static let messageLimit = 2000
    static let detailLimit = 20

    /// Reads an error body, or answers `nil` when it holds no message (an HTML page from a proxy, say).
    ///
    /// - Parameters:
    ///   - body: The parsed body.
    ///   - httpStatus: The response's status, which a flat body's gRPC code must map to (as gRPC's gateway maps
    ///     them) to be named: a `code` of another server's own means something else.
    package init?(_ body: JSONValue?, httpStatus: Int) {
        guard case .object(let outer)? = body else { return nil }
        let fields: JSONObject
        let isFlat: Bool
        if case .object(let wrapped)? = outer["error"] {
            (fields, isFlat) = (wrapped, false)
        } else {
            (fields, isFlat) = (outer, true)
        }
        guard let message = fields["message"]?.stringValue, !message.isEmpty else { return nil }
        self.message = message
        if let status = fields["status"]?.stringValue, Self.grpcStatuses.contains(where: { $0.name == status }) {
            self.status = status
        } else if isFlat, case .number(let number)? = fields["code"], let code = Int(number.text),
            Self.grpcStatuses.indices.contains(code), Self.grpcStatuses[code].httpStatus == httpStatus
        {
            self.status = Self.grpcStatuses[code].name
        }
        // Only GraphQL errors: `details` may also hold `google.rpc` messages (`@type`), which say nothing more here.
        graphQLErrors = (fields["details"]?.arrayValue ?? []).filter { detail in
            detail["message"]?.stringValue?.isEmpty == false && detail["@type"] == nil
        }
    }

    /// gRPC's codes by number, each with the HTTP status gRPC's gateway answers for it.
    ///
    /// The names are `google/rpc/code.proto`'s, the statuses grpc-gateway's `runtime.HTTPStatusFromCode`; `OK` never
    /// names an error.
    static let grpcStatuses: [(name: String, httpStatus: Int?)] = [
        ("OK", nil), ("CANCELLED", 499), ("UNKNOWN", 500), ("INVALID_ARGUMENT", 400), ("DEADLINE_EXCEEDED", 504),
        ("NOT_FOUND", 404), ("ALREADY_EXISTS", 409), ("PERMISSION_DENIED", 403), ("RESOURCE_EXHAUSTED", 429),
        ("FAILED_PRECONDITION", 400), ("ABORTED", 409), ("OUT_OF_RANGE", 400), ("UNIMPLEMENTED", 501),
        ("INTERNAL", 500), ("UNAVAILABLE", 503), ("DATA_LOSS", 500), ("UNAUTHENTICATED", 401),
    ]

    /// The message, shortened to ``messageLimit`` characters, with secrets masked.
    ///
    /// - Parameter redactor: Masks secrets.
    /// - Returns: The text.
    package func shownMessage(redactor: Redactor) -> String {
        let text = message.count > Self.messageLimit ? String(message.prefix(Self.messageLimit)) + "…" : message
        return redactor.redact(text)
    }

    /// What an error body that says nothing in either shape shows instead: its first line that is not empty, from
    /// its first 200 bytes, without a CRLF's carriage return, secrets masked.
    ///
    /// - Parameters:
    ///   - body: The response body.
    ///   - redactor: Masks secrets.
    /// - Returns: The line; empty for an empty body.
    package static func firstLine(of body: some Collection<UInt8>, redactor: Redactor) -> String {
        // Split on the byte: Swift's "\r\n" is one Character, which a split on "\n" does not cut.
        let line = body.prefix(200).split(separator: UInt8(ascii: "\n")).first {
            !$0.elementsEqual([UInt8(ascii: "\r")])
        }
        var text = line.map { String(decoding: $0, as: UTF8.self) } ?? ""
        if text.hasSuffix("\r") { text.removeLast() }
        return redactor.redact(text)
    }

    /// Each GraphQL error of `details` on a line of its own (`\n  path.to.field: message`), at most ``detailLimit``
    /// of them, secrets masked.
    ///
    /// - Parameter redactor: Masks secrets.
    /// - Returns: The lines, each starting with a newline; empty without details.
    package func detailLines(redactor: Redactor) -> String {
        let shown = Diagnostic.graphQLErrors(Array(graphQLErrors.prefix(Self.detailLimit)), redactor: redactor)
        let more = graphQLErrors.count - shown.count
        return shown.map { "\n  \($0.message)" }.joined() + (more > 0 ? "\n  (\(more) more)" : "")
    }
}
