internal import Foundation
internal import GraphQL
internal import OrderedCollections

/// The four forms AEM serves a multi-line text field in, made from the HTML an author wrote.
///
/// A small HTML reader, written here because no HTML parser is among the packages the project may use: block
/// elements (`p`, `h1`–`h6`, `li`, `div`) become blocks, `ul` and `ol` group list items, `b`/`strong` and
/// `i`/`em` are inline marks, `a` a link (or a reference, when it points at a content fragment in the DAM),
/// `img` a reference to an asset; entities are decoded, anything else is text.
///
/// The forms follow AEM's documentation and answers: plain text separates paragraphs with a blank line, the JSON
/// form is `paragraph`, `header`, `unordered-list` / `ordered-list` of `list-item`, with `text`, `link` (`data`
/// with `href` and, when given, `target`) and `reference` nodes (`data { path mimetype }` for an asset,
/// `data { href type: "fragment" }` with the link text as `value` for a fragment).
struct RichText {
    struct Block {
        var kind: String  // paragraph, header, list-item
        var level: Int
        /// `unordered-list` or `ordered-list` for a list item.
        var list: String?
        var runs: [Run]
    }

    struct Run {
        enum Kind: Equatable {
            case text
            case link(href: String, target: String?)
            /// A content fragment the text links to.
            case fragment(href: String)
            /// An asset the text shows.
            case asset(path: String)
        }

        var text: String
        var bold = false
        var italic = false
        var kind = Kind.text
    }

    let html: String
    let blocks: [Block]

    init(html: String) {
        self.html = html
        blocks = Self.parse(html)
    }

    /// The DAM paths the text refers to (fragments and assets), in order.
    var references: [String] {
        blocks.flatMap(\.runs).compactMap { run in
            switch run.kind {
            case .fragment(let path), .asset(let path): return path
            default: return nil
            }
        }
    }

    var plaintext: String {
        blocks.map { $0.runs.map(\.text).joined() }.joined(separator: "\n\n")
    }

    var markdown: String {
        var lines: [String] = []
        var number = 0
        for block in blocks {
            let text = block.runs.map { run -> String in
                var text = run.text
                if run.bold { text = "**\(text)**" }
                if run.italic { text = "*\(text)*" }
                switch run.kind {
                case .link(let href, _), .fragment(let href): text = "[\(text)](\(href))"
                case .asset(let path): text = "![\(text)](\(path))"
                case .text: break
                }
                return text
            }.joined()
            number = block.list == "ordered-list" ? number + 1 : 0
            switch block.kind {
            case "header": lines.append(String(repeating: "#", count: block.level) + " " + text)
            case "list-item": lines.append((block.list == "ordered-list" ? "\(number). " : "- ") + text)
            default: lines.append(text)
            }
        }
        return lines.joined(separator: "\n\n")
    }

    /// AEM's JSON form: an array of nodes with `nodeType` and `content`.
    var json: Map {
        var nodes: [Map] = []
        var index = 0
        while index < blocks.count {
            let block = blocks[index]
            guard let list = block.list else {
                nodes.append(Self.node(block))
                index += 1
                continue
            }
            // Consecutive items of one list are that list's content.
            var items: [Map] = []
            while index < blocks.count, blocks[index].list == list {
                items.append(Self.node(blocks[index]))
                index += 1
            }
            nodes.append(.dictionary(["nodeType": .string(list), "content": .array(items)]))
        }
        return .array(nodes)
    }

    private static func node(_ block: Block) -> Map {
        var node: OrderedMap = ["nodeType": .string(block.kind)]
        if block.kind == "header" { node["style"] = .string("h\(block.level)") }
        node["content"] = .array(
            block.runs.map { run in
                var text: OrderedMap = [:]
                switch run.kind {
                case .text:
                    text["nodeType"] = .string("text")
                case .link(let href, let target):
                    text["nodeType"] = .string("link")
                    var data: OrderedMap = ["href": .string(href)]
                    if let target { data["target"] = .string(target) }
                    text["data"] = .dictionary(data)
                case .fragment(let href):
                    text["nodeType"] = .string("reference")
                    text["data"] = .dictionary(["href": .string(href), "type": .string("fragment")])
                case .asset(let path):
                    text["nodeType"] = .string("reference")
                    text["data"] = .dictionary([
                        "path": .string(path),
                        "mimetype": .string(AEMGraphQLEngine.mimeType(AEMGraphQLEngine.fileExtension(ofPath: path))),
                    ])
                    return .dictionary(text)
                }
                text["value"] = .string(run.text)
                var format: [Map] = []
                if run.bold { format.append(.string("bold")) }
                if run.italic { format.append(.string("italic")) }
                if !format.isEmpty { text["format"] = .dictionary(["variants": .array(format)]) }
                return .dictionary(text)
            }
        )
        return .dictionary(node)
    }

    typealias OrderedMap = OrderedDictionary<String, Map>

    private static func parse(_ html: String) -> [Block] {
        var blocks: [Block] = []
        var lists: [String] = []
        var current = Block(kind: "paragraph", level: 0, runs: [])
        var bold = 0
        var italic = 0
        var link: Run.Kind = .text
        var text = ""
        func flushText() {
            let decoded = decodeEntities(text)
            text = ""
            guard !decoded.isEmpty else { return }
            current.runs.append(Run(text: decoded, bold: bold > 0, italic: italic > 0, kind: link))
        }
        func flushBlock(next kind: String = "paragraph", level: Int = 0) {
            flushText()
            let hasContent =
                current.runs.contains { $0.kind != .text }
                || !current.runs.map(\.text).joined().trimmingWhitespace().isEmpty
            if hasContent {
                current.runs = trimRuns(current.runs)
                blocks.append(current)
            }
            current = Block(kind: kind, level: level, list: kind == "list-item" ? lists.last : nil, runs: [])
        }
        var rest = Substring(html)
        while let open = rest.firstIndex(of: "<") {
            text += rest[..<open]
            guard let close = rest[open...].firstIndex(of: ">") else {
                text += rest[open...]
                rest = ""
                break
            }
            let rawTag = rest[rest.index(after: open)..<close]
            let tag = rawTag.lowercased()
            rest = rest[rest.index(after: close)...]
            let name = tag.split(whereSeparator: { $0 == " " || $0 == "/" }).first.map(String.init) ?? ""
            let closing = tag.hasPrefix("/")
            let closingName = closing ? String(tag.dropFirst()).trimmingWhitespace() : name
            switch closingName {
            case "p", "div", "li", "h1", "h2", "h3", "h4", "h5", "h6":
                if closing {
                    flushBlock()
                } else if closingName.hasPrefix("h") {
                    flushBlock(next: "header", level: Int(closingName.dropFirst()) ?? 1)
                } else {
                    flushBlock(next: closingName == "li" ? "list-item" : "paragraph")
                }
            case "ul", "ol":
                flushBlock()
                if closing {
                    _ = lists.popLast()
                } else {
                    lists.append(closingName == "ul" ? "unordered-list" : "ordered-list")
                }
            case "br":
                text += "\n"
            case "b", "strong":
                flushText()
                bold += closing ? -1 : 1
            case "i", "em":
                flushText()
                italic += closing ? -1 : 1
            case "a":
                flushText()
                if closing {
                    link = .text
                } else if let href = attribute("href", in: rawTag) {
                    let decoded = decodeEntities(href)
                    // A link to a DAM path without a file extension is a content fragment.
                    let file = decoded.split(separator: "/").last ?? ""
                    link =
                        decoded.hasPrefix("/content/dam/") && !file.contains(".")
                        ? .fragment(href: decoded) : .link(href: decoded, target: attribute("target", in: rawTag))
                }
            case "img":
                // An image from the DAM is a reference; one from elsewhere is not content AEM knows.
                if !closing, let source = attribute("src", in: rawTag).map(decodeEntities), isAsset(source) {
                    flushText()
                    current.runs.append(Run(text: "", kind: .asset(path: source)))
                }
            default:
                break
            }
        }
        text += rest
        flushBlock()
        return blocks
    }

    /// Whether a path names a DAM asset: under `/content/dam/`, with a file extension.
    static func isAsset(_ path: String) -> Bool {
        path.hasPrefix("/content/dam/") && (path.split(separator: "/").last?.contains(".") ?? false)
    }

    /// An attribute's value in a tag, quoted with `"` or `'`; names match whatever their case.
    private static func attribute(_ name: String, in tag: Substring) -> String? {
        for quote in ["\"", "'"] {
            for space in [" ", "\n", "\t"] {
                guard let range = tag.range(of: space + name + "=" + quote, options: .caseInsensitive) else { continue }
                let value = tag[range.upperBound...]
                return value.firstIndex(of: Character(quote)).map { String(value[..<$0]) }
            }
        }
        return nil
    }

    private static func trimRuns(_ runs: [Run]) -> [Run] {
        var runs = runs
        if var first = runs.first {
            first.text = String(first.text.drop { $0 == " " || $0 == "\n" })
            runs[0] = first
        }
        if var last = runs.last {
            while last.text.last == " " || last.text.last == "\n" { last.text.removeLast() }
            runs[runs.count - 1] = last
        }
        return runs.filter { !$0.text.isEmpty || $0.kind != .text }
    }

    /// The text with named and numeric character references decoded.
    ///
    /// One pass, so `&amp;lt;` is `&lt;`; `&nbsp;` is U+00A0, as AEM keeps it; anything else is left as written.
    static func decodeEntities(_ text: String) -> String {
        guard text.contains("&") else { return text }
        let named: [Substring: String] = [
            "amp": "&", "lt": "<", "gt": ">", "quot": "\"", "apos": "'", "nbsp": "\u{00A0}",
        ]
        var result = ""
        var rest = Substring(text)
        while let ampersand = rest.firstIndex(of: "&") {
            result += rest[..<ampersand]
            let after = rest[rest.index(after: ampersand)...]
            // A reference is short: at most 10 characters before its `;`.
            guard let semicolon = after.prefix(10).firstIndex(of: ";") else {
                result += "&"
                rest = after
                continue
            }
            let name = after[..<semicolon]
            var replacement: String?
            if let value = named[name] {
                replacement = value
            } else if name.hasPrefix("#x") || name.hasPrefix("#X"), let code = UInt32(name.dropFirst(2), radix: 16) {
                replacement = Unicode.Scalar(code).map { String(Character($0)) }
            } else if name.hasPrefix("#"), let code = UInt32(name.dropFirst()) {
                replacement = Unicode.Scalar(code).map { String(Character($0)) }
            }
            if let replacement {
                result += replacement
                rest = after[after.index(after: semicolon)...]
            } else {
                result += "&"
                rest = after
            }
        }
        return result + rest
    }
}

extension String {
    fileprivate func trimmingWhitespace() -> String {
        let scalars = unicodeScalars
        let start = scalars.firstIndex { !$0.properties.isWhitespace } ?? scalars.endIndex
        let end = scalars.lastIndex { !$0.properties.isWhitespace }.map(scalars.index(after:)) ?? start
        return String(scalars[start..<end])
    }
}
