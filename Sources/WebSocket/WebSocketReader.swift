/// What an endpoint receives, once frames are put together.
public enum WebSocketInbound: Hashable, Sendable {
    /// A whole data message.
    case message(WebSocketMessage)
    /// A ping with its payload (the endpoint answers it with a pong).
    case ping([UInt8])
    /// A pong.
    case pong([UInt8])
    /// The peer closes: its status code (nil when it sent none) and reason.
    case close(code: UInt16?, reason: String)
}

/// A data message.
public enum WebSocketMessage: Hashable, Sendable {
    /// A text message (valid UTF-8).
    case text(String)
    /// A binary message.
    case binary([UInt8])
}

/// The peer's byte stream as messages (RFC 6455, sections 5.4–5.6 and 7.4), without I/O: frames from a
/// ``WebSocketFrameParser`` put together. Refused with a ``WebSocketProtocolError``: a continuation
/// with no message to continue, a new message while another is unfinished, a message past one of the
/// ``limits`` (longer than the maximum: status 1009; in more fragments than the maximum, or with a
/// non-final fragment shorter than the minimum: status 1008), text that is not UTF-8 (status 1007), a
/// close frame of one byte, a close status that may not be sent, and a close reason that is not UTF-8.
/// Control frames may arrive between the fragments of a message.
///
/// Fragments are appended to one growing buffer, so reassembly costs time and memory in proportion to
/// the message's bytes, however it is cut.
public struct WebSocketReader: Sendable {
    private var parser: WebSocketFrameParser
    /// The bounds on one message.
    public let limits: WebSocketLimits
    /// The message being reassembled: its opcode, its bytes so far, and how many fragments they came in.
    private var partial: (opcode: WebSocketOpcode, fragments: Int)?
    private var partialPayload: [UInt8] = []
    /// Bytes taken as frames so far (the offset of the next frame), for errors.
    private var offset = 0
    private var failure: WebSocketProtocolError?

    /// A reader for an endpoint in `role` (default: a client reading a server) within `limits`.
    public init(role: WebSocketRole = .client, limits: WebSocketLimits = WebSocketLimits()) {
        self.limits = limits
        self.parser = WebSocketFrameParser(role: role, maximumPayload: max(limits.maximumMessage, WebSocketFrame.maximumControlPayload))
    }

    /// The longest message accepted (``WebSocketLimits/maximumMessage``).
    public var maximumMessage: Int { limits.maximumMessage }

    /// Adds received bytes.
    public mutating func append(_ bytes: some Collection<UInt8>) { parser.append(bytes) }

    /// The next message or control frame, or nil until more bytes arrive.
    /// - Throws: ``WebSocketProtocolError``; after one, every call throws it again.
    public mutating func next() throws(WebSocketProtocolError) -> WebSocketInbound? {
        if let failure { throw failure }
        do {
            while true {
                let before = parser.bufferedCount
                guard let frame = try parser.nextFrame() else { return nil }
                let frameOffset = offset
                offset += before - parser.bufferedCount
                if let inbound = try take(frame, at: frameOffset) { return inbound }
            }
        } catch {
            failure = error
            partial = nil
            partialPayload = []
            throw error
        }
    }

    private mutating func take(_ frame: WebSocketFrame, at offset: Int) throws(WebSocketProtocolError) -> WebSocketInbound? {
        switch frame.opcode {
        case .ping: return .ping(frame.payload)
        case .pong: return .pong(frame.payload)
        case .close: return try close(frame.payload, at: offset)
        case .text, .binary:
            if partial != nil {
                throw WebSocketProtocolError(offset: offset, "a new \(frame.opcode) message starts before the last one ended")
            }
            if frame.payload.count > limits.maximumMessage { throw tooBig(frame.payload.count, at: offset) }
            if frame.isFinal { return .message(try message(frame.opcode, frame.payload, at: offset)) }
            try checkNonFinal(frame, fragments: 1, at: offset)
            partial = (frame.opcode, 1)
            partialPayload = frame.payload
            return nil
        case .continuation:
            guard let (opcode, fragments) = partial else {
                throw WebSocketProtocolError(offset: offset, "a continuation frame continues no message")
            }
            let count = partialPayload.count + frame.payload.count
            if count > limits.maximumMessage { throw tooBig(count, at: offset) }
            if fragments + 1 > limits.maximumFragments {
                throw WebSocketProtocolError(
                    offset: offset, "a message comes in more than the \(limits.maximumFragments) fragments accepted", closeCode: 1008)
            }
            if !frame.isFinal { try checkNonFinal(frame, fragments: fragments + 1, at: offset) }
            partialPayload.append(contentsOf: frame.payload)
            guard frame.isFinal else {
                partial = (opcode, fragments + 1)
                return nil
            }
            let payload = partialPayload
            partial = nil
            partialPayload = []
            return .message(try message(opcode, payload, at: offset))
        }
    }

    /// A non-final fragment must carry at least the minimum.
    private func checkNonFinal(_ frame: WebSocketFrame, fragments: Int, at offset: Int) throws(WebSocketProtocolError) {
        guard frame.payload.count < limits.minimumFragment else { return }
        throw WebSocketProtocolError(
            offset: offset,
            "fragment \(fragments) of a message carries \(frame.payload.count) bytes, fewer than the \(limits.minimumFragment) accepted before the last",
            closeCode: 1008)
    }

    private func tooBig(_ count: Int, at offset: Int) -> WebSocketProtocolError {
        WebSocketProtocolError(offset: offset, "a message of \(count) bytes is longer than the \(limits.maximumMessage) accepted", closeCode: 1009)
    }

    private func message(_ opcode: WebSocketOpcode, _ payload: [UInt8], at offset: Int) throws(WebSocketProtocolError) -> WebSocketMessage {
        guard opcode == .text else { return .binary(payload) }
        guard let text = String(validating: payload, as: UTF8.self) else {
            throw WebSocketProtocolError(offset: offset, "a text message is not valid UTF-8", closeCode: 1007)
        }
        return .text(text)
    }

    private func close(_ payload: [UInt8], at offset: Int) throws(WebSocketProtocolError) -> WebSocketInbound {
        if payload.isEmpty { return .close(code: nil, reason: "") }
        guard payload.count >= 2 else { throw WebSocketProtocolError(offset: offset, "a close frame carries one byte (a status takes two)") }
        let code = UInt16(payload[0]) << 8 | UInt16(payload[1])
        guard Self.isSendable(code) else { throw WebSocketProtocolError(offset: offset, "close status \(code) may not be sent") }
        guard let reason = String(validating: payload.dropFirst(2), as: UTF8.self) else {
            throw WebSocketProtocolError(offset: offset, "a close reason is not valid UTF-8", closeCode: 1007)
        }
        return .close(code: code, reason: reason)
    }

    /// Whether `code` may appear in a close frame (section 7.4): 1000–1003, 1007–1011, 1012–1014 (IANA),
    /// 3000–4999; never 1004–1006 or 1015, nor anything below 1000.
    static func isSendable(_ code: UInt16) -> Bool {
        switch code {
        case 1000...1003, 1007...1014, 3000...4999: true
        default: false
        }
    }
}
