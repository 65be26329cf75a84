import Synchronization
public import TBRFoundation

/// A WebSocket server (RFC 6455) over plain TCP: listens on an address, accepts connections, answers
/// their opening handshakes (``WebSocketServerHandshake``) and hands each accepted connection, in the
/// ``WebSocketRole/server`` role, to a handler.
///
/// ```swift
/// let server = try await WebSocketServer.listen(host: "127.0.0.1", port: 0, configuration: .init(path: "/ws"))
/// print(server.url)                      // ws://127.0.0.1:40123/ws
/// await server.run { connection in       // until the task is cancelled
///     while case .text(let text)? = try? await connection.receive() { try? await connection.send(text: text) }
/// }
/// ```
///
/// ``run(_:)`` is structured: every connection is served by a child task of its task group, and
/// cancelling `run` stops listening, cancels the handlers (their `receive()` throws
/// ``WebSocketError/cancelled``) and closes every connection before it returns. A handler's connection
/// is closed (status 1000 unless it closed it otherwise) when the handler returns. What a client may
/// cost is bounded: its handshake must arrive within ``Configuration/handshakeTimeout`` and fit in
/// 16 KiB, its messages within ``Configuration/limits``; beyond ``Configuration/maximumConnections``
/// open connections a new one is answered `503 Service Unavailable` and closed.
public final class WebSocketServer: Sendable {
    /// How the server treats its clients.
    public struct Configuration: Sendable {
        /// The path served (`/ws`); requests for another get `404 Not Found`. Nil serves any path.
        public var path: String?
        /// The bounds on one message from a client.
        public var limits: WebSocketLimits
        /// Pings proving each client alive, or nil for none.
        public var keepalive: WebSocketKeepalive?
        /// The sockets' TCP keepalive.
        public var tcpKeepalive: TCPKeepalive
        /// How long a client may take to send its opening handshake.
        public var handshakeTimeout: Duration
        /// The most connections open at once.
        public var maximumConnections: Int
        /// Where the handshake's time comes from.
        public var clock: any TBRClock

        /// A configuration as given.
        public init(
            path: String? = nil, limits: WebSocketLimits = WebSocketLimits(), keepalive: WebSocketKeepalive? = nil,
            tcpKeepalive: TCPKeepalive = TCPKeepalive(), handshakeTimeout: Duration = .seconds(10), maximumConnections: Int = 128,
            clock: any TBRClock = SystemClock()
        ) {
            self.path = path
            self.limits = limits
            self.keepalive = keepalive
            self.tcpKeepalive = tcpKeepalive
            self.handshakeTimeout = handshakeTimeout
            self.maximumConnections = maximumConnections
            self.clock = clock
        }
    }

    /// The configuration.
    public let configuration: Configuration
    private let listener: TCPListener
    private let logger: Logger
    private let open = Atomic<Int>(0)

    private init(listener: TCPListener, configuration: Configuration, logger: Logger) {
        self.listener = listener
        self.configuration = configuration
        self.logger = logger
    }

    /// The address listened on, as given.
    public var host: String { listener.host }
    /// The port listened on (the one the kernel chose when asked for port 0).
    public var port: UInt16 { listener.port }
    /// `ws://HOST:PORT/PATH` (`/` when every path is served).
    public var url: WebSocketURL {
        // The host is one that was listened on, and the path one that was configured: both valid.
        try! WebSocketURL("ws://\(listener.address)\(configuration.path ?? "/")")
    }

    /// Listens on `host` and `port` (0: a free port, then given by ``port``).
    /// - Parameters:
    ///   - logger: refused handshakes and failed accepts at debug and warning; never message contents.
    /// - Throws: ``WebSocketError/cannotListen(_:reason:)``.
    public static func listen(
        host: String = "127.0.0.1", port: UInt16, configuration: Configuration = Configuration(), logger: Logger = .disabled
    ) async throws(WebSocketError) -> WebSocketServer {
        if let path = configuration.path {
            precondition(path.hasPrefix("/") && path.utf8.allSatisfy { $0 > 0x20 && $0 < 0x7F && $0 != UInt8(ascii: "?") }, "a path served starts with /")
        }
        let listener = try await TCPListener.listen(host: host, port: port)
        return WebSocketServer(listener: listener, configuration: configuration, logger: logger)
    }

    /// Accepts connections and serves each with `handler` in a child task, until the task is cancelled
    /// or ``close()`` is called; then cancels the handlers, closes every connection and returns.
    public func run(_ handler: @escaping @Sendable (WebSocketConnection) async -> Void) async {
        await withDiscardingTaskGroup { group in
            while !Task.isCancelled {
                let accepted: (fd: Int32, peer: String)
                do throws(WebSocketError) {
                    accepted = try await listener.accept()
                } catch .cancelled, .closedLocally {
                    break
                } catch {
                    logger.warning("cannot accept a WebSocket connection; retrying in 100 ms", [("error", error.description)])
                    try? await configuration.clock.sleep(for: .milliseconds(100))
                    continue
                }
                group.addTask { await self.serve(accepted.fd, peer: accepted.peer, handler) }
            }
            group.cancelAll()
        }
        await listener.close()
    }

    /// Stops listening: ``run(_:)`` then ends as if cancelled. Idempotent.
    public func close() async {
        await listener.close()
    }

    /// One connection: its handshake within the time allowed, then the handler, then the close.
    private func serve(_ fd: Int32, peer: String, _ handler: @Sendable (WebSocketConnection) async -> Void) async {
        let count = open.add(1, ordering: .relaxed).newValue
        defer { open.subtract(1, ordering: .relaxed) }
        let tcp: TCPConnection
        do {
            tcp = try await TCPConnection.adopt(fd, peer: peer, keepalive: configuration.tcpKeepalive)
        } catch {
            logger.warning("cannot serve a WebSocket connection", [("peer", peer), ("error", error.description)])
            return
        }
        guard count <= configuration.maximumConnections else {
            logger.warning("too many WebSocket connections; refusing one", [("peer", peer), ("open", String(count - 1))])
            try? await tcp.write(WebSocketServerHandshake.refusal(status: 503, reason: "too many connections"))
            await tcp.close()
            return
        }
        let connection: WebSocketConnection
        do {
            let outcome = try await TimeLimit.run(configuration.handshakeTimeout, clock: configuration.clock) {
                try await self.handshake(tcp)
            }
            guard case .finished(let accepted?) = outcome else {
                if case .timedOut = outcome {
                    logger.debug("a WebSocket client did not finish its handshake in time", [("peer", peer)])
                }
                await tcp.close()
                return
            }
            connection = accepted
        } catch {
            logger.debug("a WebSocket handshake failed", [("peer", peer), ("error", "\(error)")])
            await tcp.close()
            return
        }
        await handler(connection)
        await connection.close()
    }

    /// Reads the client's request head and answers it: the connection when accepted, nil when refused
    /// (the refusal sent).
    private func handshake(_ tcp: TCPConnection) async throws(WebSocketError) -> WebSocketConnection? {
        var received = HTTPHeadBuffer(limit: WebSocketServerHandshake.maximumHeadLength, whose: "the client's request head")
        let head: HTTPRequestHead
        do throws(WebSocketError) {
            while true {
                let chunk = try await tcp.read()
                guard !chunk.isEmpty else { throw WebSocketError.handshakeFailed("the client closed the connection during its handshake") }
                if try received.append(chunk), let parsed = try HTTPRequestHead(parsing: received.bytes, limit: WebSocketServerHandshake.maximumHeadLength) {
                    head = parsed
                    break
                }
            }
        } catch .handshakeFailed(let why) {
            try await tcp.write(WebSocketServerHandshake.refusal(status: 400, reason: why))
            throw .handshakeFailed(why)
        }
        switch WebSocketServerHandshake.answer(head, path: configuration.path) {
        case .refuse(let status, let reason, let response):
            logger.debug("refused a WebSocket handshake", [("peer", tcp.peer), ("status", String(status)), ("reason", reason)])
            try await tcp.write(response)
            return nil
        case .accept(let response):
            try await tcp.write(response)
            var reader = WebSocketReader(role: .server, limits: configuration.limits)
            reader.append(received.bytes[head.length...])
            let target = head.target.utf8.allSatisfy { $0 > 0x20 && $0 < 0x7F } ? head.target : "/"
            let url = (try? WebSocketURL("ws://\(listener.address)\(target)")) ?? self.url
            return WebSocketConnection(role: .server, url: url, tcp: tcp, reader: reader, keepalive: configuration.keepalive, logger: logger)
        }
    }
}
