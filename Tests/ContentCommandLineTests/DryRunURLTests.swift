import ContentCommandLine
import ContentCore
import Testing

/// The URL word of a `--dry-run` curl command holds no secret, wherever in the URL it is.
struct DryRunURLTests {
    @Test func everyCredentialNamedQueryParameterIsMaskedNotOnlyTheFirst() {
        let word = dryRunURL("http://h/x?a=1&token=first-secret&b=2&key=second-secret#access_token=third-secret")
        for secret in ["first-secret", "second-secret", "third-secret"] { #expect(!word.contains(secret), "\(word)") }
        #expect(word.contains("a=1&token=<redacted>&b=2&key=<redacted>"), "\(word)")
    }

    @Test func placeholdersStayVariablesAndAPasswordBecomesOne() {
        #expect(dryRunURL("http://h/x?key=$FIREBASE_API_KEY") == #"'http://h/x?key='"$FIREBASE_API_KEY""#)
        #expect(dryRunURL("http://admin:pw@h/x") == #"'http://admin:'"$URL_PASSWORD"'@h/x'"#)
    }
}
