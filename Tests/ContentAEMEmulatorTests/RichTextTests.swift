import ContentGraphQL
import ContentJSON
import GraphQL
import Testing

@testable import ContentAEMEmulator

/// Multi-line text in AEM's four forms, from the HTML an author writes.
struct RichTextTests {
    @Test func plainTextSeparatesParagraphsWithABlankLine() {
        let text = RichText(html: "<h2>Gear</h2><p>Boots and <b>skins</b>.</p><p>Then go.</p>")
        #expect(text.plaintext == "Gear\n\nBoots and skins.\n\nThen go.")
        #expect(text.markdown == "## Gear\n\nBoots and **skins**.\n\nThen go.")
    }

    @Test func listsKeepTheirWrappersInJSONAndNumbersInMarkdown() {
        let text = RichText(html: "<ul><li>Boots</li><li>Skins</li></ul><ol><li>Climb</li><li>Ski</li></ol><p>End</p>")
        let nodes = GraphQLJSON.json(text.json)
        #expect(
            nodes.arrayValue?.compactMap { $0["nodeType"]?.stringValue } == [
                "unordered-list", "ordered-list", "paragraph",
            ])
        #expect(
            nodes.at(0)?["content"]?.arrayValue?.compactMap { $0["nodeType"]?.stringValue } == [
                "list-item", "list-item",
            ])
        #expect(nodes.at(1)?["content"]?.at(1)?["content"]?.at(0)?["value"] == .string("Ski"))
        #expect(text.markdown == "- Boots\n\n- Skins\n\n1. Climb\n\n2. Ski\n\nEnd")
    }

    @Test func linksKeepTheirTargetAndDAMPathsAreReferences() {
        let text = RichText(
            html: #"<p><a href="https://example.com/a?x=1&amp;y=2" target="_blank">site</a> and "#
                + #"<a HREF='/content/dam/wknd/en/magazine/guide'>Guide</a><img src="/content/dam/wknd/pic.jpg"></p>"#)
        let content = GraphQLJSON.json(text.json).at(0)?["content"]?.arrayValue ?? []
        #expect(content.first?["nodeType"] == .string("link"))
        #expect(content.first?["data"]?["href"] == .string("https://example.com/a?x=1&y=2"))
        #expect(content.first?["data"]?["target"] == .string("_blank"))
        let fragment = content.first { $0["data"]?["type"] == .string("fragment") }
        #expect(fragment?["nodeType"] == .string("reference"))
        #expect(fragment?["data"]?["href"] == .string("/content/dam/wknd/en/magazine/guide"))
        #expect(fragment?["value"] == .string("Guide"))
        let image = content.last
        #expect(image?["nodeType"] == .string("reference"))
        #expect(image?["data"]?["path"] == .string("/content/dam/wknd/pic.jpg"))
        #expect(image?["data"]?["mimetype"] == .string("image/jpeg"))
        #expect(text.references == ["/content/dam/wknd/en/magazine/guide", "/content/dam/wknd/pic.jpg"])
    }

    @Test func entitiesAreDecodedOnceAndNonBreakingSpacesKept() {
        #expect(RichText.decodeEntities("a&nbsp;b") == "a\u{00A0}b")
        #expect(RichText.decodeEntities("&amp;lt;") == "&lt;")
        #expect(RichText.decodeEntities("it&#8217;s &#x1F600;") == "it\u{2019}s \u{1F600}")
        #expect(RichText.decodeEntities("&bogus; & &#xD800; &") == "&bogus; & &#xD800; &")
    }
}

extension JSONValue {
    /// An array's element, or `nil` past its end.
    func at(_ index: Int) -> JSONValue? {
        guard let elements = arrayValue, elements.indices.contains(index) else { return nil }
        return elements[index]
    }
}
