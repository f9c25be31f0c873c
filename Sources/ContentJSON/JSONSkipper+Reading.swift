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
///
/// The tree is stored flat, as nodes numbered from 0 (the root): reading an item walks it by number, so
/// matching member names retains and releases nothing however many members and items there are.
final class JSONKeepTree: @unchecked Sendable {  // Immutable once built; its storage is never written again.
    /// One node: keep everything below it, or only the children `firstChild..<firstChild + childCount`.
    struct Node {
        var whole: Bool
        var firstChild: Int
        var childCount: Int
        /// Whether a child's name is not ASCII: only such a name can equal an ASCII key it differs from in bytes.
        var hasNonASCIIName = false

        /// The numbers of its children, across all nodes.
        var children: Range<Int> { firstChild..<(firstChild + childCount) }
    }

    /// Every node, the root first.
    private let nodes: UnsafeMutableBufferPointer<Node>
    /// Per child, across all nodes: its member name, the node it leads to, and where its name's bytes are.
    private let childNames: UnsafeMutableBufferPointer<String>
    private let childNodes: UnsafeMutableBufferPointer<Int>
    private let nameStarts: UnsafeMutableBufferPointer<Int>
    private let nameLengths: UnsafeMutableBufferPointer<Int>
    private let nameBytes: UnsafeMutableRawBufferPointer
    /// How many children all nodes have together (the buffers above hold at least one slot).
    private let allChildrenCount: Int

    /// The tree that keeps what any of the paths reads.
    init(paths: [JSONPath]) {
        var nodes: [Node] = []
        var names: [String] = []
        var targets: [Int] = []
        // Breadth first, so each node's children are consecutive.
        var pending: [[ArraySlice<JSONPath.Component>]] = [paths.map { $0.components[...] }]
        var next = 0
        while next < pending.count {
            let steps = pending[next]
            next += 1
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
            if whole { order = [] }
            nodes.append(
                Node(
                    whole: whole, firstChild: names.count, childCount: order.count,
                    hasNonASCIIName: order.contains { !$0.utf8.allSatisfy { $0 < 0x80 } }))
            for name in order {
                names.append(name)
                targets.append(pending.count)
                pending.append(rests[name] ?? [])
            }
        }
        self.nodes = .allocate(capacity: nodes.count)
        _ = self.nodes.initialize(from: nodes)
        childNames = .allocate(capacity: max(1, names.count))
        _ = childNames.initialize(from: names)
        childNodes = .allocate(capacity: max(1, targets.count))
        _ = childNodes.initialize(from: targets)
        nameStarts = .allocate(capacity: max(1, names.count))
        nameLengths = .allocate(capacity: max(1, names.count))
        let utf8 = names.flatMap(\.utf8)
        nameBytes = .allocate(byteCount: max(1, utf8.count), alignment: 1)
        nameBytes.copyBytes(from: utf8)
        var start = 0
        for (position, name) in names.enumerated() {
            nameStarts[position] = start
            nameLengths[position] = name.utf8.count
            start += name.utf8.count
        }
        allChildrenCount = names.count
    }

    deinit {
        nodes.deallocate()
        _ = childNames.prefix(allChildrenCount).deinitialize()
        childNames.deallocate()
        childNodes.deallocate()
        nameStarts.deallocate()
        nameLengths.deallocate()
        nameBytes.deallocate()
    }

    /// The root node's number.
    static let root = 0

    /// The node numbered `number`.
    @inline(__always)
    func node(_ number: Int) -> Node { nodes[number] }

    /// The member name of child `child` (numbered across all nodes).
    @inline(__always)
    func name(ofChild child: Int) -> String { childNames[child] }

    /// The node child `child` leads to.
    @inline(__always)
    func target(ofChild child: Int) -> Int { childNodes[child] }

    /// The child of `node` for a member name given as raw ASCII bytes, unescaped.
    @inline(__always)
    func child(of node: Node, matching key: UnsafeRawBufferPointer) -> Int? {
        guard let keyBase = key.baseAddress, let namesBase = nameBytes.baseAddress else { return nil }
        // The empty name matches only itself, and has no first byte to compare.
        guard !key.isEmpty else { return node.children.first { nameLengths[$0] == 0 } }
        let first = keyBase.load(as: UInt8.self)
        // Most names of the same length differ in their first byte: no call for those.
        for child in node.children where nameLengths[child] == key.count {
            let name = namesBase + nameStarts[child]
            if name.load(as: UInt8.self) == first, memcmp(name, keyBase, key.count) == 0 { return child }
        }
        return node.hasNonASCIIName ? child(of: node, asciiKeyEquivalentTo: key) : nil
    }

    /// The child of `node` whose name is not ASCII yet equals an ASCII key as Swift compares strings:
    /// U+212A KELVIN SIGN equals `K`. (An ASCII name equal to the key has been found by its bytes.)
    private func child(of node: Node, asciiKeyEquivalentTo key: UnsafeRawBufferPointer) -> Int? {
        child(of: node, named: String(decoding: key, as: UTF8.self))
    }

    /// The child of `node` for a member name.
    func child(of node: Node, named name: String) -> Int? {
        node.children.first { childNames[$0] == name }
    }

    /// A value already in memory with only what the tree keeps, as ``JSONSkipper/readValue(keeping:depth:)``
    /// would have read it.
    func prune(_ value: JSONValue) -> JSONValue {
        prune(value, at: Self.root)
    }

    private func prune(_ value: JSONValue, at number: Int) -> JSONValue {
        let node = nodes[number]
        guard !node.whole, case .object(let object) = value else { return value }
        return .object(
            JSONObject(
                object.members.compactMap { member in
                    child(of: node, named: member.key).map {
                        JSONMember(member.key, prune(member.value, at: childNodes[$0]))
                    }
                }))
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
        guard let tree else { return try readValue(depth: depth) }
        return try readValue(keeping: tree, node: JSONKeepTree.root, depth: depth)
    }

    private mutating func readValue(keeping tree: JSONKeepTree, node number: Int, depth: Int)
        throws(JSONSkipFailure) -> JSONValue
    {
        let node = tree.node(number)
        guard !node.whole, index < bytes.count, bytes[index] == UInt8(ascii: "{") else {
            return try readValue(depth: depth)
        }
        var members: [JSONMember] = []
        members.reserveCapacity(node.childCount)
        try walkObject(keeping: node, of: tree, depth: depth) { skipper, member throws(JSONSkipFailure) in
            let value = try skipper.readValue(keeping: tree, node: tree.target(ofChild: member.child), depth: depth + 1)
            // The name as the input spells it: decoded when it holds escapes or non-ASCII letters.
            let name =
                try member.needsDecoding ? skipper.memberName(from: member.keyStart) : tree.name(ofChild: member.child)
            members.append(JSONMember(name, value))
        }
        return .object(JSONObject(members))
    }

    /// Steps over one value as ``readValue(keeping:depth:)`` reads it, appending what `tree` keeps to `output`
    /// as JSON text: kept members and whole values are copied as written, everything else is checked and left out.
    ///
    /// - Parameters:
    ///   - tree: What to keep, or `nil` for everything.
    ///   - depth: How deeply the value's container nests already.
    ///   - output: Where the text goes.
    /// - Throws: ``JSONSkipFailure``, exactly where ``readValue(keeping:depth:)`` would.
    mutating func copyValue(keeping tree: JSONKeepTree?, depth: Int, into output: inout [UInt8])
        throws(JSONSkipFailure)
    {
        guard let tree else {
            try copyWhole(depth: depth, into: &output)
            return
        }
        try copyValue(keeping: tree, node: JSONKeepTree.root, depth: depth, into: &output)
    }

    private mutating func copyWhole(depth: Int, into output: inout [UInt8]) throws(JSONSkipFailure) {
        let start = index
        try skipValue(depth: depth)
        output.appendBytes(of: bytes, from: start, to: index)
    }

    private mutating func copyValue(
        keeping tree: JSONKeepTree, node number: Int, depth: Int, into output: inout [UInt8]
    ) throws(JSONSkipFailure) {
        let node = tree.node(number)
        guard !node.whole, index < bytes.count, bytes[index] == UInt8(ascii: "{") else {
            try copyWhole(depth: depth, into: &output)
            return
        }
        output.append(UInt8(ascii: "{"))
        var copied = false
        try walkObject(keeping: node, of: tree, depth: depth) { skipper, member throws(JSONSkipFailure) in
            if copied { output.append(UInt8(ascii: ",")) }
            copied = true
            // The name as written, escapes and all: whoever parses the text decodes it as the reader would.
            output.appendBytes(of: skipper.bytes, from: member.keyStart, to: member.keyEnd)
            output.append(UInt8(ascii: ":"))
            try skipper.copyValue(
                keeping: tree, node: tree.target(ofChild: member.child), depth: depth + 1, into: &output)
        }
        output.append(UInt8(ascii: "}"))
    }

    /// A member a keep tree asks for, found by ``walkObject(keeping:of:depth:_:)``.
    struct KeptMember {
        /// The tree's child it matches.
        var child: Int
        /// Where its name is in the window: from the opening quote to just past the closing one.
        var keyStart: Int
        var keyEnd: Int
        /// Its bytes may not be the tree's spelling of the name (escapes, non-ASCII bytes, or a plain key kept for
        /// a name that is not ASCII), so the name is read from the input.
        var needsDecoding: Bool
    }

    /// Steps over the object at the cursor, checking all of it.
    ///
    /// `kept` is called with the cursor on the value of each member `node` keeps, and must step over that value;
    /// every other member is skipped.
    @inline(__always)
    private mutating func walkObject(
        keeping node: JSONKeepTree.Node, of tree: JSONKeepTree, depth: Int,
        _ kept: (inout JSONSkipper, KeptMember) throws(JSONSkipFailure) -> Void
    ) throws(JSONSkipFailure) {
        if try enterContainer(closedBy: UInt8(ascii: "}"), depth: depth + 1) { return }
        while true {
            let keyStart = index
            guard bytes[index] == UInt8(ascii: "\"") else {
                throw malformed("expected a member name in double quotes, found \(describeCurrent())")
            }
            let traits = try skipString()
            let keyEnd = index
            // Escaped or non-ASCII names compare as Strings (canonical equivalence), as lookups elsewhere do.
            let needsDecoding = traits.escaped || traits.nonASCII
            let child =
                needsDecoding
                ? tree.child(of: node, named: try memberName(from: keyStart))
                : tree.child(of: node, matching: UnsafeRawBufferPointer(rebasing: bytes[(keyStart + 1)..<(keyEnd - 1)]))
            try skipColon(afterKeyAt: keyStart)
            if let child {
                try kept(
                    &self,
                    KeptMember(
                        child: child, keyStart: keyStart, keyEnd: keyEnd,
                        // A plain key kept for a name that is not ASCII (K for U+212A) is spelled as the input has it.
                        needsDecoding: needsDecoding || node.hasNonASCIIName))
            } else {
                try skipValue(depth: depth + 1)
            }
            guard try skipAfterMember() else { return }
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

extension [UInt8] {
    /// Appends `bytes[start..<end]` with one copy; appending the raw buffer as a sequence goes byte by byte.
    @inline(__always)
    mutating func appendBytes(of bytes: UnsafeRawBufferPointer, from start: Int, to end: Int) {
        guard let base = bytes.baseAddress, end > start else { return }
        append(
            contentsOf: UnsafeBufferPointer(
                start: (base + start).assumingMemoryBound(to: UInt8.self), count: end - start))
    }
}
