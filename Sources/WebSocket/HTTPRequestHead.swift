/// An HTTP/1.1 request's request line and headers (RFC 9112, section 3), as a WebSocket server reads a
/// client's opening handshake.
public struct HTTPRequestHead: Sendable, Equatable {
    /// The method (`GET`).
    public var method: String
    /// The request target: a path starting with `/`, with any query.
    public var target: String
    /// The protocol version (`HTTP/1.1`).
    public var version: String
    /// The header fields in order, names lower-cased, values trimmed.
    public var headers: [(name: String, value: String)]
    /// The bytes of the head, the blank line included.
    public var length: Int

    /// The value of the first field `name` (lower case).
    public func value(of name: String) -> String? { headers.first { $0.name == name }?.value }

    /// The values of every field `name` (lower case), split at commas and trimmed: the tokens of a
    /// list-valued field that may be given several times (`Connection`, `Upgrade`).
    public func tokens(of name: String) -> [String] {
        headers.filter { $0.name == name }.flatMap { $0.value.split(separator: ",").map { String($0.trimmingSpaces) } }
    }

    public static func == (a: HTTPRequestHead, b: HTTPRequestHead) -> Bool {
        a.method == b.method && a.target == b.target && a.version == b.version && a.length == b.length
            && a.headers.map(\.name) == b.headers.map(\.name) && a.headers.map(\.value) == b.headers.map(\.value)
    }

    /// Reads a head from the start of `bytes`; nil while the blank line that ends it has not arrived.
    /// - Throws: ``WebSocketError/handshakeFailed(_:)`` for a head longer than `limit`, a request line
    ///   that is not `METHOD /target HTTP/1.x`, or a malformed header line.
    public init?(parsing bytes: some Collection<UInt8>, limit: Int) throws(WebSocketError) {
        guard let head = try HTTPHead.parse(bytes, limit: limit, whose: "the client's request head") else { return nil }
        let parts = head.startLine.split(separator: " ", omittingEmptySubsequences: false)
        guard parts.count == 3, !parts[0].isEmpty, parts[0].allSatisfy({ $0.isASCII && $0.isLetter }),
            parts[1].first == "/", parts[1].utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7F }),
            parts[2].hasPrefix("HTTP/1.")
        else {
            throw .handshakeFailed("the client did not send an HTTP/1.1 request line (\(HTTPHead.shown(head.startLine)))")
        }
        method = String(parts[0])
        target = String(parts[1])
        version = String(parts[2])
        headers = head.headers
        length = head.length
    }
}
