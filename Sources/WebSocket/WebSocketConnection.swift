import TBRFoundation

/// One WebSocket connection (RFC 6455) over plain TCP, at either end: a client's
/// (``WebSocketClient/connect(to:limits:keepalive:tcpKeepalive:logger:)``) or one a ``WebSocketServer``
/// accepted. Messages in, messages out, pings answered, the closing handshake; the ``role`` decides the
/// masking (a client masks what it sends and refuses masked frames; a server the reverse).
///
/// ```swift
/// let client = try await WebSocketClient.connect(to: WebSocketURL("ws://127.0.0.1:5580/ws"))
/// try await client.send(text: #"{"message_id": "1", "command": "server_info"}"#)
/// let reply = try await client.receive()
/// await client.close()
/// ```
///
/// One task receives (``receive()`` is not for concurrent callers); any task may send, and whole
/// messages never interleave. Nothing here has a timeout of its own except the opt-in keepalive pings
/// (``WebSocketKeepalive``): callers bound their calls (see `TBRFoundation.TimeLimit`), and a cancelled
/// call fails with ``WebSocketError/cancelled``. What the peer sends is bounded (``WebSocketLimits``),
/// and a protocol violation closes the connection with the status the RFC asks for (1002, 1007, 1008,
/// 1009).
public actor WebSocketConnection {
    /// Which end this is.
    public nonisolated let role: WebSocketRole
    /// For a client, where it connected; for a server's connection, the URL the client asked for (the
    /// listening address and the request's path).
    public nonisolated let url: WebSocketURL
    /// The other end's address, `host:port`.
    public nonisolated var peer: String { tcp.peer }
    let tcp: TCPConnection
    let logger: Logger
    var reader: WebSocketReader
    var receiving = false
    var closeSent = false
    /// Why the connection is over, once it is.
    var ended: WebSocketError?
    let keepalive: WebSocketKeepalive?
    var schedule: KeepaliveSchedule?

    init(role: WebSocketRole, url: WebSocketURL, tcp: TCPConnection, reader: WebSocketReader, keepalive: WebSocketKeepalive?, logger: Logger) {
        self.role = role
        self.url = url
        self.tcp = tcp
        self.reader = reader
        self.keepalive = keepalive
        self.logger = logger
        schedule = keepalive.map { KeepaliveSchedule(interval: $0.interval, timeout: $0.timeout, now: $0.clock.now()) }
    }

    /// Sends `text` as one text message.
    /// - Throws: ``WebSocketError`` when the connection is over (`closed`, `connectionLost`,
    ///   `closedLocally`); `cancelled` when the task is cancelled before the message is written (by a
    ///   time limit, say), which fails this send only: the connection stays usable, and a message already
    ///   partly written is finished, since half a frame cannot be taken back.
    public func send(text: String) async throws(WebSocketError) {
        try await send(WebSocketFrame(opcode: .text, payload: Array(text.utf8)))
    }

    /// Sends `bytes` as one binary message.
    /// - Throws: as ``send(text:)``.
    public func send(binary bytes: [UInt8]) async throws(WebSocketError) {
        try await send(WebSocketFrame(opcode: .binary, payload: bytes))
    }

    func send(_ frame: WebSocketFrame) async throws(WebSocketError) {
        if let ended { throw ended }
        do {
            try await tcp.write(encode(frame))
        } catch .cancelled {
            // The caller gave up on this message; the connection is not over.
            throw .cancelled
        } catch {
            throw finish(error)
        }
    }

    /// Queues `frame` without waiting for it to be written (pongs, pings, close frames on the way out).
    func enqueue(_ frame: WebSocketFrame) async {
        await tcp.enqueue(encode(frame))
    }

    /// The frame on the wire: masked with a fresh key by a client, as is by a server (section 5.1).
    private func encode(_ frame: WebSocketFrame) -> [UInt8] {
        guard role == .client else { return frame.encoded(maskingKey: nil) }
        var generator = SystemRandomNumberGenerator()
        return frame.encoded(maskingKey: (0..<4).map { _ in UInt8.random(in: 0...255, using: &generator) })
    }

    /// Starts the closing handshake with `code` and `reason`, then closes the TCP connection without
    /// waiting for the peer's answer. Calls still waiting fail with ``WebSocketError/closedLocally``.
    /// Idempotent.
    public func close(code: UInt16 = 1000, reason: String = "") async {
        if ended == nil, !closeSent {
            closeSent = true
            await sendClose(Self.closePayload(code, reason), because: "closing")
        }
        _ = finish(.closedLocally)
        await tcp.close()
    }

    /// Sends a close frame on the way out and waits until it is written; a failure only matters to the
    /// log, since the connection is being closed anyway. Behind a backlog the peer is not reading (more
    /// than ``TCPConnection/maximumBacklog`` bytes still to write) the frame is not sent: it would only
    /// wait for TCP's user timeout.
    func sendClose(_ payload: [UInt8], because: String) async {
        guard await tcp.queuedBytes <= TCPConnection.maximumBacklog else {
            logger.debug("not sending a WebSocket close frame behind a backlog", [("peer", peer), ("while", because)])
            return
        }
        do { try await tcp.write(encode(WebSocketFrame(opcode: .close, payload: payload))) } catch {
            logger.debug("could not send a WebSocket close frame", [("peer", peer), ("while", because), ("error", error.description)])
        }
    }

    /// Closes the TCP connection at once, without the closing handshake: the peer sees the stream end
    /// with no close frame, as when a process dies. Calls still waiting fail with
    /// ``WebSocketError/closedLocally``. Idempotent.
    public func abort() async {
        closeSent = true
        _ = finish(.closedLocally)
        await tcp.abort()
    }

    /// Records why the connection is over (the first reason wins) and returns it.
    func finish(_ error: WebSocketError) -> WebSocketError {
        if ended == nil { ended = error }
        return ended!
    }

    /// A close frame's payload: the status, then at most 123 bytes of reason (cut at a character).
    static func closePayload(_ code: UInt16, _ reason: String) -> [UInt8] {
        var cut = Substring(reason)
        while cut.utf8.count > 123 { cut.removeLast() }
        return [UInt8(code >> 8), UInt8(code & 0xFF)] + Array(cut.utf8)
    }
}

/// A client connection: ``WebSocketConnection`` in the ``WebSocketRole/client`` role, made by
/// ``WebSocketConnection/connect(to:limits:keepalive:tcpKeepalive:logger:)``.
public typealias WebSocketClient = WebSocketConnection
