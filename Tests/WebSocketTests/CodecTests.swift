import TBRTestKit
import Testing
import WebSocket

/// The frame codec against RFC 6455's own examples (section 5.7), round trips, drip-feeding and
/// truncation, and every rule a client must enforce on what a server sends.
@Suite struct CodecTests {
    static let hello = Array("Hello".utf8)

    /// Limits that let the RFC's examples through: they fragment after 3 bytes, below the default
    /// minimum of a non-final fragment (``ReassemblyTests`` covers the defaults).
    static func limits(_ maximumMessage: Int = 1 << 20) -> WebSocketLimits {
        WebSocketLimits(maximumMessage: maximumMessage, minimumFragment: 1)
    }

    /// Everything `bytes` holds, fed at once.
    static func read(_ bytes: [UInt8], maximumMessage: Int = 1 << 20) throws -> [WebSocketInbound] {
        var reader = WebSocketReader(limits: limits(maximumMessage))
        reader.append(bytes)
        var out: [WebSocketInbound] = []
        while let next = try reader.next() { out.append(next) }
        #expect(try reader.next() == nil)
        return out
    }

    /// Everything `bytes` holds, fed one byte at a time.
    static func drip(_ bytes: [UInt8]) throws -> [WebSocketInbound] {
        var reader = WebSocketReader(limits: limits())
        var out: [WebSocketInbound] = []
        for byte in bytes {
            reader.append([byte])
            while let next = try reader.next() { out.append(next) }
        }
        return out
    }

    /// The protocol error `bytes` cause.
    static func failure(_ bytes: [UInt8], maximumMessage: Int = 1 << 20) -> WebSocketProtocolError? {
        do {
            _ = try read(bytes, maximumMessage: maximumMessage)
            return nil
        } catch {
            return error as? WebSocketProtocolError
        }
    }

    @Test func theRFCsExamplesDecode() throws {
        #expect(try Self.read([0x81, 0x05] + Self.hello) == [.message(.text("Hello"))])
        // A fragmented message, "Hel" then "lo", with a ping between the fragments.
        let fragmented: [UInt8] = [0x01, 0x03, 0x48, 0x65, 0x6c, 0x89, 0x05] + Self.hello + [0x80, 0x02, 0x6c, 0x6f]
        #expect(try Self.read(fragmented) == [.ping(Self.hello), .message(.text("Hello"))])
        #expect(try Self.drip(fragmented) == [.ping(Self.hello), .message(.text("Hello"))])
        let binary256 = [UInt8](repeating: 7, count: 256)
        #expect(try Self.read([0x82, 0x7E, 0x01, 0x00] + binary256) == [.message(.binary(binary256))])
        let binary64k = [UInt8](repeating: 9, count: 65536)
        #expect(try Self.read([0x82, 0x7F, 0, 0, 0, 0, 0, 1, 0, 0] + binary64k) == [.message(.binary(binary64k))])
        #expect(try Self.read([0x8A, 0x00, 0x88, 0x02, 0x03, 0xE8]) == [.pong([]), .close(code: 1000, reason: "")])
    }

    @Test func aClientMasksAsTheRFCShows() {
        let frame = WebSocketFrame(opcode: .text, payload: Self.hello)
        #expect(frame.encoded(maskingKey: [0x37, 0xFA, 0x21, 0x3D]) == [0x81, 0x85, 0x37, 0xFA, 0x21, 0x3D, 0x7F, 0x9F, 0x4D, 0x51, 0x58])
        let pong = WebSocketFrame(opcode: .pong, payload: Self.hello)
        #expect(pong.encoded(maskingKey: [0x37, 0xFA, 0x21, 0x3D]).prefix(2) == [0x8A, 0x85])
    }

    @Test(arguments: [0, 1, 125, 126, 127, 65535, 65536, 70000])
    func everyLengthFormRoundTrips(count: Int) throws {
        let payload = (0..<count).map { UInt8(truncatingIfNeeded: $0 &* 31) }
        let frame = WebSocketFrame(opcode: .binary, payload: payload)
        var parser = WebSocketFrameParser()
        let wire = frame.encoded(maskingKey: nil)
        // Every proper prefix is incomplete, never an error.
        for cut in [0, 1, 2, 3, wire.count / 2, wire.count - 1] where cut < wire.count && cut >= 0 {
            var partial = WebSocketFrameParser()
            partial.append(wire[0..<cut])
            #expect(try partial.nextFrame() == nil)
        }
        parser.append(wire)
        #expect(try parser.nextFrame() == frame)
        #expect(try parser.nextFrame() == nil)
        // Masked by a client and unmasked by hand: the same payload.
        let masked = frame.encoded(maskingKey: [1, 2, 3, 4])
        let header = masked.count - count - 4
        let unmasked = masked[(header + 4)...].enumerated().map { $0.element ^ [1, 2, 3, 4][$0.offset & 3] }
        #expect(unmasked == payload)
    }

    @Test func whatAServerMustNotSendIsRefusedWithItsOffset() {
        let ok: [UInt8] = [0x81, 0x02, 0x68, 0x69]  // "hi", 4 bytes: the next frame starts at offset 4
        func problem(_ bytes: [UInt8], max: Int = 1 << 20) -> (Int, UInt16, String)? {
            Self.failure(ok + bytes, maximumMessage: max).map { ($0.offset, $0.closeCode, $0.problem) }
        }
        #expect(problem([0xC1, 0x00])?.2 == "a reserved bit is set (no extension was negotiated)")
        #expect(problem([0x83, 0x00])?.2 == "opcode 3 is reserved")
        #expect(problem([0x81, 0x81, 1, 2, 3, 4, 5])?.2 == "the frame is masked, which a server must never do")
        #expect(problem([0x82, 0x7E, 0x00, 0x05])?.2 == "a length of 5 is given in 16 bits instead of 7")
        #expect(problem([0x82, 0x7F, 0, 0, 0, 0, 0, 0, 0xFF, 0xFF])?.2 == "a length of 65535 is given in 64 bits instead of 16 or 7")
        #expect(problem([0x82, 0x7F, 0x80, 0, 0, 0, 0, 0, 0, 0])?.2 == "the 64-bit length has its top bit set")
        #expect(problem([0x09, 0x00])?.2 == "a ping frame is fragmented")
        #expect(problem([0x89, 0x7E, 0x00, 0x7E])?.2 == "a ping frame carries 126 bytes (at most 125)")
        #expect(problem([0x80, 0x00])?.2 == "a continuation frame continues no message")
        #expect(problem([0x01, 0x01, 0x61, 0x81, 0x00])?.2 == "a new text message starts before the last one ended")
        #expect(problem([0x88, 0x01, 0x03])?.2 == "a close frame carries one byte (a status takes two)")
        #expect(problem([0x88, 0x02, 0x03, 0xED])?.2 == "close status 1005 may not be sent")
        let badText = problem([0x81, 0x02, 0xC3, 0x28])
        #expect(badText?.0 == 4 && badText?.1 == 1007 && badText?.2 == "a text message is not valid UTF-8")
        let tooBig = problem([0x82, 0x7E, 0x01, 0x00] + [UInt8](repeating: 0, count: 256), max: 200)
        #expect(tooBig?.0 == 4 && tooBig?.1 == 1009)
        let tooBigInParts = problem([0x02, 0x64] + [UInt8](repeating: 0, count: 100) + [0x80, 0x7E, 0x00, 0x80] + [UInt8](repeating: 0, count: 128), max: 200)
        #expect(tooBigInParts?.0 == 106 && tooBigInParts?.1 == 1009)
        // A hostile length is refused from its header alone, before any payload is buffered.
        var parser = WebSocketFrameParser(maximumPayload: 1000)
        parser.append([0x82, 0x7F, 0x7F, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF])
        #expect(throws: WebSocketProtocolError.self) { try parser.nextFrame() }
        // After an error the stream stays failed.
        #expect(throws: WebSocketProtocolError.self) { try parser.nextFrame() }
    }

    @Test func closeFramesCarryTheirStatusAndReason() throws {
        #expect(try Self.read([0x88, 0x00]) == [.close(code: nil, reason: "")])
        #expect(try Self.read([0x88, 0x03, 0x03, 0xE9] + Array("b".utf8)) == [.close(code: 1001, reason: "b")])
        #expect(try Self.read([0x88, 0x02, 0x0F, 0xA0]) == [.close(code: 4000, reason: "")])
    }
}
