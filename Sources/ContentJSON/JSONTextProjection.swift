/// Finds where the values several paths lead to are in one JSON value's text, in one pass and without building it.
///
/// Rows of CSV need a few members of each item and nothing else: reading them as byte ranges of the item's
/// text saves building every item as a ``JSONValue`` only to pick from it. The answers are those of
/// ``JSONValue/value(at:)`` on the parsed text: the last of duplicate members, `items.0` as an element of an
/// array, nothing where a step is missing. Every byte walked over is checked as strictly as ``JSONParser``
/// checks it, so malformed text is rejected, never misread.
///
/// ```swift
/// var projection = JSONTextProjection(paths: [try JSONPath(parsing: "primaryImage._path")])
/// try projection?.locate(in: text)  // projection?.slices[0] is where the path's value is, if it is there
/// ```
public struct JSONTextProjection: Sendable {
    /// Where one value is in the text.
    public struct Slice: Sendable, Hashable {
        /// What the value is.
        public enum Kind: Sendable, Hashable {
            /// A string; an escaped one's bytes are not its text.
            case string(escaped: Bool)
            case number
            case bool(Bool)
            case null
            case array
            case object
        }

        /// What the value is.
        public var kind: Kind
        /// The value's bytes, a string's quotes included.
        public var range: Range<Int>
    }

    /// A step from a node to a child, of only plain values, so walking the steps retains nothing.
    private struct Step: Sendable {
        /// A member name (`false` for `[N]`, which never matches a member).
        var isMember: Bool
        /// The array element the step picks: `N` of `[N]`, a member name read as a number (`items.0`), or -1.
        var element: Int
        /// The name's UTF-8 in `nameBytes`.
        var nameStart: Int
        var nameCount: Int
        /// An ASCII name equals an ASCII key exactly when their bytes do; any other pair compares as strings.
        var nameIsASCII: Bool
        /// The name's first eight bytes (see ``JSONBytes/firstBytes(_:from:to:)``): most keys differ in them.
        var nameWord: UInt64
        /// The child the step leads to.
        var target: Int
    }

    /// A point some paths pass through, its lists given as ranges of the flat arrays below.
    private struct Node: Sendable {
        var children: Range<Int>
        /// The paths that end here, in `fieldList`.
        var fields: Range<Int>
        /// The paths that end here or below, in `subtreeList`: what a later duplicate member clears first.
        var subtree: Range<Int>
        /// A bit per ASCII member name of the children (``JSONBytes/keyBit(length:word:)``), all bits when a
        /// name is not ASCII: a plain key whose bit is clear is no child's, without a comparison.
        var keyFilter: UInt64
    }

    /// The tree of paths in flat buffers, never written after `init`: walking it retains and releases nothing,
    /// and copying a projection, once per row, retains one object rather than every list.
    private final class Plan: @unchecked Sendable {
        let nodes: UnsafeMutableBufferPointer<Node>
        let steps: UnsafeMutableBufferPointer<Step>
        let nameBytes: UnsafeMutableBufferPointer<UInt8>
        let fieldList: UnsafeMutableBufferPointer<Int>
        let subtreeList: UnsafeMutableBufferPointer<Int>
        /// Per step, its member name, compared as a string where the key is escaped or not ASCII, or the name is
        /// not ASCII.
        let names: [String]

        init(nodes: [Node], steps: [Step], nameBytes: [UInt8], fieldList: [Int], subtreeList: [Int], names: [String]) {
            self.nodes = Self.buffer(nodes)
            self.steps = Self.buffer(steps)
            self.nameBytes = Self.buffer(nameBytes)
            self.fieldList = Self.buffer(fieldList)
            self.subtreeList = Self.buffer(subtreeList)
            self.names = names
        }

        deinit {
            // Plain values only, so there is nothing to deinitialize.
            nodes.deallocate()
            steps.deallocate()
            nameBytes.deallocate()
            fieldList.deallocate()
            subtreeList.deallocate()
        }

        private static func buffer<Element>(_ elements: [Element]) -> UnsafeMutableBufferPointer<Element> {
            let buffer = UnsafeMutableBufferPointer<Element>.allocate(capacity: max(1, elements.count))
            _ = buffer.initialize(from: elements)
            return buffer
        }
    }

    private let plan: Plan
    private let maxDepth: Int

    /// Per path, in order, where its value was in the text last given to ``locate(in:)``, or in the item
    /// ``JSONItemReader/nextItem(locating:_:)`` last found, from the item's first byte; `nil` when missing.
    public private(set) var slices: [Slice?]
    /// Where the value being located starts in the skipper's bytes: slices are relative to it.
    private var origin = 0

    /// Prepares to find the values of `paths`, or fails when a path maps over an array (`[]`): such a value is
    /// built, not found.
    ///
    /// - Parameters:
    ///   - paths: The paths, in the order ``slices`` reports them.
    ///   - maxDepth: How deeply values may nest, as for ``JSONParser``.
    public init?(paths: [JSONPath], maxDepth: Int = 512) {
        // A tree of the paths, children numbered after their parents.
        var children: [[(step: JSONPath.Component, node: Int)]] = [[]]
        var fields: [[Int]] = [[]]
        for (field, path) in paths.enumerated() {
            var node = 0
            for component in path.components {
                if case .each = component { return nil }
                if let existing = children[node].first(where: { $0.step == component }) {
                    node = existing.node
                } else {
                    children.append([])
                    fields.append([])
                    children[node].append((component, children.count - 1))
                    node = children.count - 1
                }
            }
            fields[node].append(field)
        }
        // Going backwards finds every subtree complete.
        var subtrees = Array(repeating: [Int](), count: children.count)
        for node in children.indices.reversed() {
            subtrees[node] = fields[node] + children[node].flatMap { subtrees[$0.node] }
        }
        var nodes: [Node] = []
        var steps: [Step] = []
        var names: [String] = []
        var nameBytes: [UInt8] = []
        var fieldList: [Int] = []
        var subtreeList: [Int] = []
        for node in children.indices {
            nodes.append(
                Node(
                    children: steps.count..<(steps.count + children[node].count),
                    fields: fieldList.count..<(fieldList.count + fields[node].count),
                    subtree: subtreeList.count..<(subtreeList.count + subtrees[node].count),
                    keyFilter: 0))
            fieldList += fields[node]
            subtreeList += subtrees[node]
            for (component, target) in children[node] {
                let step: Step
                switch component {
                case .member(let name):
                    let utf8 = Array(name.utf8)
                    step = Step(
                        isMember: true, element: Int(name).map { $0 >= 0 ? $0 : -1 } ?? -1, nameStart: nameBytes.count,
                        nameCount: utf8.count, nameIsASCII: utf8.allSatisfy { $0 < 0x80 },
                        nameWord: utf8.withUnsafeBytes { JSONBytes.firstBytes($0, from: 0, to: $0.count) },
                        target: target)
                    nameBytes += utf8
                    names.append(name)
                    nodes[node].keyFilter |=
                        step.nameIsASCII ? JSONBytes.keyBit(length: utf8.count, word: step.nameWord) : UInt64.max
                case .index(let position):
                    step = Step(
                        isMember: false, element: position, nameStart: 0, nameCount: 0, nameIsASCII: true,
                        nameWord: 0, target: target)
                    names.append("")
                case .each:
                    return nil
                }
                steps.append(step)
            }
        }
        plan = Plan(
            nodes: nodes, steps: steps, nameBytes: nameBytes, fieldList: fieldList, subtreeList: subtreeList,
            names: names)
        self.maxDepth = maxDepth
        slices = Array(repeating: nil, count: paths.count)
    }

    /// Finds every path's value in `text`, which must be one JSON value (whitespace around it allowed).
    ///
    /// - Parameter text: UTF-8 JSON text.
    /// - Throws: ``JSONParseError`` where the text is not JSON, as ``JSONParser`` reports it.
    public mutating func locate(in text: UnsafeRawBufferPointer) throws(JSONParseError) {
        try locate(in: text, maxDepth: maxDepth)
    }

    /// ``locate(in:)`` with another nesting limit: a reader's, for an item it has already read under it.
    mutating func locate(in text: UnsafeRawBufferPointer, maxDepth: Int) throws(JSONParseError) {
        start(at: 0)
        var skipper = JSONSkipper(bytes: text, index: 0, isFinal: true, maxDepth: maxDepth)
        do throws(JSONSkipFailure) {
            skipper.skipWhitespace()
            try visit(0, &skipper, depth: 0)
            skipper.skipWhitespace()
            if skipper.index < text.count {
                throw skipper.malformed("expected the end of the input after a complete JSON value")
            }
        } catch {
            var reader = JSONReader(bytes: text, maxDepth: maxDepth)
            guard case .malformed(let offset, let message) = error else {
                throw reader.error("unexpected end of the input", at: text.count)
            }
            reader.index = offset
            throw reader.error(message, at: offset)
        }
    }

    /// Finds every path's value in the value at the skipper's cursor and steps over it, checking it as
    /// ``locate(in:)`` does; the slices are relative to where the value starts.
    ///
    /// - Parameters:
    ///   - skipper: A skipper on the value's first byte; it ends just past the value.
    ///   - depth: How deeply the value's container nests already.
    /// - Throws: ``JSONSkipFailure``: the value runs past the skipper's bytes, or is malformed.
    mutating func locate(_ skipper: inout JSONSkipper, depth: Int) throws(JSONSkipFailure) {
        start(at: skipper.index)
        try visit(0, &skipper, depth: depth)
    }

    /// Forgets the slices found before, for a value that starts at `origin`.
    private mutating func start(at origin: Int) {
        for field in slices.indices { slices[field] = nil }
        self.origin = origin
    }

    /// The value a slice of `text` holds.
    ///
    /// - Parameters:
    ///   - slice: A slice ``locate(in:)`` found.
    ///   - text: The text it was found in.
    /// - Returns: The value.
    /// - Throws: ``JSONParseError`` only when `text` is not the text the slice came from.
    public static func value(of slice: Slice, in text: UnsafeRawBufferPointer) throws(JSONParseError) -> JSONValue {
        guard slice.range.lowerBound >= 0, slice.range.upperBound <= text.count else {
            throw JSONParseError(offset: 0, line: 1, column: 1, message: "the slice is outside the text")
        }
        var reader = JSONReader(bytes: UnsafeRawBufferPointer(rebasing: text[slice.range]), maxDepth: 512)
        return try reader.parseDocument()
    }

    /// Steps over the value at the cursor, noting where the paths through `node` lead.
    private mutating func visit(_ node: Int, _ skipper: inout JSONSkipper, depth: Int) throws(JSONSkipFailure) {
        let bytes = skipper.bytes
        let start = skipper.index
        // A later duplicate member replaces what an earlier one gave, paths it lacks included.
        if node != 0 { for position in plan.nodes[node].subtree { slices[plan.subtreeList[position]] = nil } }
        guard start < bytes.count else {
            throw skipper.endOfWindow("expected a JSON value, found the end of the input")
        }
        let hasChildren = !plan.nodes[node].children.isEmpty
        let kind: Slice.Kind
        switch bytes[start] {
        case UInt8(ascii: "{") where hasChildren:
            try visitMembers(of: node, &skipper, depth: depth + 1)
            kind = .object
        case UInt8(ascii: "[") where hasChildren:
            try visitElements(of: node, &skipper, depth: depth + 1)
            kind = .array
        case UInt8(ascii: "\""):
            kind = .string(escaped: try skipper.skipString().escaped)
        case let first:
            try skipper.skipValue(depth: depth)
            switch first {
            case UInt8(ascii: "{"): kind = .object
            case UInt8(ascii: "["): kind = .array
            case UInt8(ascii: "t"): kind = .bool(true)
            case UInt8(ascii: "f"): kind = .bool(false)
            case UInt8(ascii: "n"): kind = .null
            default: kind = .number
            }
        }
        for position in plan.nodes[node].fields {
            slices[plan.fieldList[position]] = Slice(kind: kind, range: (start - origin)..<(skipper.index - origin))
        }
    }

    private mutating func visitMembers(of node: Int, _ skipper: inout JSONSkipper, depth: Int)
        throws(JSONSkipFailure)
    {
        if try skipper.enterContainer(closedBy: UInt8(ascii: "}"), depth: depth) { return }
        while true {
            let keyStart = skipper.index
            guard skipper.bytes[keyStart] == UInt8(ascii: "\"") else {
                throw skipper.malformed("expected a member name in double quotes, found \(skipper.describeCurrent())")
            }
            let traits = try skipper.skipString()
            let child = try matchingChild(
                of: node, keyFrom: keyStart, to: skipper.index, plain: !traits.escaped && !traits.nonASCII, skipper)
            try skipper.skipColon(afterKeyAt: keyStart)
            if let child {
                try visit(plan.steps[child].target, &skipper, depth: depth)
            } else {
                try skipper.skipValue(depth: depth)
            }
            guard try skipper.skipAfterMember() else { return }
        }
    }

    /// The child of `node` whose member name is the key between `start` and `end` (quotes included).
    private func matchingChild(of node: Int, keyFrom start: Int, to end: Int, plain: Bool, _ skipper: JSONSkipper)
        throws(JSONSkipFailure) -> Int?
    {
        guard plain else { return try childMatchingDecodedKey(of: node, keyAt: start, skipper) }
        let length = end - start - 2
        let word = JSONBytes.firstBytes(skipper.bytes, from: start + 1, to: end - 1)
        // Most keys of an item are no field's: the filter says so for nearly all of them in one test.
        guard plan.nodes[node].keyFilter & JSONBytes.keyBit(length: length, word: word) != 0 else { return nil }
        for child in plan.nodes[node].children where plan.steps[child].isMember {
            let step = plan.steps[child]
            guard step.nameIsASCII else {
                // Compared as Swift compares strings, an ASCII key can equal a name that is not (K and U+212A).
                let key = UnsafeRawBufferPointer(rebasing: skipper.bytes[(start + 1)..<(end - 1)])
                if String(decoding: key, as: UTF8.self) == plan.names[child] { return child }
                continue
            }
            guard step.nameCount == length, step.nameWord == word else { continue }
            var same = true
            for offset in min(length, 8)..<length
            where skipper.bytes[start + 1 + offset] != plan.nameBytes[step.nameStart + offset] {
                same = false
                break
            }
            if same { return child }
        }
        return nil
    }

    /// The child of `node` whose member name equals a key with escapes or non-ASCII bytes, compared as Swift
    /// compares strings (canonical equivalence); apart, so the plain keys' path holds no string.
    private func childMatchingDecodedKey(of node: Int, keyAt start: Int, _ skipper: JSONSkipper)
        throws(JSONSkipFailure) -> Int?
    {
        var key: String?
        for child in plan.nodes[node].children where plan.steps[child].isMember {
            if key == nil { key = try skipper.memberName(from: start) }
            if key == plan.names[child] { return child }
        }
        return nil
    }

    private mutating func visitElements(of node: Int, _ skipper: inout JSONSkipper, depth: Int)
        throws(JSONSkipFailure)
    {
        if try skipper.enterContainer(closedBy: UInt8(ascii: "]"), depth: depth) { return }
        var position = 0
        while true {
            let start = skipper.index
            var visited = false
            // `[0]` and `.0` are different steps to the same element: each is followed from its start.
            for child in plan.nodes[node].children where plan.steps[child].element == position {
                skipper.index = start
                try visit(plan.steps[child].target, &skipper, depth: depth)
                visited = true
            }
            if !visited { try skipper.skipValue(depth: depth) }
            position += 1
            guard try skipper.skipAfterElement() else { return }
        }
    }

}
