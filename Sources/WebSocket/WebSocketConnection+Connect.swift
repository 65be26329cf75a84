public import TBRFoundation

/// The client's side of opening a connection.
extension WebSocketConnection {
    /// Connects to `url` and performs the opening handshake: a ``WebSocketClient``.
    /// - Parameters:
    ///   - limits: the bounds on what the server may send in one message (``WebSocketLimits``); a
    ///     message past them fails the connection with status 1009 or 1008.
    ///   - keepalive: pings proving the server alive (``WebSocketKeepalive``), or nil (the default) for
    ///     none. With them, a server that stops answering fails a waiting ``receive()`` and every later
    ///     call with ``WebSocketError/connectionLost(_:)`` ("no pong arrived within 5 s of a ping …").
    ///   - tcpKeepalive: the socket's TCP keepalive (default: a dead peer found within 20 s).
    ///   - logger: where the connection notes, at debug, what it could not do on its way out. Message
    ///     contents are never logged.
    /// - Throws: ``WebSocketError``: `unreachable`, `handshakeFailed`, `connectionLost`, `cancelled`.
    public static func connect(
        to url: WebSocketURL, limits: WebSocketLimits = WebSocketLimits(), keepalive: WebSocketKeepalive? = nil,
        tcpKeepalive: TCPKeepalive = TCPKeepalive(), logger: Logger = .disabled
    ) async throws(WebSocketError) -> WebSocketClient {
        let tcp = TCPConnection(host: url.host, port: url.port, keepalive: tcpKeepalive)
        do throws(WebSocketError) {
            try await tcp.connect()
            let handshake = WebSocketHandshake(url: url)
            try await tcp.write(handshake.request)
            var received = HTTPHeadBuffer(limit: WebSocketHandshake.maximumHeadLength, whose: "the server's response head")
            while true {
                let chunk = try await tcp.read()
                guard !chunk.isEmpty else {
                    throw WebSocketError.handshakeFailed("the server closed the connection before it answered the handshake")
                }
                guard try received.append(chunk), let headLength = try handshake.acceptResponse(received.bytes) else { continue }
                var reader = WebSocketReader(role: .client, limits: limits)
                reader.append(received.bytes[headLength...])
                return WebSocketConnection(role: .client, url: url, tcp: tcp, reader: reader, keepalive: keepalive, logger: logger)
            }
        } catch {
            await tcp.close()
            throw error
        }
    }
}
