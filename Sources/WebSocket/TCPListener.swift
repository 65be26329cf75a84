import Dispatch
import TBRFoundation

#if canImport(Glibc)
import Glibc
#endif

/// A listening TCP socket on a serial Dispatch queue of its own (the actor's executor), as
/// ``TCPConnection`` is: non-blocking, readiness from a `DescriptorWatch` (which owns the socket),
/// ``accept()`` waiting for the next connection without blocking a thread.
actor TCPListener {
    private let executor: DispatchQueueExecutor
    nonisolated var unownedExecutor: UnownedSerialExecutor { executor.asUnownedSerialExecutor() }
    /// The address it listens on, as given.
    nonisolated let host: String
    /// The port it listens on (the one the kernel chose when asked for port 0).
    nonisolated let port: UInt16
    private var socket: DescriptorWatch?
    private var waiter: CheckedContinuation<(Int32, String), any Error>?

    private init(host: String, port: UInt16) {
        executor = DispatchQueueExecutor(label: "tbrd.tcp-listener")
        self.host = host
        self.port = port
    }

    /// `host:port`, an IPv6 address in brackets.
    nonisolated var address: String { host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)" }

    /// Listens on `host` (an address or a name; the first of its addresses that binds) and `port`
    /// (0: one the kernel chooses).
    /// - Throws: ``WebSocketError/cannotListen(_:reason:)``.
    static func listen(host: String, port: UInt16, backlog: Int32 = 128) async throws(WebSocketError) -> TCPListener {
        let shown = host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)"
        let addresses: [SocketAddress]
        do {
            addresses = try SocketAddress.resolve(host: host, port: port, .stream, .passive)
        } catch {
            throw .cannotListen(shown, reason: error.description)
        }
        var lastError = "no address"
        for address in addresses {
            let fd: Int32
            do throws(Errno) {
                fd = try address.openSocket(.stream, nonBlocking: true)
                do {
                    try address.bind(fd, listening: backlog)
                } catch {
                    Glibc.close(fd)
                    throw error
                }
            } catch {
                lastError = error.description
                continue
            }
            let actual = SocketAddress.local(of: fd)?.port ?? 0
            let listener = TCPListener(host: host, port: actual == 0 ? port : actual)
            do {
                try await listener.install(fd)
            } catch {
                throw .cannotListen(shown, reason: error.description)
            }
            return listener
        }
        throw .cannotListen(shown, reason: lastError)
    }

    private func install(_ fd: Int32) throws(DescriptorWatchError) {
        dispatchPrecondition(condition: .onQueue(executor.queue))
        socket = try DescriptorWatch(taking: fd, events: .readable, queue: executor.queue) { [weak self] _ in
            self?.assumeIsolated { $0.readable() }
        }
    }

    /// The next connection: a connected socket (non-blocking, close-on-exec; the caller owns it) and the
    /// peer's `host:port`.
    /// - Throws: ``WebSocketError/cancelled`` when the task is cancelled while it waits,
    ///   ``WebSocketError/closedLocally`` after ``close()``, ``WebSocketError/connectionLost(_:)`` for an
    ///   error of `accept` that retrying at once would not cure (out of descriptors, say).
    func accept() async throws(WebSocketError) -> (fd: Int32, peer: String) {
        guard let socket else { throw .closedLocally }
        precondition(waiter == nil, "one task accepts at a time")
        if let accepted = try Self.acceptNow(socket.descriptor) { return accepted }
        do {
            return try await withTaskCancellationHandler {
                try await withCheckedThrowingContinuation { (c: CheckedContinuation<(Int32, String), any Error>) in
                    waiter = c
                    socket.enabled = .readable
                }
            } onCancel: {
                executor.queue.async { [self] in self.assumeIsolated { $0.resumeWaiter(throwing: .cancelled) } }
            }
        } catch let error as WebSocketError {
            throw error
        } catch {
            throw .cancelled
        }
    }

    /// One `accept`: a connection, nil when none is pending, or an error that is not transient.
    private static func acceptNow(_ fd: Int32) throws(WebSocketError) -> (Int32, String)? {
        while true {
            var address = sockaddr_storage()
            var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
            let client = withUnsafeMutablePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    Glibc.accept(fd, $0, &length)
                }
            }
            if client >= 0 {
                // accept4 is not in the Glibc module; nothing in these processes forks in between.
                _ = fcntl(client, F_SETFD, FD_CLOEXEC)
                _ = fcntl(client, F_SETFL, fcntl(client, F_GETFL) | O_NONBLOCK)
                let peer = withUnsafePointer(to: &address) {
                    $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { SocketAddress($0, length: length) }
                }
                return (client, peer.description)
            }
            switch errno {
            case EINTR, ECONNABORTED, EPROTO: continue
            case EAGAIN, EWOULDBLOCK: return nil
            default: throw .connectionLost("cannot accept a connection: \(Errno(errno))")
            }
        }
    }

    /// The watch reported the socket readable: a connection is pending.
    private func readable() {
        guard let socket, waiter != nil else {
            socket?.enabled = []
            return
        }
        do {
            guard let accepted = try Self.acceptNow(socket.descriptor) else { return }
            socket.enabled = []
            let waiter = self.waiter
            self.waiter = nil
            waiter?.resume(returning: accepted)
        } catch {
            resumeWaiter(throwing: error)
        }
    }

    private func resumeWaiter(throwing error: WebSocketError) {
        guard let waiter else { return }
        self.waiter = nil
        socket?.enabled = []
        waiter.resume(throwing: error)
    }

    /// Stops listening; a waiting ``accept()`` fails with ``WebSocketError/closedLocally``. Idempotent.
    func close() {
        resumeWaiter(throwing: .closedLocally)
        socket?.cancel()
        socket = nil
    }

}
