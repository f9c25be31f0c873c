internal import ContentEmulator
internal import ContentJSON
internal import Foundation
internal import HTTPTypes
internal import Hummingbird

extension AEMEmulator {
    /// The IMS token endpoints, on the AEM port: a client configured with `imsURL` set to the emulator signs in
    /// as it would at `ims-na1.adobelogin.com`.
    func addIMSRoutes(to router: Router<BasicRequestContext>) {
        router.post("/ims/exchange/jwt") { request, _ in
            try await Self.imsAnswer(request) { form throws(IMSIssuer.Refusal) in try ims.exchangeJWT(form) }
        }
        router.post("/ims/token/v3") { request, _ in
            try await Self.imsAnswer(request) { form throws(IMSIssuer.Refusal) in
                try ims.serverToServerToken(form)
            }
        }
        router.post("/ims/invalidate_token/v2") { request, _ in
            try await Self.imsAnswer(request) { form throws(IMSIssuer.Refusal) in
                try ims.invalidate(form)
                return JSONObject()
            }
        }
    }

    /// The query's fields and the form body's (the body wins), answered as IMS answers: JSON, never cached.
    private static func imsAnswer(
        _ request: Request, _ endpoint: ([String: String]) throws(IMSIssuer.Refusal) -> JSONObject
    ) async throws -> Response {
        var form: [String: String] = [:]
        for field in FormFields.decode(request.uri.query ?? "") { form[field.name] = field.value }
        // A token request is a few kilobytes (a signed JWT and a secret); more is refused by the collector.
        let body = try await request.body.collect(upTo: 64 << 10)
        if (request.headers[.contentType] ?? "").hasPrefix("application/x-www-form-urlencoded") {
            for field in FormFields.decode(String(buffer: body)) { form[field.name] = field.value }
        }
        var response: Response
        do {
            response = json(status: .ok, try endpoint(form))
        } catch {
            response = json(status: HTTPResponse.Status(code: error.status), error.body)
        }
        response.headers[.cacheControl] = "no-store"
        return response
    }
}
