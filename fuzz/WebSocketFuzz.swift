// libFuzzer target for the WebSocket client's parsers of what a server sends (fuzz/run.sh websocket
// SECONDS): the frame parser, the message reader and the handshake response parser.
//
// Oracles, beyond "never crash": the reader gives the same messages and the same error (at the same
// offset) whether the bytes come at once or in pieces; a frame that parses re-encodes to the bytes it
// came from (lengths are minimal, so the encoding is unique); a text message is valid UTF-8; an error,
// once thrown, is thrown again; the handshake parser never reports more bytes than it was given.
import WebSocket

@_cdecl("LLVMFuzzerTestOneInput")
public func webSocketFuzz(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let bytes = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
    guard let first = bytes.first else { return 0 }
    let stream = Array(bytes.dropFirst())

    // All at once, and in pieces whose size comes from the first byte.
    let whole = read(stream, piece: stream.count + 1)
    let pieces = read(stream, piece: Int(first % 17) + 1)
    if whole.inbound != pieces.inbound || whole.error != pieces.error {
        fatalError("the reader depends on how the bytes are split")
    }
    for case .message(.text(let text)) in whole.inbound where String(validating: Array(text.utf8), as: UTF8.self) == nil {
        fatalError("a text message is not UTF-8")
    }

    // Frames re-encode to their bytes.
    var parser = WebSocketFrameParser(maximumPayload: 1 << 16)
    parser.append(stream)
    var encoded: [UInt8] = []
    while let frame = try? parser.nextFrame() { encoded += frame.encoded(maskingKey: nil) }
    if encoded != Array(stream.prefix(encoded.count)) { fatalError("a frame does not re-encode to its bytes") }

    // The handshake response parser.
    let handshake = WebSocketHandshake(url: try! WebSocketURL("ws://127.0.0.1:5580/ws"), nonce: Array(repeating: first, count: 16))
    if let used = try? handshake.acceptResponse(stream), used > stream.count || used <= 0 {
        fatalError("the handshake took bytes it was not given")
    }
    _ = try? HTTPResponseHead(parsing: stream, limit: 512)
    _ = try? WebSocketURL(String(decoding: stream, as: UTF8.self))
    return 0
}

/// What the reader makes of `stream` fed `piece` bytes at a time: the inbound items and the error.
func read(_ stream: [UInt8], piece: Int) -> (inbound: [WebSocketInbound], error: WebSocketProtocolError?) {
    var reader = WebSocketReader(maximumMessage: 1 << 16)
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
