public import ContentJSON

/// Protobuf's wire bytes of a message whose fields are JSON documents as `google.protobuf.Struct`, written straight
/// from the JSON.
///
/// A result's data reaches the gRPC API as a `Struct`. Building swift-protobuf's `Struct` for it (a map of `Value`s,
/// each in storage of its own), then sizing every nested message and serializing it, took 6.8% of the server's
/// samples under `ExecuteQuery` (Benchmarks/README.md, "Data Connect over gRPC and over REST"); this writes the same
/// bytes in one pass over the JSON. It writes back to front, so that a nested message's length is known when the
/// length and tag before it are written.
///
/// What it writes decodes as ``ProtobufJSON/structValue(_:)`` builds it: numbers as `number_value` doubles, `null` as
/// `null_value`, a member name that repeats as repeated map entries, of which a decoder keeps the last, as the
/// dictionary does.
public struct StructWireWriter: Sendable {
    /// The bytes written, from `start` to the end; the front of the buffer is free space.
    private var storage: [UInt8]
    private var start: Int

    /// Creates an empty writer.
    ///
    /// - Parameter capacity: Bytes to reserve; the writer grows past it as needed.
    public init(capacity: Int = 512) {
        storage = [UInt8](repeating: 0, count: max(capacity, 16))
        start = storage.count
    }

    /// How many bytes are written.
    public var count: Int { storage.count - start }

    /// Calls `body` with the bytes written, in wire order.
    ///
    /// - Parameter body: Reads the bytes; they are valid only during the call.
    /// - Returns: What `body` returns.
    /// - Throws: What `body` throws.
    public func withBytes<Result>(_ body: (UnsafeRawBufferPointer) throws -> Result) rethrows -> Result {
        try storage.withUnsafeBytes { try body(UnsafeRawBufferPointer(rebasing: $0[start...])) }
    }

    /// Puts bytes already in wire form (other fields of the message) before everything written so far.
    ///
    /// - Parameter bytes: The bytes.
    public mutating func prepend(_ bytes: [UInt8]) {
        bytes.withUnsafeBytes { prepend($0) }
    }

    private mutating func prepend(_ bytes: UnsafeRawBufferPointer) {
        reserve(bytes.count)
        start -= bytes.count
        storage.withUnsafeMutableBytes { target in
            UnsafeMutableRawBufferPointer(rebasing: target[start..<(start + bytes.count)]).copyMemory(from: bytes)
        }
    }

    /// Puts a length-delimited field holding `object` as a `Struct` before everything written so far.
    ///
    /// - Parameters:
    ///   - object: The JSON object.
    ///   - field: The field's number in its message, from 1 to 536,870,911 (2²⁹ − 1) as protobuf's are.
    public mutating func prependStruct(_ object: JSONObject, field: Int) {
        let end = count
        prependStructFields(object)
        prependLengthAndTag(field: field, since: end)
    }

    // MARK: - google.protobuf.Struct, Value and ListValue

    /// `Struct { map<string, Value> fields = 1; }`: each member is an entry `{ string key = 1; Value value = 2; }`.
    private mutating func prependStructFields(_ object: JSONObject) {
        for member in object.members.reversed() {
            let end = count
            prependValueFields(member.value)
            prependLengthAndTag(field: 2, since: end)
            prependString(member.key, field: 1)
            prependLengthAndTag(field: 1, since: end)
        }
    }

    /// The one field of a `Value`'s `kind` that holds `value`.
    ///
    /// null_value = 1, number_value = 2, string_value = 3, bool_value = 4, struct_value = 5, list_value = 6. A
    /// oneof member is written even when it holds its type's default.
    private mutating func prependValueFields(_ value: JSONValue) {
        switch value {
        case .null:
            prependVarint(0)
            prependTag(field: 1, wireType: 0)
        case .number(let number):
            prependFixed64((number.doubleValue ?? 0).bitPattern)
            prependTag(field: 2, wireType: 1)
        case .string(let text):
            prependString(text, field: 3)
        case .bool(let flag):
            prependVarint(flag ? 1 : 0)
            prependTag(field: 4, wireType: 0)
        case .object(let object):
            prependStruct(object, field: 5)
        case .array(let items):
            // ListValue { repeated Value values = 1; }
            let listEnd = count
            for item in items.reversed() {
                let itemEnd = count
                prependValueFields(item)
                prependLengthAndTag(field: 1, since: itemEnd)
            }
            prependLengthAndTag(field: 6, since: listEnd)
        }
    }

    // MARK: - Wire primitives, each written before what is there

    private mutating func prependString(_ text: String, field: Int) {
        var text = text
        text.withUTF8 { prepend(UnsafeRawBufferPointer($0)) }
        prependVarint(UInt64(text.utf8.count))
        prependTag(field: field, wireType: 2)
    }

    /// The length of what was written since `end` (a ``count`` taken before), then the field's tag.
    private mutating func prependLengthAndTag(field: Int, since end: Int) {
        prependVarint(UInt64(count - end))
        prependTag(field: field, wireType: 2)
    }

    private mutating func prependTag(field: Int, wireType: UInt64) {
        prependVarint(UInt64(truncatingIfNeeded: field) << 3 | wireType)
    }

    private mutating func prependVarint(_ value: UInt64) {
        var length = 1
        var rest = value >> 7
        while rest != 0 {
            length += 1
            rest >>= 7
        }
        reserve(length)
        start -= length
        var remaining = value
        for index in start..<(start + length) {
            storage[index] = UInt8(truncatingIfNeeded: remaining & 0x7F) | (index + 1 < start + length ? 0x80 : 0)
            remaining >>= 7
        }
    }

    private mutating func prependFixed64(_ value: UInt64) {
        reserve(8)
        start -= 8
        for offset in 0..<8 {
            storage[start + offset] = UInt8(truncatingIfNeeded: value >> (UInt64(offset) * 8))
        }
    }

    /// Makes room for `needed` more bytes at the front, moving what is written to the end of a larger buffer.
    private mutating func reserve(_ needed: Int) {
        guard start < needed else { return }
        let written = count
        let capacity = max(storage.count * 2, written + needed + 16)
        var grown = [UInt8](repeating: 0, count: capacity)
        let newStart = capacity - written
        grown.withUnsafeMutableBytes { target in
            storage.withUnsafeBytes { source in
                UnsafeMutableRawBufferPointer(rebasing: target[newStart...])
                    .copyMemory(from: UnsafeRawBufferPointer(rebasing: source[start...]))
            }
        }
        storage = grown
        start = newStart
    }
}
