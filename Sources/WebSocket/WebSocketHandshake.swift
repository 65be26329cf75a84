/// The client's opening handshake (RFC 6455, section 4.1), without I/O: the HTTP request to send, and
/// the checks of the server's response. (The server's side is ``WebSocketServerHandshake``.)
public struct WebSocketHandshake: Sendable {
    /// Where the request goes.
    public let url: WebSocketURL
    /// `Sec-WebSocket-Key`: 16 random bytes in base64.
    public let key: String

    /// A handshake for `url` with the 16 bytes `nonce` (fresh random bytes for every connection).
    public init(url: WebSocketURL, nonce: [UInt8]) {
        precondition(nonce.count == 16, "the WebSocket key is 16 bytes")
        self.url = url
        self.key = HandshakeDigest.base64(nonce)
    }

    /// A handshake for `url` with a key from the system's random generator.
    public init(url: WebSocketURL) {
        var generator = SystemRandomNumberGenerator()
        self.init(url: url, nonce: (0..<16).map { _ in UInt8.random(in: 0...255, using: &generator) })
    }

    /// The request. No extension and no subprotocol are offered.
    public var request: [UInt8] {
        Array(
            ("GET \(url.path) HTTP/1.1\r\nHost: \(url.hostHeader)\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                + "Sec-WebSocket-Key: \(key)\r\nSec-WebSocket-Version: 13\r\nUser-Agent: tbrd\r\n\r\n").utf8)
    }

    /// The `Sec-WebSocket-Accept` the server must answer.
    /// - Throws: ``WebSocketError/handshakeFailed(_:)`` when libcrypto cannot be loaded.
    public func expectedAccept() throws(WebSocketError) -> String { try HandshakeDigest.accept(forKey: key) }

    /// The longest response head accepted.
    public static let maximumHeadLength = 16 * 1024

    /// Reads the response head from the start of `bytes` and checks it: status 101, `Upgrade:
    /// websocket`, `Connection: Upgrade`, the right `Sec-WebSocket-Accept`, and no extension or
    /// subprotocol the client did not offer.
    /// - Returns: nil while the head is incomplete; otherwise how many bytes it took (what follows is
    ///   already the server's first frames).
    /// - Throws: ``WebSocketError/handshakeFailed(_:)`` saying what the server answered.
    public func acceptResponse(_ bytes: some Collection<UInt8>) throws(WebSocketError) -> Int? {
        guard let head = try HTTPResponseHead(parsing: bytes, limit: Self.maximumHeadLength) else { return nil }
        guard head.status == 101 else {
            throw .handshakeFailed("the server answered HTTP \(head.status) \(head.reason) instead of 101 Switching Protocols")
        }
        guard head.value(of: "upgrade")?.lowercased() == "websocket" else {
            throw .handshakeFailed("the server's Upgrade header is not websocket")
        }
        guard let connection = head.value(of: "connection"),
            connection.split(separator: ",").contains(where: { $0.trimmingSpaces.lowercased() == "upgrade" })
        else { throw .handshakeFailed("the server's Connection header lacks upgrade") }
        guard try head.value(of: "sec-websocket-accept") == expectedAccept() else {
            throw .handshakeFailed("the server's Sec-WebSocket-Accept does not answer the key sent")
        }
        if head.value(of: "sec-websocket-extensions") != nil {
            throw .handshakeFailed("the server chose an extension the client did not offer")
        }
        if head.value(of: "sec-websocket-protocol") != nil {
            throw .handshakeFailed("the server chose a subprotocol the client did not offer")
        }
        return head.length
    }
}

/// An HTTP/1.1 response's status line and headers.
public struct HTTPResponseHead: Sendable, Equatable {
    /// The status code.
    public var status: Int
    /// The reason phrase.
    public var reason: String
    /// The header fields in order, names lower-cased, values trimmed.
    public var headers: [(name: String, value: String)]
    /// The bytes of the head, the blank line included.
    public var length: Int

    /// The value of the first field `name` (lower case).
    public func value(of name: String) -> String? { headers.first { $0.name == name }?.value }

    public static func == (a: HTTPResponseHead, b: HTTPResponseHead) -> Bool {
        a.status == b.status && a.reason == b.reason && a.length == b.length
            && a.headers.map(\.name) == b.headers.map(\.name) && a.headers.map(\.value) == b.headers.map(\.value)
    }

    /// Reads a head from the start of `bytes`; nil while the blank line that ends it has not arrived.
    /// - Throws: ``WebSocketError/handshakeFailed(_:)`` for a head longer than `limit` or not HTTP/1.1.
    public init?(parsing bytes: some Collection<UInt8>, limit: Int) throws(WebSocketError) {
        guard let head = try HTTPHead.parse(bytes, limit: limit, whose: "the server's response head") else { return nil }
        let parts = head.startLine.split(separator: " ", maxSplits: 2, omittingEmptySubsequences: false)
        guard parts.count >= 2, parts[0] == "HTTP/1.1", parts[1].count == 3, let status = Int(parts[1]) else {
            throw .handshakeFailed("the server did not answer with an HTTP/1.1 status line (\(HTTPHead.shown(head.startLine)))")
        }
        self.status = status
        self.reason = parts.count > 2 ? String(parts[2]) : ""
        self.headers = head.headers
        self.length = head.length
    }
}
