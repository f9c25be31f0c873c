internal import ContentDataConnect
internal import ContentJSON
internal import Foundation
internal import OrderedCollections

/// Who is calling, read from `X-Firebase-Auth-Token`.
///
/// Like Firebase's own emulator, the token is not verified: its payload is decoded and trusted. That is
/// only acceptable on a developer's machine, which is why `content serve` says so when it starts.
struct AuthContext: Sendable {
    /// The token's claims; empty when there is no token.
    var claims: JSONObject
    /// Whether a token came with the request.
    var hasToken: Bool

    static let anonymous = AuthContext(claims: JSONObject(), hasToken: false)

    /// `sub`, or Firebase's `user_id`.
    var uid: String? {
        claims["sub"]?.stringValue ?? claims["user_id"]?.stringValue
    }

    var emailVerified: Bool {
        claims["email_verified"] == .bool(true)
    }

    var signInProvider: String? {
        claims["firebase"]?["sign_in_provider"]?.stringValue
    }

    struct MalformedToken: Error, CustomStringConvertible {
        let description: String
    }

    /// Reads a JWT's payload without checking its signature.
    ///
    /// - Parameter header: The header's value, or `nil`.
    /// - Throws: ``MalformedToken`` when it is not a JWT with a JSON object payload.
    init(header: String?) throws {
        guard let header = header?.trimmingCharacters(in: .whitespaces), !header.isEmpty else {
            self = .anonymous
            return
        }
        let token = header.hasPrefix("Bearer ") ? String(header.dropFirst(7)) : header
        let parts = token.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3 || parts.count == 2, let payload = Self.base64URL(String(parts[1])),
            case .object(let claims)? = try? JSONParser().parse(Array(payload))
        else {
            throw MalformedToken(
                description: "X-Firebase-Auth-Token is not a JWT with a JSON payload (header.payload.signature)")
        }
        try Self.check(claims, now: Date())
        self.init(claims: claims, hasToken: true)
    }

    /// The claim checks Firebase makes of an ID token besides its signature: a `sub` that is a non-empty string of
    /// at most 128 characters, and an `exp` in the future.
    ///
    /// Sources disagree on `exp`: the Admin SDK (firebase-admin-node `src/auth/token-verifier.ts`: "has expired",
    /// "has an empty \"sub\" (subject) claim", "longer than 128 characters") and Firebase's documentation ("exp:
    /// Must be in the future", "sub: Must be a non-empty string") refuse an expired token, also when pointed at
    /// the emulators; the Auth emulator's own endpoints never expire a token by time (firebase-tools
    /// `src/emulator/auth/operations.ts`). Services verify as the Admin SDK does, so this does too.
    ///
    /// - Parameters:
    ///   - claims: The token's payload.
    ///   - now: The time to compare `exp` with.
    /// - Throws: ``MalformedToken`` naming the claim.
    static func check(_ claims: JSONObject, now: Date) throws {
        let subject = claims["sub"] ?? claims["user_id"]
        guard case .string(let uid)? = subject else {
            throw MalformedToken(description: "X-Firebase-Auth-Token has no \"sub\" (subject) claim")
        }
        guard !uid.isEmpty else {
            throw MalformedToken(description: "X-Firebase-Auth-Token has an empty \"sub\" (subject) claim")
        }
        guard uid.count <= 128 else {
            throw MalformedToken(
                description: "X-Firebase-Auth-Token has a \"sub\" (subject) claim longer than 128 characters")
        }
        if let exp = claims["exp"] {
            guard case .number(let number) = exp, let seconds = number.doubleValue else {
                throw MalformedToken(description: "X-Firebase-Auth-Token has an \"exp\" claim that is not a number")
            }
            guard seconds > now.timeIntervalSince1970 else {
                throw MalformedToken(
                    description: "X-Firebase-Auth-Token has expired; get a fresh ID token from the client and retry")
            }
        }
    }

    init(claims: JSONObject, hasToken: Bool) {
        self.claims = claims
        self.hasToken = hasToken
    }

    static func base64URL(_ text: String) -> Data? {
        var base64 = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        while base64.count % 4 != 0 { base64.append("=") }
        return Data(base64Encoded: base64)
    }

    /// Whether the caller meets a level.
    func satisfies(_ level: AuthPolicy.Level) -> Bool {
        switch level {
        case .public: return true
        case .userAnonymous: return uid != nil
        case .user: return uid != nil && signInProvider != "anonymous"
        case .userEmailVerified: return uid != nil && emailVerified
        case .noAccess: return false
        }
    }

    /// `auth` as CEL expressions see it: `null` without a token, else `{uid, token}`.
    var expressionValue: JSONValue {
        guard let uid else { return .null }
        return .object(["uid": .string(uid), "token": .object(claims)])
    }
}
