import Foundation
import TBRFoundation
import TBRTestKit
import Testing
import WebSocket

/// The server side: our client against our server (messages both ways, the closing handshake started
/// by either end, limits, keepalive, cancellation), and a raw client in Python (its standard library
/// writes the bytes) for what our client never sends: bad handshakes, unmasked frames, pings.
@Suite struct ServerTests {
    /// A server on a free port serving `/ws` with `handler`, run by a task the caller cancels.
    static func serve(
        _ configuration: WebSocketServer.Configuration = WebSocketServer.Configuration(path: "/ws"),
        handler: @escaping @Sendable (WebSocketConnection) async -> Void
    ) async throws -> (WebSocketServer, Task<Void, Never>) {
        let server = try await WebSocketServer.listen(host: "127.0.0.1", port: 0, configuration: configuration)
        let task = Task { await server.run(handler) }
        return (server, task)
    }

    /// Echoes text messages upper-cased until the connection ends; "close" closes it with 4000.
    static let echo: @Sendable (WebSocketConnection) async -> Void = { connection in
        while true {
            guard case .text(let text)? = try? await connection.receive() else { return }
            if text == "close" {
                await connection.close(code: 4000, reason: "asked")
                return
            }
            try? await connection.send(text: text.uppercased())
        }
    }

    /// A raw client: connects to `port`, runs `script` with `c` (the socket), `send_raw(bytes)`,
    /// `frame(op, payload, fin=True, mask=b"abcd")`, `read_frame()` (prints `frame OP HEX`), `head()`
    /// (reads and prints the response head) and `handshake(extra)` (a good request plus `extra` lines).
    static func rawClient(port: UInt16, _ script: String) async throws -> ProcessResult {
        let prelude = #"""
            import socket, struct, sys
            c = socket.create_connection(("127.0.0.1", int(sys.argv[1])))
            def send_raw(b): c.sendall(b)
            def recv_exact(n):
                out = b""
                while len(out) < n:
                    chunk = c.recv(n - len(out))
                    if not chunk: raise EOFError
                    out += chunk
                return out
            def frame(op, payload, fin=True, mask=b"abcd"):
                head = bytes([(0x80 if fin else 0) | op])
                m = 0x80 if mask else 0
                n = len(payload)
                head += bytes([m | n]) if n < 126 else bytes([m | 126]) + struct.pack(">H", n)
                if mask:
                    payload = bytes(b ^ mask[i % 4] for i, b in enumerate(payload)); head += mask
                return head + payload
            def read_frame():
                b0, b1 = recv_exact(2)
                n = b1 & 0x7F
                if n == 126: n = struct.unpack(">H", recv_exact(2))[0]
                payload = recv_exact(n)
                print("frame", b0 & 0x0F, payload.hex(), flush=True)
                return b0 & 0x0F, payload
            def head():
                data = b""
                while b"\r\n\r\n" not in data:
                    chunk = c.recv(1)
                    if not chunk: break
                    data += chunk
                print(data.split(b"\r\n")[0].decode(), flush=True)
                for line in data.split(b"\r\n")[1:]:
                    if line: print("header", line.decode(), flush=True)
                return data
            def handshake(extra=b"", path=b"/ws", version=b"13", method=b"GET"):
                send_raw(method + b" " + path + b" HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                         + b"Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: " + version + b"\r\n" + extra + b"\r\n")
            def rest():
                data = b""
                while True:
                    chunk = c.recv(4096)
                    if not chunk: break
                    data += chunk
                print("rest", data.decode(errors="replace").replace("\n", "|"), flush=True)
            """#
        return try await ProcessRunner.run(
            try Executables.find("python3", package: "python3"), ["-c", prelude + "\n" + script, String(port)], timeout: .seconds(20))
    }

    @Test func ourClientTalksToOurServerAndEitherEndCanClose() async throws {
        let (server, task) = try await Self.serve(handler: Self.echo)
        defer { task.cancel() }
        #expect(server.port != 0)
        #expect(server.url.description == "ws://127.0.0.1:\(server.port)/ws")
        let client = try await LiveClientTests.bounded { try await WebSocketClient.connect(to: server.url) }
        try await client.send(text: "hello")
        #expect(try await LiveClientTests.bounded { try await client.receive() } == .text("HELLO"))
        let big = String(repeating: "ä", count: 100_000)
        try await client.send(text: big)
        #expect(try await LiveClientTests.bounded { try await client.receive() } == .text(big.uppercased()))
        try await client.send(text: "close")
        await #expect(throws: WebSocketError.closed(code: 4000, reason: "asked")) { try await LiveClientTests.bounded { try await client.receive() } }

        // The client closes: the server's receive ends and its handler returns.
        let ended = Locked<WebSocketError?>(nil)
        let (other, otherTask) = try await Self.serve { connection in
            do throws(WebSocketError) { _ = try await connection.receive() } catch { ended.withLock { $0 = error } }
        }
        defer { otherTask.cancel() }
        let second = try await LiveClientTests.bounded { try await WebSocketClient.connect(to: other.url) }
        await second.close(code: 1001, reason: "bye")
        try await eventually("the server saw the close") { ended.withLock { $0 } == .closed(code: 1001, reason: "bye") }
    }

    @Test func badHandshakesAreRefusedWithAStatusAndASentence() async throws {
        let (server, task) = try await Self.serve(handler: Self.echo)
        defer { task.cancel() }
        func answer(_ script: String, then: String = "rest()") async throws -> [String] {
            try await Self.rawClient(port: server.port, script + "\nhead(); " + then).stdout.split(separator: "\n").map(String.init)
        }
        let noUpgrade = try await answer(#"send_raw(b"GET /ws HTTP/1.1\r\nHost: x\r\n\r\n")"#)
        #expect(noUpgrade.first == "HTTP/1.1 400 Bad Request")
        #expect(noUpgrade.last == "rest the request does not ask to upgrade to websocket|")
        #expect(noUpgrade.contains("header Connection: close"))
        let version = try await answer(#"handshake(version=b"8")"#)
        #expect(version.first == "HTTP/1.1 400 Bad Request")
        #expect(version.contains("header Sec-WebSocket-Version: 13"))
        #expect(try await answer(#"handshake(path=b"/other")"#).first == "HTTP/1.1 404 Not Found")
        #expect(try await answer(#"handshake(method=b"POST")"#).first == "HTTP/1.1 400 Bad Request")
        let noKey = try await answer(#"send_raw(b"GET /ws HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Version: 13\r\n\r\n")"#)
        #expect(noKey.last == "rest the request has no Sec-WebSocket-Key of 16 bytes in base64|")
        let garbage = try await answer(#"send_raw(b"\x16\x03\x01 hello\r\n\r\n")"#)
        #expect(garbage.first == "HTTP/1.1 400 Bad Request")
        // The RFC's sample key gets the RFC's accept value.
        let good = try await answer("handshake()", then: "pass")
        #expect(good.first == "HTTP/1.1 101 Switching Protocols")
        #expect(good.contains("header Sec-WebSocket-Accept: s3pPLMBiTxaQ9kYGzzhZRbK+xOo="))
    }

    @Test func aServerAnswersPingsAndClosesOnUnmaskedFramesWith1002() async throws {
        let (server, task) = try await Self.serve(handler: Self.echo)
        defer { task.cancel() }
        let pinged = try await Self.rawClient(port: server.port, #"""
            handshake(); head()
            send_raw(frame(9, b"are you there"))
            read_frame()
            send_raw(frame(1, b"hi", mask=None))
            read_frame()
            """#)
        let lines = pinged.stdout.split(separator: "\n").filter { $0.hasPrefix("frame") }
        #expect(lines == ["frame 10 \(Data("are you there".utf8).map { String(format: "%02x", $0) }.joined())", "frame 8 03ea"], "\(pinged.stderr)")
    }

    @Test func aMessagePastTheLimitsIsRefused() async throws {
        let limits = WebSocketLimits(maximumMessage: 1000)
        let (server, task) = try await Self.serve(WebSocketServer.Configuration(path: "/ws", limits: limits), handler: Self.echo)
        defer { task.cancel() }
        let client = try await LiveClientTests.bounded { try await WebSocketClient.connect(to: server.url) }
        try await client.send(text: String(repeating: "x", count: 1001))
        await #expect(throws: WebSocketError.closed(code: 1009, reason: "")) { try await LiveClientTests.bounded { try await client.receive() } }
        let tiny = try await Self.rawClient(port: server.port, #"""
            handshake(); head()
            send_raw(frame(1, b"a", fin=False) + frame(0, b"b"))
            read_frame()
            """#)
        #expect(tiny.stdout.hasSuffix("frame 8 03f0\n"), "1008 for a non-final fragment of one byte: \(tiny.stdout)")
    }

    @Test func aClientThatNeverFinishesItsHandshakeIsClosedAfterTheTimeout() async throws {
        let clock = ManualClock()
        let (server, task) = try await Self.serve(WebSocketServer.Configuration(path: "/ws", handshakeTimeout: .seconds(10), clock: clock), handler: Self.echo)
        defer { task.cancel() }
        let directory = try TemporaryDirectory.make(prefix: "tbrd-ws-slow")
        let slow = try TestProcess(try Executables.find("python3", package: "python3"), ["-c", #"""
            import socket, sys
            c = socket.create_connection(("127.0.0.1", int(sys.argv[1])))
            c.sendall(b"GET /ws HTTP/1.1\r\n")
            print("sent", flush=True)
            print("closed" if c.recv(100) == b"" else "data", flush=True)
            """#, String(server.port)], directory: directory)
        try await eventually("the client sent half a head", wakingOn: slow.wakeups) { slow.stdout.contains("sent") }
        try await eventually("the handshake's time limit is running", wakingOn: clock.wakeups) { clock.sleeperCount == 1 }
        clock.advance(by: .seconds(10))
        #expect(try await slow.waitForExit(timeout: .seconds(10)) == 0)
        #expect(slow.stdout.contains("closed"))
    }

    @Test func cancellingRunClosesEveryConnectionAndTheListener() async throws {
        let (server, task) = try await Self.serve(handler: Self.echo)
        let client = try await LiveClientTests.bounded { try await WebSocketClient.connect(to: server.url) }
        try await client.send(text: "a")
        #expect(try await LiveClientTests.bounded { try await client.receive() } == .text("A"))
        task.cancel()
        await task.value
        // The handler's receive was cancelled and its connection closed with 1000.
        await #expect(throws: WebSocketError.closed(code: 1000, reason: "")) { try await LiveClientTests.bounded { try await client.receive() } }
        await #expect(throws: WebSocketError.self) { try await WebSocketClient.connect(to: server.url) }
    }

    @Test func aPortInUseCannotBeListenedOn() async throws {
        let first = try await WebSocketServer.listen(host: "127.0.0.1", port: 0)
        await #expect(throws: WebSocketError.cannotListen("127.0.0.1:\(first.port)", reason: "Address already in use")) {
            try await WebSocketServer.listen(host: "127.0.0.1", port: first.port)
        }
        await first.close()
        let v6 = try await WebSocketServer.listen(host: "::1", port: 0)
        #expect(v6.url.description == "ws://[::1]:\(v6.port)/")
        await v6.close()
    }

    @Test func aServerWithKeepaliveDropsAClientThatStopsReading() async throws {
        let clock = ManualClock()
        let ended = Locked<WebSocketError?>(nil)
        let configuration = WebSocketServer.Configuration(path: "/ws", keepalive: WebSocketKeepalive(clock: clock))
        let (server, task) = try await Self.serve(configuration) { connection in
            do throws(WebSocketError) { _ = try await connection.receive() } catch { ended.withLock { $0 = error } }
        }
        defer { task.cancel() }
        // Our client answers pings only while it receives: this one never does.
        let client = try await LiveClientTests.bounded { try await WebSocketClient.connect(to: server.url) }
        try await eventually("the server's keepalive sleeps", wakingOn: clock.wakeups) { clock.sleeperCount == 1 }
        clock.advance(by: .seconds(10))
        try await eventually("the pong is awaited", wakingOn: clock.wakeups) { clock.sleeperCount == 1 }
        clock.advance(by: .seconds(5))
        try await eventually("the server dropped the client") {
            if case .connectionLost(let why)? = ended.withLock({ $0 }) { return why.hasPrefix("no pong arrived within 5 s of a ping: the client at 127.0.0.1:") }
            return false
        }
        await client.close()
    }
}
