import ContentEmulator
import HTTPTypes
import Hummingbird
import NIOCore
import Testing

/// Which `Content-Type` values declare JSON: `application/json` and any `application/…+json`, whatever the case,
/// parameters or surrounding blanks.
struct DeclaredMediaTypeTests {
    static func request(contentType: String?) -> Request {
        var fields = HTTPFields()
        if let contentType { fields[.contentType] = contentType }
        return Request(
            head: HTTPRequest(method: .post, scheme: "http", authority: "localhost", path: "/", headerFields: fields),
            body: RequestBody(buffer: ByteBuffer()))
    }

    @Test(arguments: [
        ("application/json", true),
        ("Application/JSON; charset=utf-8", true),
        ("  application/json\t", true),
        ("application/json ;charset=utf-8", true),
        ("application/graphql-response+json", true),
        ("APPLICATION/VND.API+JSON", true),
        ("text/json", false),
        ("application/jsonx", false),
        ("application/json5", false),
        ("application/x-www-form-urlencoded", false),
        ("json", false),
        ("", false),
        ("; application/json", false),
    ])
    func aContentTypeDeclaresJSONOrNot(_ value: String, _ declares: Bool) {
        #expect(Self.request(contentType: value).declaresJSON == declares, "\(value)")
    }

    @Test func noContentTypeDeclaresNothing() {
        #expect(!Self.request(contentType: nil).declaresJSON)
    }
}
