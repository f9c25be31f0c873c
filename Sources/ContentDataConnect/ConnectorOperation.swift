public import ContentJSON

/// A GraphQL type as written in a declaration: `String!`, `[UUID!]`, `Movie_Key!`.
public indirect enum TypeReference: Sendable, Hashable, CustomStringConvertible {
    case named(String)
    case list(TypeReference)
    case nonNull(TypeReference)

    /// The named type under the wrappers.
    public var namedType: String {
        switch self {
        case .named(let name): return name
        case .list(let inner), .nonNull(let inner): return inner.namedType
        }
    }

    /// Whether a value must be given.
    public var isRequired: Bool {
        if case .nonNull = self { return true }
        return false
    }

    /// GraphQL notation.
    public var description: String {
        switch self {
        case .named(let name): return name
        case .list(let inner): return "[\(inner)]"
        case .nonNull(let inner): return "\(inner)!"
        }
    }
}

/// Who may run an operation: `@auth(level:)` or `@auth(expr:)`.
public enum AuthPolicy: Sendable, Hashable, CustomStringConvertible {
    /// The coarse levels.
    public enum Level: String, Sendable, CaseIterable {
        case `public` = "PUBLIC"
        case userAnonymous = "USER_ANON"
        case user = "USER"
        case userEmailVerified = "USER_EMAIL_VERIFIED"
        case noAccess = "NO_ACCESS"
    }

    case level(Level)
    /// A CEL expression over `auth` and `vars`.
    case expression(String)

    /// `PUBLIC`, or the expression.
    public var description: String {
        switch self {
        case .level(let level): return level.rawValue
        case .expression(let expression): return "expr: \(expression)"
        }
    }
}

/// One named query or mutation of a connector.
public struct ConnectorOperation: Sendable {
    /// Query or mutation.
    public enum Kind: String, Sendable {
        case query, mutation
    }

    /// One `$name: Type = default` declaration.
    public struct Variable: Sendable {
        /// The name without `$`.
        public var name: String
        /// The declared type.
        public var type: TypeReference
        /// The declared default, when there is one.
        public var defaultValue: JSONValue?
    }

    /// The operation name.
    public var name: String
    /// Query or mutation.
    public var kind: Kind
    /// The variables, in declaration order.
    public var variables: [Variable]
    /// Who may run it.
    public var auth: AuthPolicy
    /// Whether it is marked `@transaction`.
    public var isTransaction: Bool
    /// The root fields it selects, by response key (alias or name).
    public var rootFields: [String]
    /// Where it is declared.
    public var position: SourcePosition
    /// The text of the file it is in, which is what runs.
    public var fileText: String
    /// Whether it has an `@auth` directive.
    public var declaresAuth: Bool
    /// What runs: the operation and the fragments it uses from any file of its connector.
    public var document: ConnectorDocument

    /// `listMoviesByGenre($genre: String!)`.
    public var signature: String {
        variables.isEmpty
            ? name : "\(name)(" + variables.map { "$\($0.name): \($0.type)" }.joined(separator: ", ") + ")"
    }
}

/// A connector: its id, folder and operations.
public struct Connector: Sendable {
    /// The `connectorId` from `connector.yaml`.
    public var id: String
    /// The folder path.
    public var directory: String
    /// The `authMode` of `connector.yaml`, when set.
    ///
    /// The current service ignores it: an operation without `@auth` is `NO_ACCESS` whatever it says.
    public var defaultAuth: AuthPolicy.Level?
    /// The operations, in file and declaration order.
    public var operations: [ConnectorOperation]
    /// `generate.swiftSdk` of `connector.yaml`: where Firebase's tools, and `content`'s, write the Swift SDK.
    public var swiftSDK: SwiftSDKSettings?

    /// Who may run an operation: its own `@auth`, else `NO_ACCESS`, as the current service decides whatever
    /// `authMode` says.
    ///
    /// - Parameter operation: One of this connector's operations.
    /// - Returns: The policy that applies.
    public func effectiveAuth(of operation: ConnectorOperation) -> AuthPolicy {
        operation.declaresAuth ? operation.auth : .level(.noAccess)
    }

    /// The operation with a name.
    ///
    /// - Parameter name: The operation name.
    /// - Returns: The operation, or `nil`.
    public func operation(_ name: String) -> ConnectorOperation? {
        operations.first { $0.name == name }
    }
}

/// `generate.swiftSdk` of a `connector.yaml`, as Firebase's tools read it.
public struct SwiftSDKSettings: Sendable, Hashable, Decodable {
    /// The folder the package is written to, relative to the connector's folder.
    public var outputDir: String
    /// The package's name; `DataConnectGenerated` when left out, as Firebase's tools name it.
    public var package: String?
    /// `observableMacro` (the default) or `observableObject`: how query refs publish.
    public var observablePublisher: String?
}
