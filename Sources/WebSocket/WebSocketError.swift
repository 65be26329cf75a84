/// Why a WebSocket connection could not be made or used, as one sentence.
public enum WebSocketError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The URL is not a usable `ws://` URL.
    case invalidURL(String, reason: String)
    /// No TCP connection could be made to the host (name resolution or connect failed).
    case unreachable(String, reason: String)
    /// The server refused the opening handshake or answered something else.
    case handshakeFailed(String)
    /// The server broke the protocol; the client closed the connection.
    case protocolViolation(WebSocketProtocolError)
    /// The server closed the connection with this status and reason.
    case closed(code: UInt16?, reason: String)
    /// The connection was lost without a closing handshake (reset, end of stream, I/O error).
    case connectionLost(String)
    /// The client itself closed the connection (this call came after, or during, the close).
    case closedLocally
    /// The task was cancelled (a timeout of the caller ran out, or it stopped).
    case cancelled

    public var description: String {
        switch self {
        case .invalidURL(let url, let reason): "\(HTTPResponseHead.shown(url)) is not a usable WebSocket URL: \(reason)"
        case .unreachable(let host, let reason): "cannot connect to \(host): \(reason)"
        case .handshakeFailed(let why): "the WebSocket handshake failed: \(why)"
        case .protocolViolation(let e): "the server broke the WebSocket protocol (\(e)); the connection was closed"
        case .closed(let code, let reason):
            "the server closed the connection" + (code.map { " (status \($0)\(reason.isEmpty ? "" : ": \(reason)"))" } ?? "")
        case .connectionLost(let why): "the connection was lost: \(why)"
        case .closedLocally: "the connection was closed by this side"
        case .cancelled: "the operation was cancelled"
        }
    }
}
