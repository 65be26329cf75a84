/// Splits the bytes the peer sends into frames (RFC 6455, section 5.2), without I/O: append bytes as
/// they arrive, take frames while there are whole ones. Everything an endpoint in ``role`` must refuse
/// is refused with a ``WebSocketProtocolError`` naming the frame's offset: a reserved bit or opcode, a
/// frame masked the wrong way for the role (a server never masks, a client always does: section 5.1),
/// a length in more bytes than needed or with its top bit set, a control frame that is fragmented or
/// longer than 125 bytes, and a frame longer than ``maximumPayload``. A payload is only buffered once
/// its header has been accepted, so a hostile length cannot make it allocate. A client's frames are
/// unmasked on the way out of the parser.
public struct WebSocketFrameParser: Sendable {
    /// The role of this side: a `.client` parses what a server sends, a `.server` what a client sends.
    public let role: WebSocketRole
    /// The longest payload accepted in one frame.
    public let maximumPayload: Int
    private var buffer: [UInt8] = []
    private var start = 0
    /// The stream offset of `buffer[0]`.
    private var base = 0
    /// Set once an error was thrown: the stream cannot be resynchronised, so every later call throws it.
    private var failure: WebSocketProtocolError?

    /// A parser for an endpoint in `role` (default: a client reading a server) accepting frames of up
    /// to `maximumPayload` bytes (default 16 MiB).
    public init(role: WebSocketRole = .client, maximumPayload: Int = 16 << 20) {
        precondition(maximumPayload >= WebSocketFrame.maximumControlPayload)
        self.role = role
        self.maximumPayload = maximumPayload
    }

    /// Bytes received and not yet taken as frames.
    public var bufferedCount: Int { buffer.count - start }

    /// Adds received bytes.
    public mutating func append(_ bytes: some Collection<UInt8>) {
        if start > 0, start >= buffer.count / 2 {
            buffer.removeFirst(start)
            base += start
            start = 0
        }
        buffer.append(contentsOf: bytes)
    }

    /// The next whole frame, or nil until more bytes arrive.
    /// - Throws: ``WebSocketProtocolError``; after one, every call throws it again.
    public mutating func nextFrame() throws(WebSocketProtocolError) -> WebSocketFrame? {
        if let failure { throw failure }
        do {
            return try parse()
        } catch {
            failure = error
            throw error
        }
    }

    private mutating func parse() throws(WebSocketProtocolError) -> WebSocketFrame? {
        let available = buffer.count - start
        guard available >= 2 else { return nil }
        let offset = base + start
        let b0 = buffer[start], b1 = buffer[start + 1]
        if b0 & 0x70 != 0 { throw WebSocketProtocolError(offset: offset, "a reserved bit is set (no extension was negotiated)") }
        guard let opcode = WebSocketOpcode(rawValue: b0 & 0x0F) else {
            throw WebSocketProtocolError(offset: offset, "opcode \(b0 & 0x0F) is reserved")
        }
        let isFinal = b0 & 0x80 != 0
        let isMasked = b1 & 0x80 != 0
        switch role {
        case .client where isMasked:
            throw WebSocketProtocolError(offset: offset, "the frame is masked, which a server must never do")
        case .server where !isMasked:
            throw WebSocketProtocolError(offset: offset, "the frame is not masked, which a client must always do")
        default: break
        }
        var headerLength = 2
        var length = UInt64(b1 & 0x7F)
        if length == 126 {
            guard available >= 4 else { return nil }
            length = UInt64(buffer[start + 2]) << 8 | UInt64(buffer[start + 3])
            headerLength = 4
            if length < 126 { throw WebSocketProtocolError(offset: offset, "a length of \(length) is given in 16 bits instead of 7") }
        } else if length == 127 {
            guard available >= 10 else { return nil }
            length = 0
            for i in 0..<8 { length = length << 8 | UInt64(buffer[start + 2 + i]) }
            headerLength = 10
            if length >> 63 != 0 { throw WebSocketProtocolError(offset: offset, "the 64-bit length has its top bit set") }
            if length <= 0xFFFF { throw WebSocketProtocolError(offset: offset, "a length of \(length) is given in 64 bits instead of 16 or 7") }
        }
        if opcode.isControl {
            if !isFinal { throw WebSocketProtocolError(offset: offset, "a \(opcode) frame is fragmented") }
            if length > UInt64(WebSocketFrame.maximumControlPayload) {
                throw WebSocketProtocolError(offset: offset, "a \(opcode) frame carries \(length) bytes (at most 125)")
            }
        }
        if length > UInt64(maximumPayload) {
            throw WebSocketProtocolError(
                offset: offset, "a frame of \(length) bytes is longer than the \(maximumPayload) accepted", closeCode: 1009)
        }
        let keyLength = isMasked ? 4 : 0
        let total = headerLength + keyLength + Int(length)
        guard available >= total else { return nil }
        var payload = Array(buffer[(start + headerLength + keyLength)..<(start + total)])
        if isMasked {
            let k = start + headerLength
            let key = (buffer[k], buffer[k + 1], buffer[k + 2], buffer[k + 3])
            payload.withUnsafeMutableBufferPointer { bytes in
                for i in bytes.indices {
                    switch i & 3 {
                    case 0: bytes[i] ^= key.0
                    case 1: bytes[i] ^= key.1
                    case 2: bytes[i] ^= key.2
                    default: bytes[i] ^= key.3
                    }
                }
            }
        }
        start += total
        return WebSocketFrame(isFinal: isFinal, opcode: opcode, payload: payload)
    }
}
