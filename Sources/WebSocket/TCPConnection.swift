import Dispatch
import TBRFoundation

#if canImport(Glibc)
import Glibc
#endif

/// A TCP connection on a serial Dispatch queue of its own, which is also the actor's executor: the
/// socket is non-blocking, readiness comes from a `DescriptorWatch` (which owns the socket and closes
/// it), and its handler reaches the actor's state with `assumeIsolated`. No thread blocks on the socket;
/// name resolution (`getaddrinfo`) blocks this queue only, never the cooperative pool. A client connection is made by
/// ``connect()``; a server's comes from ``adopt(_:peer:keepalive:)`` with a socket its listener accepted.
/// Both carry TCP keepalive (``TCPKeepalive``).
///
/// Reads are pulled: ``read()`` waits for one chunk, so a slow reader leaves data in the kernel (back
/// pressure) rather than in memory. Writes are queued and written whole, in order, never interleaved.
/// Cancelling a waiting ``read()`` fails it; cancelling a ``write(_:)`` fails that write alone and leaves
/// the connection to everyone else (its bytes are dropped if none was written yet, and otherwise written
/// to the end without a waiter: half a frame cannot be taken back, and cutting it would end the
/// connection for every other caller); ``enqueue(_:)`` queues bytes without waiting for them.
actor TCPConnection {
    // The state below is module-internal, not private, only because the writing half lives in
    // TCPConnection+Writing.swift (Swift's privacy is per file); nothing outside this type touches it.
    let executor: DispatchQueueExecutor
    nonisolated var unownedExecutor: UnownedSerialExecutor { executor.asUnownedSerialExecutor() }
    /// `host:port`, for messages.
    nonisolated let peer: String
    var socket: DescriptorWatch?
    /// The socket's descriptor while open.
    var currentDescriptor: Int32? { socket?.descriptor }
    private var reader: CheckedContinuation<[UInt8], any Error>?
    var writes: [TCPPendingWrite] = []
    /// The id of the last ``write(_:)``.
    var lastWriteID: UInt64 = 0
    /// The bytes in ``writes`` not yet written.
    var queuedBytes = 0
    var connecting: CheckedContinuation<Void, any Error>?
    var failure: WebSocketError?
    private let keepalive: TCPKeepalive

    /// The most a read returns at once.
    static let chunkSize = 64 * 1024

    /// A connection to `host` on `port`, not yet connected.
    init(host: String, port: UInt16, keepalive: TCPKeepalive = TCPKeepalive()) {
        executor = DispatchQueueExecutor(label: "tbrd.tcp")
        peer = host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)"
        self.host = host
        self.port = port
        self.keepalive = keepalive
    }

    private init(peer: String, keepalive: TCPKeepalive) {
        executor = DispatchQueueExecutor(label: "tbrd.tcp")
        self.peer = peer
        self.host = ""
        self.port = 0
        self.keepalive = keepalive
    }

    /// A connection over `fd`, a connected socket a listener accepted (it is made non-blocking and
    /// given TCP keepalive; the connection owns it and closes it).
    /// - Throws: ``WebSocketError/connectionLost(_:)`` when the socket cannot be watched.
    static func adopt(_ fd: Int32, peer: String, keepalive: TCPKeepalive) async throws(WebSocketError) -> TCPConnection {
        let connection = TCPConnection(peer: peer, keepalive: keepalive)
        try await connection.install(fd)
        return connection
    }

    private func install(_ fd: Int32) throws(WebSocketError) {
        dispatchPrecondition(condition: .onQueue(executor.queue))
        let flags = fcntl(fd, F_GETFL)
        _ = fcntl(fd, F_SETFL, flags | O_NONBLOCK)
        Self.configure(fd, keepalive: keepalive)
        do {
            socket = try makeHandle(fd)
        } catch {
            throw .connectionLost("cannot watch the connection from \(peer): \(error)")
        }
    }

    private let host: String
    private let port: UInt16

    /// No delay for small writes, and TCP keepalive as `keepalive` says.
    private static func configure(_ fd: Int32, keepalive: TCPKeepalive) {
        func set(_ level: Int32, _ name: Int32, _ value: Int32) {
            var v = value
            _ = setsockopt(fd, level, name, &v, socklen_t(MemoryLayout<Int32>.size))
        }
        set(Int32(IPPROTO_TCP), TCP_NODELAY, 1)
        set(SOL_SOCKET, SO_KEEPALIVE, 1)
        set(Int32(IPPROTO_TCP), TCP_KEEPIDLE, keepalive.idleSeconds)
        set(Int32(IPPROTO_TCP), TCP_KEEPINTVL, keepalive.intervalSeconds)
        set(Int32(IPPROTO_TCP), TCP_KEEPCNT, keepalive.probes)
        set(Int32(IPPROTO_TCP), TCP_USER_TIMEOUT, keepalive.deadPeerSeconds * 1000)
    }

    /// The watch of `fd`, which it takes, whose handler enters this actor; both directions off.
    private func makeHandle(_ fd: Int32) throws(DescriptorWatchError) -> DescriptorWatch {
        try DescriptorWatch(taking: fd, events: [.readable, .writable], queue: executor.queue) { [weak self] ready in
            self?.assumeIsolated { ready == .readable ? $0.readable() : $0.writable() }
        }
    }

    // MARK: connecting

    /// Resolves the host and connects to the first address that accepts.
    /// - Throws: ``WebSocketError/unreachable(_:reason:)``, ``WebSocketError/cancelled``.
    func connect() async throws(WebSocketError) {
        dispatchPrecondition(condition: .onQueue(executor.queue))
        let addresses: [SocketAddress]
        do {
            addresses = try SocketAddress.resolve(host: host, port: port, .stream, .configuredFamilies)
        } catch {
            throw .unreachable(peer, reason: error.description)
        }
        var lastError = "no address"
        for address in addresses {
            if Task.isCancelled { throw .cancelled }
            let fd: Int32
            do {
                fd = try address.openSocket(.stream, nonBlocking: true)
            } catch {
                lastError = error.description
                continue
            }
            Self.configure(fd, keepalive: keepalive)
            do {
                try await connect(fd, to: address)
                return
            } catch let error as Errno {
                lastError = error.description
            } catch let error as DescriptorWatchError {
                lastError = error.description
            } catch {
                throw .cancelled
            }
        }
        throw .unreachable(peer, reason: lastError)
    }

    /// Connects `fd` (closing it on failure) and installs its sources.
    private func connect(_ fd: Int32, to address: SocketAddress) async throws {
        var rc: Int32
        repeat { rc = address.withSockaddr { Glibc.connect(fd, $0, $1) } } while rc < 0 && errno == EINTR
        let code = rc == 0 ? 0 : errno
        let handle = try makeHandle(fd)
        guard code == 0 || code == EINPROGRESS else {
            handle.cancel()
            throw Errno(code)
        }
        socket = handle
        if code == EINPROGRESS {
            do {
                try await withTaskCancellationHandler {
                    try await withCheckedThrowingContinuation { (c: CheckedContinuation<Void, any Error>) in
                        connecting = c
                        handle.enabled.insert(.writable)
                    }
                } onCancel: {
                    executor.queue.async { [self] in self.assumeIsolated { _ = $0.fail(.cancelled) } }
                }
            } catch {
                socket = nil
                handle.cancel()
                throw error
            }
            var error: Int32 = 0
            var size = socklen_t(MemoryLayout<Int32>.size)
            getsockopt(fd, SOL_SOCKET, SO_ERROR, &error, &size)
            if error != 0 {
                socket = nil
                handle.cancel()
                throw Errno(error)
            }
        }
        failure = nil
    }

    // MARK: reading

    /// The next bytes the peer sent (at most ``chunkSize``); empty at the end of the stream.
    /// - Throws: ``WebSocketError/connectionLost(_:)`` for an I/O error, ``WebSocketError/closedLocally``
    ///   after ``close()``, ``WebSocketError/cancelled`` when the task is cancelled while it waits.
    func read() async throws(WebSocketError) -> [UInt8] {
        if let failure { throw failure }
        guard let socket else { throw .closedLocally }
        precondition(reader == nil, "one reader at a time")
        switch Self.readNow(socket.descriptor) {
        case .bytes(let bytes): return bytes
        case .failed(let error): throw fail(error)
        case .wouldBlock: break
        }
        do {
            return try await withTaskCancellationHandler {
                try await withCheckedThrowingContinuation { (c: CheckedContinuation<[UInt8], any Error>) in
                    reader = c
                    socket.enabled.insert(.readable)
                }
            } onCancel: {
                executor.queue.async { [self] in self.assumeIsolated { $0.cancelRead() } }
            }
        } catch let error as WebSocketError {
            throw error
        } catch {
            throw .cancelled
        }
    }

    private enum ReadResult {
        case bytes([UInt8])
        case failed(WebSocketError)
        case wouldBlock
    }

    private static func readNow(_ fd: Int32) -> ReadResult {
        var buffer = [UInt8](repeating: 0, count: chunkSize)
        while true {
            let n = buffer.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress!, $0.count) }
            if n >= 0 { return .bytes(Array(buffer[0..<n])) }
            switch errno {
            case EINTR: continue
            case EAGAIN, EWOULDBLOCK: return .wouldBlock
            default: return .failed(.connectionLost(Errno(errno).description))
            }
        }
    }

    /// The watch reported the socket readable.
    private func readable() {
        guard let socket, let reader else {
            socket?.enabled.remove(.readable)
            return
        }
        switch Self.readNow(socket.descriptor) {
        case .wouldBlock: return
        case .bytes(let bytes):
            self.reader = nil
            socket.enabled.remove(.readable)
            reader.resume(returning: bytes)
        case .failed(let error):
            fail(error)
        }
    }

    private func cancelRead() {
        guard let reader else { return }
        self.reader = nil
        socket?.enabled.remove(.readable)
        reader.resume(throwing: WebSocketError.cancelled)
    }

    // MARK: closing

    /// Fails everything waiting with `error`, closes the socket, and remembers `error` for later calls.
    @discardableResult
    func fail(_ error: WebSocketError) -> WebSocketError {
        if failure == nil { failure = error }
        let waiting = (reader, connecting, writes.map(\.done))
        reader = nil
        connecting = nil
        writes.removeAll()
        queuedBytes = 0
        socket?.cancel()
        socket = nil
        waiting.0?.resume(throwing: error)
        waiting.1?.resume(throwing: error)
        for w in waiting.2 { w?.resume(throwing: error) }
        return error
    }

    /// Shuts the sending side (a TCP FIN), so the peer sees the end of what was sent.
    func shutdownWriting() {
        if let socket { Glibc.shutdown(socket.descriptor, Int32(SHUT_WR)) }
    }

    /// Closes the connection; calls waiting fail with ``WebSocketError/closedLocally``. What the peer
    /// sent and nobody read is read and dropped first, so that the kernel ends the connection with a
    /// FIN after what was written, not with a reset that could discard it at the peer. Idempotent.
    func close() {
        if let socket, failure == nil {
            var drained = 0
            while drained < 1 << 20, case .bytes(let bytes) = Self.readNow(socket.descriptor), !bytes.isEmpty { drained += bytes.count }
        }
        fail(.closedLocally)
    }

    /// Closes the connection at once, dropping whatever is queued: the peer sees the stream end with no
    /// goodbye (or a reset, if it had sent bytes not yet read). Calls waiting fail with
    /// ``WebSocketError/closedLocally``. Idempotent.
    func abort() {
        fail(.closedLocally)
    }
}
