internal import GraphQL

/// The text one operation runs as: the operation and every fragment it uses, wherever in its connector that
/// fragment is defined, because Firebase shares fragments among all the `.gql` files of a connector.
///
/// Each file that contributes keeps its own lines: everything else in it is blanked to spaces (line breaks
/// kept), so a position in the text maps back to the file, line and column it came from.
public struct ConnectorDocument: Sendable, Equatable {
    /// One file's part of the text.
    public struct Segment: Sendable, Equatable {
        /// The file.
        public var file: String
        /// The line of the text where the file's first line is.
        public var firstLine: Int
    }

    /// The GraphQL text.
    public var text: String
    /// The files it is made of, the operation's own first.
    public var segments: [Segment]

    /// Where a line and column of ``text`` are in the workspace.
    ///
    /// - Parameters:
    ///   - line: The 1-based line in ``text``.
    ///   - column: The 1-based column.
    /// - Returns: The file, line and column.
    public func position(line: Int, column: Int) -> SourcePosition {
        let segment = segments.last { $0.firstLine <= line } ?? segments.first
        let file = segment?.file ?? ""
        return SourcePosition(file: file, line: line - (segment?.firstLine ?? 1) + 1, column: column)
    }

    /// A workspace error whose position is in ``text``, moved to the file it points into.
    func relocated(_ error: DataConnectWorkspaceError) -> DataConnectWorkspaceError {
        guard let line = error.line else { return error }
        let position = position(line: line, column: error.column ?? 1)
        return DataConnectWorkspaceError(
            file: position.file, line: position.line, column: position.column, error.message)
    }
}

/// The parsed files of one connector, and the documents of its operations.
struct ConnectorFiles {
    struct File {
        var path: String
        var text: String
        var definitions: [any Definition]
    }

    var files: [File]
    /// Fragment name → the file index and the definition.
    private var fragments: [String: (file: Int, definition: FragmentDefinition)] = [:]

    /// Reads a connector's files; a name given to two fragments is refused, as the service refuses it.
    init(files: [File]) throws(DataConnectWorkspaceError) {
        self.files = files
        for (index, file) in files.enumerated() {
            for case let fragment as FragmentDefinition in file.definitions {
                let name = fragment.name.value
                if let existing = fragments[name] {
                    let at = GraphQLText.position(fragment.loc, path: file.path)
                    let first = GraphQLText.position(existing.definition.loc, path: files[existing.file].path)
                    throw DataConnectWorkspaceError(
                        file: at.file, line: at.line, column: at.column,
                        "a second fragment is named \(name) (the first is at \(first)); fragments are shared by "
                            + "every file of a connector, so their names must differ")
                }
                fragments[name] = (index, fragment)
            }
        }
    }

    /// The document of one operation of file `fileIndex`.
    func document(for operation: OperationDefinition, inFile fileIndex: Int) -> ConnectorDocument {
        // The fragments it reaches, transitively; an unknown one is left for validation to name.
        var used: [String] = []
        var pending = Self.spreads(in: operation.selectionSet)
        while let name = pending.popLast() {
            guard !used.contains(name), let fragment = fragments[name] else { continue }
            used.append(name)
            pending.append(contentsOf: Self.spreads(in: fragment.definition.selectionSet))
        }
        var kept: [Int: [Range<Int>]] = [fileIndex: []]
        if let range = extent(of: operation, inFile: fileIndex) { kept[fileIndex, default: []].append(range) }
        for name in used {
            guard let fragment = fragments[name], let range = extent(of: fragment.definition, inFile: fragment.file)
            else { continue }
            kept[fragment.file, default: []].append(range)
        }
        let order = [fileIndex] + kept.keys.filter { $0 != fileIndex }.sorted()
        var text = ""
        var segments: [ConnectorDocument.Segment] = []
        for index in order {
            if !text.isEmpty { text += "\n" }
            // Counted on the joined text: a file ending in a lone `\r` and the `\n` after it are one line break.
            segments.append(.init(file: files[index].path, firstLine: 1 + Self.lineBreaks(in: text)))
            text += Self.blanked(files[index].text, keeping: kept[index] ?? [])
        }
        return ConnectorDocument(text: text, segments: segments)
    }

    /// The UTF-8 range of a definition: from its start to the next definition's, or to the end of the file.
    ///
    /// GraphQLSwift ends a definition's `loc` before its selection set (the location is made before the set is
    /// parsed), so the end is taken from what follows; comments between definitions come along, harmlessly.
    private func extent(of definition: any Definition, inFile index: Int) -> Range<Int>? {
        let starts = files[index].definitions.compactMap { $0.loc?.start }
        guard let start = definition.loc?.start else { return nil }
        let end = starts.filter { $0 > start }.min() ?? files[index].text.utf8.count
        return start..<end
    }

    /// The text with every byte outside `ranges` (UTF-8 offsets) turned into a space, line breaks kept.
    static func blanked(_ text: String, keeping ranges: [Range<Int>]) -> String {
        var bytes = Array(text.utf8)
        var keep = [Bool](repeating: false, count: bytes.count)
        for range in ranges {
            let lower = max(0, min(range.lowerBound, bytes.count))
            let upper = max(lower, min(range.upperBound, bytes.count))
            for offset in lower..<upper { keep[offset] = true }
        }
        for offset in bytes.indices where !keep[offset] && bytes[offset] != 0x0A && bytes[offset] != 0x0D {
            bytes[offset] = 0x20
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Line breaks as GraphQL counts them: `\r\n`, `\n` or `\r`.
    static func lineBreaks(in text: String) -> Int {
        var count = 0
        var previousWasCR = false
        for byte in text.utf8 {
            if byte == 0x0A {
                if !previousWasCR { count += 1 }
                previousWasCR = false
            } else if byte == 0x0D {
                count += 1
                previousWasCR = true
            } else {
                previousWasCR = false
            }
        }
        return count
    }

    /// The names of the fragments a selection set spreads, at any depth.
    static func spreads(in selectionSet: SelectionSet?) -> [String] {
        guard let selectionSet else { return [] }
        var names: [String] = []
        for selection in selectionSet.selections {
            switch selection {
            case let spread as FragmentSpread: names.append(spread.name.value)
            case let field as Field: names += spreads(in: field.selectionSet)
            case let inline as InlineFragment: names += spreads(in: inline.selectionSet)
            default: break
            }
        }
        return names
    }
}
