import Foundation
import TBRFoundation
import TBRTestKit

#if canImport(Glibc)
import Glibc
#endif

/// Hostile clients for the HTTPS API's bounds: connections from given loopback addresses that send a
/// request's head slowly, a piece at a time, never finishing it. ``trickle(every:pieces:bound:)`` runs
/// on a thread of its own (blocking calls never hold Swift's pool) until the server has closed every
/// one of them, or `bound` has passed (a failing test's wait only).
final class SlowClients: @unchecked Sendable {
    // @unchecked: the descriptors are used by one thread at a time (opened by the test, then the trickle).
    let descriptors: [Int32]

    /// How the trickle ended.
    struct Outcome: Sendable {
        /// Connections the server closed.
        var closed: Int
        /// Connections on which the server sent anything (it should not: no head was ever complete).
        var answered: Int
        /// The time from the trickle's start to the last close.
        var lastClose: Duration
    }

    /// `count` connections to `port` on 127.0.0.1, spread over `sources` (local addresses to connect
    /// from), each having sent `first`.
    init(count: Int, from sources: [String], to port: UInt16, first: String) throws {
        var fds: [Int32] = []
        for i in 0..<count {
            do { fds.append(try loopbackConnection(to: port, from: sources[i % sources.count])) } catch {
                for fd in fds { close(fd) }
                throw TestKitError("connection \(i): \(error)")
            }
            _ = Self.send(fds[i], first)
        }
        descriptors = fds
    }

    deinit { for fd in descriptors { close(fd) } }

    /// Sends `text` without blocking; false when the connection is gone.
    static func send(_ fd: Int32, _ text: String) -> Bool {
        let bytes = Array(text.utf8)
        let n = bytes.withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL | MSG_DONTWAIT)) }
        return n >= 0 || errno == EAGAIN
    }

    /// Sends the next of `pieces` (cycling) on every open connection each `interval`, until the server
    /// closed them all or `bound` passed.
    func trickle(every interval: Duration, pieces: [String], bound: Duration = .seconds(90)) async throws -> Outcome {
        let fds = descriptors
        return try await onThreadOfItsOwn {
            let clock = ContinuousClock()
            let start = clock.now
            var open = Set(fds.indices), answered = Set<Int>()
            var lastClose = Duration.zero
            var next = start + interval, piece = 0
            while !open.isEmpty, clock.now - start < bound {
                var polls = open.sorted().map { pollfd(fd: fds[$0], events: Int16(POLLIN), revents: 0) }
                let wait = max(0, Int32((next - clock.now).milliseconds(roundingUp: true)))
                _ = poll(&polls, nfds_t(polls.count), wait)
                for p in polls where p.revents != 0 {
                    guard let index = fds.firstIndex(of: p.fd) else { continue }
                    var buffer = [UInt8](repeating: 0, count: 512)
                    let n = buffer.withUnsafeMutableBytes { recv(p.fd, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT)) }
                    if n > 0 {
                        answered.insert(index)
                    } else if n == 0 || (errno != EAGAIN && errno != EINTR) {
                        open.remove(index)
                        lastClose = clock.now - start
                    }
                }
                if clock.now >= next {
                    for index in open { _ = Self.send(fds[index], pieces[piece % pieces.count]) }
                    piece += 1
                    next = clock.now + interval
                }
            }
            return Outcome(closed: fds.count - open.count, answered: answered.count, lastClose: lastClose)
        }
    }
}

/// What /proc says of process `pid`: its open descriptors, threads and resident memory.
enum ProcessStatus {
    static func descriptors(_ pid: pid_t) -> Int {
        (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/fd").count) ?? -1
    }

    /// A field of /proc/PID/status as a number (`Threads`, `VmRSS` in KiB).
    static func field(_ name: String, of pid: pid_t) -> Int {
        guard let text = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8) else { return -1 }
        for line in text.split(separator: "\n") where line.hasPrefix(name + ":") {
            return Int(line.dropFirst(name.count + 1).split(whereSeparator: { $0 == " " || $0 == "\t" }).first ?? "") ?? -1
        }
        return -1
    }
}
