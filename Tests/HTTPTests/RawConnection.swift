import Glibc
import TBRFoundation
import TBRTestKit

/// A client connection to 127.0.0.1 that says exactly what the test wants, when it wants: for the
/// server's bounds. Every read blocks a thread of its own (``onThreadOfItsOwn(_:)``), never one of
/// Swift's cooperative pool, which the server's handlers need; a read waits 30 s at most (a failing
/// test's wait only).
final class RawConnection: @unchecked Sendable {
    // @unchecked: the descriptor is used by one thread at a time, the test's steps being sequential.
    let fd: Int32
    private var closed = false

    init(port: UInt16) throws {
        fd = try loopbackConnection(to: port)
        var bound = timeval(tv_sec: 30, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &bound, socklen_t(MemoryLayout<timeval>.size))
    }

    deinit { close() }

    func close() {
        guard !closed else { return }
        closed = true
        Glibc.close(fd)
    }

    /// Sends `text` (without blocking: a few bytes to a local server).
    func send(_ text: String) {
        let bytes = Array(text.utf8)
        _ = bytes.withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL | MSG_DONTWAIT)) }
    }

    /// Sends `GET /` with `headers` and returns the first bytes of the answer; empty when the server
    /// closed the connection unanswered.
    func ask(keepAlive: Bool = false, headers: String = "") async throws -> String {
        send("GET / HTTP/1.1\r\nHost: x\r\n" + headers + (keepAlive ? "" : "Connection: close\r\n") + "\r\n")
        return try await answer()
    }

    /// The first bytes the server sends; empty when it closes the connection first.
    func answer() async throws -> String {
        let fd = self.fd
        return try await onThreadOfItsOwn {
            var buffer = [UInt8](repeating: 0, count: 256)
            let n = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            return n > 0 ? String(decoding: buffer[..<n], as: UTF8.self) : ""
        }
    }

    /// Whether the server closes the connection without a byte.
    func closedUnanswered() async throws -> Bool { try await answer().isEmpty }

    /// What the server did while ``trickle(_:every:)`` sent its bytes.
    enum Trickled: Equatable {
        /// It closed the connection before answering.
        case closedUnanswered
        /// It answered (these are the first bytes).
        case answered(String)
        /// Every byte went out and nothing came back.
        case sentWhole
    }

    /// Sends `text` one byte each `interval`, stopping as soon as the server answers or closes.
    func trickle(_ text: String, every interval: Duration) async throws -> Trickled {
        let fd = self.fd
        let bytes = Array(text.utf8)
        return try await onThreadOfItsOwn {
            for byte in bytes {
                var p = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
                if poll(&p, 1, Int32(interval.milliseconds(roundingUp: true))) > 0 {
                    var buffer = [UInt8](repeating: 0, count: 256)
                    let n = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT)) }
                    return n > 0 ? .answered(String(decoding: buffer[..<n], as: UTF8.self)) : .closedUnanswered
                }
                var b = byte
                if Glibc.send(fd, &b, 1, Int32(MSG_NOSIGNAL)) < 0 { return .closedUnanswered }
            }
            return .sentWhole
        }
    }
}
