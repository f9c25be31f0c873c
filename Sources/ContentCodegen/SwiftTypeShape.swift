internal import GraphQL

/// A GraphQL type as the Swift type that holds it: optional unless non-null, arrays for lists, and at the
/// bottom a named Swift type, which may travel in another form on the wire (`UUID`, `Int64`).
indirect enum SwiftTypeShape: Equatable {
    case optional(SwiftTypeShape)
    case list(SwiftTypeShape)
    case named(swift: String, wire: String?)

    /// The shape of a GraphQL type, with `name(for:)` naming the innermost type.
    static func of(_ type: any GraphQLType, naming name: (any GraphQLNamedType) -> (swift: String, wire: String?))
        -> SwiftTypeShape
    {
        if let required = type as? GraphQLNonNull { return nonOptional(required.ofType, naming: name) }
        return .optional(nonOptional(type, naming: name))
    }

    private static func nonOptional(
        _ type: any GraphQLType, naming name: (any GraphQLNamedType) -> (swift: String, wire: String?)
    ) -> SwiftTypeShape {
        if let list = type as? GraphQLList { return .list(of(list.ofType, naming: name)) }
        guard let named = type as? any GraphQLNamedType else { return .named(swift: "AnyValue", wire: nil) }
        let spelled = name(named)
        return .named(swift: spelled.swift, wire: spelled.wire)
    }

    /// The Swift type users see.
    var swiftType: String {
        switch self {
        case .optional(let inner): return inner.swiftType + "?"
        case .list(let inner): return "[\(inner.swiftType)]"
        case .named(let swift, _): return swift
        }
    }

    /// The type that is decoded or encoded.
    var wireType: String {
        switch self {
        case .optional(let inner): return inner.wireType + "?"
        case .list(let inner): return "[\(inner.wireType)]"
        case .named(let swift, let wire): return wire ?? swift
        }
    }

    var isOptional: Bool {
        if case .optional = self { return true }
        return false
    }

    /// The shape without its outer optional.
    var unwrapped: SwiftTypeShape {
        if case .optional(let inner) = self { return inner }
        return self
    }

    /// An expression that turns `expression` from the wire type into the Swift type, or `nil` when they are
    /// the same.
    func fromWire(_ expression: String) -> String? {
        switch self {
        case .optional(let inner), .list(let inner):
            return inner.fromWire("$0").map { "\(expression).map { \($0) }" }
        case .named(_, let wire):
            return wire == nil ? nil : "\(expression).value"
        }
    }

    /// An expression that turns `expression` from the Swift type into the wire type, or `nil` when they are
    /// the same.
    func toWire(_ expression: String) -> String? {
        switch self {
        case .optional(let inner), .list(let inner):
            return inner.toWire("$0").map { "\(expression).map { \($0) }" }
        case .named(_, let wire):
            return wire.map { "\($0)(\(expression))" }
        }
    }

    /// The same shape with the named type `old` called `new`.
    func renamingNamed(_ old: String, to new: String) -> SwiftTypeShape {
        switch self {
        case .optional(let inner): return .optional(inner.renamingNamed(old, to: new))
        case .list(let inner): return .list(inner.renamingNamed(old, to: new))
        case .named(let swift, let wire): return swift == old ? .named(swift: new, wire: wire) : self
        }
    }
}
