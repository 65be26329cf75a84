/// One WebSocket frame (RFC 6455, section 5.2), unmasked: what the parser yields and what the client
/// encodes (masked, as a client must).
public struct WebSocketFrame: Hashable, Sendable {
    /// Whether this is the last frame of its message.
    public var isFinal: Bool
    /// The opcode.
    public var opcode: WebSocketOpcode
    /// The payload (unmasked).
    public var payload: [UInt8]

    /// A frame as given.
    public init(isFinal: Bool = true, opcode: WebSocketOpcode, payload: [UInt8]) {
        self.isFinal = isFinal
        self.opcode = opcode
        self.payload = payload
    }

    /// The largest payload of a control frame.
    public static let maximumControlPayload = 125

    /// The frame on the wire. A client masks every frame with a fresh 4-byte key (section 5.3); a
    /// server (and the tests, playing one) sends it unmasked (`maskingKey` nil). Lengths use the
    /// shortest form (7, 16 or 64 bits).
    public func encoded(maskingKey: [UInt8]?) -> [UInt8] {
        precondition(maskingKey == nil || maskingKey!.count == 4, "a masking key is 4 bytes")
        var out: [UInt8] = []
        out.reserveCapacity(payload.count + 14)
        out.append((isFinal ? 0x80 : 0) | opcode.rawValue)
        let mask: UInt8 = maskingKey == nil ? 0 : 0x80
        let count = payload.count
        if count < 126 {
            out.append(mask | UInt8(count))
        } else if count <= 0xFFFF {
            out.append(mask | 126)
            out.append(UInt8(count >> 8))
            out.append(UInt8(count & 0xFF))
        } else {
            out.append(mask | 127)
            for shift in stride(from: 56, through: 0, by: -8) { out.append(UInt8((UInt64(count) >> UInt64(shift)) & 0xFF)) }
        }
        if let key = maskingKey {
            out.append(contentsOf: key)
            for (i, byte) in payload.enumerated() { out.append(byte ^ key[i & 3]) }
        } else {
            out.append(contentsOf: payload)
        }
        return out
    }
}
