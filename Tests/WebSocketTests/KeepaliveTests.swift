@testable import WebSocket
import Foundation
import TBRFoundation
import TBRTestKit
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// The client's keepalive pings against a scripted server, on a manual clock (every step waits for the
/// event that proves it happened: the client asleep on the clock, a frame the server printed) and once
/// on the real clock; and the socket's TCP keepalive.
@Suite struct KeepaliveTests {
    static let server = #"""
        scenario = sys.argv[1]
        c.sendall(hello)
        if scenario == "silent":
            # Reads the pings and never answers; keeps the connection open until the client closes it.
            while True:
                try:
                    read_frame()
                except EOFError:
                    break
        elif scenario == "deaf":
            # Reads nothing until the client closes.
            time.sleep(60)
        elif scenario == "answering":
            op, payload = read_frame()
            c.sendall(frame(10, payload) + frame(1, b"after the pong"))
            op, payload = read_frame()
            c.sendall(frame(10, payload) + frame(1, b"after the second pong"))
            read_frame()
        c.close()
        """#

    static func connect(_ scenario: String, keepalive: WebSocketKeepalive) async throws -> (TestProcess, WebSocketClient) {
        let (server, port) = try await ScriptedWebSocketServer.start(server, arguments: [scenario])
        let client = try await LiveClientTests.bounded {
            try await WebSocketClient.connect(to: WebSocketURL("ws://127.0.0.1:\(port)/ws"), keepalive: keepalive)
        }
        return (server, client)
    }

    /// The pings the server has printed.
    static func pings(_ server: TestProcess) -> Int {
        LiveClientTests.frames(server).filter { $0.0 == 9 }.count
    }

    @Test func aServerThatStopsAnsweringPingsFailsTheWaitingReceiveAndLaterSends() async throws {
        let clock = ManualClock()
        let (server, client) = try await Self.connect("silent", keepalive: WebSocketKeepalive(clock: clock))
        let receiving = Task { try await client.receive() }
        try await eventually("the keepalive sleeps until the first ping", wakingOn: clock.wakeups) { clock.sleeperCount == 1 }
        clock.advance(by: .seconds(10))
        try await eventually("the server got a ping") { Self.pings(server) == 1 }
        try await eventually("the keepalive waits for the pong", wakingOn: clock.wakeups) { clock.sleeperCount == 1 }
        clock.advance(by: .seconds(4))
        #expect(Self.pings(server) == 1)
        clock.advance(by: .seconds(1))
        let expected = WebSocketError.connectionLost("no pong arrived within 5 s of a ping: the server at \(client.peer) is not answering")
        await #expect(throws: expected) { try await receiving.value }
        await #expect(throws: expected) { try await client.send(text: "later") }
        await #expect(throws: expected) { try await client.receive() }
        // The client closed the connection: the server's read ends.
        #expect(try await server.waitForExit(timeout: .seconds(10)) == 0)
    }

    @Test func aServerThatAnswersIsPingedEveryIntervalAndTheConnectionStays() async throws {
        let clock = ManualClock()
        let (server, client) = try await Self.connect("answering", keepalive: WebSocketKeepalive(interval: .seconds(10), timeout: .seconds(5), clock: clock))
        let first = Task { try await client.receive() }
        try await eventually("the keepalive sleeps until the first ping", wakingOn: clock.wakeups) { clock.sleeperCount == 1 }
        clock.advance(by: .seconds(10))
        // The message behind the pong proves the client read the pong before it.
        #expect(try await first.value == .text("after the pong"))
        let second = Task { try await client.receive() }
        try await eventually("the keepalive sleeps until the next ping", wakingOn: clock.wakeups) { clock.sleeperCount == 1 }
        clock.advance(by: .seconds(5))  // the old pong deadline passes: nothing happens
        try await eventually("the keepalive still sleeps", wakingOn: clock.wakeups) { clock.sleeperCount == 1 }
        clock.advance(by: .seconds(5))  // 10 s after the first ping: the second
        #expect(try await second.value == .text("after the second pong"))
        #expect(Self.pings(server) == 2)
        await client.close()
        _ = try await server.waitForExit(timeout: .seconds(10))
    }

    @Test func theKeepaliveRunsOnTheRealClock() async throws {
        let (server, client) = try await Self.connect("silent", keepalive: WebSocketKeepalive(interval: .milliseconds(50), timeout: .milliseconds(100)))
        await #expect(throws: WebSocketError.connectionLost("no pong arrived within 100 ms of a ping: the server at \(client.peer) is not answering")) {
            try await LiveClientTests.bounded { try await client.receive() }
        }
        #expect(Self.pings(server) >= 1)
        _ = try await server.waitForExit(timeout: .seconds(10))
    }

    @Test func theScheduleAnswersOnlyThePongOfItsPing() {
        let start = ContinuousClock.now
        var schedule = KeepaliveSchedule(interval: .seconds(10), timeout: .seconds(5), now: start)
        #expect(schedule.wake(at: start.advanced(by: .seconds(9))) == .wait)
        guard case .ping(let payload) = schedule.wake(at: start.advanced(by: .seconds(10))) else {
            Issue.record("no ping after the interval")
            return
        }
        schedule.pong([0xFF])  // unsolicited: not an answer
        #expect(schedule.nextWake == start.advanced(by: .seconds(15)))
        schedule.pong(payload)
        #expect(schedule.nextWake == start.advanced(by: .seconds(20)))
        // A pong due while nobody read gets a fresh timeout when reading starts again.
        guard case .ping = schedule.wake(at: start.advanced(by: .seconds(20))) else { Issue.record("no second ping"); return }
        schedule.readingStarts(at: start.advanced(by: .seconds(60)))
        #expect(schedule.wake(at: start.advanced(by: .seconds(64))) == .wait)
        #expect(schedule.wake(at: start.advanced(by: .seconds(65))) == .fail("no pong arrived within 5 s of a ping"))
    }

    @Test func answersToAPeerThatReadsNothingAreDroppedPastTheBacklog() async throws {
        let (server, port) = try await ScriptedWebSocketServer.start(Self.server, arguments: ["deaf"])
        let client = try await LiveClientTests.bounded { try await WebSocketClient.connect(to: WebSocketURL("ws://127.0.0.1:\(port)/ws")) }
        #expect(await client.tcp.enqueue([0x8A, 0x00]), "a pong is queued while the queue is short")
        // More than the kernel takes: the rest waits in the queue.
        let flood = Task { try await client.tcp.write([UInt8](repeating: 0, count: 64 << 20)) }
        try await eventually("the queue holds more than the backlog") { await client.tcp.queuedBytes > TCPConnection.maximumBacklog }
        #expect(await client.tcp.enqueue([0x8A, 0x00]) == false, "a pong past the backlog is dropped")
        await client.close()
        await #expect(throws: WebSocketError.self) { try await flood.value }
        await server.terminate()
    }

    @Test func theSocketFindsADeadPeerWithin20Seconds() async throws {
        let (server, port) = try await ScriptedWebSocketServer.start(Self.server, arguments: ["silent"])
        let client = try await LiveClientTests.bounded { try await WebSocketClient.connect(to: WebSocketURL("ws://127.0.0.1:\(port)/ws")) }
        let options = await client.tcp.socketOptions()
        #expect(options == [SO_KEEPALIVE: 1, TCP_KEEPIDLE: 5, TCP_KEEPINTVL: 3, TCP_KEEPCNT: 5, TCP_USER_TIMEOUT: 20_000])
        #expect(TCPKeepalive().deadPeerSeconds == 20)
        await client.close()
        _ = try await server.waitForExit(timeout: .seconds(10))
    }
}
