internal import Foundation

/// Python's `cryptography` package, an RSA and JWT-signature implementation independent of swift-crypto, to check
/// that what one side signs the other verifies.
public enum PythonCryptography {
    /// Whether `python3` with `cryptography` is here; when not, says so on stdout (the test then checks less).
    public static let isAvailable: Bool = {
        let result = run("import cryptography", arguments: [])
        if result?.status != 0 {
            print("note: python3 with the cryptography package is missing; JWTs are not checked by an independent peer")
            return false
        }
        return true
    }()

    /// Runs a Python script with arguments.
    ///
    /// - Returns: The exit status and stdout, or `nil` when python3 cannot be started.
    public static func run(_ script: String, arguments: [String], stdin: String? = nil) -> (
        status: Int32, stdout: String
    )? {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-c", script] + arguments
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        let input = Pipe()
        process.standardInput = input
        do { try process.run() } catch { return nil }
        if let stdin { input.fileHandleForWriting.write(Data(stdin.utf8)) }
        try? input.fileHandleForWriting.close()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }

    /// Verifies an RS256 JWT against a PEM public key and prints its claims as sorted JSON.
    public static let verifyRS256 = """
        import base64, json, sys
        from cryptography.hazmat.primitives import hashes, serialization
        from cryptography.hazmat.primitives.asymmetric import padding
        def part(text):
            return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))
        key = serialization.load_pem_public_key(open(sys.argv[1], "rb").read())
        token = sys.stdin.read().strip()
        header, claims, signature = token.split(".")
        assert json.loads(part(header)) == {"alg": "RS256", "typ": "JWT"}, part(header)
        key.verify(part(signature), (header + "." + claims).encode(), padding.PKCS1v15(), hashes.SHA256())
        print(json.dumps(json.loads(part(claims)), sort_keys=True))
        """

    /// Signs claims (JSON on stdin) as an RS256 JWT with a PEM private key, as Adobe's own libraries do.
    public static let signRS256 = """
        import base64, json, sys
        from cryptography.hazmat.primitives import hashes, serialization
        from cryptography.hazmat.primitives.asymmetric import padding
        def encode(data):
            return base64.urlsafe_b64encode(data).rstrip(b"=").decode()
        key = serialization.load_pem_private_key(sys.argv[1].encode(), password=None)
        claims = json.loads(sys.stdin.read())
        head = encode(json.dumps({"alg": "RS256", "typ": "JWT"}).encode())
        body = encode(json.dumps(claims).encode())
        signature = key.sign((head + "." + body).encode(), padding.PKCS1v15(), hashes.SHA256())
        print(head + "." + body + "." + encode(signature))
        """
}
