import TBRFoundation

#if canImport(Glibc)
import Glibc
#endif

/// Tells the service manager how tbrd is doing, through the `sd_notify` protocol systemd documents
/// (sd_notify(3)): one datagram of `KEY=VALUE` lines to the `AF_UNIX` socket named by `NOTIFY_SOCKET`.
/// `READY=1` once `io.tbrd` is owned (the unit is `Type=notify`), `STOPPING=1` when a stop begins,
/// `WATCHDOG=1` from ``DaemonRuntime``'s watchdog loop. Without `NOTIFY_SOCKET` (tbrd started by hand or
/// by a test) every message is dropped.
///
/// Written here rather than linked from libsystemd: the protocol is one `sendto`, and tbrd would
/// otherwise load a library for it.
struct ServiceNotifier: Sendable {
    /// The socket's address, as `sockaddr_un.sun_path` bytes (a leading `@` becomes a NUL: the
    /// abstract namespace); nil when there is no service manager to tell.
    private let path: [UInt8]?
    /// How often systemd expects `WATCHDOG=1` (`WATCHDOG_USEC`), when it expects it from this process.
    let watchdogInterval: Duration?

    /// The notifier the environment describes (`NOTIFY_SOCKET`, `WATCHDOG_USEC`, `WATCHDOG_PID`).
    init(environment: [String: String]) {
        if let socket = environment["NOTIFY_SOCKET"], socket.hasPrefix("/") || socket.hasPrefix("@"), socket.utf8.count < 108 {
            var bytes = Array(socket.utf8)
            if bytes[0] == UInt8(ascii: "@") { bytes[0] = 0 }
            path = bytes
        } else {
            path = nil
        }
        let forThisProcess = environment["WATCHDOG_PID"].map { $0 == "\(getpid())" } ?? true
        if forThisProcess, let text = environment["WATCHDOG_USEC"], let microseconds = Int64(text), microseconds > 0 {
            watchdogInterval = .microseconds(microseconds)
        } else {
            watchdogInterval = nil
        }
    }

    /// Whether a service manager listens.
    var isActive: Bool { path != nil }

    /// Sends `state` (newline-separated `KEY=VALUE` lines).
    /// - Returns: false when there is no service manager, or the datagram could not be sent (the error,
    ///   as a sentence, in `failure`).
    @discardableResult
    func notify(_ state: String, failure: ((String) -> Void)? = nil) -> Bool {
        guard let path else { return false }
        let fd = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else {
            failure?("socket: \(Errno(errno).description)")
            return false
        }
        defer { close(fd) }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { sunPath in
            for (i, byte) in path.enumerated() { sunPath[i] = byte }
        }
        // An abstract name's length counts exactly its bytes; a path's includes its terminating NUL.
        let length = MemoryLayout<sa_family_t>.size + path.count + (path.first == 0 ? 0 : 1)
        let bytes = Array(state.utf8)
        let sent = withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { address in
                bytes.withUnsafeBytes { sendto(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL), address, socklen_t(length)) }
            }
        }
        guard sent == bytes.count else {
            failure?("sendto \(String(decoding: path.map { $0 == 0 ? UInt8(ascii: "@") : $0 }, as: UTF8.self)): \(Errno(errno).description)")
            return false
        }
        return true
    }
}
