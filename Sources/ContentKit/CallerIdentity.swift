internal import ContentCore
internal import ContentJSON
internal import Foundation

/// Who an ID token says the caller is, for keeping one user's cached answers from another's.
enum CallerIdentity {
    /// The token's `user_id` (Firebase's claim) or `sub`, read without checking the signature (the service checks
    /// it); for a token that is not a readable JWT, a hash of it, so that the token itself is never kept.
    static func uid(ofIDToken token: String) -> String {
        let parts = token.split(separator: ".", omittingEmptySubsequences: false)
        if parts.count == 3 {
            var base64 = parts[1].replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
            base64 += String(repeating: "=", count: (4 - base64.count % 4) % 4)
            if let payload = Data(base64Encoded: base64), let claims = try? JSONParser().parse(Array(payload)),
                let uid = claims["user_id"]?.stringValue ?? claims["sub"]?.stringValue
            {
                return "uid:" + uid
            }
        }
        return token.isEmpty ? "" : "token:" + StableHash.hex(token)
    }
}
