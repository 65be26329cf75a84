import Testing
import WebSocket

/// Messages in fragments, under the default ``WebSocketLimits``: reassembled the same whether the bytes
/// come at once, one at a time or cut anywhere; refused, with the status the limits name, when a peer
/// sends too many, too small or too big fragments; and, on a server, only when masked.
@Suite struct ReassemblyTests {
    /// `payload` as a message of `count` fragments (the last takes the remainder), with a ping after
    /// every fragment when `pings`; masked with `key` when given (a client's frames).
    static func fragmented(_ payload: [UInt8], into count: Int, opcode: WebSocketOpcode = .text, pings: Bool = false, key: [UInt8]? = nil)
        -> [UInt8]
    {
        let size = payload.count / count
        var out: [UInt8] = []
        for i in 0..<count {
            let part = Array(payload[(i * size)..<(i == count - 1 ? payload.count : (i + 1) * size)])
            let frame = WebSocketFrame(isFinal: i == count - 1, opcode: i == 0 ? opcode : .continuation, payload: part)
            out += frame.encoded(maskingKey: key)
            if pings, i < count - 1 { out += WebSocketFrame(opcode: .ping, payload: [UInt8(i & 0xFF)]).encoded(maskingKey: key) }
        }
        return out
    }

    /// What a reader in `role` makes of `bytes` fed in pieces of `piece` bytes: the items and the error.
    static func read(_ bytes: [UInt8], piece: Int = .max, role: WebSocketRole = .client, limits: WebSocketLimits = WebSocketLimits())
        -> (items: [WebSocketInbound], error: WebSocketProtocolError?)
    {
        var reader = WebSocketReader(role: role, limits: limits)
        var items: [WebSocketInbound] = []
        var index = 0
        repeat {
            let end = min(bytes.count, index &+ piece)
            reader.append(bytes[index..<end])
            index = end
            do {
                while let next = try reader.next() { items.append(next) }
            } catch {
                return (items, error)
            }
        } while index < bytes.count
        return (items, nil)
    }

    static let text = Array(String(repeating: "0123456789abcdef€", count: 2000).utf8)

    @Test func aMessageOfAHundredFragmentsWithPingsBetweenIsReassembledWholeDripFedOrCut() {
        let bytes = Self.fragmented(Self.text, into: 100, pings: true)
        let expected: [WebSocketInbound] = (0..<99).map { .ping([UInt8($0)]) } + [.message(.text(String(decoding: Self.text, as: UTF8.self)))]
        let whole = Self.read(bytes)
        #expect(whole.error == nil)
        #expect(whole.items == expected)
        let drip = Self.read(bytes, piece: 1)
        #expect(drip.error == nil && drip.items == expected)
        for piece in [2, 3, 7, 255, 4096] { #expect(Self.read(bytes, piece: piece).items == expected, "pieces of \(piece)") }
    }

    @Test func aTruncatedMessageIsNeverAnErrorNorAMessage() {
        let bytes = Self.fragmented(Array(Self.text.prefix(3000)), into: 10, opcode: .binary)
        for cut in stride(from: 0, to: bytes.count, by: 97) {
            let partial = Self.read(Array(bytes[0..<cut]))
            #expect(partial.error == nil, "cut at \(cut)")
            #expect(!partial.items.contains { if case .message = $0 { true } else { false } }, "cut at \(cut)")
        }
        #expect(Self.read(bytes).items == [.message(.binary(Array(Self.text.prefix(3000))))])
    }

    @Test func manyTinyFragmentsAreRefusedAtTheFirstWithPolicyViolation() {
        // 10,000 fragments of one byte: before the limits, accepted (and copied 10,000 times).
        let bytes = Self.fragmented(Array(Self.text.prefix(10_000)), into: 10_000)
        let outcome = Self.read(bytes)
        #expect(outcome.items.isEmpty)
        #expect(outcome.error?.closeCode == 1008)
        #expect(outcome.error?.offset == 0)
        #expect(outcome.error?.problem == "fragment 1 of a message carries 1 bytes, fewer than the 256 accepted before the last")
        // The last fragment may be short, even empty.
        let shortLast = WebSocketFrame(isFinal: false, opcode: .text, payload: Array(Self.text.prefix(256))).encoded(maskingKey: nil)
            + WebSocketFrame(isFinal: true, opcode: .continuation, payload: []).encoded(maskingKey: nil)
        #expect(Self.read(shortLast).items == [.message(.text(String(decoding: Self.text.prefix(256), as: UTF8.self)))])
    }

    @Test func aMessageInMoreFragmentsThanTheMaximumIsRefused() {
        let limits = WebSocketLimits(maximumFragments: 8, minimumFragment: 4)
        let ok = Self.fragmented(Array(Self.text.prefix(64)), into: 8)
        #expect(Self.read(ok, limits: limits).items.count == 1)
        let tooMany = Self.fragmented(Array(Self.text.prefix(72)), into: 9)
        let outcome = Self.read(tooMany, limits: limits)
        #expect(outcome.error?.closeCode == 1008)
        #expect(outcome.error?.problem == "a message comes in more than the 8 fragments accepted")
        #expect(outcome.error?.offset == 8 * 10)  // eight frames of 2 + 8 bytes before the ninth
        // The default maximum, 4096: one more is refused.
        let defaults = Self.read(Self.fragmented([UInt8](repeating: 0x61, count: 4097 * 256), into: 4097))
        #expect(defaults.error?.problem == "a message comes in more than the 4096 fragments accepted")
    }

    @Test func aMessageLongerThanTheMaximumIsRefusedWithTooBigAsItsFragmentsArrive() {
        let limits = WebSocketLimits(maximumMessage: 1000)
        let bytes = Self.fragmented([UInt8](repeating: 0x62, count: 1500), into: 5, opcode: .binary)
        let outcome = Self.read(bytes, piece: 1, limits: limits)
        #expect(outcome.error?.closeCode == 1009)
        #expect(outcome.error?.problem == "a message of 1200 bytes is longer than the 1000 accepted")
    }

    @Test func aServerTakesOnlyMaskedFramesAndUnmasksThem() {
        let key: [UInt8] = [0xA1, 0x02, 0xF3, 0x44]
        let bytes = Self.fragmented(Self.text, into: 20, pings: true, key: key)
        let served = Self.read(bytes, piece: 5, role: .server)
        #expect(served.error == nil)
        #expect(served.items.last == .message(.text(String(decoding: Self.text, as: UTF8.self))))
        #expect(served.items.count == 20)
        // The same frames unmasked: refused at the first (RFC 6455, section 5.1).
        let unmasked = Self.read(Self.fragmented(Self.text, into: 20), role: .server)
        #expect(unmasked.error == WebSocketProtocolError(offset: 0, "the frame is not masked, which a client must always do"))
        // And a client refuses the masked ones.
        #expect(Self.read(bytes, role: .client).error?.problem == "the frame is masked, which a server must never do")
    }

    @Test func aMaskedFrameParsesToItsPayloadWhateverItsLength() throws {
        for count in [0, 1, 3, 4, 5, 125, 126, 65535, 65536] {
            let payload = (0..<count).map { UInt8(truncatingIfNeeded: $0 &* 7) }
            let frame = WebSocketFrame(opcode: .binary, payload: payload)
            var parser = WebSocketFrameParser(role: .server)
            parser.append(frame.encoded(maskingKey: [9, 8, 7, 6]))
            #expect(try parser.nextFrame() == frame, "\(count) bytes")
        }
    }
}
