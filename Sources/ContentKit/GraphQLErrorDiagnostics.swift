package import ContentCore
package import ContentJSON

extension Diagnostic {
    /// A response's GraphQL `errors`, each as `path.to.field: message` with secrets masked: how Data Connect's
    /// errors are shown, by the client and by the `dataconnect` backend alike.
    ///
    /// - Parameters:
    ///   - errors: The `errors` array's elements.
    ///   - redactor: Masks secrets in the messages.
    /// - Returns: One error diagnostic per element.
    package static func graphQLErrors(_ errors: [JSONValue], redactor: Redactor) -> [Diagnostic] {
        errors.map { error in
            let path = error["path"]?.arrayValue?.map { $0.stringValue ?? $0.jsonText }.joined(separator: ".")
            let message = redactor.redact(error["message"]?.stringValue ?? error.jsonText)
            return Diagnostic(.error, path.map { "\($0): \(message)" } ?? message)
        }
    }
}
