internal import GraphQL
internal import OrderedCollections

/// The four forms AEM serves a multi-line text field in, made from the HTML an author wrote.
///
/// A deliberately small HTML reader: block elements (`p`, `h1`–`h6`, `li`, `div`) become blocks,
/// `b`/`strong`, `i`/`em` and `a` are kept as inline marks, entities are decoded, anything else is text.
struct RichText {
    struct Block {
        var kind: String  // paragraph, header, list-item
        var level: Int
        var runs: [Run]
    }

    struct Run {
        var text: String
        var bold = false
        var italic = false
        var link: String?
    }

    let html: String
    let blocks: [Block]

    init(html: String) {
        self.html = html
        blocks = Self.parse(html)
    }

    var plaintext: String {
        blocks.map { $0.runs.map(\.text).joined() }.joined(separator: "\n")
    }

    var markdown: String {
        blocks.map { block in
            let text = block.runs.map { run -> String in
                var text = run.text
                if run.bold { text = "**\(text)**" }
                if run.italic { text = "*\(text)*" }
                if let link = run.link { text = "[\(text)](\(link))" }
                return text
            }.joined()
            switch block.kind {
            case "header": return String(repeating: "#", count: block.level) + " " + text
            case "list-item": return "- " + text
            default: return text
            }
        }.joined(separator: "\n\n")
    }

    /// AEM's JSON form: an array of nodes with `nodeType` and `content`.
    var json: Map {
        .array(
            blocks.map { block in
                var node: OrderedMap = ["nodeType": .string(block.kind)]
                if block.kind == "header" { node["style"] = .string("h\(block.level)") }
                node["content"] = .array(
                    block.runs.map { run in
                        var text: OrderedMap = ["nodeType": .string(run.link == nil ? "text" : "link")]
                        if let link = run.link { text["data"] = .dictionary(["href": .string(link)]) }
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
        )
    }

    typealias OrderedMap = OrderedDictionary<String, Map>

    private static func parse(_ html: String) -> [Block] {
        var blocks: [Block] = []
        var current = Block(kind: "paragraph", level: 0, runs: [])
        var bold = 0
        var italic = 0
        var link: String?
        var text = ""
        func flushText() {
            let decoded = decodeEntities(text)
            text = ""
            guard !decoded.isEmpty else { return }
            current.runs.append(Run(text: decoded, bold: bold > 0, italic: italic > 0, link: link))
        }
        func flushBlock(next kind: String = "paragraph", level: Int = 0) {
            flushText()
            let joined = current.runs.map(\.text).joined().trimmingWhitespace()
            if !joined.isEmpty {
                current.runs = trimRuns(current.runs)
                blocks.append(current)
            }
            current = Block(kind: kind, level: level, runs: [])
        }
        var rest = Substring(html)
        while let open = rest.firstIndex(of: "<") {
            text += rest[..<open]
            guard let close = rest[open...].firstIndex(of: ">") else {
                text += rest[open...]
                rest = ""
                break
            }
            let tag = rest[rest.index(after: open)..<close].lowercased()
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
                    link = nil
                } else if let hrefRange = tag.firstRange(of: "href=\"") {
                    let value = tag[hrefRange.upperBound...]
                    link = value.firstIndex(of: "\"").map { String(value[..<$0]) }
                }
            default:
                break
            }
        }
        text += rest
        flushBlock()
        return blocks
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
        return runs.filter { !$0.text.isEmpty }
    }

    private static func decodeEntities(_ text: String) -> String {
        guard text.contains("&") else { return text }
        let named = [
            "&amp;": "&", "&lt;": "<", "&gt;": ">", "&quot;": "\"", "&#39;": "'", "&apos;": "'", "&nbsp;": " ",
        ]
        var result = text
        for (entity, value) in named { result = result.replacing(entity, with: value) }
        return result
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
