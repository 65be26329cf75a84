internal import FoundationEssentials

/// The server's opening handshake (RFC 6455, section 4.2), without I/O: the checks of a client's request
/// and the response to send.
///
/// A request is accepted when it is `GET` over HTTP/1.1 or later with a `Host`, an `Upgrade` listing
/// `websocket`, a `Connection` listing `Upgrade`, a `Sec-WebSocket-Key` of 16 bytes in base64 and
/// `Sec-WebSocket-Version: 13` (section 4.2.1), for the path served. The answer is `101 Switching
/// Protocols` with the `Sec-WebSocket-Accept` of the key (section 4.2.2), choosing no extension and no
/// subprotocol. Anything else is refused with `400 Bad Request` and a sentence saying why (a version
/// other than 13 also names the one served, `Sec-WebSocket-Version: 13`, as section 4.4 asks), or `404
/// Not Found` for another path; the connection is then closed.
public enum WebSocketServerHandshake {
    /// What to answer a request.
    public enum Answer: Hashable, Sendable {
        /// Accept it: send `response` (101), then speak WebSocket.
        case accept(response: [UInt8])
        /// Refuse it: send `response` (`status`, with `reason` as its text body), then close.
        case refuse(status: Int, reason: String, response: [UInt8])
    }

    /// The longest request head accepted.
    public static let maximumHeadLength = 16 * 1024

    /// The answer to `head` from a server of `path` (nil: any path).
    public static func answer(_ head: HTTPRequestHead, path: String?) -> Answer {
        func refuse(_ status: Int, _ reason: String, _ extra: [(String, String)] = []) -> Answer {
            .refuse(status: status, reason: reason, response: refusal(status: status, reason: reason, headers: extra))
        }
        guard head.method == "GET" else { return refuse(400, "a WebSocket handshake is a GET request, not \(head.method)") }
        guard head.version != "HTTP/1.0" else { return refuse(400, "a WebSocket handshake needs HTTP/1.1") }
        guard head.value(of: "host") != nil else { return refuse(400, "the request has no Host header") }
        guard head.tokens(of: "upgrade").contains(where: { $0.lowercased() == "websocket" }) else {
            return refuse(400, "the request does not ask to upgrade to websocket")
        }
        guard head.tokens(of: "connection").contains(where: { $0.lowercased() == "upgrade" }) else {
            return refuse(400, "the request's Connection header lacks upgrade")
        }
        guard let key = head.value(of: "sec-websocket-key"), Data(base64Encoded: key)?.count == 16 else {
            return refuse(400, "the request has no Sec-WebSocket-Key of 16 bytes in base64")
        }
        guard head.value(of: "sec-websocket-version") == "13" else {
            return refuse(400, "this server speaks WebSocket version 13 only", [("Sec-WebSocket-Version", "13")])
        }
        let requested = String(head.target.prefix { $0 != "?" })
        if let path, requested != path { return refuse(404, "nothing is served at \(requested)") }
        let accept: String
        do {
            accept = try Self.accept(forKey: key)
        } catch {
            return refuse(500, "the server cannot compute Sec-WebSocket-Accept")
        }
        return .accept(response: Array(
            "HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Accept: \(accept)\r\n\r\n".utf8))
    }

    /// The `Sec-WebSocket-Accept` value that answers `key` (section 4.2.2): base64(SHA-1(key + GUID)).
    /// - Throws: ``WebSocketError/handshakeFailed(_:)`` when libcrypto cannot be loaded.
    public static func accept(forKey key: String) throws(WebSocketError) -> String { try HandshakeDigest.accept(forKey: key) }

    /// A response refusing a request: `status`, `reason` as a plain-text body, `Connection: close`.
    public static func refusal(status: Int, reason: String, headers: [(String, String)] = []) -> [UInt8] {
        let phrase = switch status {
        case 400: "Bad Request"
        case 404: "Not Found"
        case 503: "Service Unavailable"
        default: "Internal Server Error"
        }
        let body = Array((reason + "\n").utf8)
        var head = "HTTP/1.1 \(status) \(phrase)\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Length: \(body.count)\r\nConnection: close\r\n"
        for (name, value) in headers { head += "\(name): \(value)\r\n" }
        return Array((head + "\r\n").utf8) + body
    }
}
