package import ContentCore
package import Foundation
internal import Logging

/// Persisted-query responses kept on disk, honouring `Cache-Control: max-age` and revalidated with
/// `If-None-Match`, as a browser would.
///
/// Entries live under `$XDG_CACHE_HOME/content/aem/` (default `~/.cache/content/aem/`), one file per
/// URL and credential, readable by the user only. `no-store` and `private` responses are not kept.
package struct ResponseCache: Sendable {
    package let directory: URL
    /// Who the responses are for when no `Authorization` header says it (a token added below the cache).
    package var identity = ""

    package struct Entry: Codable {
        var etag: String?
        var expires: Double
        var contentType: String?
        var body: Data
    }

    /// The cache the environment names, or nil when there is no home to put it in.
    package static func standard(environment: [String: String]) -> ResponseCache? {
        if let xdg = environment["XDG_CACHE_HOME"], xdg.hasPrefix("/") {
            return ResponseCache(directory: URL(fileURLWithPath: xdg).appendingPathComponent("content/aem"))
        }
        guard let home = environment["HOME"], !home.isEmpty else { return nil }
        return ResponseCache(directory: URL(fileURLWithPath: home).appendingPathComponent(".cache/content/aem"))
    }

    /// The file for a request: the URL and the credential, so users never see each other's answers.
    package func file(for request: HTTPTransportRequest) -> URL {
        let identity =
            request.url + "\n" + (request.headers["Authorization"] ?? "")
            + (self.identity.isEmpty ? "" : "\n" + self.identity)
        return directory.appendingPathComponent(StableHash.hex(identity) + ".json")
    }

    package func load(_ request: HTTPTransportRequest) -> Entry? {
        guard let data = FileManager.default.contents(atPath: file(for: request).path) else { return nil }
        return try? JSONDecoder().decode(Entry.self, from: data)
    }

    package func store(_ entry: Entry, for request: HTTPTransportRequest) {
        guard let data = try? JSONEncoder().encode(entry) else { return }
        let target = file(for: request)
        try? FileManager.default.createDirectory(
            at: directory,
            withIntermediateDirectories: true,
            attributes: [.posixPermissions: 0o700]
        )
        // A cache that cannot be written is only slower, never wrong.
        _ = FileManager.default.createFile(atPath: target.path, contents: data, attributes: [.posixPermissions: 0o600])
    }

    /// Seconds a response may be reused, from `Cache-Control`; nil when it must not be kept.
    package static func lifetime(_ cacheControl: String?) -> Double? {
        guard let cacheControl else { return nil }
        var maxAge: Double?
        for directive in cacheControl.lowercased().split(separator: ",") {
            let parts = directive.trimmingCharacters(in: .whitespaces).split(separator: "=", maxSplits: 1)
            switch parts.first {
            case "no-store", "private": return nil
            case "max-age": maxAge = parts.count == 2 ? Double(parts[1]) : nil
            default: continue
            }
        }
        return maxAge
    }
}

extension AEMBackend {
    /// A GET through the cache: fresh entries answer without a request, stale ones are revalidated.
    package func sendCached(_ request: HTTPTransportRequest) async throws -> HTTPTransportResponse {
        guard let cache else { return try await context.transport.send(request) }
        let now = Date().timeIntervalSince1970
        var outgoing = request
        let cached = cache.load(request)
        if let cached {
            if cached.expires > now {
                context.logger.debug("cache: fresh copy of \(context.redactor.redact(url: request.url))")
                return Self.response(from: cached, url: request.url)
            }
            if let etag = cached.etag { outgoing.headers["If-None-Match"] = etag }
        }
        let response = try await context.transport.send(outgoing)
        if response.status == 304, var cached {
            context.logger.debug("cache: revalidated \(context.redactor.redact(url: request.url))")
            cached.expires = now + (ResponseCache.lifetime(response.headers["Cache-Control"]) ?? 0)
            cache.store(cached, for: request)
            return Self.response(from: cached, url: request.url)
        }
        if response.status == 200, let lifetime = ResponseCache.lifetime(response.headers["Cache-Control"]) {
            let entry = ResponseCache.Entry(
                etag: response.headers["ETag"],
                expires: now + lifetime,
                contentType: response.headers["Content-Type"],
                body: Data(response.body)
            )
            cache.store(entry, for: request)
        }
        return response
    }

    private static func response(from entry: ResponseCache.Entry, url: String) -> HTTPTransportResponse {
        var headers = HeaderFields()
        if let type = entry.contentType { headers["Content-Type"] = type }
        return HTTPTransportResponse(status: 200, headers: headers, body: Array(entry.body), url: url)
    }
}
