/// Which end of a WebSocket connection this side is (RFC 6455, section 5.1). The role decides the
/// masking rules: a client masks every frame it sends and refuses a masked frame from the server; a
/// server sends unmasked frames and refuses an unmasked frame from a client.
public enum WebSocketRole: Hashable, Sendable, CustomStringConvertible {
    /// This side opened the connection (``WebSocketClient``).
    case client
    /// This side accepted the connection (``WebSocketServer``).
    case server

    /// The other end, for messages: "the server" or "the client".
    var peerName: String {
        switch self {
        case .client: "the server"
        case .server: "the client"
        }
    }

    public var description: String {
        switch self {
        case .client: "client"
        case .server: "server"
        }
    }
}
