import TBRFoundation
internal import CDTLS
#if canImport(Glibc)
import Glibc
#endif

/// Cuts short every wait of the sessions that were given it: ``cancel()`` makes a pipe readable, which
/// the waits poll beside their socket. Safe from any thread.
public final class DTLSCancellation: Sendable {
    let readFD: Int32
    private let writeFD: Int32

    public init() throws(DTLSError) {
        var fds: [Int32] = [-1, -1]
        guard pipe(&fds) == 0 else { throw .socket(DTLSSession.errnoText("pipe")) }
        for fd in fds {
            _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
            _ = fcntl(fd, F_SETFL, O_NONBLOCK)
        }
        readFD = fds[0]
        writeFD = fds[1]
    }

    /// Ends every current and later wait with ``DTLSError/cancelled``.
    public func cancel() {
        var byte: UInt8 = 1
        _ = write(writeFD, &byte, 1)
    }

    deinit {
        close(readFD)
        close(writeFD)
    }
}

/// One DTLS 1.2 session with TLS_ECJPAKE_WITH_AES_128_CCM_8 over a connected UDP socket, as an ePSKc
/// commissioner (client) or border agent (server) uses it. Blocking: every call waits on its thread, up
/// to its deadline; use it from one thread at a time.
public final class DTLSSession {
    private let endpoint: OpaquePointer
    private let fd: Int32
    private let ownsSocket: Bool
    private let cancellation: DTLSCancellation?

    /// The most a datagram carries here (an IPv6 minimum MTU's worth is what a border agent sends; this
    /// leaves room for larger ones).
    public static let maxDatagram = 16_384 + 1

    /// A client session to `address`, with `password` (the ePSKc's digits as ASCII) as EC-JPAKE password.
    public convenience init(connectingTo address: UDPAddress, password: [UInt8], cancellation: DTLSCancellation? = nil)
        throws(DTLSError)
    {
        guard let target = address.socketAddress() else { throw .socket("not a numeric address: \(address)") }
        let fd: Int32
        do { fd = try target.openSocket(.datagram) } catch { throw .socket("socket: \(error)") }
        guard target.withSockaddr({ connect(fd, $0, $1) }) == 0 else {
            let text = Self.errnoText("connect to \(address)")
            close(fd)
            throw .socket(text)
        }
        try self.init(server: false, fd: fd, ownsSocket: true, password: password, cancellation: cancellation)
    }

    /// A server session on `fd`, a UDP socket already connected to the client (see ``DTLSServerSocket``).
    /// The socket stays the caller's.
    public convenience init(serving fd: Int32, clientID: [UInt8], password: [UInt8], cancellation: DTLSCancellation?)
        throws(DTLSError)
    {
        try self.init(server: true, fd: fd, ownsSocket: false, password: password, cancellation: cancellation)
        guard clientID.withUnsafeBufferPointer({ tbr_dtls_set_client_id(endpoint, $0.baseAddress, $0.count) }) == 0 else {
            throw .failed(code: -1, text: "the client's address does not fit a cookie")
        }
    }

    private init(server: Bool, fd: Int32, ownsSocket: Bool, password: [UInt8], cancellation: DTLSCancellation?)
        throws(DTLSError)
    {
        guard let endpoint = password.withUnsafeBufferPointer({ tbr_dtls_new(server ? 1 : 0, $0.baseAddress, $0.count) })
        else {
            if ownsSocket { close(fd) }
            throw .failed(code: -1, text: "mbedTLS could not set up a DTLS endpoint")
        }
        self.endpoint = endpoint
        self.fd = fd
        self.ownsSocket = ownsSocket
        self.cancellation = cancellation
        tbr_dtls_set_fd(endpoint, fd, cancellation?.readFD ?? -1)
    }

    deinit {
        tbr_dtls_free(endpoint)
        if ownsSocket { close(fd) }
    }

    /// The negotiated cipher suite, as mbedTLS names it ("TLS-ECJPAKE-WITH-AES-128-CCM-8").
    public var cipherSuite: String { String(cString: tbr_dtls_ciphersuite(endpoint)) }

    /// Runs the handshake until it completes, fails, or `timeout` has passed.
    public func handshake(timeout: Duration) throws(DTLSError) {
        try check(tbr_dtls_handshake(endpoint, Self.deadline(timeout)))
    }

    /// Starts afresh (a server after its HelloVerifyRequest, or between clients).
    public func reset() throws(DTLSError) {
        let code = tbr_dtls_reset(endpoint)
        guard code == 0 else { throw Self.failure(code) }
    }

    /// Sends one application datagram.
    public func send(_ bytes: [UInt8]) throws(DTLSError) {
        try check(bytes.withUnsafeBufferPointer { tbr_dtls_write(endpoint, $0.baseAddress, $0.count) })
    }

    /// The next application datagram, waiting up to `timeout`.
    public func receive(timeout: Duration) throws(DTLSError) -> [UInt8] {
        var buffer = [UInt8](repeating: 0, count: Self.maxDatagram)
        let n = buffer.withUnsafeMutableBufferPointer {
            tbr_dtls_read(endpoint, $0.baseAddress, $0.count, Self.deadline(timeout))
        }
        guard n >= 0 else { throw error(for: tbr_dtls_outcome(rawValue: UInt32(-n))) }
        return Array(buffer[..<Int(n)])
    }

    /// Sends close_notify, so that the peer sees the session end at once.
    public func closeNotify() { tbr_dtls_close_notify(endpoint) }

    private func check(_ outcome: tbr_dtls_outcome) throws(DTLSError) {
        guard outcome == TBR_DTLS_OK else { throw error(for: outcome) }
    }

    private func error(for outcome: tbr_dtls_outcome) -> DTLSError {
        switch outcome {
        case TBR_DTLS_DEADLINE: .deadline
        case TBR_DTLS_REFUSED: .refused
        case TBR_DTLS_PEER_ALERT: .peerAlert
        case TBR_DTLS_PEER_CLOSED: .peerClosed
        case TBR_DTLS_HELLO_VERIFY: .helloVerify
        case TBR_DTLS_BAD_FINISHED: .badFinished
        case TBR_DTLS_CANCELLED: .cancelled
        default: Self.failure(tbr_dtls_last_error(endpoint))
        }
    }

    static func failure(_ code: Int32) -> DTLSError {
        var text = [CChar](repeating: 0, count: 160)
        tbr_dtls_error_text(code, &text, text.count)
        return .failed(code: code, text: String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
    }

    static func deadline(_ timeout: Duration) -> Int64 {
        let ms = timeout.milliseconds()
        return ms > Int64.max - tbr_dtls_now_ms() ? .max : tbr_dtls_now_ms() + ms
    }

    static func errnoText(_ what: String) -> String { "\(what): \(Errno.current)" }
}
