import Foundation
import TBRTestKit
#if canImport(Glibc)
import Glibc
#endif

/// A Unix socket that lets one client through to a private bus, byte for byte both ways, and counts the
/// client's threads (`/proc/PID/task`) when a given method name first passes from the client: how a test
/// sees, from outside, on how many threads a `tbrctl` makes its call. The bus authenticates the relay's
/// end (the test's own user, as tbrctl's), so tbrctl's `AUTH EXTERNAL` passes unchanged.
final class BusRelay: Sendable {
    /// The address clients connect to (`unix:path=…`).
    let address: String
    private let listener: Int32
    private let busPath: String

    /// Listens in `directory` for a client of the bus at `busAddress` (`unix:path=…`).
    init(directory: URL, busAddress: String) throws {
        guard busAddress.hasPrefix("unix:path=") else { throw TestKitError("not a unix:path= address: \(busAddress)") }
        busPath = String(busAddress.dropFirst("unix:path=".count).prefix { $0 != "," })
        let path = directory.appendingPathComponent("relay").path
        address = "unix:path=\(path)"
        listener = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard listener >= 0 else { throw TestKitError("socket: errno \(errno)") }
        // A bound on a hang (a client that never comes), not a timing assumption.
        var limit = timeval(tv_sec: 30, tv_usec: 0)
        setsockopt(listener, SOL_SOCKET, SO_RCVTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size))
        unlink(path)
        guard Self.withAddress(path, { bind(listener, $0, $1) }) == 0, listen(listener, 4) == 0 else {
            close(listener)
            throw TestKitError("cannot listen at \(path): errno \(errno)")
        }
    }

    deinit { close(listener) }

    /// Accepts one client, connects it to the bus and relays until either side closes. The first time
    /// `member` appears in what the client sent, counts the threads of process `pid` before passing the
    /// bytes on, so the client is still waiting for its reply. Blocking: run it on a thread of its own.
    /// - Returns: the thread count; nil when `member` never passed.
    func relayOne(watchingFor member: String, pid: pid_t) throws -> Int? {
        let client = accept(listener, nil, nil)
        guard client >= 0 else { throw TestKitError("no client came to the relay (errno \(errno))") }
        defer { close(client) }
        let bus = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        defer { close(bus) }
        guard Self.withAddress(busPath, { connect(bus, $0, $1) }) == 0 else { throw TestKitError("cannot reach the bus: errno \(errno)") }
        let needle = Array(member.utf8)
        var sent: [UInt8] = []
        var threads: Int?
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            var fds = [pollfd(fd: client, events: Int16(POLLIN), revents: 0), pollfd(fd: bus, events: Int16(POLLIN), revents: 0)]
            let ready = poll(&fds, 2, 30_000)
            guard ready > 0 else { throw TestKitError("the relay saw nothing for 30 s") }
            for (index, from, to) in [(0, client, bus), (1, bus, client)] where fds[index].revents != 0 {
                let n = read(from, &buffer, buffer.count)
                guard n > 0 else { return threads }
                if from == client, threads == nil {
                    sent += buffer[0..<n]
                    if Self.contains(sent, needle) {
                        threads = try FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task").count
                    }
                }
                var offset = 0
                while offset < n {
                    let written = buffer.withUnsafeBytes { write(to, $0.baseAddress! + offset, n - offset) }
                    guard written > 0 else { return threads }
                    offset += written
                }
            }
        }
    }

    private static func contains(_ haystack: [UInt8], _ needle: [UInt8]) -> Bool {
        guard haystack.count >= needle.count else { return false }
        return (0...(haystack.count - needle.count)).contains { haystack[$0..<$0 + needle.count].elementsEqual(needle) }
    }

    private static func withAddress(_ path: String, _ body: (UnsafePointer<sockaddr>, socklen_t) -> Int32) -> Int32 {
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        guard bytes.count < MemoryLayout.size(ofValue: address.sun_path) else { return -1 }
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (i, byte) in bytes.enumerated() { raw[i] = byte }
        }
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { body($0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
    }
}
