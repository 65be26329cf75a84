/// Why a WebSocket connection could not be made or used, as one sentence.
public enum WebSocketError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The URL is not a usable `ws://` URL.
    case invalidURL(String, reason: String)
    /// No TCP connection could be made to the host (name resolution or connect failed).
    case unreachable(String, reason: String)
    /// A server cannot listen on this address (it is in use, not local, or not allowed).
    case cannotListen(String, reason: String)
    /// The opening handshake failed: the server refused it or answered something else (or, on a
    /// server, the client's request was not a WebSocket handshake).
    case handshakeFailed(String)
    /// The peer broke the protocol (or passed a ``WebSocketLimits`` bound); this side closed the
    /// connection with the status the error names.
    case protocolViolation(WebSocketProtocolError)
    /// The peer closed the connection with this status and reason.
    case closed(code: UInt16?, reason: String)
    /// The connection was lost without a closing handshake (reset, end of stream, I/O error).
    case connectionLost(String)
    /// This side closed the connection (this call came after, or during, the close).
    case closedLocally
    /// The task was cancelled (a timeout of the caller ran out, or it stopped).
    case cancelled

    public var description: String {
        switch self {
        case .invalidURL(let url, let reason): "\(HTTPHead.shown(url)) is not a usable WebSocket URL: \(reason)"
        case .unreachable(let host, let reason): "cannot connect to \(host): \(reason)"
        case .cannotListen(let address, let reason): "cannot listen on \(address): \(reason)"
        case .handshakeFailed(let why): "the WebSocket handshake failed: \(why)"
        case .protocolViolation(let e): "the peer broke the WebSocket protocol (\(e)); the connection was closed"
        case .closed(let code, let reason):
            "the peer closed the connection" + (code.map { " (status \($0)\(reason.isEmpty ? "" : ": \(reason)"))" } ?? "")
        case .connectionLost(let why): "the connection was lost: \(why)"
        case .closedLocally: "the connection was closed by this side"
        case .cancelled: "the operation was cancelled"
        }
    }
}
