import FoundationEssentials
import HTTPAPIRouting
import HTTPMessages
import MeshCoP
import TBRCore
import TBRFoundation

// The wire: JSON out (members sorted, secrets redacted unless asked), JSON and query flags in, problems.

extension HTTPAdapter {
    /// Sent with every answer: nothing cached, no sniffing, no framing, no scripts in JSON.
    static let securityHeaders = [
        "Cache-Control": "no-store", "X-Content-Type-Options": "nosniff", "X-Frame-Options": "DENY",
        "Content-Security-Policy": "default-src 'none'; frame-ancestors 'none'", "Referrer-Policy": "no-referrer",
    ]

    /// Members sorted by name, as `tbrctl --json` prints them.
    static func encoder() -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        return encoder
    }

    /// `value` as JSON; secrets (network key, PSKc) redacted unless `revealSecrets` (MeshCoP's `Secrets`).
    static func json<T: Encodable>(_ value: T, status: Int = 200, revealSecrets: Bool = false) throws -> HTTPServerResponse {
        let encoder = encoder()
        encoder.userInfo[.revealSecrets] = revealSecrets
        return HTTPServerResponse(status: status, contentType: "application/json", headers: securityHeaders, body: Array(try encoder.encode(value)))
    }

    /// The flags a query sets (`pending=true&revealSecrets=true`): each `NAME=true`, `NAME=false` or a
    /// bare `NAME`; anything else is refused rather than ignored.
    static func flags(_ query: String, allowed: Set<String>) throws -> Set<String> {
        var set: Set<String> = []
        for pair in query.split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1).map(String.init)
            guard let name = parts.first, allowed.contains(name), parts.count == 1 || parts[1] == "true" || parts[1] == "false" else {
                throw CoreError(
                    .invalidArgument,
                    "the query \(Quoted(String(pair.prefix(100)))) is not understood here (known: \(allowed.sorted().map { $0 + "=true" }.joined(separator: ", ")))")
            }
            if parts.count == 1 || parts[1] == "true" { set.insert(name) }
        }
        return set
    }

    /// The `name=value` pairs of `query` (values percent-decoded), each name one of `allowed` and given once,
    /// or InvalidArgument saying which is not understood.
    static func parameters(_ query: String, allowed: Set<String>) throws -> [String: String] {
        var values: [String: String] = [:]
        for pair in query.split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1)
            guard parts.count == 2, allowed.contains(String(parts[0])), values[String(parts[0])] == nil,
                let value = APIRoute.percentDecoded(parts[1])
            else {
                throw CoreError(
                    .invalidArgument,
                    "the query \(Quoted(String(pair.prefix(100)))) is not understood here (known: \(allowed.sorted().map { $0 + "=…" }.joined(separator: ", ")))")
            }
            values[String(parts[0])] = value
        }
        return values
    }

    static func problem(_ problem: APIProblem) -> HTTPServerResponse {
        let body = (try? encoder().encode(problem)).map(Array.init) ?? []
        return HTTPServerResponse(status: problem.status, contentType: "application/problem+json", headers: securityHeaders, body: body)
    }

    /// The JSON body of `request` as `T`, or InvalidArgument saying why.
    static func decode<T: APIRequestBody>(_: T.Type, _ request: HTTPServerRequest) throws -> T {
        guard request.contentType == "application/json" else {
            throw CoreError(.invalidArgument, "the body must be JSON (Content-Type: application/json)")
        }
        do { return try T.decode(request.body) } catch { throw CoreError(.invalidArgument, error.description) }
    }

    /// Whether `origin` (`https://host:port`) is the server's own, as the `Host` header names it.
    static func isSameOrigin(_ origin: String, host: String?) -> Bool {
        guard let host, !host.isEmpty else { return false }
        return origin == "https://" + host || origin == "http://" + host
    }
}
