#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Which parts of an item a projection reads, so everything else can be skipped instead of built.
///
/// Built from `--fields` paths: `title` keeps the member `title`, `primaryImage._dynamicUrl` keeps
/// only `_dynamicUrl` inside `primaryImage`. A path step that is not a member name (`[0]`, `[]`) keeps
/// the whole value at that point, as does a value that turns out not to be an object.
final class JSONKeepTree: @unchecked Sendable {  // Immutable once built; the raw name storage is never written again.
    struct Child: Sendable {
        let name: String
        let tree: JSONKeepTree
    }

    /// Keep the whole value here.
    let whole: Bool
    let children: [Child]
    /// The children's names back to back with their lengths, in storage of its own: matching a raw
    /// member name against them happens for every member of every item, so it must not retain anything.
    private let names: UnsafeMutableRawBufferPointer
    private let lengths: UnsafeMutableBufferPointer<Int>

    /// The tree that keeps what any of the paths reads.
    convenience init(paths: [JSONPath]) {
        self.init(steps: paths.map { $0.components[...] })
    }

    private init(steps: [ArraySlice<JSONPath.Component>]) {
        var order: [String] = []
        var rests: [String: [ArraySlice<JSONPath.Component>]] = [:]
        var whole = false
        for path in steps {
            guard let first = path.first, case .member(let name) = first else {
                whole = true
                break
            }
            if rests[name] == nil { order.append(name) }
            rests[name, default: []].append(path.dropFirst())
        }
        self.whole = whole
        children = whole ? [] : order.map { Child(name: $0, tree: JSONKeepTree(steps: rests[$0] ?? [])) }
        let utf8 = children.flatMap(\.name.utf8)
        names = .allocate(byteCount: max(1, utf8.count), alignment: 1)
        names.copyBytes(from: utf8)
        lengths = .allocate(capacity: max(1, children.count))
        for (position, child) in children.enumerated() { lengths[position] = child.name.utf8.count }
    }

    deinit {
        names.deallocate()
        lengths.deallocate()
    }

    /// The child for a member name given as raw (unescaped) bytes.
    @inline(__always)
    func child(matching key: UnsafeRawBufferPointer) -> Child? {
        guard let keyBase = key.baseAddress, let namesBase = names.baseAddress else { return nil }
        var start = 0
        for position in 0..<children.count {
            let length = lengths[position]
            if length == key.count, memcmp(namesBase + start, keyBase, length) == 0 { return children[position] }
            start += length
        }
        return nil
    }

    /// A value already in memory with only what the tree keeps, as ``JSONSkipper/readValue(keeping:depth:)``
    /// would have read it.
    func prune(_ value: JSONValue) -> JSONValue {
        guard !whole, case .object(let object) = value else { return value }
        return .object(
            JSONObject(
                object.members.compactMap { member in
                    child(named: member.key).map { JSONMember(member.key, $0.prune(member.value)) }
                }))
    }

    /// The child for a member name.
    func child(named name: String) -> JSONKeepTree? {
        children.first { $0.name == name }?.tree
    }
}

extension JSONSkipper {
    /// Reads one value in full; the cursor is on its first byte.
    ///
    /// - Parameter depth: How deeply the value's container nests already.
    /// - Returns: The value.
    /// - Throws: ``JSONSkipFailure``.
    mutating func readValue(depth: Int) throws(JSONSkipFailure) -> JSONValue {
        let start = index
        // Plain strings and numbers, the usual projected values, need no second parse.
        if start < bytes.count, bytes[start] == UInt8(ascii: "\""), let base = bytes.baseAddress {
            if !(try skipString().escaped) {
                return .string(
                    String(
                        decoding: UnsafeRawBufferPointer(start: base + start + 1, count: index - start - 2),
                        as: UTF8.self))
            }
        } else {
            try skipValue(depth: depth)
        }
        if let base = bytes.baseAddress, bytes[start] == UInt8(ascii: "-") || bytes[start] &- UInt8(ascii: "0") < 10 {
            let text = UnsafeRawBufferPointer(start: base + start, count: index - start)
            return .number(JSONNumber(text: String(decoding: text, as: UTF8.self)))
        }
        var reader = JSONReader(
            bytes: UnsafeRawBufferPointer(rebasing: bytes[start..<index]), maxDepth: maxDepth - depth)
        do {
            return try reader.parseValue(depth: 0)
        } catch {
            // The skipper accepted these bytes, so this only happens if the two disagree; report it all the same.
            throw malformed(error.message, at: start + error.offset)
        }
    }

    /// Reads one value keeping only what `tree` asks for: objects lose the members no path reads.
    ///
    /// - Parameters:
    ///   - tree: What to keep, or `nil` for everything.
    ///   - depth: How deeply the value's container nests already.
    /// - Returns: The value, pruned.
    /// - Throws: ``JSONSkipFailure``.
    mutating func readValue(keeping tree: JSONKeepTree?, depth: Int) throws(JSONSkipFailure) -> JSONValue {
        guard let tree, !tree.whole, index < bytes.count, bytes[index] == UInt8(ascii: "{") else {
            return try readValue(depth: depth)
        }
        guard depth + 1 <= maxDepth else { throw malformed("objects and arrays nest deeper than \(maxDepth)") }
        index += 1
        var members: [JSONMember] = []
        members.reserveCapacity(tree.children.count)
        if try peekAfterWhitespace("expected a member name in double quotes") == UInt8(ascii: "}") {
            index += 1
            return .object(JSONObject(members))
        }
        while true {
            let keyStart = index
            guard bytes[index] == UInt8(ascii: "\"") else {
                throw malformed("expected a member name in double quotes, found \(describeCurrent())")
            }
            let traits = try skipString()
            let child: JSONKeepTree.Child?
            // Escaped or non-ASCII names compare as Strings (canonical equivalence), as lookups elsewhere do;
            // the member keeps the name as the input spells it.
            if traits.escaped || traits.nonASCII {
                let key = try memberName(from: keyStart)
                child = tree.child(named: key).map { JSONKeepTree.Child(name: key, tree: $0) }
            } else {
                child = tree.child(matching: UnsafeRawBufferPointer(rebasing: bytes[(keyStart + 1)..<(index - 1)]))
            }
            guard try peekAfterWhitespace("expected ':' after the member name") == UInt8(ascii: ":") else {
                throw malformed(
                    "expected ':' after the member name \(keyText(from: keyStart)), found \(describeCurrent())")
            }
            index += 1
            skipWhitespace()
            if let child {
                members.append(JSONMember(child.name, try readValue(keeping: child.tree, depth: depth + 1)))
            } else {
                try skipValue(depth: depth + 1)
            }
            switch try peekAfterWhitespace("expected ',' or '}' in an object") {
            case UInt8(ascii: ","):
                index += 1
                _ = try peekAfterWhitespace("expected a member name in double quotes")
            case UInt8(ascii: "}"):
                index += 1
                return .object(JSONObject(members))
            default:
                throw malformed("expected ',' or '}' after an object member, found \(describeCurrent())")
            }
        }
    }

    /// The decoded member name whose opening quote is at `start` (already checked by ``skipString()``).
    func memberName(from start: Int) throws(JSONSkipFailure) -> String {
        var reader = JSONReader(bytes: bytes, maxDepth: maxDepth)
        reader.index = start
        do {
            return try reader.parseString()
        } catch {
            throw malformed(error.message, at: error.offset)
        }
    }

    /// Reads `"name"` and the `:` after it, leaving the cursor on the member's value.
    mutating func readMemberName() throws(JSONSkipFailure) -> String {
        guard try peekAfterWhitespace("expected a member name in double quotes") == UInt8(ascii: "\"") else {
            throw malformed("expected a member name in double quotes, found \(describeCurrent())")
        }
        let keyStart = index
        let escaped = try skipString().escaped
        let name =
            escaped
            ? try memberName(from: keyStart)
            : String(decoding: UnsafeRawBufferPointer(rebasing: bytes[(keyStart + 1)..<(index - 1)]), as: UTF8.self)
        guard try peekAfterWhitespace("expected ':' after the member name") == UInt8(ascii: ":") else {
            throw malformed("expected ':' after the member name \"\(name)\", found \(describeCurrent())")
        }
        index += 1
        _ = try peekAfterWhitespace("expected a JSON value")
        return name
    }
}
