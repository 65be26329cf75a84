public import TBRFoundation

/// A WebSocket client connection (RFC 6455) over plain TCP: the opening handshake, masked frames out,
/// messages in, pings answered, and the closing handshake.
///
/// ```swift
/// let client = try await WebSocketClient.connect(to: WebSocketURL("ws://127.0.0.1:5580/ws"))
/// try await client.send(text: #"{"message_id": "1", "command": "server_info"}"#)
/// let reply = try await client.receive()
/// await client.close()
/// ```
///
/// One task receives (``receive()`` is not for concurrent callers); any task may send, and whole
/// messages never interleave. Nothing here has a timeout of its own: callers bound their calls (see
/// `TBRFoundation.TimeLimit`), and a cancelled call fails with ``WebSocketError/cancelled``. A protocol
/// violation by the server closes the connection with the status the RFC asks for (1002, 1007, 1008,
/// 1009), and what it sends is bounded (``WebSocketLimits``).
public actor WebSocketClient {
    /// Where the client is connected.
    public nonisolated let url: WebSocketURL
    private let tcp: TCPConnection
    private let logger: Logger
    private var reader: WebSocketReader
    private var receiving = false
    private var closeSent = false
    /// Why the connection is over, once it is.
    private var ended: WebSocketError?

    private init(url: WebSocketURL, tcp: TCPConnection, reader: WebSocketReader, logger: Logger) {
        self.url = url
        self.logger = logger
        self.tcp = tcp
        self.reader = reader
    }

    /// Connects to `url` and performs the opening handshake.
    /// - Parameters:
    ///   - limits: the bounds on what the server may send in one message (``WebSocketLimits``); a
    ///     message past them fails the connection with status 1009 or 1008.
    ///   - logger: where the client notes, at debug, what it could not do on its way out (a close frame
    ///     that could not be sent). Message contents are never logged.
    /// - Throws: ``WebSocketError``: `unreachable`, `handshakeFailed`, `connectionLost`, `cancelled`.
    public static func connect(
        to url: WebSocketURL, limits: WebSocketLimits = WebSocketLimits(), logger: Logger = .disabled
    ) async throws(WebSocketError) -> WebSocketClient {
        let tcp = TCPConnection(host: url.host, port: url.port)
        do throws(WebSocketError) {
            try await tcp.connect()
            let handshake = WebSocketHandshake(url: url)
            try await tcp.write(handshake.request)
            var received: [UInt8] = []
            while true {
                let chunk = try await tcp.read()
                guard !chunk.isEmpty else {
                    throw WebSocketError.handshakeFailed("the server closed the connection before it answered the handshake")
                }
                received.append(contentsOf: chunk)
                if let headLength = try handshake.acceptResponse(received) {
                    var reader = WebSocketReader(role: .client, limits: limits)
                    reader.append(received[headLength...])
                    return WebSocketClient(url: url, tcp: tcp, reader: reader, logger: logger)
                }
            }
        } catch {
            await tcp.close()
            throw error
        }
    }

    /// Sends `text` as one text message.
    /// - Throws: ``WebSocketError`` when the connection is over (`closed`, `connectionLost`,
    ///   `closedLocally`) or the send was cancelled (which closes the connection).
    public func send(text: String) async throws(WebSocketError) {
        try await send(WebSocketFrame(opcode: .text, payload: Array(text.utf8)))
    }

    private func send(_ frame: WebSocketFrame) async throws(WebSocketError) {
        if let ended { throw ended }
        var generator = SystemRandomNumberGenerator()
        let key = (0..<4).map { _ in UInt8.random(in: 0...255, using: &generator) }
        do {
            try await tcp.write(frame.encoded(maskingKey: key))
        } catch {
            throw finish(error)
        }
    }

    /// The next data message. Pings are answered on the way; pongs are dropped.
    /// - Throws: ``WebSocketError/closed(code:reason:)`` when the server closes (the close is answered),
    ///   `connectionLost` when the stream ends or fails without one, `protocolViolation`, `cancelled`
    ///   (the connection stays usable), or the error that ended the connection earlier.
    public func receive() async throws(WebSocketError) -> WebSocketMessage {
        if let ended { throw ended }
        precondition(!receiving, "one task receives from a WebSocketClient")
        receiving = true
        defer { receiving = false }
        while true {
            let inbound: WebSocketInbound?
            do {
                inbound = try reader.next()
            } catch {
                closeSent = true
                await sendClose(Self.closePayload(error.closeCode, ""), because: "the server broke the protocol")
                await tcp.close()
                throw finish(.protocolViolation(error))
            }
            switch inbound {
            case .message(let message)?:
                return message
            case .ping(let payload)?:
                try await send(WebSocketFrame(opcode: .pong, payload: payload))
            case .pong?:
                continue
            case .close(let code, let reason)?:
                if !closeSent {
                    closeSent = true
                    await sendClose(code.map { Self.closePayload($0, "") } ?? [], because: "answering the server's close")
                }
                await tcp.close()
                throw finish(.closed(code: code, reason: reason))
            case nil:
                let chunk: [UInt8]
                do {
                    chunk = try await tcp.read()
                } catch .cancelled {
                    throw .cancelled
                } catch {
                    throw finish(error)
                }
                guard !chunk.isEmpty else {
                    await tcp.close()
                    throw finish(.connectionLost("the server ended the connection without a closing handshake"))
                }
                reader.append(chunk)
            }
        }
    }

    /// Starts the closing handshake with `code` and `reason`, then closes the TCP connection without
    /// waiting for the server's answer. Calls still waiting fail with ``WebSocketError/closedLocally``.
    /// Idempotent.
    public func close(code: UInt16 = 1000, reason: String = "") async {
        if ended == nil, !closeSent {
            closeSent = true
            await sendClose(Self.closePayload(code, reason), because: "closing")
        }
        _ = finish(.closedLocally)
        await tcp.close()
    }

    /// Sends a close frame on the way out; a failure only matters to the log, since the connection is
    /// being closed anyway.
    private func sendClose(_ payload: [UInt8], because: String) async {
        do { try await send(WebSocketFrame(opcode: .close, payload: payload)) } catch {
            logger.debug("could not send a WebSocket close frame", [("peer", url.description), ("while", because), ("error", error.description)])
        }
    }

    /// Records why the connection is over (the first reason wins) and returns it.
    private func finish(_ error: WebSocketError) -> WebSocketError {
        if ended == nil { ended = error }
        return ended!
    }

    /// A close frame's payload: the status, then at most 123 bytes of reason.
    static func closePayload(_ code: UInt16, _ reason: String) -> [UInt8] {
        [UInt8(code >> 8), UInt8(code & 0xFF)] + Array(reason.utf8.prefix(123))
    }
}
