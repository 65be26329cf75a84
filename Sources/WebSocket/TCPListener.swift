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
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        hints.ai_flags = AI_PASSIVE | AI_NUMERICSERV
        var list: UnsafeMutablePointer<addrinfo>?
        let rc = getaddrinfo(host, String(port), &hints, &list)
        guard rc == 0, let list else {
            throw .cannotListen(shown, reason: "cannot resolve \(host): \(String(cString: gai_strerror(rc)))")
        }
        defer { freeaddrinfo(list) }
        var lastError = "no address"
        var entry: UnsafeMutablePointer<addrinfo>? = list
        while let info = entry {
            entry = info.pointee.ai_next
            let fd = Glibc.socket(
                info.pointee.ai_family, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
            guard fd >= 0 else {
                lastError = SocketErrno(errno).description
                continue
            }
            var one: Int32 = 1
            _ = setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, socklen_t(MemoryLayout<Int32>.size))
            guard bind(fd, info.pointee.ai_addr, info.pointee.ai_addrlen) == 0, Glibc.listen(fd, backlog) == 0 else {
                lastError = SocketErrno(errno).description
                Glibc.close(fd)
                continue
            }
            var bound = sockaddr_storage()
            var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
            let actual = withUnsafeMutablePointer(to: &bound) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) == 0 ? Self.endpoint($0).port : 0 }
            }
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
                let peer = withUnsafePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Self.endpoint($0) } }
                return (client, peer.host.contains(":") ? "[\(peer.host)]:\(peer.port)" : "\(peer.host):\(peer.port)")
            }
            switch errno {
            case EINTR, ECONNABORTED, EPROTO: continue
            case EAGAIN, EWOULDBLOCK: return nil
            default: throw .connectionLost("cannot accept a connection: \(SocketErrno(errno))")
            }
        }
    }

    /// The read source fired: a connection is pending.
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

    /// The numeric host and the port of a socket address.
    static func endpoint(_ address: UnsafePointer<sockaddr>) -> (host: String, port: UInt16) {
        var host = [CChar](repeating: 0, count: Int(NI_MAXHOST))
        var service = [CChar](repeating: 0, count: Int(NI_MAXSERV))
        let length = socklen_t(address.pointee.sa_family == sa_family_t(AF_INET6) ? MemoryLayout<sockaddr_in6>.size : MemoryLayout<sockaddr_in>.size)
        guard getnameinfo(address, length, &host, socklen_t(host.count), &service, socklen_t(service.count), NI_NUMERICHOST | NI_NUMERICSERV) == 0
        else { return ("?", 0) }
        func text(_ chars: [CChar]) -> String { String(decoding: chars.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self) }
        return (text(host), UInt16(text(service)) ?? 0)
    }
}
