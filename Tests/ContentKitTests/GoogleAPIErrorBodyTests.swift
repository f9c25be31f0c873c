import ContentCore
import Testing

@testable import ContentKit

/// What an error body shows when it has no message in either of Google's shapes: its first line.
struct GoogleAPIErrorBodyTests {
    private let redactor = Redactor(secrets: ["s3cr3t-token"])

    private func firstLine(_ text: String) -> String {
        GoogleAPIErrorBody.firstLine(of: Array(text.utf8), redactor: redactor)
    }

    @Test func theFirstLineThatIsNotEmptyWithoutItsCarriageReturn() {
        #expect(firstLine("upstream failed\nstack trace") == "upstream failed")
        // CRLF, as proxies and Java servers write: "\r\n" is one Character in Swift, so the line is cut by bytes.
        #expect(firstLine("502 Bad Gateway\r\nServer: proxy\r\n") == "502 Bad Gateway")
        #expect(firstLine("\r\n\n\r\nafter blank lines\r\n") == "after blank lines")
        #expect(firstLine("") == "")
        #expect(firstLine("\n\n") == "")
    }

    @Test func onlyTheFirst200BytesAreReadAndSecretsAreMasked() {
        let long = String(repeating: "x", count: 500)
        #expect(firstLine(long) == String(repeating: "x", count: 200))
        #expect(firstLine("denied for s3cr3t-token\nmore") == "denied for \(Redactor.mask)")
        // A UTF-8 sequence cut at byte 200 becomes a replacement character, never a crash.
        let cut = firstLine(String(repeating: "a", count: 199) + "é")
        #expect(cut.hasPrefix(String(repeating: "a", count: 199)) && cut.count == 200)
    }
}
