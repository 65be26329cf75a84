internal import CDTLS
import TBRFoundation
#if canImport(Glibc)
import Glibc
#endif

/// A border agent's UDP port, serving one client at a time as OpenThread's does: ``waitForClient(timeout:)``
/// waits for a datagram and connects the socket to its sender, so that others are not heard until
/// ``release()``. Bound to every address, IPv6 and IPv4 (`[::]`, dual stack). Blocking; one thread.
public final class DTLSServerSocket {
    /// The socket, for ``DTLSSession/init(serving:clientID:password:cancellation:)``.
    public let fd: Int32
    /// The port it is bound to.
    public let port: UInt16
    private let cancellation: DTLSCancellation?

    /// Binds `port` (0: one the kernel picks).
    public init(port: UInt16 = 0, cancellation: DTLSCancellation?) throws(DTLSError) {
        // `::` (IPv4 too) on `port`.
        guard let wildcard = try? SocketAddress.resolve(host: "::", port: port, .datagram, [.numericHost, .passive]).first else {
            throw .socket("no IPv6 wildcard address")
        }
        let fd: Int32
        do { fd = try wildcard.openSocket(.datagram) } catch { throw .socket("socket: \(error)") }
        do {
            try wildcard.bind(fd)
        } catch {
            close(fd)
            throw .socket("bind UDP port \(port): \(error)")
        }
        self.fd = fd
        self.port = SocketAddress.local(of: fd)?.port ?? port
        self.cancellation = cancellation
    }

    deinit { close(fd) }

    /// Waits up to `timeout` for a client's first datagram, leaves it queued, and connects the socket to
    /// its sender. Returns the sender's address bytes (the cookie's client id).
    public func waitForClient(timeout: Duration) throws(DTLSError) -> [UInt8] {
        try waitReadable(until: DTLSSession.deadline(timeout))
        var peer = sockaddr_in6()
        var length = socklen_t(MemoryLayout<sockaddr_in6>.size)
        var byte: UInt8 = 0
        let n = withUnsafeMutablePointer(to: &peer) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { recvfrom(fd, &byte, 1, Int32(MSG_PEEK), $0, &length) }
        }
        guard n >= 0 else { throw .socket(DTLSSession.errnoText("recvfrom")) }
        let connected = withUnsafePointer(to: &peer) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, length) }
        }
        guard connected == 0 else { throw .socket(DTLSSession.errnoText("connect")) }
        return withUnsafeBytes(of: &peer) { Array($0.prefix(Int(length))) }
    }

    /// Forgets the connected client: the next datagram may come from anyone.
    public func release() {
        var unspecified = sockaddr()
        unspecified.sa_family = sa_family_t(AF_UNSPEC)
        _ = connect(fd, &unspecified, socklen_t(MemoryLayout<sockaddr>.size))
    }

    /// Reads and drops whatever arrives for `duration` (a session still being torn down hears nothing).
    public func discard(for duration: Duration) throws(DTLSError) {
        let deadline = DTLSSession.deadline(duration)
        var buffer = [UInt8](repeating: 0, count: 2048)
        while true {
            do { try waitReadable(until: deadline) } catch .deadline { return }
            _ = recv(fd, &buffer, buffer.count, Int32(MSG_DONTWAIT))
        }
    }

    private func waitReadable(until deadline: Int64) throws(DTLSError) {
        while true {
            let remaining = deadline - tbr_dtls_now_ms()
            guard remaining > 0 else { throw .deadline }
            var fds = [pollfd(fd: fd, events: Int16(POLLIN), revents: 0),
                       pollfd(fd: cancellation?.readFD ?? -1, events: Int16(POLLIN), revents: 0)]
            let r = poll(&fds, cancellation == nil ? 1 : 2, Int32(min(remaining, 3_600_000)))
            if r < 0 {
                if errno == EINTR { continue }
                throw .socket(DTLSSession.errnoText("poll"))
            }
            if cancellation != nil, fds[1].revents != 0 { throw .cancelled }
            if r > 0, fds[0].revents != 0 { return }
        }
    }
}
