import Testing

@testable import ContentCore

struct RedactorTests {
    // MARK: - Known secrets in free text

    @Test func masksKnownSecretsWhereverTheyAppear() {
        let redactor = Redactor(secrets: ["hunter22", "tok-ABCDEF"])
        #expect(
            redactor.redact("login with hunter22, then tok-ABCDEF; again: hunter22.")
                == "login with <redacted>, then <redacted>; again: <redacted>.")
        #expect(redactor.redact("xhunter22x") == "x<redacted>x")
        #expect(redactor.redact("nothing secret here") == "nothing secret here")
        #expect(redactor.redact("") == "")
    }

    @Test func masksTheLongestSecretFirstSoOverlapsAreHiddenWhole() {
        // Given shortest first on purpose: masking `s3cr3t` first would leave `-token` showing.
        let redactor = Redactor(secrets: ["s3cr3t", "s3cr3t-token"])
        #expect(redactor.secrets == ["s3cr3t-token", "s3cr3t"])
        #expect(redactor.redact("a=s3cr3t-token b=s3cr3t") == "a=<redacted> b=<redacted>")
    }

    @Test func ignoresSecretsShorterThanFourCharacters() {
        let redactor = Redactor(secrets: ["a", "ab", "abc", "abcd"])
        #expect(redactor.secrets == ["abcd"])
        #expect(redactor.redact("a ab abc abcd") == "a ab abc <redacted>")
        #expect(Redactor(secrets: ["", "x"]).secrets.isEmpty)
    }

    @Test func duplicateSecretsAreKeptOnce() {
        #expect(Redactor(secrets: ["same-secret", "same-secret"]).secrets == ["same-secret"])
    }

    @Test func addingMasksTheNewSecretsAsWell() {
        let redactor = Redactor(secrets: ["first-secret"]).adding(["second-secret", "no"])
        #expect(Set(redactor.secrets) == ["first-secret", "second-secret"])
        #expect(redactor.redact("first-secret second-secret no") == "<redacted> <redacted> no")
        #expect(Redactor().redact("first-secret") == "first-secret")
    }

    // MARK: - Headers

    @Test func credentialHeadersKeepTheirAuthScheme() {
        let redactor = Redactor()
        #expect(redactor.redactHeader(name: "Authorization", value: "Bearer eyJhbGciOi.abc.def") == "Bearer <redacted>")
        #expect(redactor.redactHeader(name: "Authorization", value: "Basic dXNlcjpwYXNz") == "Basic <redacted>")
        #expect(redactor.redactHeader(name: "Authorization", value: "bearer abc") == "bearer <redacted>")
        #expect(redactor.redactHeader(name: "Authorization", value: "Token abc") == "Token <redacted>")
        #expect(
            redactor.redactHeader(name: "Proxy-Authorization", value: "Digest username=\"u\", response=\"r\"")
                == "Digest <redacted>")
    }

    @Test func credentialHeadersWithoutAKnownSchemeAreMaskedWhole() {
        let redactor = Redactor()
        #expect(redactor.redactHeader(name: "Authorization", value: "rawtoken") == "<redacted>")
        #expect(redactor.redactHeader(name: "Authorization", value: "Custom abc def") == "<redacted>")
        #expect(redactor.redactHeader(name: "X-Api-Key", value: "12345") == "<redacted>")
        #expect(redactor.redactHeader(name: "Cookie", value: "session=abc; theme=dark") == "<redacted>")
        #expect(redactor.redactHeader(name: "Set-Cookie", value: "session=abc; HttpOnly") == "<redacted>")
        #expect(redactor.redactHeader(name: "x-goog-api-key", value: "AIzaSy") == "<redacted>")
    }

    @Test func headerNamesCompareWithoutCase() {
        let redactor = Redactor()
        #expect(redactor.redactHeader(name: "AUTHORIZATION", value: "Bearer abc") == "Bearer <redacted>")
        #expect(redactor.redactHeader(name: "authorization", value: "Bearer abc") == "Bearer <redacted>")
        #expect(redactor.redactHeader(name: "x-API-key", value: "k") == "<redacted>")
        #expect(Redactor.isSensitiveHeader("Proxy-Authorization"))
        #expect(Redactor.isSensitiveHeader("COOKIE"))
        #expect(!Redactor.isSensitiveHeader("Content-Type"))
        #expect(!Redactor.isSensitiveHeader("Authorization-Hint"))
    }

    @Test func otherHeadersAreShownExceptForKnownSecretsInside() {
        let redactor = Redactor(secrets: ["supersecret"])
        #expect(redactor.redactHeader(name: "Accept", value: "application/json") == "application/json")
        #expect(redactor.redactHeader(name: "X-Debug", value: "token=supersecret; v=1") == "token=<redacted>; v=1")
        #expect(redactor.redactHeader(name: "User-Agent", value: "content/1.0") == "content/1.0")
    }

    // MARK: - URLs

    @Test func passwordInUserInfoIsMaskedAndTheUserKept() {
        let redactor = Redactor()
        #expect(
            redactor.redact(url: "https://alice:pa55w0rd@example.com/path?q=1")
                == "https://alice:<redacted>@example.com/path?q=1")
        #expect(redactor.redact(url: "ftp://bob:x@host:21") == "ftp://bob:<redacted>@host:21")
    }

    @Test func passwordHoldingAnAtSignIsMaskedWhole() {
        // The authority ends at the last `@`, so everything between the first `:` and it is the password.
        #expect(
            Redactor().redact(url: "https://alice:p@ss@example.com/") == "https://alice:<redacted>@example.com/")
    }

    @Test func anAtSignInThePathIsNotUserInfo() {
        #expect(
            Redactor().redact(url: "https://example.com/users/@alice:1") == "https://example.com/users/@alice:1")
    }

    @Test func sensitiveQueryParametersAreMasked() {
        let url = "https://api.example.com/v1/items?key=AIzaSyABC&page=2&access_token=tok123&token=t0k&api_key=k3y&q=hi"
        #expect(
            Redactor().redact(url: url)
                == "https://api.example.com/v1/items?key=<redacted>&page=2&access_token=<redacted>"
                + "&token=<redacted>&api_key=<redacted>&q=hi")
    }

    @Test func queryParameterNamesCompareWithoutCaseAndPercentEncoding() {
        let redactor = Redactor()
        #expect(redactor.redact(url: "https://h/p?api%5Fkey=zzz&x=1") == "https://h/p?api%5Fkey=<redacted>&x=1")
        #expect(redactor.redact(url: "https://h/p?API_KEY=zzz") == "https://h/p?API_KEY=<redacted>")
        #expect(redactor.redact(url: "https://h/p?Access%5Ftoken=zzz") == "https://h/p?Access%5Ftoken=<redacted>")
    }

    @Test func otherQueryParametersAndTheFragmentAreKept() {
        let redactor = Redactor()
        #expect(
            redactor.redact(url: "https://h/search?q=token&page=2&sort=key#results")
                == "https://h/search?q=token&page=2&sort=key#results")
        #expect(redactor.redact(url: "https://h/p?token=abc#top") == "https://h/p?token=<redacted>#top")
        #expect(redactor.redact(url: "https://h/p?x=1&&token=abc&") == "https://h/p?x=1&&token=<redacted>&")
    }

    @Test func malformedURLIsStillRedacted() {
        let redactor = Redactor()
        #expect(redactor.redact(url: "not a url?token=abc&b=2") == "not a url?token=<redacted>&b=2")
        #expect(
            redactor.redact(url: "ht!tp://us er:p w@host name/a b?password=hunter2")
                == "ht!tp://us er:<redacted>@host name/a b?password=<redacted>")
    }

    @Test func knownSecretsAreMaskedAnywhereInAURL() {
        let redactor = Redactor(secrets: ["abcd1234"])
        #expect(
            redactor.redact(url: "https://h/items/abcd1234/x?id=abcd1234")
                == "https://h/items/<redacted>/x?id=<redacted>")
    }

    @Test func urlWithoutCredentialsIsUnchanged() {
        let url = "https://example.com:8443/a/b?c=d&e=f#g"
        #expect(Redactor().redact(url: url) == url)
    }

    // MARK: - Secret

    @Test func secretNeverPrintsItsValue() {
        let secret = Secret("hunter22-value")
        #expect(secret.value == "hunter22-value")
        #expect(secret.description == "<redacted>")
        #expect(secret.debugDescription == "<redacted>")
        #expect("\(secret)" == "<redacted>")
        #expect(String(describing: secret) == "<redacted>")
        #expect(String(reflecting: secret) == "<redacted>")
        #expect("\([secret])" == "[<redacted>]")
        #expect(!"\(secret)".contains("hunter22"))
        var printed = ""
        print(secret, to: &printed)
        #expect(printed == "<redacted>\n")
    }
}
