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
        import base64, hashlib, socket, struct, sys, time
        scenario = sys.argv[1]
        srv = socket.socket(); srv.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        srv.bind(("127.0.0.1", 0)); srv.listen(1)
        print(srv.getsockname()[1], flush=True)
        c, _ = srv.accept()
        data = b""
        while b"\r\n\r\n" not in data:
            data += c.recv(4096)
        key = [l.split(b":", 1)[1].strip() for l in data.split(b"\r\n") if l.lower().startswith(b"sec-websocket-key")][0]
        accept = base64.b64encode(hashlib.sha1(key + b"258EAFA5-E914-47DA-95CA-C5AB0DC85B11").digest())
        def frame(op, payload, fin=True, mask=None):
            head = bytes([(0x80 if fin else 0) | op])
            n = len(payload)
            m = 0x80 if mask else 0
            head += bytes([m | n]) if n < 126 else bytes([m | 126]) + struct.pack(">H", n)
            if mask:
                payload = bytes(b ^ mask[i % 4] for i, b in enumerate(payload)); head += mask
            return head + payload
        def recv_exact(n):
            out = b""
            while len(out) < n:
                chunk = c.recv(n - len(out))
                if not chunk: raise EOFError
                out += chunk
            return out
        def read_frame():
            b0, b1 = recv_exact(2)
            n = b1 & 0x7F
            if n == 126: n = struct.unpack(">H", recv_exact(2))[0]
            elif n == 127: n = struct.unpack(">Q", recv_exact(8))[0]
            mask = recv_exact(4) if b1 & 0x80 else None
            payload = recv_exact(n)
            if mask: payload = bytes(b ^ mask[i % 4] for i, b in enumerate(payload))
            print("frame", b0 & 0x0F, "masked" if mask else "unmasked", payload.hex(), flush=True)
            return b0 & 0x0F, payload
        hello = b"HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Accept: " + accept + b"\r\n\r\n"
        if scenario == "conversation":
            c.sendall(hello + frame(1, b"first"))
            time.sleep(0.05)
            c.sendall(frame(9, b"are you there"))
            op, payload = read_frame()
            c.sendall(frame(1, b"frag", fin=False)); time.sleep(0.05)
            c.sendall(frame(0, b"men", fin=False) + frame(9, b"")); time.sleep(0.05)
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
        let directory = try TemporaryDirectory.make(prefix: "tbrd-ws")
        let python = try Executables.find("python3", package: "python3")
        let p = try TestProcess(python, ["-c", server, scenario], directory: directory)
        var port: UInt16?
        try await eventually("the scripted server listens", timeout: .seconds(20)) {
            guard p.isRunning || !p.stdout.isEmpty else { throw TestKitError("the server exited: \(p.stderr)") }
            port = p.stdout.split(separator: "\n").first.flatMap { UInt16($0) }
            return port != nil
        }
        return (p, port!)
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
        guard case .finished(let value) = try await TimeLimit.run(.seconds(10), clock: SystemClock(), body) else {
            throw TestKitError("the client did not finish within 10 s")
        }
        return value
    }

    @Test func aConversation() async throws {
        let (server, port) = try await Self.start("conversation")
        let client = try await Self.bounded { try await WebSocketClient.connect(to: WebSocketURL("ws://127.0.0.1:\(port)/ws")) }
        #expect(try await Self.bounded { try await client.receive() } == .text("first"))
        let long = "fragmented " + String(repeating: "ü", count: 200)
        #expect(try await Self.bounded { try await client.receive() } == .text("fragmented " + String(repeating: "ü", count: 200)))
        try await client.send(text: "echo me")
        #expect(try await Self.bounded { try await client.receive() } == .text("ECHO ME"))
        await #expect(throws: WebSocketError.closed(code: 1000, reason: "bye")) { try await Self.bounded { try await client.receive() } }
        _ = try await server.waitForExit(timeout: .seconds(10))
        let frames = Self.frames(server)
        // Pongs carry the pings' payloads; the close is answered with the server's status.
        #expect(frames.map(\.0) == [0xA, 0xA, 0x1, 0x8], "\(server.stdout) \(server.stderr)")
        #expect(frames.first?.1 == Data("are you there".utf8).map { String(format: "%02x", $0) }.joined())
        #expect(frames.last?.1 == "03e8")
        #expect(long.count == 211)
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
