/// A `Vector` value as both engines keep it: single-precision numbers, written as the JSON array pgvector's `vector`
/// type prints (`[0.1,2,-3.5]`).
///
/// The service stores a `Vector` in pgvector's `vector`, whose elements are `float4` (pgvector's `src/vector.c`), so
/// a number comes back as the nearest single-precision value: `0.123456789` as `0.12345679`. Each number is written
/// as the shortest text that reads back as the same `Float`, without a trailing `.0`, as pgvector's `vector_out`
/// (`float_to_shortest_decimal`) writes it.
public enum DataConnectVector {
    /// The stored text of a vector's elements.
    ///
    /// - Parameter numbers: The elements, already single precision.
    /// - Returns: `[n1,n2,…]`.
    public static func text(_ numbers: [Float]) -> String {
        "[" + numbers.map(number).joined(separator: ",") + "]"
    }

    /// One element: `1` rather than `1.0`; an exponent as Swift writes it (`1e-07`), which JSON reads too.
    public static func number(_ value: Float) -> String {
        let text = "\(value)"
        return text.hasSuffix(".0") ? String(text.dropLast(2)) : text
    }
}
