import Foundation
import HTTP
import TBRTestKit
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// The HTTPS API under attack and load, against the built tbrd (docs/http-api.md, "Bounds and hostile
/// clients"): slow clients from many addresses lock nobody out and are closed at their deadline; a
/// head sent a byte a second is closed at 10 s; event streams and a steady request rate hold no thread
/// each and leave memory flat.
@Suite struct HTTPAPILoadTests {
    typealias API = HTTPAPITests

    /// tbrd with the API on 127.0.0.1, a `read` token, and tbrd's pid and port.
    static func start(_ env: DaemonEnvironment) async throws -> (base: String, port: UInt16, token: String, pid: pid_t) {
        try await env.startSimulator(["wpan0"])
        try await env.startDaemon(try env.configuration("http-listen = 127.0.0.1:0\n"))
        let base = try await API.base(env)
        let port = try #require(base.split(separator: ":").last.flatMap { UInt16($0) })
        let token = try await API.token(env, "dashboard", "read")
        let pid = try #require(env.daemon?.pid)
        return (base, port, token, pid)
    }

    /// 1,000 connections from 127.0.0.2–9, each trickling a header line every second: a client with a
    /// valid token on 127.0.0.1 is answered meanwhile, tbrd runs a few threads, and after the head's
    /// deadline every slow connection is closed, unanswered, and tbrd's descriptors are back where they were.
    @Test func aThousandSlowConnectionsLockNobodyOutAndAreClosedAtTheirDeadline() async throws {
        try await withDaemon { env throws in
            let (base, port, token, pid) = try await Self.start(env)
            #expect(try await API.curl(["\(base)/api/v1/routers"], token: token).status == 200)
            let before = ProcessStatus.descriptors(pid)
            let sources = (2...9).map { "127.0.0.\($0)" }
            let slow = try SlowClients(count: 1000, from: sources, to: port, first: "GET /api/v1/routers HTTP/1.1\r\nHost: tbrd\r\n")
            try await eventually("tbrd holds the 1,000 connections") { ProcessStatus.descriptors(pid) >= before + 1000 }
            async let trickled = slow.trickle(every: .seconds(1), pieces: (0..<100).map { "X-Slow-\($0): still sending\r\n" })
            let answer = try await API.curl(["\(base)/api/v1/routers"], token: token)
            #expect(answer.status == 200, "the legitimate client is answered while 1,000 connections trickle: \(answer.body)")
            let threads = ProcessStatus.field("Threads", of: pid)
            #expect(threads > 0 && threads <= 32, "tbrd runs \(threads) threads with 1,000 connections open")
            let outcome = try await trickled
            #expect(outcome.closed == 1000 && outcome.answered == 0, "\(outcome)")
            #expect(outcome.lastClose < .seconds(40), "closed at the head's deadline, not when they stop sending: \(outcome)")
            try await eventually("tbrd's descriptors are back where they started") { ProcessStatus.descriptors(pid) <= before }
            #expect(try await API.curl(["\(base)/api/v1/routers"], token: token).status == 200)
        }
    }

    /// A head sent one byte a second, with a valid token in it, is closed 10 s after the connection
    /// opened: a deadline for the whole head, not for each byte.
    @Test func aHeadSentAByteASecondIsClosedAtTenSeconds() async throws {
        try await withDaemon { env throws in
            let (_, port, token, _) = try await Self.start(env)
            env.secrets.append(token)
            let head = "GET /api/v1/routers HTTP/1.1\r\nHost: tbrd\r\nAuthorization: Bearer \(token)\r\n\r\n"
            // Taken before connecting: tbrd's deadline starts at its accept, which comes after.
            let opened = ContinuousClock.now
            let client = try SlowClients(count: 1, from: ["127.0.0.1"], to: port, first: String(head.prefix(1)))
            let outcome = try await client.trickle(every: .seconds(1), pieces: head.dropFirst().map { String($0) })
            let elapsed = ContinuousClock.now - opened
            #expect(outcome.closed == 1 && outcome.answered == 0, "\(outcome)")
            #expect(elapsed >= .seconds(10), "not before the deadline: \(elapsed)")
            #expect(elapsed < .seconds(Int64(head.utf8.count)), "closed before the head could be complete: \(elapsed)")
        }
    }

    /// 100 event streams open while 100 requests a second come for 30 s: every request is answered,
    /// every stream is still open, and tbrd's memory is flat (the second half adds no more than noise).
    @Test func eventStreamsAndASteadyRateLeaveMemoryFlat() async throws {
        try await withDaemon { env throws in
            let (base, port, token, pid) = try await Self.start(env)
            env.secrets.append(token)
            let streams = try SlowClients(
                count: 100, from: ["127.0.0.2"], to: port,
                first: "GET /api/v1/events HTTP/1.1\r\nHost: tbrd\r\nAuthorization: Bearer \(token)\r\n\r\n")
            let opened = try await onThreadOfItsOwn { [fds = streams.descriptors] in
                fds.filter { fd in
                    var bound = timeval(tv_sec: 30, tv_usec: 0)  // bounds a failing test's wait only
                    setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &bound, socklen_t(MemoryLayout<timeval>.size))
                    var buffer = [UInt8](repeating: 0, count: 1024)
                    var text = ""
                    while !text.contains(": open") {
                        let n = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
                        guard n > 0 else { return false }
                        text += String(decoding: buffer[..<n], as: UTF8.self)
                    }
                    return true
                }.count
            }
            #expect(opened == 100, "every stream says it is open")
            let client = HTTPClient(timeout: .seconds(30))
            let url = try HTTPURL(base + "/api/v1/routers")
            var rss: [Int] = []
            // The load itself is a rate: a request every 10 ms, never a burst to catch up after a stall of
            // the machine, and never more than 100 in flight from this one address (tbrd rightly refuses
            // a 129th connection from one address, and a loaded machine slows answers).
            let clock = ContinuousClock()
            var next = clock.now
            let answered = try await withThrowingTaskGroup(of: Int.self) { group in
                var total = 0, inFlight = 0
                for second in 0..<30 {
                    for _ in 0..<100 {
                        if inFlight == 100, let one = try await group.next() {
                            total += one
                            inFlight -= 1
                        }
                        next = max(next.advanced(by: .milliseconds(10)), clock.now)
                        try await clock.sleep(until: next)
                        group.addTask {
                            let r = try await client.send(HTTPRequest("GET", url, headers: [("Authorization", "Bearer \(token)")]))
                            return r.status == 200 ? 1 : 0
                        }
                        inFlight += 1
                    }
                    if second == 10 || second == 29 { rss.append(ProcessStatus.field("VmRSS", of: pid)) }
                }
                return try await group.reduce(total, +)
            }
            #expect(answered == 3000, "every request is answered")
            let stillOpen = streams.descriptors.filter { fd in
                var p = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
                guard poll(&p, 1, 0) == 1 else { return true }
                var byte: UInt8 = 0
                return recv(fd, &byte, 1, Int32(MSG_PEEK | MSG_DONTWAIT)) > 0
            }.count
            #expect(stillOpen == 100, "every stream is still open")
            try #require(rss.count == 2 && rss.allSatisfy { $0 > 0 })
            #expect(rss[1] - rss[0] < 4096, "memory flat: \(rss[0]) KiB at 10 s, \(rss[1]) KiB at 30 s")
        }
    }
}
