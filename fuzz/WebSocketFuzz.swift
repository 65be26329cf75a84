// libFuzzer target for the WebSocket parsers of what a peer sends (fuzz/run.sh websocket SECONDS): the
// frame parser and the message reader in both roles (a client reading a server, a server reading a
// client's masked frames), the handshake response parser (client side) and the request parser and
// handshake answer (server side).
//
// Oracles, beyond "never crash": the reader gives the same messages and the same error (at the same
// offset) whether the bytes come at once or in pieces; it never returns a message longer than its
// limit; a frame that parses re-encodes to the bytes it came
// from (lengths are minimal, so the encoding is unique; a client's frame with the key it came with); a
// text message is valid UTF-8; an error, once thrown, is thrown again; the handshake parsers never
// report more bytes than they were given; a request answered 101 carries the accept value of its key.
import WebSocket

/// Small limits, so that the fuzzer reaches them.
let limits = WebSocketLimits(maximumMessage: 1 << 12, maximumFragments: 16, minimumFragment: 4)

@_cdecl("LLVMFuzzerTestOneInput")
public func webSocketFuzz(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let bytes = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
    guard let first = bytes.first else { return 0 }
    let stream = Array(bytes.dropFirst())

    for role in [WebSocketRole.client, .server] {
        // All at once, and in pieces whose size comes from the first byte.
        let whole = read(stream, piece: stream.count + 1, role: role)
        let pieces = read(stream, piece: Int(first % 17) + 1, role: role)
        if whole.inbound != pieces.inbound || whole.error != pieces.error {
            fatalError("the \(role) reader depends on how the bytes are split")
        }
        for case .message(let message) in whole.inbound {
            switch message {
            case .text(let text):
                if String(validating: Array(text.utf8), as: UTF8.self) == nil { fatalError("a text message is not UTF-8") }
                if text.utf8.count > limits.maximumMessage { fatalError("a text message passes the limit") }
            case .binary(let payload):
                if payload.count > limits.maximumMessage { fatalError("a binary message passes the limit") }
            }
        }

        // Frames re-encode to their bytes (a client's with the key read from its header).
        var parser = WebSocketFrameParser(role: role, maximumPayload: 1 << 16)
        parser.append(stream)
        var offset = 0
        while true {
            let before = parser.bufferedCount
            guard let frame = try? parser.nextFrame() else { break }
            let length = before - parser.bufferedCount
            let key = role == .server ? Array(stream[(offset + length - frame.payload.count - 4)..<(offset + length - frame.payload.count)]) : nil
            if frame.encoded(maskingKey: key) != Array(stream[offset..<(offset + length)]) { fatalError("a frame does not re-encode to its bytes") }
            offset += length
        }
    }

    // The handshake parsers.
    let handshake = WebSocketHandshake(url: try! WebSocketURL("ws://127.0.0.1:5580/ws"), nonce: Array(repeating: first, count: 16))
    if let used = try? handshake.acceptResponse(stream), used > stream.count || used <= 0 {
        fatalError("the handshake took bytes it was not given")
    }
    _ = try? HTTPResponseHead(parsing: stream, limit: 512)
    if let request = try? HTTPRequestHead(parsing: stream, limit: 512) {
        if request.length > stream.count || request.length <= 0 { fatalError("the request head took bytes it was not given") }
        if case .accept(let response) = WebSocketServerHandshake.answer(request, path: first & 1 == 0 ? "/ws" : nil) {
            guard let key = request.value(of: "sec-websocket-key"),
                let expected = try? WebSocketServerHandshake.accept(forKey: key),
                String(decoding: response, as: UTF8.self).contains("\r\nSec-WebSocket-Accept: \(expected)\r\n")
            else { fatalError("a request was accepted without the accept value of its key") }
        }
    }
    _ = try? WebSocketURL(String(decoding: stream, as: UTF8.self))
    return 0
}

/// What a reader in `role` makes of `stream` fed `piece` bytes at a time: the inbound items and the error.
func read(_ stream: [UInt8], piece: Int, role: WebSocketRole) -> (inbound: [WebSocketInbound], error: WebSocketProtocolError?) {
    var reader = WebSocketReader(role: role, limits: limits)
    var out: [WebSocketInbound] = []
    var index = 0
    repeat {
        let end = min(stream.count, index + piece)
        reader.append(stream[index..<end])
        index = end
        do {
            while let next = try reader.next() { out.append(next) }
        } catch {
            _ = error.description
            do {
                _ = try reader.next()
                fatalError("an error was not thrown again")
            } catch let again {
                if again != error { fatalError("a different error was thrown again") }
            }
            return (out, error)
        }
    } while index < stream.count
    return (out, nil)
}
