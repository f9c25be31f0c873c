package import GraphQL

extension AuthPolicy {
    /// An `@auth(level:)` whose level is not one of ``Level``.
    package struct UnknownLevel: Error, Sendable {
        /// The level as written.
        package var level: String

        /// What is wrong, naming the operation.
        ///
        /// - Parameter name: The operation's name.
        /// - Returns: The message.
        package func message(on name: String) -> String {
            "@auth(level: \(level)) on \(name) is not one of "
                + Level.allCases.map(\.rawValue).joined(separator: ", ")
        }
    }

    /// The `@auth` an operation declares: `nil` when it has none (which the service treats as `NO_ACCESS`).
    ///
    /// - Parameter definition: A query or mutation.
    /// - Returns: The declared policy, or `nil`.
    /// - Throws: ``UnknownLevel`` for a level the service does not have.
    package static func declared(on definition: OperationDefinition) throws(UnknownLevel) -> AuthPolicy? {
        guard let directive = definition.directives.first(where: { $0.name.value == "auth" }) else { return nil }
        if let level = GraphQLText.string(directive, "level") {
            guard let parsed = Level(rawValue: level) else { throw UnknownLevel(level: level) }
            return .level(parsed)
        }
        if let expression = GraphQLText.string(directive, "expr") { return .expression(expression) }
        // `@auth` with neither argument: no access, as with no `@auth` at all, but declared.
        return .level(.noAccess)
    }
}
