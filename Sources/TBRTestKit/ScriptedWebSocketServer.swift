import Foundation

/// A WebSocket server scripted in Python (its standard library writes the frames byte for byte), for
/// tests of clients: the script given runs after a prelude that listens on a free loopback port (printed
/// as the first line of its output), accepts one client and reads its opening handshake. The script
/// then has `c` (the socket), `accept` (the right `Sec-WebSocket-Accept`), `hello` (a complete 101
/// response), `frame(op, payload, fin=True, mask=None)`, `recv_exact(n)` and `read_frame()` (which
/// prints `frame OP masked|unmasked HEX` and returns the opcode and the unmasked payload).
public enum ScriptedWebSocketServer {
    /// The prelude every script runs after.
    public static let prelude = #"""
        import base64, hashlib, json, socket, struct, sys, time
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
        """#

    /// Starts `script` (after the ``prelude``) with `arguments` in `sys.argv[1...]`, and returns it with
    /// the port it listens on.
    public static func start(_ script: String, arguments: [String] = []) async throws -> (TestProcess, UInt16) {
        let directory = try TemporaryDirectory.make(prefix: "tbrd-ws")
        let python = try Executables.find("python3", package: "python3")
        let process = try TestProcess(python, ["-c", prelude + "\n" + script] + arguments, directory: directory)
        var port: UInt16?
        try await eventually("the scripted server listens", timeout: .seconds(20), wakingOn: process.wakeups) {
            guard process.isRunning || !process.stdout.isEmpty else { throw TestKitError("the server exited: \(process.stderr)") }
            port = process.stdout.split(separator: "\n").first.flatMap { UInt16($0) }
            return port != nil
        }
        return (process, port!)
    }
}
