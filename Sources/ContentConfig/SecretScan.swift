internal import ContentCore
internal import ContentYAML
internal import Foundation

/// Finds the secrets in a backend section by key name, without knowing the plugin's schema.
///
/// A key whose name says credential (`token`, `password`, `clientSecret`, `apiKey`, …) holds a secret;
/// its interpolated value is collected for redaction, and when it is written inline rather than as
/// `${VAR}` its place is noted for the permission warning. `tokenFile`-style keys name a file whose
/// contents are the secret.
struct SecretScan {
    let decoder: YAMLDecoder
    let file: String
    let baseDirectory: String
    private(set) var secrets: [String] = []
    private(set) var inlineSecrets: [InlineSecret] = []
    /// The environment variable each secret value came from, when its scalar is just `${VAR}` (or `${VAR:-…}`).
    private(set) var variables: [String: String] = [:]

    init(decoder: YAMLDecoder, file: String, baseDirectory: String) {
        self.decoder = decoder
        self.file = file
        self.baseDirectory = baseDirectory
    }

    private static let secretWords = [
        "token", "password", "passwd", "secret", "apikey", "api_key", "credential", "passphrase",
    ]

    static func isSecretKey(_ key: String) -> Bool {
        let lowered = key.lowercased()
        if lowered.hasSuffix("command") || lowered.hasSuffix("url") { return false }
        return lowered.hasSuffix("key") || secretWords.contains { lowered.contains($0) }
    }

    mutating func visit(_ node: YAMLNode, path: [String]) {
        switch node.kind {
        case .scalar:
            break
        case .sequence(let items):
            for item in items { visit(item, path: path) }
        case .mapping(let entries):
            for entry in entries {
                let entryPath = path + [entry.key]
                guard case .scalar(let scalar) = entry.value.kind, !scalar.isNull else {
                    visit(entry.value, path: entryPath)
                    continue
                }
                guard Self.isSecretKey(entry.key) else { continue }
                let value = try? decoder.decode(String.self, from: entry.value, file: file)
                if entry.key.lowercased().hasSuffix("file") {
                    if let value, let contents = readSecretFile(value) { secrets.append(contents) }
                    continue
                }
                if let value, !value.isEmpty {
                    secrets.append(value)
                    if let variable = Self.variableName(scalar.value) { variables[value] = variable }
                }
                // Single-quoted scalars are literal, so `'${TOKEN}'` is an inline secret too.
                let interpolated = scalar.style != .singleQuoted && scalar.value.contains("${")
                if !interpolated, !scalar.value.isEmpty {
                    inlineSecrets.append(
                        InlineSecret(keyPath: entryPath.joined(separator: "."), key: entry.key, mark: entry.value.mark)
                    )
                }
            }
        }
    }

    /// `VAR` of a scalar that is exactly `${VAR}` or `${VAR:-default}`.
    static func variableName(_ text: String) -> String? {
        guard text.hasPrefix("${"), text.hasSuffix("}") else { return nil }
        let inner = text.dropFirst(2).dropLast()
        let name = inner.prefix { $0.isLetter || $0.isNumber || $0 == "_" }
        guard !name.isEmpty, name.count == inner.count || inner.dropFirst(name.count).hasPrefix(":-") else {
            return nil
        }
        return String(name)
    }

    private func readSecretFile(_ path: String) -> String? {
        let resolved = path.hasPrefix("/") ? path : (baseDirectory as NSString).appendingPathComponent(path)
        // Unusable files are the backend's to report; here only what can be masked matters.
        guard let text = try? SmallTextFile.read(resolved), !text.isEmpty else { return nil }
        return text
    }
}

/// A secret written into the file itself.
struct InlineSecret {
    var keyPath: String
    var key: String
    var mark: YAMLMark

    /// The variable name to suggest instead: `clientSecret` → `CLIENT_SECRET`.
    var suggestedVariable: String {
        var name = ""
        for character in key {
            if character.isUppercase, !name.isEmpty { name += "_" }
            name += character.isLetter || character.isNumber ? character.uppercased() : "_"
        }
        return name
    }
}
