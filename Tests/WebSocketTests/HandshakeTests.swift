import Testing
import WebSocket

/// The opening handshake and `ws://` URLs.
@Suite struct HandshakeTests {
    static let url = try! WebSocketURL("ws://server.example.com/chat")
    /// RFC 6455 section 1.3: the nonce "the sample nonce".
    static let handshake = WebSocketHandshake(url: url, nonce: Array("the sample nonce".utf8))

    static func response(_ lines: [String], then extra: String = "") -> [UInt8] {
        Array((lines.joined(separator: "\r\n") + "\r\n\r\n" + extra).utf8)
    }

    static let good = [
        "HTTP/1.1 101 Switching Protocols", "Upgrade: websocket", "Connection: Upgrade",
        "Sec-WebSocket-Accept: s3pPLMBiTxaQ9kYGzzhZRbK+xOo=",
    ]

    @Test func theRFCsKeyAndAccept() throws {
        #expect(Self.handshake.key == "dGhlIHNhbXBsZSBub25jZQ==")
        #expect(try Self.handshake.expectedAccept() == "s3pPLMBiTxaQ9kYGzzhZRbK+xOo=")
        let request = String(decoding: Self.handshake.request, as: UTF8.self)
        #expect(request.hasPrefix("GET /chat HTTP/1.1\r\nHost: server.example.com\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"))
        #expect(request.contains("\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n"))
        #expect(request.hasSuffix("\r\n\r\n"))
    }

    @Test func aGoodResponseIsAcceptedAndWhatFollowsItIsLeftForTheFrames() throws {
        let bytes = Self.response(Self.good) + [0x81, 0x00]
        #expect(try Self.handshake.acceptResponse(bytes) == bytes.count - 2)
        // Case and spacing of names and values do not matter; Connection may list several tokens.
        let relaxed = Self.response([
            "HTTP/1.1 101 Switching Protocols", "upgrade:WebSocket", "CONNECTION: keep-alive, Upgrade",
            "sec-websocket-accept:   s3pPLMBiTxaQ9kYGzzhZRbK+xOo=", "Date: Sun, 01 Dec 2026 00:00:00 GMT",
        ])
        #expect(try Self.handshake.acceptResponse(relaxed) == relaxed.count)
        // Incomplete: nothing yet, whatever the cut.
        for cut in [0, 10, bytes.count - 5] { #expect(try Self.handshake.acceptResponse(bytes[0..<cut]) == nil) }
    }

    @Test func aBadResponseIsRefusedSayingWhy() {
        func why(_ lines: [String]) -> String? {
            do {
                _ = try Self.handshake.acceptResponse(Self.response(lines))
                return nil
            } catch {
                return error.description
            }
        }
        #expect(why(["HTTP/1.1 404 Not Found", "Content-Length: 0"])
            == "the WebSocket handshake failed: the server answered HTTP 404 Not Found instead of 101 Switching Protocols")
        #expect(why(["HTTP/1.1 101 Switching Protocols", "Upgrade: websocket", "Connection: Upgrade", "Sec-WebSocket-Accept: nope"])?
            .hasSuffix("the server's Sec-WebSocket-Accept does not answer the key sent") == true)
        #expect(why(Self.good + ["Sec-WebSocket-Extensions: permessage-deflate"])?.hasSuffix("an extension the client did not offer") == true)
        #expect(why(["HTTP/1.1 101 Switching Protocols", "Connection: Upgrade"])?.hasSuffix("Upgrade header is not websocket") == true)
        #expect(why(["SSH-2.0-OpenSSH_9.2"])?.contains("did not answer with an HTTP/1.1 status line (\"SSH-2.0-OpenSSH_9.2\")") == true)
        #expect(why(["HTTP/1.1 101 x", "no colon here"])?.contains("malformed") == true)
        // An endless head is refused once it passes the limit.
        let endless = Array(("HTTP/1.1 101 OK\r\n" + String(repeating: "X-A: b\r\n", count: 3000)).utf8)
        #expect(throws: WebSocketError.self) { try Self.handshake.acceptResponse(endless) }
    }

    @Test func urls() throws {
        let plain = try WebSocketURL("ws://127.0.0.1:5580/ws")
        #expect(plain.host == "127.0.0.1" && plain.port == 5580 && plain.path == "/ws" && plain.hostHeader == "127.0.0.1:5580")
        let v6 = try WebSocketURL("ws://[::1]:5580/ws")
        #expect(v6.host == "::1" && v6.hostHeader == "[::1]:5580" && v6.description == "ws://[::1]:5580/ws")
        let bare = try WebSocketURL("ws://localhost")
        #expect(bare.port == 80 && bare.path == "/" && bare.hostHeader == "localhost")
        #expect(try WebSocketURL("ws://h:1?x=1").path == "/?x=1")
        for bad in ["wss://h/ws", "http://h/", "ws://", "ws://h:0/", "ws://h:70000/", "ws://u@h/", "ws://[::1/", "ws://h h/"] {
            #expect(throws: WebSocketError.self, "\(bad)") { try WebSocketURL(bad) }
        }
        #expect(throws: WebSocketError.invalidURL(
            "wss://h/ws", reason: "wss:// (TLS) is not supported; use ws:// to a commissioner on this host or a trusted LAN")) {
            try WebSocketURL("wss://h/ws")
        }
    }
}
