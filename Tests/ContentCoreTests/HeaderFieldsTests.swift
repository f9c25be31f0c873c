import Testing

@testable import ContentCore

/// The fields as `name: value` lines, in order.
private func lines(_ headers: HeaderFields) -> [String] {
    headers.map { "\($0.name): \($0.value)" }
}

struct HeaderFieldsTests {
    @Test func getIgnoresTheCaseOfTheName() {
        let headers: HeaderFields = ["Content-Type": "application/json", "X-Trace": "abc"]
        #expect(headers["content-type"] == "application/json")
        #expect(headers["CONTENT-TYPE"] == "application/json")
        #expect(headers["x-trace"] == "abc")
        #expect(headers["Accept"] == nil)
    }

    @Test func getReturnsTheFirstOfSeveralFields() {
        var headers = HeaderFields()
        headers.append(name: "Set-Cookie", value: "a=1")
        headers.append(name: "set-cookie", value: "b=2")
        #expect(headers["SET-COOKIE"] == "a=1")
    }

    @Test func appendKeepsDuplicatesInOrder() {
        var headers: HeaderFields = ["Accept": "text/html"]
        headers.append(name: "accept", value: "application/json")
        headers.append(name: "X-Other", value: "1")
        #expect(lines(headers) == ["Accept: text/html", "accept: application/json", "X-Other: 1"])
        #expect(headers.fields.count == 3)
    }

    @Test func setReplacesEveryFieldOfThatName() {
        var headers: HeaderFields = ["Accept": "a", "X-Keep": "k"]
        headers.append(name: "ACCEPT", value: "b")
        headers["accept"] = "c"
        #expect(lines(headers) == ["X-Keep: k", "accept: c"])
        #expect(headers["Accept"] == "c")
    }

    @Test func setAddsANewName() {
        var headers: HeaderFields = ["A": "1"]
        headers["B"] = "2"
        #expect(lines(headers) == ["A: 1", "B: 2"])
    }

    @Test func setNilAndRemoveDropEveryFieldOfThatName() {
        var headers: HeaderFields = ["Cookie": "a", "Host": "h"]
        headers.append(name: "cookie", value: "b")
        headers["COOKIE"] = nil
        #expect(lines(headers) == ["Host: h"])
        headers.append(name: "X-A", value: "1")
        headers.append(name: "x-a", value: "2")
        headers.remove("X-a")
        #expect(lines(headers) == ["Host: h"])
        headers.remove("missing")
        #expect(lines(headers) == ["Host: h"])
    }

    @Test func literalAndInitializerKeepOrder() {
        let fromLiteral: HeaderFields = ["B": "2", "A": "1"]
        let fromFields = HeaderFields([.init(name: "B", value: "2"), .init(name: "A", value: "1")])
        #expect(fromLiteral == fromFields)
        #expect(lines(fromLiteral) == ["B: 2", "A: 1"])
        #expect(HeaderFields().fields.isEmpty)
    }
}

struct HTTPTransportRequestTests {
    @Test(arguments: [
        HTTPTransportRequest.Method.get, .head, .put, .delete, .options,
    ])
    func safeAndIdempotentMethodsAreIdempotent(method: HTTPTransportRequest.Method) {
        #expect(method.isIdempotent)
    }

    @Test(arguments: [HTTPTransportRequest.Method.post, .patch, .init(rawValue: "PROPFIND")])
    func otherMethodsAreNot(method: HTTPTransportRequest.Method) {
        #expect(!method.isIdempotent)
    }

    @Test func methodNamesAreUpperCased() {
        #expect(HTTPTransportRequest.Method(rawValue: "get") == .get)
        #expect(HTTPTransportRequest.Method(rawValue: "Delete").isIdempotent)
        #expect(HTTPTransportRequest.Method(rawValue: "post").description == "POST")
    }

    @Test func retryableDefaultsToTheMethodsIdempotency() {
        #expect(HTTPTransportRequest(url: "https://h/").isRetryable)
        #expect(HTTPTransportRequest(method: .get, url: "https://h/").isRetryable)
        #expect(HTTPTransportRequest(method: .put, url: "https://h/").isRetryable)
        #expect(!HTTPTransportRequest(method: .post, url: "https://h/").isRetryable)
        #expect(!HTTPTransportRequest(method: .patch, url: "https://h/").isRetryable)
    }

    @Test func retryableCanBeOverridden() {
        // A GraphQL query sent as POST is safe to repeat; a GET that starts a job is not.
        #expect(HTTPTransportRequest(method: .post, url: "https://h/graphql", isRetryable: true).isRetryable)
        #expect(!HTTPTransportRequest(method: .get, url: "https://h/start", isRetryable: false).isRetryable)
    }

    @Test func requestDefaultsToAGetWithNoHeadersOrBody() {
        let request = HTTPTransportRequest(url: "https://h/")
        #expect(request.method == .get)
        #expect(request.headers.fields.isEmpty)
        #expect(request.body == nil)
    }

    @Test(arguments: [(200, true), (204, true), (299, true), (199, false), (300, false), (404, false), (500, false)])
    func successMeansA2xxStatus(status: Int, isSuccess: Bool) {
        #expect(HTTPTransportResponse(status: status, url: "https://h/").isSuccess == isSuccess)
    }
}
