import Foundation
import TBRFoundation
import TBRTestKit
import Testing
import WebSocket

/// The client over a real TCP connection, against a scripted server (Python's standard library, which
/// writes the frames byte for byte): the server's first message in the same segment as the handshake,
/// a ping answered, a message in fragments that arrive apart, the closing handshake, a protocol
/// violation answered with status 1002, a connection dropped without a close, nobody listening.
@Suite struct LiveClientTests {
    static let server = #"""
        scenario = sys.argv[1]
        if scenario == "conversation":
            c.sendall(hello + frame(1, b"first"))
            time.sleep(0.05)
            c.sendall(frame(9, b"are you there"))
            op, payload = read_frame()
            c.sendall(frame(1, b"frag" * 64, fin=False)); time.sleep(0.05)
            c.sendall(frame(0, b"men" * 100, fin=False) + frame(9, b"")); time.sleep(0.05)
            c.sendall(frame(0, b"ted " + "ü".encode() * 200, fin=True))
            read_frame()
            op, payload = read_frame()
            c.sendall(frame(1, payload.upper()))
            c.sendall(frame(8, struct.pack(">H", 1000) + b"bye"))
            read_frame()
        elif scenario == "violation":
            c.sendall(hello + frame(1, b"masked", mask=b"abcd"))
            read_frame()
        elif scenario == "slow":
            c.sendall(hello + frame(1, b"first"))
            read_frame()
            c.sendall(frame(1, b"second"))
            read_frame()
        elif scenario == "drop":
            c.sendall(hello)
            time.sleep(0.05)
        c.close()
        """#

    /// Starts the scripted server for `scenario` and returns it with its port.
    static func start(_ scenario: String) async throws -> (TestProcess, UInt16) {
        try await ScriptedWebSocketServer.start(server, arguments: [scenario])
    }

    /// The frames the server received: (opcode, payload as hex), client frames only if masked.
    static func frames(_ p: TestProcess) -> [(Int, String)] {
        p.stdout.split(separator: "\n").dropFirst().compactMap { line in
            let parts = line.split(separator: " ")
            guard parts.count >= 3, parts[0] == "frame", parts[2] == "masked", let op = Int(parts[1]) else { return nil }
            return (op, parts.count > 3 ? String(parts[3]) : "")
        }
    }

    static func bounded<T: Sendable>(_ body: @escaping @Sendable () async throws -> T) async throws -> T {
        // A bound for a client that hangs, not a speed test: 12 MiB through a loaded 2-core machine
        // once took more than 10 s.
        guard case .finished(let value) = try await TimeLimit.run(.seconds(60), clock: SystemClock(), body) else {
            throw TestKitError("the client did not finish within 60 s")
        }
        return value
    }

    @Test func aConversation() async throws {
        let (server, port) = try await Self.start("conversation")
        let client = try await Self.bounded { try await WebSocketClient.connect(to: WebSocketURL("ws://127.0.0.1:\(port)/ws")) }
        #expect(try await Self.bounded { try await client.receive() } == .text("first"))
        // Three fragments (of at least the 256 bytes a non-final fragment must carry), a ping between.
        let long = String(repeating: "frag", count: 64) + String(repeating: "men", count: 100) + "ted " + String(repeating: "ü", count: 200)
        #expect(try await Self.bounded { try await client.receive() } == .text(long))
        try await client.send(text: "echo me")
        #expect(try await Self.bounded { try await client.receive() } == .text("ECHO ME"))
        await #expect(throws: WebSocketError.closed(code: 1000, reason: "bye")) { try await Self.bounded { try await client.receive() } }
        _ = try await server.waitForExit(timeout: .seconds(10))
        let frames = Self.frames(server)
        // Pongs carry the pings' payloads; the close is answered with the server's status.
        #expect(frames.map(\.0) == [0xA, 0xA, 0x1, 0x8], "\(server.stdout) \(server.stderr)")
        #expect(frames.first?.1 == Data("are you there".utf8).map { String(format: "%02x", $0) }.joined())
        #expect(frames.last?.1 == "03e8")
    }

    @Test func aServerThatBreaksTheProtocolIsClosedWith1002() async throws {
        let (server, port) = try await Self.start("violation")
        let client = try await Self.bounded { try await WebSocketClient.connect(to: WebSocketURL("ws://127.0.0.1:\(port)/")) }
        do {
            _ = try await Self.bounded { try await client.receive() }
            Issue.record("a masked frame from the server was accepted")
        } catch let error as WebSocketError {
            guard case .protocolViolation(let e) = error else { Issue.record("unexpected \(error)"); return }
            #expect(e.problem == "the frame is masked, which a server must never do")
        }
        _ = try await server.waitForExit(timeout: .seconds(10))
        #expect(Self.frames(server).map(\.1) == ["03ea"])
        // The connection stays failed.
        await #expect(throws: WebSocketError.self) { try await client.send(text: "x") }
    }

    @Test func aDroppedConnectionAndNobodyListening() async throws {
        let (server, port) = try await Self.start("drop")
        let client = try await Self.bounded { try await WebSocketClient.connect(to: WebSocketURL("ws://127.0.0.1:\(port)/")) }
        await #expect(throws: WebSocketError.connectionLost("the server ended the connection without a closing handshake")) {
            try await Self.bounded { try await client.receive() }
        }
        _ = try await server.waitForExit(timeout: .seconds(10))
        do {
            _ = try await Self.bounded { try await WebSocketClient.connect(to: WebSocketURL("ws://127.0.0.1:\(port)/")) }
            Issue.record("connected to a closed port")
        } catch let error as WebSocketError {
            #expect(error == .unreachable("127.0.0.1:\(port)", reason: "Connection refused"))
        }
    }

    @Test func aReceiveCancelledByATimeoutLeavesTheConnectionUsable() async throws {
        let (server, port) = try await Self.start("slow")
        let client = try await Self.bounded { try await WebSocketClient.connect(to: WebSocketURL("ws://127.0.0.1:\(port)/ws")) }
        #expect(try await Self.bounded { try await client.receive() } == .text("first"))
        // The server sends "second" only after the client's "go": this receive must time out.
        let early = try await TimeLimit.run(.milliseconds(100), clock: SystemClock()) { try await client.receive() }
        guard case .timedOut = early else { Issue.record("the server sent early: \(early)"); return }
        try await client.send(text: "go")
        #expect(try await Self.bounded { try await client.receive() } == .text("second"))
        await client.close()
        await #expect(throws: WebSocketError.closedLocally) { try await client.receive() }
        _ = try await server.waitForExit(timeout: .seconds(10))
        #expect(Self.frames(server).map(\.1) == ["676f", "03e8"], "the go, then a close with status 1000 on the way out")
    }
}
