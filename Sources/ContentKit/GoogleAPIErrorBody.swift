package import ContentCore
package import ContentJSON

/// The body of an error status from Data Connect, in either of the two shapes it comes in.
///
/// The service wraps it, `{"error": {"code": 400, "message", "status": "INVALID_ARGUMENT", "details": [GraphqlError]}}`;
/// Firebase's own emulator answers its gRPC gateway's flat form, `{"code": 3, "message", "details"}`, whose `code` is
/// the gRPC code rather than the HTTP status. Both are read, as firebase-tools reads them
/// (`src/dataconnect/types.ts`, `GraphqlResponseError`: "the GRPC library in emulator serve them at top-level") and
/// as the web SDK takes a top-level `message` (`packages/data-connect`, `fetch.ts`, `getErrorMessage`).
package struct GoogleAPIErrorBody: Sendable, Equatable {
    /// The canonical status, such as `INVALID_ARGUMENT`, when the body names one or gives a gRPC code.
    package var status: String?
    /// Why.
    package var message: String
    /// The GraphQL errors in `details`: what the service found wrong, field by field.
    package var graphQLErrors: [JSONValue]

    /// Reads an error body, or answers `nil` when it has neither shape (an HTML page from a proxy, say).
    ///
    /// - Parameter body: The parsed body.
    package init?(_ body: JSONValue?) {
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
        if let status = fields["status"]?.stringValue, !status.isEmpty {
            self.status = status
        } else if isFlat, case .number(let number)? = fields["code"], let code = Int(number.text),
            Self.grpcStatusNames.indices.contains(code)
        {
            self.status = Self.grpcStatusNames[code]
        }
        // Only GraphQL errors: `details` may also hold `google.rpc` messages (`@type`), which say nothing more here.
        graphQLErrors = (fields["details"]?.arrayValue ?? []).filter { detail in
            detail["message"]?.stringValue != nil && detail["@type"] == nil
        }
    }

    /// The canonical names of gRPC's codes, by number (`google/rpc/code.proto`).
    static let grpcStatusNames = [
        "OK", "CANCELLED", "UNKNOWN", "INVALID_ARGUMENT", "DEADLINE_EXCEEDED", "NOT_FOUND", "ALREADY_EXISTS",
        "PERMISSION_DENIED", "RESOURCE_EXHAUSTED", "FAILED_PRECONDITION", "ABORTED", "OUT_OF_RANGE",
        "UNIMPLEMENTED", "INTERNAL", "UNAVAILABLE", "DATA_LOSS", "UNAUTHENTICATED",
    ]

    /// The message, then each GraphQL error of `details` on a line of its own (`path.to.field: message`), secrets
    /// masked.
    ///
    /// - Parameter redactor: Masks secrets.
    /// - Returns: The text.
    package func text(redactor: Redactor) -> String {
        let details = Diagnostic.graphQLErrors(graphQLErrors, redactor: redactor).map { "\n  \($0.message)" }
        return redactor.redact(message) + details.joined()
    }
}
